package enginetest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

func TestParse(t *testing.T) {
	d := Parse(t, `
		. x O
		X . .

		. . o`)
	if got, want := fmt.Sprint(d.Size, d.Stones, d.Marked), "3 [{B3 black} {C3 white} {A2 black} {C1 white}] [C1 B3]"; got != want {
		t.Errorf("Parse = %s, want %s", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, diagram, want string
	}{
		{"empty", "", "the diagram has 0 rows, want 2 to 25"},
		{"one row", "X", "the diagram has 1 rows, want 2 to 25"},
		{"short row", "...\n..\n...", `diagram row 2 ".." has 2 points, want 3 (a square board)`},
		{"not square", "...\n...", `diagram row 1 "..." has 3 points, want 2 (a square board)`},
		{"unknown point", "..\n.#", `diagram row 2 ".#": '#' at B1 is not a point (X, O, x, o or .)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(tt.diagram)
			if err == nil || err.Error() != tt.want {
				t.Errorf("parse(%q) = %v, want %s", tt.diagram, err, tt.want)
			}
		})
	}
}

func TestGame(t *testing.T) {
	rules, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g := Game(t, `
		. O .
		O . .
		. . X`, Komi(0.5), Rules(rules), ToPlay(engine.White), Seed(7))
	if got, want := g.Board().String(), Board(t, ".O.\nO..\n..X").String(); got != want {
		t.Errorf("board =\n%s\nwant\n%s", got, want)
	}
	if r := g.Rules(); r.Name != "japanese" || r.Komi != 0.5 {
		t.Errorf("Rules() = %+v, want japanese with komi 0.5 (Komi applies whatever the order)", r)
	}
	if g.ToPlay() != engine.White || g.MoveCount() != 0 || g.Config().Seed != 7 {
		t.Errorf("ToPlay() = %v, MoveCount() = %d, Seed = %d; want White, 0, 7", g.ToPlay(), g.MoveCount(), g.Config().Seed)
	}
	if g := Game(t, "..\n.."); g.ToPlay() != engine.Black || g.Rules() != engine.DefaultRules() {
		t.Errorf("defaults: %v to play under %+v, want Black under DefaultRules()", g.ToPlay(), g.Rules())
	}
}

// TestGameWithoutLiberty checks that a chain drawn without a liberty fails
// the test, through a testing.TB that records the failure.
func TestGameWithoutLiberty(t *testing.T) {
	rec := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		Game(rec, "XO\nO.")
	}()
	if !strings.Contains(rec.msg, "the chain at A2 has no liberty") {
		t.Errorf("Game(XO/O.) failed with %q, want the chain at A2 named", rec.msg)
	}
	if g := Game(t, "XO\nO.", AllowNoLiberty()); g.Board().At(engine.Point{Col: 0, Row: 1}) != engine.Black {
		t.Errorf("Game(XO/O., AllowNoLiberty()) =\n%v\nwant the black stone at A2 kept", g.Board())
	}
}

type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(r)
}

func TestPlay(t *testing.T) {
	g := Game(t, "...\n...\n...")
	Play(t, g, "B2", "W A1", "pass", "W pass")
	var got []string
	for _, m := range g.Moves() {
		got = append(got, m.Color.String()+" "+m.String())
	}
	if want := "black B2, white A1, black pass, white pass"; strings.Join(got, ", ") != want {
		t.Errorf("Moves() = %s, want %s", strings.Join(got, ", "), want)
	}
	for _, bad := range []string{"B3", "W C3", "Z9", "green C3"} {
		rec := &recorder{TB: t}
		func() {
			defer func() { recover() }()
			Play(rec, Game(t, ".X.\n...\n..."), bad)
		}()
		if rec.msg == "" {
			t.Errorf("Play(%q) did not fail", bad)
		}
	}
}

func TestNewGame(t *testing.T) {
	g := NewGame(t, engine.Config{Size: 9, Handicap: 2}, "E5")
	if g.Handicap() != 2 || g.MoveCount() != 1 || g.ToPlay() != engine.Black {
		t.Errorf("NewGame(9, handicap 2, E5): handicap %d, %d moves, %v to play; want 2, 1, Black", g.Handicap(), g.MoveCount(), g.ToPlay())
	}
	rec := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		NewGame(rec, engine.Config{Size: 1})
	}()
	if !strings.Contains(rec.msg, "NewGame") {
		t.Errorf("NewGame(size 1) failed with %q, want the refused NewGame named", rec.msg)
	}
}

func TestPoint(t *testing.T) {
	if p := Point(t, "J9", 9); p != (engine.Point{Col: 8, Row: 8}) {
		t.Errorf("Point(J9, 9) = %v, want col 8 row 8", p)
	}
	rec := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		Point(rec, "K10", 9)
	}()
	if !strings.Contains(rec.msg, `ParsePoint("K10", 9)`) {
		t.Errorf("Point(K10, 9) failed with %q, want the point named", rec.msg)
	}
}

func TestReplay(t *testing.T) {
	g := Game(t, `
		. X .
		X O X
		. . .`, ToPlay(engine.White))
	Play(t, g, "A1", "B1", "pass")
	got := Replay(t, "capture", g)
	if len(got) != 4 {
		t.Fatalf("Replay gave %d positions, want 4 (the set-up and 3 moves)", len(got))
	}
	if got[0] != (Position{Black: "B3 A2 C2", White: "B2", ToPlay: engine.White}) || got[3] != PositionOf(g) {
		t.Errorf("Replay = %+v …, %+v; want the set-up first and the game's position last", got[0], got[3])
	}
	if want := (Position{Black: "B3 A2 C2 B1", CapturedByBlack: 2, ToPlay: engine.White}); got[2] != want {
		t.Errorf("after B1 takes A1 and B2: %+v, want %+v", got[2], want)
	}
}

func TestPlayRandom(t *testing.T) {
	g := NewGame(t, engine.Config{Size: 5})
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		if g.Over() {
			break
		}
		n := g.MoveCount()
		PlayRandom(g, rng)
		if g.MoveCount() != n+1 {
			t.Fatalf("PlayRandom played %d moves, want 1", g.MoveCount()-n)
		}
	}
	if !g.Over() {
		t.Errorf("200 random moves on 5×5 did not end the game:\n%v", g.Board())
	}
}
