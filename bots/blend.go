package bots

import (
	"context"
	"math/rand/v2"

	"github.com/gobot-dev/gobot/engine"
)

// Blend plays each move as one of two bots: the strong one with
// probability P, else the weak one. It weakens a level by a steady share
// of simpler moves, as a person who sometimes plays without reading.
type Blend struct {
	name         string
	strong, weak Bot
	p            float64
	rng          *rand.Rand
}

var _ Bot = (*Blend)(nil)

// NewBlend returns a bot that asks strong for its move with probability p
// and weak otherwise; the same seed makes the same choices.
func NewBlend(name string, strong, weak Bot, p float64, seed int64) *Blend {
	return &Blend{name: name, strong: strong, weak: weak, p: p, rng: newRand(seed)}
}

// Name returns the blend's name.
func (b *Blend) Name() string { return b.name }

// GenMove asks one of the two bots, as drawn.
func (b *Blend) GenMove(ctx context.Context, g *engine.Game, budget Budget) (engine.Move, error) {
	if b.rng.Float64() < b.p {
		return b.strong.GenMove(ctx, g, budget)
	}
	return b.weak.GenMove(ctx, g, budget)
}
