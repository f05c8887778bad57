package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// TestNoTimeKeepsBestPrior: with no time left the search runs no playout
// and answers with the move of the best prior, a point of an empty corner
// on 19×19, whatever the seed, even in the opening that Options.Vary
// varies (it drew among every legal move: S6, T2, R11 on an empty board).
func TestNoTimeKeepsBestPrior(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		g, err := engine.NewGame(engine.Config{Size: 19})
		if err != nil {
			t.Fatal(err)
		}
		e := NewSearcher(Options{Seed: seed, Threads: 2, Vary: 20, Shape: true})
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		m, err := e.GenMoveTimed(ctx, g, 0, 0, 0)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		p := m.Point
		line := func(x int) int { return min(x, 18-x) }
		if m.Kind != engine.Place || line(p.Col) < 2 || line(p.Col) > 4 || line(p.Row) < 2 || line(p.Row) > 4 {
			t.Errorf("seed %d: with no time, %v on an empty 19×19 board; want a corner point on the third to fifth lines", seed, m)
		}
	}
}
