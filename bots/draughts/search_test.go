package draughts

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// BenchmarkSearch searches the start position and a middle game for
// 400,000 nodes each and reports the nodes a CPU second (the search's
// speed on one core, by the CPU time, which a shared machine inflates far
// less than the wall clock) and a wall-clock second.
func BenchmarkSearch(b *testing.B) {
	positions := []string{
		draughts.StartFEN,
		"W:W27,28,31,32,33,34,35,36,37,38,39,40,41,43,44,45,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,19,20,23",
		"B:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,45,47,48:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,24",
	}
	s := NewSearcher(Options{Threats: 1})
	var nodes int64
	cpu := runtimetest.CPUTime()
	for b.Loop() {
		for _, f := range positions {
			p, err := draughts.ParseFEN(f)
			if err != nil {
				b.Fatal(err)
			}
			s.Clear()
			if _, err := s.Search(context.Background(), NewGame(p), Budget{Nodes: 400_000}); err != nil {
				b.Fatal(err)
			}
			nodes += s.Nodes()
		}
	}
	used := runtimetest.CPUTime() - cpu
	if used <= 0 {
		used = b.Elapsed()
	}
	b.ReportMetric(float64(nodes)/used.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestShots: positions where one move wins material by force (found, and
// checked, by a plain minimax over every move); the search must play it.
func TestShots(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		// 40-34 29x40 38x27: White gives one man and takes two (and wins).
		{"two for one", "W:W32,38,40,42,45,49:B22,23,29,33", "40-34"},
		{"sacrifice then a double capture", "W:W32,35,37,40,45:B22,23,25", "35-30"},
		{"sacrifice on the way to crowning", "W:W13,18,22,23,28,31:B3,11,17,24,39", "13-8"},
		// The black king must take, and lands where a man takes it.
		{"a king caught by a forced capture", "W:W25,30,32,41,42,48:B10,K31", "42-37"},
		{"a king trapped", "W:W20,23,44,50:B6,K17,26", "44-39"},
		// A coup turc: after 44-39 the black king must take four men,
		// 35x44x33x42x31, and stops on 31 because the men it jumped stay
		// on the board until its capture ends (were they removed at once,
		// it would take a fifth); 26x37 takes it, and Black is lost.
		{"coup turc", "W:W18,26,29,37,38,40,44:B27,K35", "44-39"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := draughts.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSearcher(Options{Threats: 1, TableBits: 16})
			res, err := s.Search(context.Background(), NewGame(p), Budget{Depth: 8})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Move.String(); got != tt.want {
				t.Errorf("Search(%s) = %s (score %d, line %v), want %s", tt.fen, got, res.Score, res.PV, tt.want)
			}
			if res.Score < 80 {
				t.Errorf("Search(%s) scores %s at %d, want nearly a man or more", tt.fen, res.Move, res.Score)
			}
		})
	}
}

// TestWinSeen: a won ending is scored as a win.
func TestWinSeen(t *testing.T) {
	// Whatever Black does, White takes both men within five plies (a
	// plain minimax over every move says so, and not within three).
	p, err := draughts.ParseFEN("B:W25,35,K36:B9,15")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher(Options{TableBits: 12})
	res, err := s.Search(context.Background(), NewGame(p), Budget{Depth: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score > -WinBound {
		t.Errorf("Search = %v scores %d for Black, want a loss (below %d)", res.Move, res.Score, -WinBound)
	}
}

// TestCountingRuleDraw: with 49 plies of king moves behind it, a side
// with kings only can do nothing but draw by the 25-move rule, however
// far ahead.
func TestCountingRuleDraw(t *testing.T) {
	p, err := draughts.ParseFEN("W:WK46,K47,K48,K49:B5")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(p)
	s := NewSearcher(Options{TableBits: 12})
	fresh, err := s.Search(context.Background(), g, Budget{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Score < 300 {
		t.Errorf("without history: score %d, want White far ahead", fresh.Score)
	}
	g.Counters.KingMoves = 49
	s.Clear()
	res, err := s.Search(context.Background(), g, Budget{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0 {
		t.Errorf("at 49 plies of king moves: score %d (%v), want 0, a draw", res.Score, res.Move)
	}
}

// TestRepetitionSeen: a side that is lost takes the repetition the game's
// history offers it.
func TestRepetitionSeen(t *testing.T) {
	// Black's king shuttles 9-3-9 while a white king shuttles 48-42-48;
	// back where it started, Black's 9-3 would repeat a position. Black is far behind, so a draw is its best result, and
	// a repetition counts as one.
	start, err := draughts.ParseFEN("B:WK46,K47,K48:BK9")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start)
	for _, text := range []string{"9-3", "48-42", "3-9", "42-48"} {
		p := g.Position()
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		g = g.Play(m)
	}
	p := g.Position()
	if !p.Equal(&start) {
		t.Fatalf("the shuttle does not come back:\n%v", p)
	}
	s := NewSearcher(Options{TableBits: 12})
	fresh, err := s.Search(context.Background(), NewGame(start), Budget{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Score >= 0 {
		t.Errorf("without history: Search = %v scores %d, want Black behind", fresh.Move, fresh.Score)
	}
	s.Clear()
	res, err := s.Search(context.Background(), g, Budget{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0 {
		t.Errorf("Search = %v scores %d, want 0 (a repetition draws)", res.Move, res.Score)
	}
}

func TestCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	s := NewSearcher(Options{Threats: 1})
	start := time.Now()
	_, err := s.Search(ctx, NewGame(draughts.Start()), Budget{Depth: 60})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Search cancelled = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Search took %v to notice its cancellation, want promptly", d)
	}
	runtimetest.NoGoroutineLeft(t, before, "after a cancelled search")
}

func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s := NewSearcher(Options{Threats: 1})
	start := time.Now()
	res, err := s.Search(ctx, NewGame(draughts.Start()), Budget{Depth: 60})
	if err != nil {
		t.Fatalf("Search past its deadline = %v, want the best move so far", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Search took %v with a 100 ms deadline", d)
	}
	p := draughts.Start()
	if !slices.Contains(p.Generate(nil), res.Move) {
		t.Errorf("Search = %v, not a legal move", res.Move)
	}
}

func TestGameOver(t *testing.T) {
	p, err := draughts.ParseFEN("W:W:B1,2")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Builtin() {
		if _, err := l.New(1).GenMove(context.Background(), NewGame(p), l.Budget); !errors.Is(err, ErrGameOver) {
			t.Errorf("%s: GenMove without a piece = %v, want ErrGameOver", l.Name, err)
		}
	}
}

// playGame plays a game between two levels from start (each move checked
// against the rules' checked door) and returns the final state.
func playGame(t testing.TB, white, black Level, seed int64, start draughts.State, budget func(Level) Budget) draughts.State {
	t.Helper()
	players := [2]Player{white.New(seed), black.New(seed + 1)}
	levels := [2]Level{white, black}
	s := start
	for s.ToMove() != game.NoSide {
		side := s.ToMove()
		g, err := GameOf(s)
		if err != nil {
			t.Fatal(err)
		}
		b := levels[side].Budget
		if budget != nil {
			b = budget(levels[side])
		}
		m, err := players[side].GenMove(context.Background(), g, b)
		if err != nil {
			t.Fatalf("%s: GenMove after %v = %v", levels[side].Name, s.Moves(), err)
		}
		p := g.Position()
		if !slices.Contains(p.Generate(nil), m) {
			t.Fatalf("%s plays %v, not a legal move of %s", levels[side].Name, m, p.FEN())
		}
		n, _, err := s.PlayMove(side, p.Notation(m, p.Generate(nil)))
		if err != nil {
			t.Fatalf("%s plays %v: the rules refuse it: %v", levels[side].Name, m, err)
		}
		s = n
		if s.MoveCount() > 400 {
			break
		}
	}
	return s
}

// TestLevelsPlayLegalMoves plays each level against the next in short
// games from random openings: every move is legal, and GameOf keeps the
// draw counters as the rules do.
func TestLevelsPlayLegalMoves(t *testing.T) {
	levels := Builtin()
	small := func(l Level) Budget {
		if l.Budget.Nodes > 5000 {
			return Budget{Nodes: 5000}
		}
		return l.Budget
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i+1 < len(levels); i++ {
		start := randomOpening(t, rng, 4)
		end := playGame(t, levels[i], levels[i+1], int64(i), start, small)
		g, err := GameOf(end)
		if err != nil {
			t.Fatal(err)
		}
		if g.Counters != end.Counters() {
			t.Errorf("GameOf: counters %+v, the rules' %+v", g.Counters, end.Counters())
		}
		if p, q := g.Position(), end.Position(); !p.Equal(&q) {
			t.Errorf("GameOf: position %s, the rules' %s", p.FEN(), q.FEN())
		}
	}
}

// randomOpening returns a game after plies random moves.
func randomOpening(t testing.TB, rng *rand.Rand, plies int) draughts.State {
	t.Helper()
	s, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < plies && s.ToMove() != game.NoSide; i++ {
		legal := s.Legal()
		n, _, err := s.PlayMove(s.ToMove(), string(legal[rng.IntN(len(legal))]))
		if err != nil {
			t.Fatal(err)
		}
		s = n
	}
	return s
}

// TestDeterministic: a level of a node budget plays the same game twice
// with the same seed, and another with another seed.
func TestDeterministic(t *testing.T) {
	l, _ := Lookup("medium")
	start, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	play := func(seed int64) []game.Move {
		s := start
		players := [2]Player{l.New(seed), l.New(seed + 1)}
		for i := 0; i < 16; i++ {
			g, err := GameOf(s)
			if err != nil {
				t.Fatal(err)
			}
			m, err := players[s.ToMove()].GenMove(context.Background(), g, Budget{Nodes: 2000})
			if err != nil {
				t.Fatal(err)
			}
			p := g.Position()
			if s, _, err = s.PlayMove(s.ToMove(), p.Notation(m, p.Generate(nil))); err != nil {
				t.Fatal(err)
			}
		}
		return s.Moves()
	}
	a, b := play(7), play(7)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 plays %v, then %v", a, b)
	}
	if c := play(8); slices.Equal(a, c) {
		t.Logf("seeds 7 and 8 play the same 16 plies: %v", a)
	}
}

// TestDeadlinePassed: every level answers a legal move, not an error,
// when its deadline has passed already.
func TestDeadlinePassed(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	for _, l := range Builtin() {
		m, err := l.New(1).GenMove(ctx, NewGame(draughts.Start()), l.Budget)
		if err != nil {
			t.Errorf("%s: GenMove past its deadline = %v, want a move", l.Name, err)
			continue
		}
		p := draughts.Start()
		if !slices.Contains(p.Generate(nil), m) {
			t.Errorf("%s: GenMove past its deadline = %v, not legal", l.Name, m)
		}
	}
}
