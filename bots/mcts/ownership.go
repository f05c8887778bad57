package mcts

import (
	"context"
	"fmt"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// EstimateOwnership plays n heavy playouts from g's position, with the
// player to move first, and returns for each point (index Row*size+Col)
// how often it ended as Black's minus how often as White's, divided by n:
// +1 always Black's, -1 always White's. It works on finished games too
// (after two passes), where a stone owned by the other colour in most
// playouts is probably dead. It does not modify g and stops with ctx's
// error when ctx is done.
func EstimateOwnership(ctx context.Context, g *engine.Game, n int, seed int64) ([]float64, error) {
	if g == nil {
		return nil, ErrNoGame
	}
	if n <= 0 {
		return nil, ErrNoBudget
	}
	e := New(Options{Seed: seed, Threads: 1})
	s := e.newSearch(g, time.Now())
	w := newWorker(s, seed, 0)
	for i := 0; i < n; i++ {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("mcts: ownership estimate cancelled: %w", err)
			}
		}
		w.board = s.board
		w.stamp++
		w.simulate(&w.board, s.toPlay, 0, s.last, 0)
	}
	own := make([]float64, s.size*s.size)
	for i, v := range s.points {
		own[i] = float64(w.ownB[v]-w.ownW[v]) / float64(w.ownN)
	}
	return own, nil
}
