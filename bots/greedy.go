package bots

import (
	"context"
	"math/rand/v2"

	"github.com/gobot-dev/gobot/engine"
)

// Greedy looks one move ahead: it captures the most stones it can, saves its
// own groups in atari, avoids putting its own stones in atari, and otherwise
// plays like Random (passing and resigning when Random would, and passing
// when every move left loses stones). It is the easy level.
type Greedy struct {
	rng *rand.Rand
}

var _ Bot = (*Greedy)(nil)

// NewGreedy returns a greedy player; the same seed gives the same moves in
// the same positions.
func NewGreedy(seed int64) *Greedy {
	return &Greedy{rng: newRand(seed)}
}

// Name returns "greedy".
func (gr *Greedy) Name() string { return "greedy" }

// The weights of Greedy's one-move evaluation, in stones.
const (
	greedyCapture   = 10 // per stone captured
	greedySave      = 9  // per own stone taken out of atari
	greedySelfAtari = 10 // per own stone left in atari by the move
	greedyAtari     = 1  // per opponent stone put in atari
)

// GenMove returns the best move by Greedy's one-move evaluation, choosing
// at random among equals.
func (gr *Greedy) GenMove(ctx context.Context, g *engine.Game, _ Budget) (engine.Move, error) {
	b, moves, resign, err := sensibleMoves(ctx, g, gr.rng.Int64())
	if err != nil {
		return engine.Move{}, err
	}
	if resign {
		return engine.ResignMove(g.ToPlay()), nil
	}
	c := g.ToPlay()
	scores := make([]int, len(moves))
	before := atariStones(b, c)
	for i, v := range moves {
		if i%32 == 0 {
			if err := cancelled(ctx); err != nil {
				return engine.Move{}, err
			}
		}
		scores[i] = greedyScore(b, v, c, before)
	}
	// Take the best moves in turn, at random among equals, until one is
	// legal under superko; a move that loses stones is never sensible.
	for len(moves) > 0 {
		best := scores[0]
		for _, s := range scores[1:] {
			best = max(best, s)
		}
		if best < 0 {
			break
		}
		var tied []int
		for i, s := range scores {
			if s == best {
				tied = append(tied, i)
			}
		}
		i := tied[gr.rng.IntN(len(tied))]
		if v := moves[i]; legalAt(g, b, v) {
			return place(g, b, v), nil
		}
		last := len(moves) - 1
		moves[i], scores[i] = moves[last], scores[last]
		moves, scores = moves[:last], scores[:last]
	}
	return engine.PassMove(c), nil
}

// greedyScore evaluates c playing at v on b, where before is the number of
// c's stones in atari now.
func greedyScore(b *engine.Board, v int, c engine.Color, before int) int {
	next := *b
	captured := next.Play(v, c)
	score := greedyCapture * captured
	after := atariStones(&next, c)
	if next.InAtari(v) {
		// The move's own chain is counted in after as well; a lone stone
		// that captured (a ko or a snapback) is a fair risk.
		if captured > 0 && next.ChainSize(v) == 1 {
			after--
		} else {
			score -= greedySelfAtari * next.ChainSize(v)
		}
	}
	score += greedySave * (before - after)
	opp := c.Opponent()
	for _, n := range next.Neighbours(v) {
		if next.ColorAt(n) == opp && next.InAtari(n) && !seenChain(&next, n, v) {
			score += greedyAtari * next.ChainSize(n)
		}
	}
	return score
}

// seenChain reports whether the chain at n also touches v through an
// earlier neighbour of v, so that it is not counted twice.
func seenChain(b *engine.Board, n, v int) bool {
	for _, m := range b.Neighbours(v) {
		if m == n {
			return false
		}
		if b.ColorAt(m) == b.ColorAt(n) && b.Chain(m) == b.Chain(n) {
			return true
		}
	}
	return false
}

// atariStones counts c's stones in chains with a single liberty.
func atariStones(b *engine.Board, c engine.Color) int {
	n := 0
	for i := 0; i < b.Area(); i++ {
		if b.ColorAt(i) == c && b.Chain(i) == i && b.InAtari(i) {
			n += b.ChainSize(i)
		}
	}
	return n
}
