package enginetest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// Play plays moves on g through the checked door (Game.Play), failing tb on
// a move that does not parse or that the rules refuse. A move is a GTP
// vertex ("D4") or "pass", played by the player to move, or either after a
// colour ("B D4", "W pass") to say who plays it: a colour out of turn is
// refused as Game.Play refuses it.
func Play(tb testing.TB, g *engine.Game, moves ...string) {
	tb.Helper()
	for _, s := range moves {
		c, vertex := g.ToPlay(), s
		if col, v, ok := strings.Cut(s, " "); ok {
			var err error
			if c, err = engine.ParseColor(col); err != nil {
				tb.Fatalf("enginetest: move %q: %v", s, err)
			}
			vertex = v
		}
		m, err := engine.ParseMove(c, vertex, g.Size())
		if err != nil {
			tb.Fatalf("enginetest: ParseMove(%q) = %v", s, err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatalf("enginetest: Play(%s) = %v\n%v", s, err, g.Board())
		}
	}
}

// NewGame returns engine.NewGame(cfg) with moves played (see Play), failing
// tb on a refused configuration or move.
func NewGame(tb testing.TB, cfg engine.Config, moves ...string) *engine.Game {
	tb.Helper()
	g, err := engine.NewGame(cfg)
	if err != nil {
		tb.Fatalf("enginetest: NewGame(%+v) = %v", cfg, err)
	}
	Play(tb, g, moves...)
	return g
}

// Point parses a GTP coordinate ("D4") on a board of the given size,
// failing tb when it is not one.
func Point(tb testing.TB, s string, size int) engine.Point {
	tb.Helper()
	p, err := engine.ParsePoint(s, size)
	if err != nil {
		tb.Fatalf("enginetest: ParsePoint(%q, %d) = %v", s, size, err)
	}
	return p
}

// PlayRandom plays a random move on g through the checked door: the point
// Board.RandomMove draws with rng (never one of the player's own eyes), or
// a pass when there is none or the game refuses the point (superko).
func PlayRandom(g *engine.Game, rng *rand.Rand) {
	b := g.Board()
	c := g.ToPlay()
	m := engine.PassMove(c)
	if v := b.RandomMove(c, rng.Uint32()); v != engine.PassVertex {
		m = engine.PlaceAt(c, b.Point(v))
	}
	if g.Play(m) != nil {
		g.Play(engine.PassMove(c))
	}
}
