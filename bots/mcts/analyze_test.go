package mcts

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// TestAnalyze checks the judgement of a position Black has won: a high win
// rate for Black whoever is to move, a positive score, the ownership of
// both areas, and a best move that starts the principal variation.
func TestAnalyze(t *testing.T) {
	for _, toPlay := range []engine.Color{engine.Black, engine.White} {
		g := gameFrom(t, 0.5, toPlay, `
			. . . . .
			. . . . .
			X X X X X
			O O O O O
			. . . . .`)
		a, err := Analyze(context.Background(), g, 600, 1)
		if err != nil {
			t.Fatal(err)
		}
		if a.ToPlay != toPlay {
			t.Errorf("%v to play: ToPlay = %v", toPlay, a.ToPlay)
		}
		if a.Winrate < 0.8 {
			t.Errorf("%v to play: Black's win rate = %.2f, want > 0.8 (Black has 15 points to 10)", toPlay, a.Winrate)
		}
		if a.Score < 2 || a.Score > 7 {
			t.Errorf("%v to play: score = %.1f, want about 4.5", toPlay, a.Score)
		}
		if len(a.Ownership) != 25 || a.Ownership[24] < 0.6 || a.Ownership[0] > -0.6 {
			t.Errorf("%v to play: ownership of A1 and E5 = %v", toPlay, a.Ownership)
		}
		if len(a.PV) == 0 || a.PV[0] != a.Best || a.Best.Color != toPlay {
			t.Errorf("%v to play: best %v, PV %v", toPlay, a.Best, a.PV)
		}
		if a.Playouts != 600 {
			t.Errorf("%v to play: %d playouts, want 600", toPlay, a.Playouts)
		}
	}
}

// TestAnalyzeDeterministic checks that the same position and seed give the
// same analysis, and that no goroutine is left behind.
func TestAnalyzeDeterministic(t *testing.T) {
	g := newGame(t, 9)
	for _, m := range []string{"E5", "C3", "G7"} {
		p, _ := engine.ParsePoint(m, 9)
		if err := g.Play(engine.PlaceAt(g.ToPlay(), p)); err != nil {
			t.Fatal(err)
		}
	}
	before := runtime.NumGoroutine()
	a1, err := Analyze(context.Background(), g, 800, 7)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := Analyze(context.Background(), g, 800, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a1, a2) {
		t.Errorf("two analyses with seed 7 differ:\n%+v\n%+v", a1, a2)
	}
	runtimetest.NoGoroutineLeft(t, before, "after the analyses")
}

// TestAnalyzeEnded checks a position after two passes: the score is
// counted from the ownership (the white stone inside Black's area is dead,
// and White still wins by 21 to 28 less one) and the win rate is White's
// certain win.
func TestAnalyzeEnded(t *testing.T) {
	g := endedGame(t)
	a, err := Analyze(context.Background(), g, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Winrate != 0 || a.Score > -1 {
		t.Errorf("after two passes: win rate %.2f score %.1f, want White's win", a.Winrate, a.Score)
	}
	if d := enginetest.Point(t, "D6", 7); a.Ownership[d.Row*7+d.Col] < 0.5 {
		t.Errorf("ownership of the dead white stone at D6 = %.2f, want Black's", a.Ownership[d.Row*7+d.Col])
	}
	if a.Best.Kind != engine.Pass || len(a.PV) != 0 {
		t.Errorf("after two passes: best %v PV %v, want a pass and no variation", a.Best, a.PV)
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, newGame(t, 9), 100, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := Analyze(context.Background(), nil, 100, 1); !errors.Is(err, ErrNoGame) {
		t.Errorf("Analyze(nil) = %v, want ErrNoGame", err)
	}
	if _, err := Analyze(context.Background(), newGame(t, 9), 0, 1); !errors.Is(err, ErrNoBudget) {
		t.Errorf("Analyze with no playouts = %v, want ErrNoBudget", err)
	}
	est, err := EstimateScore(context.Background(), newGame(t, 9), 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if est.Stdev <= 0 || est.Playouts != 200 {
		t.Errorf("EstimateScore on the empty board: stdev %.1f after %d playouts, want a spread", est.Stdev, est.Playouts)
	}
}
