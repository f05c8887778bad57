package bots

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// tacticalBots are the bots expected to see one-move tactics, with a budget
// small enough for the race detector.
func tacticalBots() []Bot {
	return []Bot{NewGreedy(1), NewMinimax(1), NewMinimaxMC(1)}
}

// isMonteCarlo reports whether bot judges by playouts (the medium level),
// and so sees no hurry to take stones that are dead anyway in a game that
// is already decided.
func isMonteCarlo(bot Bot) bool {
	m, ok := bot.(*Minimax)
	return ok && m.mc
}

var tacticalBudget = Budget{Playouts: 10000}

func TestCapturesStonesInAtari(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		toPlay  engine.Color
		want    string
		decided bool // the game is won whether the stones are taken now or later
	}{
		{"centre", `
			. . . . . . .
			. . . X . . .
			. . X O X . .
			. . X O X . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`, engine.Black, "D3", true},
		{"edge", `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			. . . . . . .
			X X X . . . .
			X O O . . . .`, engine.Black, "D1", true},
		// Both black chains would escape if left; the bigger is taken.
		{"biggest of two", `
			. . . . . . . . .
			. O . . . . . . .
			O X O . . . . . .
			. . . . . . . . .
			. . . O O O . . .
			. . O X X X . . .
			. . . O O O . . .
			. . . . . . . . .
			. . . . . . . . .`, engine.White, "G4", false},
	}
	for _, tt := range tests {
		for _, bot := range tacticalBots() {
			if tt.decided && isMonteCarlo(bot) {
				continue
			}
			t.Run(tt.name+"/"+bot.Name(), func(t *testing.T) {
				g := position(t, tt.diagram, tt.toPlay)
				m, err := bot.GenMove(context.Background(), g, tacticalBudget)
				if err != nil {
					t.Fatalf("GenMove: %v", err)
				}
				if got := m.String(); got != tt.want {
					t.Errorf("GenMove = %v, want %v\n%v", got, tt.want, g.Board())
				}
			})
		}
	}
}

func TestEscapesAtari(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		want    string
	}{
		// Black's four stones have one liberty, F4; extending there
		// gives three.
		{"extend", `
			. . . . . . .
			. . . . . . .
			. O O O O . .
			O X X X X . .
			. O O O O . .
			. . . . . . .
			. . . . . . .`, "F4"},
		// Black's pair cannot run (A3 is suicide); capturing the white
		// stone at D3 is the only way to save it.
		{"capture the attacker", `
			. . . . . . .
			. . . . . . .
			. . . . . . .
			O O O . . . .
			. X X O X . .
			O O O X . . .
			. . . . . . .`, "D4"},
	}
	for _, tt := range tests {
		for _, bot := range tacticalBots() {
			t.Run(tt.name+"/"+bot.Name(), func(t *testing.T) {
				g := position(t, tt.diagram, engine.Black)
				m, err := bot.GenMove(context.Background(), g, tacticalBudget)
				if err != nil {
					t.Fatalf("GenMove: %v", err)
				}
				if m.String() != tt.want {
					t.Errorf("GenMove = %v, want %v\n%v", m, tt.want, g.Board())
				}
			})
		}
	}
}

func TestAvoidsSelfAtariOfBigGroup(t *testing.T) {
	// Black's seven stones have two liberties, D3 and E5; playing D3
	// would leave them one, for White to take.
	g := position(t, `
		. . . . . . .
		. . . . . . .
		O O O O . O .
		X X X X X O .
		O O O . X O .
		. . O O O . .
		. . . . . . .`, engine.Black)
	for _, bot := range append(tacticalBots(), NewGreedy(2), NewGreedy(3), NewGreedy(4)) {
		t.Run(bot.Name(), func(t *testing.T) {
			m, err := bot.GenMove(context.Background(), g, tacticalBudget)
			if err != nil {
				t.Fatalf("GenMove: %v", err)
			}
			if m.String() == "D3" {
				t.Errorf("GenMove = %v, a self-atari of seven stones\n%v", m, g.Board())
			}
		})
	}
}

func TestDoesNotFillOwnEye(t *testing.T) {
	// Every empty point is an eye of Black's living group: every bot
	// passes rather than fill one.
	g := position(t, `
		X X X X X
		X . X . X
		X X X X X
		X . X . X
		X X X X X`, engine.Black)
	for _, bot := range []Bot{NewRandom(1), NewGreedy(1), NewMinimax(1)} {
		t.Run(bot.Name(), func(t *testing.T) {
			for i := 0; i < 5; i++ {
				m, err := bot.GenMove(context.Background(), g, tacticalBudget)
				if err != nil {
					t.Fatalf("GenMove: %v", err)
				}
				if m.Kind != engine.Pass {
					t.Fatalf("GenMove = %v, want pass (only own eyes are left)", m)
				}
			}
		})
	}
	// With open points between two living groups, random plays there,
	// never in an eye.
	g = position(t, `
		X X X X X X X
		X . X . X . X
		X X X X X X X
		. . . . . . .
		O O O O O O O
		O . O . O . O
		O O O O O O O`, engine.Black)
	rnd := NewRandom(7)
	for i := 0; i < 50; i++ {
		m, err := rnd.GenMove(context.Background(), g, Budget{})
		if err != nil {
			t.Fatalf("GenMove: %v", err)
		}
		if m.Kind != engine.Place || m.Point.Row != 3 {
			t.Fatalf("GenMove = %v, want a point on row 4\n%v", m, g.Board())
		}
	}
}

func TestPassesBack(t *testing.T) {
	// White has passed. Black is behind and has nothing to play but its
	// own area (White's eyes are suicide for it): it passes back.
	diagram := `
		. X O . O
		. X O O O
		X X O . O
		. X O O O
		. X O . O`
	for _, bot := range []Bot{NewRandom(1), NewGreedy(1), NewMinimax(1)} {
		t.Run(bot.Name(), func(t *testing.T) {
			g := position(t, diagram, engine.White)
			if err := g.Play(engine.PassMove(engine.White)); err != nil {
				t.Fatal(err)
			}
			m, err := bot.GenMove(context.Background(), g, tacticalBudget)
			if err != nil {
				t.Fatalf("GenMove: %v", err)
			}
			if m.Kind != engine.Pass {
				t.Errorf("GenMove = %v after White's pass, want pass", m)
			}
		})
	}
	// Without the pass, the random player does not fill its settled area
	// either: it passes.
	g := position(t, diagram, engine.Black)
	m, err := NewRandom(1).GenMove(context.Background(), g, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != engine.Pass {
		t.Errorf("GenMove = %v, want pass", m)
	}
}

func TestFindsOnlySavingMove(t *testing.T) {
	// Black's group has a straight three eye space: only the middle point
	// C2 makes two eyes; White to play kills there.
	diagram := `
		. . . . .
		O O O O O
		X X X X X
		X . . . X
		X X X X X`
	for _, tt := range []struct {
		toPlay engine.Color
		want   string
	}{{engine.Black, "C2"}, {engine.White, "C2"}} {
		t.Run(tt.toPlay.String(), func(t *testing.T) {
			g := position(t, diagram, tt.toPlay)
			m, err := NewMinimax(1).GenMove(context.Background(), g, Budget{Playouts: 30000})
			if err != nil {
				t.Fatalf("GenMove: %v", err)
			}
			if m.String() != tt.want {
				t.Errorf("GenMove = %v, want %v\n%v", m, tt.want, g.Board())
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	makers := []struct {
		name string
		new  func(seed int64) Bot
	}{
		{"random", func(s int64) Bot { return NewRandom(s) }},
		{"greedy", func(s int64) Bot { return NewGreedy(s) }},
		{"minimax", func(s int64) Bot { return NewMinimax(s) }},
	}
	for _, mk := range makers {
		t.Run(mk.name, func(t *testing.T) {
			play := func() []engine.Move {
				g, err := engine.NewGame(engine.Config{Size: 7})
				if err != nil {
					t.Fatal(err)
				}
				black, white := mk.new(42), mk.new(43)
				for i := 0; i < 12 && !g.Over(); i++ {
					bot := black
					if g.ToPlay() == engine.White {
						bot = white
					}
					m, err := bot.GenMove(context.Background(), g, Budget{Playouts: 3000})
					if err != nil {
						t.Fatalf("GenMove: %v", err)
					}
					if err := g.Play(m); err != nil {
						t.Fatalf("Play(%v): %v", m, err)
					}
				}
				return g.Moves()
			}
			a, b := play(), play()
			if len(a) != len(b) {
				t.Fatalf("games of %d and %d moves from the same seeds", len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("move %d: %v then %v from the same seeds", i+1, a[i], b[i])
				}
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, bot := range []Bot{NewRandom(1), NewGreedy(1), NewMinimax(1)} {
		if _, err := bot.GenMove(ctx, g, Budget{Time: time.Hour}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: GenMove(cancelled) = %v, want context.Canceled", bot.Name(), err)
		}
	}
}

// TestDeadline: time running out is no error. A search with a long budget
// stops at its context's deadline with the best move found so far, and a
// context already past its deadline (a GTP clock with no time left) gets a
// legal move at once from every level.
func TestDeadline(t *testing.T) {
	g := position(t, `
		. . . . . . . . .
		. . . . . . . . .
		. . X O . . . . .
		. . X O . . . . .
		. . . X O . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`, engine.Black)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	m, err := NewMinimax(1).GenMove(ctx, g, Budget{Time: time.Hour})
	if err != nil {
		t.Fatalf("minimax: GenMove(deadline in 200 ms) = %v, want the best move so far", err)
	}
	if cerr := g.Check(m); cerr != nil {
		t.Errorf("minimax: GenMove(deadline in 200 ms) = %v, illegal: %v", m, cerr)
	}
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now())
	defer cancel2()
	for _, l := range Builtin() {
		m, err := l.New(1).GenMove(expired, g, l.Budget)
		if err != nil {
			t.Errorf("%s: GenMove(deadline passed) = %v, want a move", l.Name, err)
			continue
		}
		if cerr := g.Check(m); cerr != nil || m.Kind != engine.Place {
			t.Errorf("%s: GenMove(deadline passed) = %v (%v), want a legal place", l.Name, m, cerr)
		}
	}
}

func TestGameOver(t *testing.T) {
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []engine.Move{engine.PassMove(engine.Black), engine.PassMove(engine.White)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, bot := range []Bot{NewRandom(1), NewGreedy(1), NewMinimax(1)} {
		if _, err := bot.GenMove(context.Background(), g, Budget{}); !errors.Is(err, ErrGameOver) {
			t.Errorf("%s: GenMove(ended game) = %v, want ErrGameOver", bot.Name(), err)
		}
	}
}

// TestMovesAlwaysLegal plays whole games on small boards under positional
// and situational superko, where repetitions are common, and checks every
// move with the game's own rules.
func TestMovesAlwaysLegal(t *testing.T) {
	for _, ko := range []engine.KoRule{engine.PositionalSuperko, engine.SituationalSuperko, engine.SimpleKo} {
		for _, size := range []int{4, 5} {
			rules := engine.DefaultRules()
			rules.Ko = ko
			for seed := int64(0); seed < 4; seed++ {
				g, err := engine.NewGame(engine.Config{Size: size, Rules: rules})
				if err != nil {
					t.Fatal(err)
				}
				players := []Bot{NewRandom(seed), NewGreedy(seed), NewMinimax(seed)}
				black, white := players[seed%3], players[(seed+1)%3]
				for !g.Over() && g.MoveCount() < 200 {
					bot := black
					if g.ToPlay() == engine.White {
						bot = white
					}
					m, err := bot.GenMove(context.Background(), g, Budget{Playouts: 500})
					if err != nil {
						t.Fatalf("%v %d×%d seed %d: %s GenMove: %v", ko, size, size, seed, bot.Name(), err)
					}
					if err := g.Play(m); err != nil {
						t.Fatalf("%v %d×%d seed %d: %s played %v: %v\n%v", ko, size, size, seed, bot.Name(), m, err, g.Board())
					}
				}
			}
		}
	}
}
