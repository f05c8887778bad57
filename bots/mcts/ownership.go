package mcts

import (
	"context"
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
	est, err := EstimateScore(ctx, g, n, seed)
	if err != nil {
		return nil, err
	}
	return est.Ownership, nil
}

// Evaluator scores positions of one game by heavy playouts, for other
// searches: the minimax level evaluates its leaves with it. It is not safe
// for concurrent use.
type Evaluator struct {
	s *search
	w *worker
}

// NewEvaluator returns an evaluator for positions of g's game (its size,
// rules and komi) with playouts seeded from seed.
func NewEvaluator(g *engine.Game, seed int64) (*Evaluator, error) {
	if g == nil {
		return nil, ErrNoGame
	}
	e := NewSearcher(Options{Seed: seed, Threads: 1})
	s := e.newSearch(g, time.Now())
	return &Evaluator{s: s, w: newWorker(s, seed, 0)}, nil
}

// Score plays n playouts from b, a position of the evaluator's game, with
// toPlay to move after a move at vertex last (engine.PassVertex for none or
// a pass). It returns Black's mean lead at their end, counted by area less
// komi (and White's handicap compensation), and how many of them Black won.
// b is not modified.
func (ev *Evaluator) Score(b *engine.Board, toPlay engine.Color, last, n int) (lead float64, blackWins int) {
	w := ev.w
	sum := 0.0
	for i := 0; i < n; i++ {
		w.board = *b
		w.stamp++
		m := w.simulate(&w.board, toPlay, 0, last, 0) - ev.s.komi
		sum += m
		if m > 0 {
			blackWins++
		}
	}
	return sum / float64(max(n, 1)), blackWins
}
