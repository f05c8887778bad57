package mcts

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/playout"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// TestTactics checks that the searcher finds the one right move in small
// positions where the komi makes the game turn on it.
func TestTactics(t *testing.T) {
	// eyeSpace is a black group with a three-point eye space: the middle
	// point makes two eyes for Black and kills for White.
	const eyeSpace = `
		. . . . . . .
		O O O O O O O
		O X X X X X O
		O X . . . X O
		O X X X X X O
		O O O O O O O
		. . . . . . .`
	tests := []struct {
		name    string
		komi    float64
		toPlay  engine.Color
		diagram string
		want    string
	}{
		{
			name:   "captures a cutting stone in atari",
			komi:   6.5,
			toPlay: engine.Black,
			diagram: `
				. . . . . . .
				. . . . . . .
				O O O . O O O
				X X X O X X X
				. . . X . . .
				. . . . . . .
				. . . . . . .`,
			want: "D5",
		},
		{
			name:   "captures a big chain in atari",
			komi:   6.5,
			toPlay: engine.Black,
			diagram: `
				. . . . . . .
				. . . . . . .
				O O O O O O O
				X X X X X X X
				X O O O O O X
				X X X X X . .
				. . . . . . .`,
			want: "F2",
		},
		{
			name:   "escapes atari",
			komi:   5.5,
			toPlay: engine.White,
			diagram: `
				. . . . . . .
				. . . . . . .
				O O O O O O O
				X X X . X X X
				. . X O X . .
				. . . X . . .
				. . . . . . .`,
			want: "D4",
		},
		{
			name:    "makes two eyes: the only saving move",
			komi:    -19.5,
			toPlay:  engine.Black,
			diagram: eyeSpace,
			want:    "D4",
		},
		{
			name:    "kills at the vital point",
			komi:    -19.5,
			toPlay:  engine.White,
			diagram: eyeSpace,
			want:    "D4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gameFrom(t, tt.komi, tt.toPlay, tt.diagram)
			e := NewSearcher(Options{Seed: 1, Threads: 1})
			m, err := e.GenMove(context.Background(), g, 0, 3000)
			if err != nil {
				t.Fatal(err)
			}
			if m.String() != tt.want {
				t.Errorf("GenMove = %v, want %v (%v)", m, tt.want, e.Stats())
			}
		})
	}
}

// TestNoBigSelfAtari checks that the searcher does not put a big chain of
// its own in atari: Black's four stones on the first line share their two
// liberties with White's five; filling A1 would give White the corner, so
// Black connects out at E1 (or plays elsewhere), never A1.
func TestNoBigSelfAtari(t *testing.T) {
	diagram := `
		. . . . . . .
		. . . . . . .
		O O O O O O O
		X X X X X X X
		X X X X X X .
		O O O O O X .
		. X X X . X .`
	tests := []struct {
		toPlay engine.Color
		bad    []string
	}{
		{engine.Black, []string{"A1"}},
	}
	for _, tt := range tests {
		g := gameFrom(t, 6.5, tt.toPlay, diagram)
		e := NewSearcher(Options{Seed: 2, Threads: 1})
		m, err := e.GenMove(context.Background(), g, 0, 2000)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(tt.bad, m.String()) {
			t.Errorf("%v: GenMove = %v, a self-atari of a big chain (%v)", tt.toPlay, m, e.Stats())
		}
	}
}

// TestPassAndEyes checks that the searcher fills none of its own eyes and
// passes when nothing else is left, and that it does not pass after the
// opponent's pass while a dead stone of the opponent is still on the board.
func TestPassAndEyes(t *testing.T) {
	tests := []struct {
		name     string
		komi     float64
		toPlay   engine.Color
		diagram  string
		passed   bool // White has just passed
		playouts int
		want     engine.MoveKind
		wantText string
	}{
		{
			name: "only own eyes left: pass", komi: 7.5, toPlay: engine.Black,
			diagram: `
			. X O . O
			X X O O O
			X . X O .
			X X X O O
			. X O O .`,
			playouts: 2000, want: engine.Pass, wantText: "pass",
		},
		{
			name: "dead stone in own area after a pass: take it", komi: 0.5, toPlay: engine.White,
			diagram: `
			. . . . . . .
			. . . O . . .
			. . . . . . .
			. . . . . . .
			X X X X X X X
			O O O O O O O
			. . . . . . .`,
			passed: true, playouts: 3000, want: engine.Place, wantText: "a move against the dead stone",
		},
		{
			name: "settled after a pass: pass", komi: 0.5, toPlay: engine.White,
			diagram: `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X X X X X X X
			O O O O O O O
			. . . . . . .
			. . . . . . .`,
			passed: true, playouts: 3000, want: engine.Pass, wantText: "pass",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gameFrom(t, tt.komi, tt.toPlay, tt.diagram)
			if tt.passed {
				if err := g.Play(engine.PassMove(engine.White)); err != nil {
					t.Fatal(err)
				}
			}
			e := NewSearcher(Options{Seed: 3, Threads: 1})
			m, err := e.GenMove(context.Background(), g, 0, tt.playouts)
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != tt.want {
				t.Errorf("GenMove = %v, want %s (%v)", m, tt.wantText, e.Stats())
			}
			// The line shown (gobot gtp --log) starts with the move
			// played, though the end-of-game rules chose a pass.
			if st := e.Stats(); len(st.PV) > 0 && st.PV[0] != m {
				t.Errorf("the principal variation %v does not start with the move played, %v", st.PV, m)
			}
		})
	}
}

// TestResign checks that the searcher resigns a hopeless game, but not
// before move 20 on 9×9, and never with a negative threshold.
func TestResign(t *testing.T) {
	diagram := `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		X X X X X X X X X
		O O O O O O O O O
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// Black owns 45 points, White 36: with komi 7.5 White is lost. The
	// moves below fill each side's own area and change nothing. With
	// nothing left to play, White passes when it may not resign.
	filler := []string{"A9", "A1", "B9", "B1", "C9", "C1", "D9", "D1", "E9", "E1",
		"F9", "F1", "G9", "G1", "H9", "H1", "J9", "J1", "A8", "A2"}
	tests := []struct {
		name   string
		moves  int
		resign float64
		want   engine.MoveKind
	}{
		{"after move 20", 20, 0, engine.Resign},
		{"before move 20", 18, 0, engine.Pass},
		{"never", 20, -1, engine.Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gameFrom(t, 7.5, engine.Black, diagram)
			for _, s := range filler[:tt.moves] {
				if err := g.Play(engine.PlaceAt(g.ToPlay(), enginetest.Point(t, s, 9))); err != nil {
					t.Fatal(err)
				}
			}
			// Black has moved; make it White's turn with White lost.
			if g.ToPlay() != engine.Black {
				t.Fatal("set-up error: Black should be to move")
			}
			if err := g.Play(engine.PlaceAt(engine.Black, enginetest.Point(t, "B8", 9))); err != nil {
				t.Fatal(err)
			}
			e := NewSearcher(Options{Seed: 1, Threads: 1, ResignThreshold: tt.resign})
			m, err := e.GenMove(context.Background(), g, 0, 1500)
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != tt.want {
				t.Errorf("GenMove = %v, want a %v (%v)", m, tt.want, e.Stats())
			}
		})
	}
}

// TestDeterministic checks that one thread, a seed and a playout budget
// give the same search twice, and that other seeds may differ only in the
// search, not in legality.
func TestDeterministic(t *testing.T) {
	g := newGame(t, 9)
	for _, mv := range []string{"E5", "C3", "G7"} {
		if err := g.Play(engine.PlaceAt(g.ToPlay(), enginetest.Point(t, mv, 9))); err != nil {
			t.Fatal(err)
		}
	}
	run := func() (engine.Move, Stats) {
		e := NewSearcher(Options{Seed: 42, Threads: 1})
		m, err := e.GenMove(context.Background(), g, 0, 1500)
		if err != nil {
			t.Fatal(err)
		}
		return m, e.Stats()
	}
	m1, s1 := run()
	m2, s2 := run()
	if m1 != m2 || s1.Playouts != s2.Playouts || s1.Nodes != s2.Nodes || !slices.Equal(s1.PV, s2.PV) ||
		!slices.Equal(s1.Candidates, s2.Candidates) {
		t.Errorf("two searches differ:\n%v\n%v", s1, s2)
	}
}

// TestTreeReuse checks that consecutive moves of one game keep the
// subtree and that the search stays deterministic with reuse.
func TestTreeReuse(t *testing.T) {
	play := func() []Stats {
		g := newGame(t, 9)
		e := NewSearcher(Options{Seed: 7, Threads: 1, ResignThreshold: -1})
		var stats []Stats
		for i := 0; i < 5; i++ {
			m, err := e.GenMove(context.Background(), g, 0, 400)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("move %d: Play(%v) = %v", i, m, err)
			}
			stats = append(stats, e.Stats())
			e.mu.Lock()
			e.waitKept() // the kept subtree is copied after the move returns
			kept := e.tree
			e.mu.Unlock()
			if kept != nil && kept.used() > keepNodes+chunkSize {
				t.Errorf("move %d: %d nodes kept between moves, want at most %d", i, kept.used(), keepNodes)
			}
		}
		return stats
	}
	a, b := play(), play()
	reused := 0
	for i := range a {
		if a[i].Move != b[i].Move || a[i].Reused != b[i].Reused {
			t.Errorf("move %d: %v vs %v", i, a[i], b[i])
		}
		reused += a[i].Reused
	}
	if reused == 0 {
		t.Errorf("no visits reused over 5 moves")
	}
}

// TestCancel checks that a cancelled search returns the context's error
// promptly and leaves no goroutine behind.
func TestCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	g := newGame(t, 9)
	e := NewSearcher(Options{Seed: 1, Threads: 4})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := e.GenMove(ctx, g, time.Hour, 0)
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("GenMove after cancel = %v, want context.Canceled", err)
	}
	// Already cancelled: no search at all.
	if _, err := e.GenMove(ctx, g, time.Hour, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("GenMove with a done context = %v, want context.Canceled", err)
	}
	runtimetest.NoGoroutineLeft(t, before, "after the search")
}

// TestDeadlineGivesBestMove: a search whose context reaches its deadline
// returns the move it has, the most visited; one whose deadline has passed
// before it starts answers at once with the legal move of the best prior.
func TestDeadlineGivesBestMove(t *testing.T) {
	g := newGame(t, 9)
	for _, p := range []string{"E4", "E5", "D5", "A1", "F5", "A2"} {
		pt, err := engine.ParsePoint(p, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(engine.PlaceAt(g.ToPlay(), pt)); err != nil {
			t.Fatal(err)
		}
	}
	e := NewSearcher(Options{Seed: 1, Threads: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	m, err := e.GenMove(ctx, g, time.Hour, 0)
	if err != nil {
		t.Fatalf("GenMove(deadline in 100 ms) = %v, want a move", err)
	}
	st := e.Stats()
	if cerr := g.Check(m); cerr != nil || st.Playouts == 0 || m != st.Candidates[0].Move {
		t.Errorf("GenMove(deadline in 100 ms) = %v (%v), stats %v: want the most visited legal move", m, cerr, st)
	}
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now())
	defer cancel2()
	m, err = NewSearcher(Options{Seed: 1}).GenMove(expired, g, time.Hour, 0)
	if err != nil {
		t.Fatalf("GenMove(deadline passed) = %v, want a move", err)
	}
	// White's E5 is in atari: the capture at E6 has the best prior.
	if want := "E6"; m.Kind != engine.Place || m.Point.String() != want {
		t.Errorf("GenMove(deadline passed) = %v, want %s", m, want)
	}
}

// TestBadInput checks the errors for calls that cannot search.
func TestBadInput(t *testing.T) {
	g := newGame(t, 9)
	over := newGame(t, 9)
	over.Play(engine.PassMove(engine.Black))
	over.Play(engine.PassMove(engine.White))
	e := NewSearcher(Options{Threads: 1})
	tests := []struct {
		name     string
		g        *engine.Game
		time     time.Duration
		playouts int
		want     error
	}{
		{"no game", nil, time.Second, 0, ErrNoGame},
		{"game over", over, time.Second, 0, ErrGameOver},
		{"no budget", g, 0, 0, ErrNoBudget},
	}
	for _, tt := range tests {
		if _, err := e.GenMove(context.Background(), tt.g, tt.time, tt.playouts); !errors.Is(err, tt.want) {
			t.Errorf("%s: GenMove = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestSuperko finds positions in random games on a small board where a
// move the board allows repeats an earlier position, and checks that the
// searcher never returns such a move (or any illegal one) there.
func TestSuperko(t *testing.T) {
	r := playout.NewRand(12345)
	found := 0
	for game := 0; game < 200 && found < 5; game++ {
		g := newGame(t, 4)
		for ply := 0; ply < 60 && !g.Over(); ply++ {
			b := g.Board()
			var banned []engine.Point
			var legal []engine.Point
			for row := 0; row < 4; row++ {
				for col := 0; col < 4; col++ {
					p := engine.Point{Col: col, Row: row}
					if !b.Legal(b.Vertex(p), g.ToPlay()) {
						continue
					}
					if errors.Is(g.Check(engine.PlaceAt(g.ToPlay(), p)), engine.ErrSuperko) {
						banned = append(banned, p)
					} else {
						legal = append(legal, p)
					}
				}
			}
			if len(banned) > 0 {
				found++
				e := NewSearcher(Options{Seed: int64(game), Threads: 2, ResignThreshold: -1})
				m, err := e.GenMove(context.Background(), g, 0, 400)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Check(m); err != nil {
					t.Fatalf("GenMove = %v in\n%v\nwhich is illegal: %v", m, g.Board(), err)
				}
				for _, c := range e.Stats().Candidates {
					if c.Move.Kind == engine.Place && slices.Contains(banned, c.Move.Point) {
						t.Errorf("superko move %v is a candidate", c.Move)
					}
				}
			}
			if len(legal) == 0 {
				g.Play(engine.PassMove(g.ToPlay()))
				continue
			}
			p := legal[r.Intn(len(legal))]
			if err := g.Play(engine.PlaceAt(g.ToPlay(), p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no superko position found: the test exercised nothing")
	}
}

// TestSizes plays a few moves on boards from 2×2 to 25×25 under the
// rulesets (all of them on the small boards) and checks that every move is
// legal.
func TestSizes(t *testing.T) {
	for i, size := range []int{2, 3, 4, 5, 7, 8, 13, 19, 25} {
		for j, rules := range engine.PresetNames {
			if size > 8 && j != i%len(engine.PresetNames) {
				continue // one ruleset each for the big boards
			}
			t.Run(fmt.Sprintf("%d/%s", size, rules), func(t *testing.T) {
				r, err := engine.Preset(rules)
				if err != nil {
					t.Fatal(err)
				}
				g, err := engine.NewGame(engine.Config{Size: size, Rules: r})
				if err != nil {
					t.Fatal(err)
				}
				e := NewSearcher(Options{Seed: int64(size), Threads: 2, MaxNodes: 5000})
				for i := 0; i < 4 && !g.Over(); i++ {
					m, err := e.GenMove(context.Background(), g, 0, 40)
					if err != nil {
						t.Fatal(err)
					}
					if m.Kind == engine.Resign {
						break
					}
					if err := g.Play(m); err != nil {
						t.Fatalf("move %d: GenMove = %v: %v", i, m, err)
					}
				}
			})
		}
	}
}

// TestOwnership checks the ownership estimate: one value per point, in
// range, and clear on a settled position.
func TestOwnership(t *testing.T) {
	g := gameFrom(t, 0.5, engine.Black, `
		. . . . .
		. . . . .
		X X X X X
		O O O O O
		. . . . .`)
	e := NewSearcher(Options{Seed: 1, Threads: 1})
	if _, err := e.GenMove(context.Background(), g, 0, 500); err != nil {
		t.Fatal(err)
	}
	own := e.Ownership()
	if len(own) != 25 {
		t.Fatalf("len(Ownership()) = %d, want 25", len(own))
	}
	for i, o := range own {
		row := i / 5
		switch {
		case o < -1 || o > 1:
			t.Errorf("ownership[%d] = %v, out of range", i, o)
		case row >= 2 && o < 0.6:
			t.Errorf("ownership at row %d = %.2f, want Black's", row+1, o)
		case row <= 1 && o > -0.6:
			t.Errorf("ownership at row %d = %.2f, want White's", row+1, o)
		}
	}
}

// TestEstimateOwnership checks the standalone estimate on a finished game:
// a white stone left inside Black's area is Black's in most playouts.
func TestEstimateOwnership(t *testing.T) {
	g := endedGame(t)
	own, err := EstimateOwnership(context.Background(), g, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	dead := enginetest.Point(t, "D6", 7)
	if o := own[dead.Row*7+dead.Col]; o < 0.5 {
		t.Errorf("ownership of the dead white stone at D6 = %.2f, want Black's (> 0.5)", o)
	}
	if o := own[0]; o > -0.5 {
		t.Errorf("ownership of A1 = %.2f, want White's (< -0.5)", o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EstimateOwnership(ctx, g, 300, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("EstimateOwnership with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestDynamicKomi(t *testing.T) {
	tests := []struct {
		size, handicap, moves int
		want                  float64
	}{
		{19, 0, 0, 0},
		{19, 4, 0, 28},
		{19, 4, 100, 14},
		{19, 4, 200, 0},
		{19, 4, 300, 0},
		{9, 2, 0, 14},
		{9, 2, 44, 0},
	}
	for _, tt := range tests {
		if got := dynamicKomi(tt.size, tt.handicap, tt.moves); got != tt.want {
			t.Errorf("dynamicKomi(%d, %d, %d) = %v, want %v", tt.size, tt.handicap, tt.moves, got, tt.want)
		}
	}
	// A handicap game searches and plays legal moves for both sides.
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules(), Handicap: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := NewSearcher(Options{Seed: 1, Threads: 1})
	for i := 0; i < 4; i++ {
		m, err := e.GenMove(context.Background(), g, 0, 300)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("GenMove = %v: %v", m, err)
		}
	}
}

// endedGame is a 7×7 game ended by two passes: Black's wall on row 5 with a
// dead white stone at D6 above it, White's wall on row 4, komi 0.5.
func endedGame(t *testing.T) *engine.Game {
	t.Helper()
	g := gameFrom(t, 0.5, engine.Black, `
		. . . . . . .
		. . . O . . .
		X X X X X X X
		O O O O O O O
		. . . . . . .
		. . . . . . .
		. . . . . . .`)
	g.Play(engine.PassMove(engine.Black))
	g.Play(engine.PassMove(engine.White))
	return g
}
