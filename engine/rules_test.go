package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// diagram builds a game from an ASCII board (see enginetest.Diagram), one
// row an argument, with toPlay to move. The board may hold a chain without
// a liberty, as an SGF set-up may.
func diagram(t *testing.T, rules Rules, toPlay Color, rows ...string) *Game {
	t.Helper()
	return enginetest.Game(t, strings.Join(rows, "\n"), enginetest.Rules(rules), enginetest.ToPlay(toPlay), enginetest.AllowNoLiberty())
}

// board builds the board an ASCII diagram draws, one row an argument, for
// comparisons.
func board(t *testing.T, rows ...string) *Board {
	t.Helper()
	return enginetest.Board(t, strings.Join(rows, "\n"))
}

func TestCaptures(t *testing.T) {
	simple := Presets["simple"]
	tests := []struct {
		name   string
		before []string
		toPlay Color
		move   string
		after  []string
		caps   int
	}{
		{"corner", []string{
			". . . . .",
			". . . . .",
			". . . . .",
			"O . . . .",
			"X . . . ."}, White, "B1", []string{
			".....",
			".....",
			".....",
			"O....",
			".O..."}, 1},
		{"edge two stones", []string{
			". . . . .",
			". . . . .",
			". O O . .",
			"O X X . .",
			". O O . ."}, White, "D2", []string{
			".....",
			".....",
			".OO..",
			"O..O.",
			".OO.."}, 2},
		{"two groups at once", []string{
			". . . . .",
			". O . . .",
			"O X O . .",
			"X . X O .",
			"O X O . ."}, White, "B2", []string{
			".....",
			".O...",
			"O.O..",
			".O.O.",
			"O.O.."}, 4},
		{"suicide that captures", []string{
			". . . . .",
			"O . . . .",
			"X O . . .",
			". X O . .",
			"X O . . ."}, White, "A2", []string{
			".....",
			"O....",
			".O...",
			"O.O..",
			".O..."}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := diagram(t, simple, tt.toPlay, tt.before...)
			m, err := ParseMove(tt.toPlay, tt.move, g.Size())
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("Play(%s) = %v, want nil", tt.move, err)
			}
			if got, want := g.Board().String(), board(t, tt.after...).String(); got != want {
				t.Errorf("after %s:\n%s\nwant\n%s", tt.move, got, want)
			}
			if got := g.Captures(tt.toPlay); got != tt.caps {
				t.Errorf("Captures(%v) = %d, want %d", tt.toPlay, got, tt.caps)
			}
		})
	}
}

func TestSnapback(t *testing.T) {
	g := diagram(t, Presets["chinese"], Black,
		". . . . .",
		". . . . .",
		"X X . . .",
		"O O X . .",
		". . X . .")
	enginetest.Play(t, g, "B A1", "W B1", "B A1")
	want := board(t,
		".....",
		".....",
		"XX...",
		"..X..",
		"X.X..").String()
	if got := g.Board().String(); got != want {
		t.Errorf("after snapback:\n%s\nwant\n%s", got, want)
	}
	if g.Captures(Black) != 3 || g.Captures(White) != 1 {
		t.Errorf("captures B %d W %d, want 3 and 1", g.Captures(Black), g.Captures(White))
	}
}

// koGame has a ko at B3/C3: White takes at B3, Black may not retake at C3
// at once.
func koGame(t *testing.T, rules Rules) *Game {
	g := diagram(t, rules, White,
		". . . . .",
		". X O . .",
		"X . X O .",
		". X O . .",
		". . . . .")
	enginetest.Play(t, g, "W B3")
	return g
}

func TestKo(t *testing.T) {
	for _, name := range PresetNames {
		rules := Presets[name]
		t.Run(name, func(t *testing.T) {
			g := koGame(t, rules)
			if err := g.Play(PlaceAt(Black, enginetest.Point(t, "C3", 5))); !errors.Is(err, ErrKo) {
				t.Fatalf("immediate retake: Play(C3) = %v, want ErrKo", err)
			}
			if g.MoveCount() != 1 || g.ToPlay() != Black {
				t.Fatalf("a rejected move changed the game: %d moves, %v to play", g.MoveCount(), g.ToPlay())
			}
			// A ko threat elsewhere (here a pass by Black, then White
			// plays elsewhere) lifts the ban.
			enginetest.Play(t, g, "B pass", "W E1", "B C3")
			if g.Captures(Black) != 1 || g.Captures(White) != 1 {
				t.Errorf("captures B %d W %d, want 1 and 1", g.Captures(Black), g.Captures(White))
			}
			// And White may not retake at once either.
			if err := g.Play(PlaceAt(White, enginetest.Point(t, "B3", 5))); !errors.Is(err, ErrKo) {
				t.Errorf("White's immediate retake: %v, want ErrKo", err)
			}
		})
	}
}

func TestPassClearsKoOnBoard(t *testing.T) {
	g := koGame(t, Presets["simple"])
	b := g.Board()
	v := b.Vertex(enginetest.Point(t, "C3", 5))
	if b.Legal(v, Black) {
		t.Fatal("Legal(C3) right after the ko capture = true, want false")
	}
	b.Play(PassVertex, White)
	if !b.Legal(v, Black) {
		t.Error("Legal(C3) after a pass = false, want true")
	}
}

// TestTripleKo builds three kos; Black and White take them in turn. The
// sixth capture recreates the starting position: legal under simple ko,
// not under superko.
func TestTripleKo(t *testing.T) {
	// Each ko: X at (0,1) (1,2) (1,0), O at (2,2) (3,1) (2,0); the mouth
	// is a = (1,1), b = (2,1). "W" state: O at a; "B" state: X at b.
	build := func(rules Rules) *Game {
		g, _ := NewGame(Config{Size: 9, Rules: rules})
		var stones []Stone
		ko := func(ox, oy int, white bool) {
			for _, d := range [][2]int{{0, 1}, {1, 2}, {1, 0}} {
				stones = append(stones, Stone{Point{ox + d[0], oy + d[1]}, Black})
			}
			for _, d := range [][2]int{{2, 2}, {3, 1}, {2, 0}} {
				stones = append(stones, Stone{Point{ox + d[0], oy + d[1]}, White})
			}
			if white {
				stones = append(stones, Stone{Point{ox + 1, oy + 1}, White})
			} else {
				stones = append(stones, Stone{Point{ox + 2, oy + 1}, Black})
			}
		}
		ko(0, 0, true)
		ko(0, 5, false)
		ko(5, 0, true)
		if err := g.SetupStones(stones, Black, 0); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := func(ox, oy int) Point { return Point{ox + 1, oy + 1} }
	b := func(ox, oy int) Point { return Point{ox + 2, oy + 1} }
	cycle := []Move{
		PlaceAt(Black, b(0, 0)), PlaceAt(White, a(0, 5)), PlaceAt(Black, b(5, 0)),
		PlaceAt(White, a(0, 0)), PlaceAt(Black, b(0, 5)), PlaceAt(White, a(5, 0)),
	}
	tests := []struct {
		rules string
		want  error
	}{
		{"simple", nil},
		{"japanese", nil},
		{"chinese", ErrSuperko},
		{"tromp-taylor", ErrSuperko},
	}
	for _, tt := range tests {
		t.Run(tt.rules, func(t *testing.T) {
			g := build(Presets[tt.rules])
			start := g.Board().Hash()
			for i, m := range cycle[:5] {
				if err := g.Play(m); err != nil {
					t.Fatalf("move %d %v: %v", i+1, m, err)
				}
			}
			err := g.Play(cycle[5])
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("sixth capture: Play(%v) = %v, want %v", cycle[5], err, tt.want)
			}
			if tt.want == nil && g.Board().Hash() != start {
				t.Error("the cycle did not return to the starting position")
			}
			if tt.want != nil && !errors.Is(err, ErrKo) {
				t.Error("ErrSuperko is not a kind of ErrKo")
			}
		})
	}
	// Situational superko forbids it too: same position, same player to
	// move.
	rules := Presets["chinese"]
	rules.Ko = SituationalSuperko
	g := build(rules)
	for _, m := range cycle[:5] {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Play(cycle[5]); !errors.Is(err, ErrSuperko) {
		t.Errorf("situational: sixth capture = %v, want ErrSuperko", err)
	}
}

func TestSuicide(t *testing.T) {
	pos := []string{
		". . . . .",
		". . . . .",
		"O O . . .",
		"X X O . .",
		". O . . ."}
	for _, tt := range []struct {
		rules string
		want  error
	}{{"chinese", ErrSuicide}, {"japanese", ErrSuicide}, {"simple", ErrSuicide}, {"tromp-taylor", nil}} {
		t.Run(tt.rules, func(t *testing.T) {
			g := diagram(t, Presets[tt.rules], Black, pos...)
			before := g.Board().String()
			err := g.Play(PlaceAt(Black, enginetest.Point(t, "A1", 5)))
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("multi-stone suicide: %v, want %v", err, tt.want)
			}
			if err != nil {
				if got := g.Board().String(); got != before {
					t.Error("a rejected suicide changed the board")
				}
				return
			}
			want := board(t, ".....", ".....", "OO...", "..O..", ".O...").String()
			if got := g.Board().String(); got != want {
				t.Errorf("after suicide:\n%s", got)
			}
			if g.Captures(White) != 3 {
				t.Errorf("White captures = %d, want 3", g.Captures(White))
			}
		})
	}
	// Single-stone suicide is illegal under every ruleset.
	for _, name := range PresetNames {
		g := diagram(t, Presets[name], Black,
			". . . . .", ". . . . .", ". . . . .", "O . . . .", ". O . . .")
		if err := g.Play(PlaceAt(Black, enginetest.Point(t, "A1", 5))); !errors.Is(err, ErrSuicide) {
			t.Errorf("%s: single-stone suicide = %v, want ErrSuicide", name, err)
		}
	}
}

func TestMoveErrors(t *testing.T) {
	g, _ := NewGame(Config{Size: 9})
	enginetest.Play(t, g, "B E5")
	tests := []struct {
		name string
		move func() error
		want error
		code string
	}{
		{"occupied", func() error { return g.Play(PlaceAt(White, Point{4, 4})) }, ErrOccupied, "position_occupied"},
		{"not your turn", func() error { return g.Play(PlaceAt(Black, Point{0, 0})) }, ErrNotYourTurn, "not_your_turn"},
		{"pass out of turn", func() error { return g.Play(PassMove(Black)) }, ErrNotYourTurn, "not_your_turn"},
		{"off board", func() error { return g.Play(PlaceAt(White, Point{9, 0})) }, ErrInvalidCoordinates, "invalid_coordinates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.move()
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if got := Code(err); got != tt.code {
				t.Errorf("Code = %q, want %q", got, tt.code)
			}
			if g.MoveCount() != 1 || g.ToPlay() != White {
				t.Errorf("rejected move changed the game")
			}
		})
	}
	_, err := ParsePoint("Z99", 9)
	if !errors.Is(err, ErrInvalidCoordinates) || !strings.Contains(err.Error(), "A1–J9") {
		t.Errorf("ParsePoint(Z99) = %v, want ErrInvalidCoordinates naming A1–J9", err)
	}
	enginetest.Play(t, g, "W pass", "B pass")
	if !g.PlayEnded() || !g.Over() {
		t.Fatal("two passes did not end play")
	}
	if err := g.Play(PlaceAt(White, Point{0, 0})); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after two passes = %v, want ErrGameOver", err)
	}
	if err := g.Resume(); err != nil {
		t.Fatal(err)
	}
	enginetest.Play(t, g, "W A1")
	if err := g.Play(ResignMove(Black)); err != nil {
		t.Fatal(err)
	}
	if r, ok := g.Result(); !ok || r.String() != "W+R" {
		t.Errorf("Result = %v, %v; want W+R", r, ok)
	}
	if err := g.Play(PassMove(Black)); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after resignation = %v, want ErrGameOver", err)
	}
}

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want Point
		ok   bool
	}{
		{"A1", 9, Point{0, 0}, true},
		{"j9", 9, Point{8, 8}, true},
		{"T19", 19, Point{18, 18}, true},
		{"Q16", 19, Point{15, 15}, true},
		{"Z25", 25, Point{24, 24}, true},
		{"I5", 19, NoPoint, false},
		{"K10", 9, NoPoint, false},
		{"A0", 9, NoPoint, false},
		{"A01", 9, NoPoint, false},
		{"", 9, NoPoint, false},
		{"pass", 9, NoPoint, false},
		{"Z99", 19, NoPoint, false},
		{"D-4", 19, NoPoint, false},
	}
	for _, tt := range tests {
		got, err := ParsePoint(tt.in, tt.size)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParsePoint(%q, %d) = %v, %v; want %v, ok=%v", tt.in, tt.size, got, err, tt.want, tt.ok)
		}
		if tt.ok && !strings.EqualFold(got.String(), tt.in) {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
}

func TestHandicapPlacement(t *testing.T) {
	// GNU Go 3.8's fixed_handicap answers, as sets.
	tests := []struct {
		size, n int
		want    string
	}{
		{19, 2, "D4 Q16"}, {19, 3, "D4 Q16 D16"}, {19, 4, "D4 Q16 D16 Q4"},
		{19, 5, "D4 Q16 D16 Q4 K10"}, {19, 6, "D4 Q16 D16 Q4 D10 Q10"},
		{19, 7, "D4 Q16 D16 Q4 D10 Q10 K10"}, {19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"},
		{19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
		{13, 2, "D4 K10"}, {13, 5, "D4 K10 D10 K4 G7"}, {13, 9, "D10 G10 K10 D7 G7 K7 D4 G4 K4"},
		{9, 2, "C3 G7"}, {9, 3, "C3 G7 C7"}, {9, 4, "C3 G7 C7 G3"}, {9, 5, "C3 G7 C7 G3 E5"},
		{9, 9, "C7 E7 G7 C5 E5 G5 C3 E3 G3"},
	}
	for _, tt := range tests {
		pts, err := HandicapPoints(tt.size, tt.n)
		if err != nil {
			t.Fatalf("HandicapPoints(%d, %d): %v", tt.size, tt.n, err)
		}
		var got []string
		for _, p := range pts {
			got = append(got, p.String())
		}
		want := strings.Fields(tt.want)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("HandicapPoints(%d, %d) = %v, want %v", tt.size, tt.n, got, want)
		}
		g, err := NewGame(Config{Size: tt.size, Handicap: tt.n})
		if err != nil {
			t.Fatal(err)
		}
		if g.ToPlay() != White || g.Handicap() != tt.n {
			t.Errorf("handicap %d on %d: %v to play, handicap %d; want White, %d", tt.n, tt.size, g.ToPlay(), g.Handicap(), tt.n)
		}
	}
	for _, bad := range [][2]int{{19, 1}, {19, 10}, {5, 2}, {8, 5}} {
		if _, err := NewGame(Config{Size: bad[0], Handicap: bad[1]}); !errors.Is(err, ErrInvalidHandicap) {
			t.Errorf("NewGame(size %d, handicap %d) = %v, want ErrInvalidHandicap", bad[0], bad[1], err)
		}
	}
}

func TestAreaAndTerritory(t *testing.T) {
	// A finished 7×7 game: Black owns the left, White the right, one dame
	// at D7 and a dead white stone at B2. White captured 2 stones during
	// play, Black 1 (set through the board's counters).
	pos := []string{
		". . X . O . .",
		". . X O . . .",
		". . X O . . .",
		". . X O . . .",
		". . X O . . .",
		". O X O . . .",
		". . X O . . .",
	}
	dead := []Point{{1, 1}}
	area := Presets["chinese"]
	g := diagram(t, area, Black, pos...)
	SetCaptures(g, 1, 2)
	s := g.Score(dead)
	// Black: 7 stones + 14 territory (columns A–B, the dead stone's point
	// included) = 21. White: 6 wall stones + E7 = 7 stones, territory E–G
	// less E7 = 20; D7 is dame.
	if s.Black.Stones != 7 || s.Black.Territory != 14 || s.White.Stones != 7 || s.White.Territory != 20 || s.Dame != 1 {
		t.Errorf("area: %+v %+v dame %d", s.Black, s.White, s.Dame)
	}
	if got, want := s.Result(), "W+13.5"; got != want { // 21 vs 27+7.5
		t.Errorf("area result = %s, want %s", got, want)
	}
	terr := Presets["japanese"]
	g = diagram(t, terr, Black, pos...)
	SetCaptures(g, 1, 2)
	s = g.Score(dead)
	// Black: 14 territory + 1 prisoner + 1 dead = 16. White: 20 + 2 + 6.5.
	if s.Black.Total != 16 || s.White.Total != 28.5 {
		t.Errorf("territory: %+v %+v", s.Black, s.White)
	}
	if got, want := s.Result(), "W+12.5"; got != want {
		t.Errorf("territory result = %s, want %s", got, want)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 60; i++ {
		size := []int{5, 9, 13, 19}[i%4]
		rules := Presets[PresetNames[i%4]]
		hc := 0
		if size >= 9 && i%3 == 0 {
			hc = 2 + i%4
		}
		g, err := NewGame(Config{Size: size, Rules: rules, Handicap: hc, Seed: int64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for g.MoveCount() < size*size && !g.Over() {
			enginetest.PlayRandom(g, rng)
			if g.MoveCount()%17 == 0 {
				checkRoundTrip(t, g)
			}
		}
		checkRoundTrip(t, g)
	}
}

func checkRoundTrip(t *testing.T, g *Game) {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var h Game
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatalf("Unmarshal: %v\n%s", err, data)
	}
	if h.Board().Hash() != g.Board().Hash() || h.ToPlay() != g.ToPlay() || h.MoveCount() != g.MoveCount() ||
		h.Captures(Black) != g.Captures(Black) || h.Captures(White) != g.Captures(White) || h.Seed() != g.Seed() ||
		h.Handicap() != g.Handicap() || h.Rules() != g.Rules() || h.PlayEnded() != g.PlayEnded() {
		t.Fatalf("round trip differs:\n%v\n%v", g.Board().String(), h.Board().String())
	}
	if !slices.Equal(h.Legal(), g.Legal()) {
		t.Fatal("round trip changed the legal moves (ko or superko history lost)")
	}
}

func TestCorruptJSON(t *testing.T) {
	g, _ := NewGame(Config{Size: 9})
	enginetest.Play(t, g, "B E5", "W E6")
	good, _ := json.Marshal(g)
	bad := []string{
		`{`,
		strings.Replace(string(good), `"W E6"`, `"W E5"`, 1), // occupied
		strings.Replace(string(good), `"W E6"`, `"B E6"`, 1), // out of turn
		strings.Replace(string(good), `"W E6"`, `"W Z99"`, 1),
		strings.Replace(string(good), `"size":9`, `"size":99`, 1),
		strings.Replace(string(good), `"komi":7.5`, `"komi":7.3`, 1),
	}
	for _, s := range bad {
		h := g.Clone()
		if err := h.UnmarshalJSON([]byte(s)); !errors.Is(err, ErrInvalidState) {
			t.Errorf("Unmarshal(%.60s…) = %v, want ErrInvalidState", s, err)
		}
	}
}

func TestUndo(t *testing.T) {
	g := koGame(t, Presets["chinese"])
	before := g.Board().Hash()
	enginetest.Play(t, g, "B E5")
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Board().Hash() != before || g.ToPlay() != Black || g.MoveCount() != 1 {
		t.Fatal("undo did not restore the position")
	}
	// The ko ban is restored with the position.
	if err := g.Play(PlaceAt(Black, enginetest.Point(t, "C3", 5))); !errors.Is(err, ErrKo) {
		t.Errorf("after undo, retake = %v, want ErrKo", err)
	}
	enginetest.Play(t, g, "B pass", "W pass")
	if err := g.Undo(); err != nil || g.PlayEnded() {
		t.Errorf("undo of the second pass: %v, ended %v", err, g.PlayEnded())
	}
	for g.MoveCount() > 0 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("Undo at the start = %v, want ErrNothingToUndo", err)
	}
}

// TestFastAndCheckedAgree compares, over random games, the checked door's
// legal moves with the fast door's Legal plus a superko look-up.
func TestFastAndCheckedAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < 24; i++ {
		size := []int{5, 7, 9}[i%3]
		rules := Presets[PresetNames[i%4]]
		g, _ := NewGame(Config{Size: size, Rules: rules})
		for g.MoveCount() < 3*size*size && !g.Over() {
			b := g.Board()
			c := g.ToPlay()
			for v := 0; v < b.Area(); v++ {
				if !b.OnBoard(v) {
					continue
				}
				fast := b.Legal(v, c)
				if fast && rules.Ko != SimpleKo {
					n := *b
					n.Play(v, c)
					fast = !g.Seen(n.Hash(), c.Opponent())
				}
				checked := g.Check(PlaceAt(c, b.Point(v))) == nil
				if fast != checked {
					t.Fatalf("%s %v at %v: fast %v, checked %v\n%v", rules.Name, c, b.Point(v), fast, checked, b)
				}
			}
			v := b.RandomMove(c, rng.Uint32())
			m := PassMove(c)
			if v != PassVertex && g.Check(PlaceAt(c, b.Point(v))) == nil {
				m = PlaceAt(c, b.Point(v))
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestRulesPresets(t *testing.T) {
	for _, name := range PresetNames {
		r, err := Preset(strings.ToUpper(name))
		if err != nil || r.Name != name {
			t.Errorf("Preset(%q) = %v, %v", name, r, err)
		}
	}
	if _, err := Preset("korean"); !errors.Is(err, ErrInvalidRules) {
		t.Errorf("Preset(korean) = %v, want ErrInvalidRules", err)
	}
	if DefaultRules().Name != "chinese" {
		t.Errorf("default rules %q, want chinese", DefaultRules().Name)
	}
	for _, k := range []float64{-150, 0, 0.5, 6.5, 7.5, 150} {
		if !ValidKomi(k) {
			t.Errorf("ValidKomi(%v) = false", k)
		}
	}
	for _, k := range []float64{-150.5, 7.25, 151} {
		if ValidKomi(k) {
			t.Errorf("ValidKomi(%v) = true", k)
		}
	}
}

// TestFreeHandicapPoints: the fixed points first, then distinct points on
// the board; deterministic.
func TestFreeHandicapPoints(t *testing.T) {
	for _, size := range []int{2, 3, 5, 7, 8, 9, 13, 19, 25} {
		for n := 2; n < size*size; n++ {
			pts := FreeHandicapPoints(size, n)
			if len(pts) != n {
				t.Fatalf("FreeHandicapPoints(%d, %d) gave %d points", size, n, len(pts))
			}
			seen := map[Point]bool{}
			for _, p := range pts {
				if !p.Valid(size) || seen[p] {
					t.Fatalf("FreeHandicapPoints(%d, %d) = %v: %v off the board or twice", size, n, pts, p)
				}
				seen[p] = true
			}
			if fixed := min(n, MaxHandicap(size)); fixed >= 2 {
				want, _ := HandicapPoints(size, fixed)
				if fmt.Sprint(pts[:fixed]) != fmt.Sprint(want) {
					t.Errorf("FreeHandicapPoints(%d, %d) starts %v, want the fixed points %v", size, n, pts[:fixed], want)
				}
			}
			if size > 9 && n > 40 {
				break
			}
		}
	}
	if got := FreeHandicapPoints(19, 12)[9:]; fmt.Sprint(got) != "[G7 N7 G13]" {
		t.Errorf("FreeHandicapPoints(19, 12)[9:] = %v", got)
	}
}

// TestParseKomi: a komi is a plain decimal, as a person writes one; what
// else strconv.ParseFloat reads ("1e1" for 10) is refused.
func TestParseKomi(t *testing.T) {
	for in, want := range map[string]float64{"6.5": 6.5, "-3": -3, "0.5": 0.5, " 7 ": 7, "+2.5": 2.5, ".5": 0.5, "\u22123.5": -3.5, "\u20130.5": -0.5, "0": 0} {
		if got, err := ParseKomi(in); err != nil || got != want {
			t.Errorf("ParseKomi(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1e1", "1E1", "0x14", "0x1p3", "Inf", "-inf", "NaN", "6.", ".", "", "-", "1_0", "--3", "+-3", "six"} {
		if got, err := ParseKomi(in); err == nil {
			t.Errorf("ParseKomi(%q) = %v, want it refused", in, got)
		}
	}
}
