package draughts

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Player chooses moves: a built-in level or an external engine. GenMove
// returns a legal move of g's position, ErrGameOver when the game is over
// by the rules, or ctx's error when ctx is cancelled; a deadline that
// passes makes it answer with the best move it has. Unless stated
// otherwise a Player is not safe for concurrent use; Level.New makes a
// fresh one per caller.
type Player interface {
	GenMove(ctx context.Context, g Game, b Budget) (draughts.Move, error)
}

var (
	_ Player = (*Random)(nil)
	_ Player = (*SearchPlayer)(nil)
)

// Random plays a random legal move: the beginner level.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player; the same seed plays the same moves.
func NewRandom(seed int64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(uint64(seed), 0x72616e646f6d))}
}

// GenMove returns one of g's legal moves, each as likely; b is ignored.
func (r *Random) GenMove(ctx context.Context, g Game, _ Budget) (draughts.Move, error) {
	if err := cancelled(ctx); err != nil {
		return draughts.Move{}, err
	}
	if len(g.History) == 0 || g.Over() {
		return draughts.Move{}, ErrGameOver
	}
	p := g.Position()
	var buf [draughts.MaxMoves]draughts.Move
	moves := p.Generate(buf[:0])
	return moves[r.rng.IntN(len(moves))], nil
}

// SearchPlayer plays the move its Searcher finds: every level from easy
// up. Keeping one for a whole game keeps the search's table.
type SearchPlayer struct {
	s *Searcher
	// Last is the last search's result, for its statistics.
	Last Result
}

// NewSearchPlayer returns a player that searches with opts.
func NewSearchPlayer(opts Options) *SearchPlayer {
	return &SearchPlayer{s: NewSearcher(opts)}
}

// GenMove searches g within b.
func (sp *SearchPlayer) GenMove(ctx context.Context, g Game, b Budget) (m draughts.Move, err error) {
	defer func() {
		if r := recover(); r != nil {
			// A bug in the search must not take the bot down with it;
			// the game is unchanged.
			m, err = draughts.Move{}, fmt.Errorf("%w: %v", ErrInternal, r)
		}
	}()
	res, err := sp.s.Search(ctx, g, b)
	if err != nil {
		return draughts.Move{}, err
	}
	sp.Last = res
	return res.Move, nil
}

// Blend plays one player's move on a share of the moves and the other's
// on the rest, drawn move by move from its seed: a level between two
// others (easy is the greedy search on some moves and random on the
// others).
type Blend struct {
	a, b  Player
	share float64
	rng   *rand.Rand
}

var _ Player = (*Blend)(nil)

// NewBlend returns a player that plays a's move with probability share
// and b's otherwise.
func NewBlend(a, b Player, share float64, seed int64) *Blend {
	return &Blend{a: a, b: b, share: share, rng: rand.New(rand.NewPCG(uint64(seed), 0x626c656e64))}
}

// GenMove asks one of the two players, each with its share.
func (bl *Blend) GenMove(ctx context.Context, g Game, b Budget) (draughts.Move, error) {
	if bl.rng.Float64() < bl.share {
		return bl.a.GenMove(ctx, g, b)
	}
	return bl.b.GenMove(ctx, g, b)
}
