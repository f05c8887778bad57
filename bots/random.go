package bots

import (
	"context"
	"math/rand/v2"

	"github.com/gobot-dev/gobot/engine"
)

// Random plays a uniformly random legal move that does not fill one of its
// own eyes, outside settled territory. It passes when no such move is left,
// and when the opponent has just passed and it is ahead on the board or has
// nothing left to play but its own area; it resigns a game lost beyond
// doubt. It is the beginner level.
type Random struct {
	rng *rand.Rand
}

var _ Bot = (*Random)(nil)

// NewRandom returns a random player; the same seed gives the same moves in
// the same positions.
func NewRandom(seed int64) *Random {
	return &Random{rng: newRand(seed)}
}

// newRand returns a generator seeded from seed.
func newRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x6f626f74))
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// GenMove returns a random sensible move for the player to move.
func (r *Random) GenMove(ctx context.Context, g *engine.Game, _ Budget) (engine.Move, error) {
	b, moves, resign, err := sensibleMoves(ctx, g, r.rng.Int64())
	if err != nil {
		return engine.Move{}, err
	}
	if resign {
		return engine.ResignMove(g.ToPlay()), nil
	}
	if v, ok := pickLegal(r.rng, g, b, moves); ok {
		return place(g, b, v), nil
	}
	return engine.PassMove(g.ToPlay()), nil
}

// pickLegal draws vertices from moves uniformly at random until one is legal
// under the game's full rules, removing the rest; moves is reordered.
func pickLegal(rng *rand.Rand, g *engine.Game, b *engine.Board, moves []int) (int, bool) {
	for len(moves) > 0 {
		i := rng.IntN(len(moves))
		v := moves[i]
		if legalAt(g, b, v) {
			return v, true
		}
		moves[i] = moves[len(moves)-1]
		moves = moves[:len(moves)-1]
	}
	return 0, false
}
