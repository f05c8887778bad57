package review

import (
	"context"
	"fmt"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// Playouts returns the playout budget per position of the built-in
// search's reviews on a board of the given size: chosen so that a 60-move
// 9×9 game reviews in about 7 s and a 250-move 19×19 game in about 60 s of
// one core's time (the targets are 10 s and 90 s; see bench_test.go).
func Playouts(size int) int {
	switch {
	case size <= 9:
		return 2500
	case size <= 13:
		return 1800
	}
	return 1500
}

// MCTS judges positions with the built-in Monte Carlo search on one
// thread: Playouts playouts per position (0: Playouts(size)) and the seed
// Seed plus the number of moves played, so a review is the same every time.
type MCTS struct {
	Playouts int
	Seed     int64
}

var _ Evaluator = MCTS{}

func (m MCTS) playouts(size int) int {
	if m.Playouts > 0 {
		return m.Playouts
	}
	return Playouts(size)
}

// Name returns "mcts N playouts".
func (m MCTS) Name(size int) string { return fmt.Sprintf("mcts %d playouts", m.playouts(size)) }

// Evaluate runs mcts.Analyze on g.
func (m MCTS) Evaluate(ctx context.Context, g *engine.Game) (Evaluation, error) {
	a, err := mcts.Analyze(ctx, g, m.playouts(g.Size()), m.Seed+int64(g.MoveCount()))
	if err != nil {
		return Evaluation{}, err
	}
	return Evaluation{Winrate: a.Winrate, Score: a.Score, Ownership: a.Ownership, Best: a.Best, PV: a.PV}, nil
}
