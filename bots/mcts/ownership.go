package mcts

import (
	"context"

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
