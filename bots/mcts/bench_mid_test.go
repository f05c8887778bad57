package mcts

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// BenchmarkSearchMid19x19 measures as BenchmarkSearch19x19 from a position
// of the middle game (120 moves of a playout player from the empty
// board), where the shape model's large patterns cost more than on the
// empty board.
func BenchmarkSearchMid19x19(b *testing.B) {
	g := newGame(b, 19)
	p := playout.Player{Rand: playout.NewRand(19)}
	last := engine.PassVertex
	for range 120 {
		bd := g.Board()
		v := p.Move(bd, g.ToPlay(), last)
		if err := g.Play(engine.Move{Kind: engine.Place, Color: g.ToPlay(), Point: bd.Point(v)}); err != nil {
			b.Fatal(err)
		}
		last = v
	}
	benchmarkSearchFrom(b, g, 3000, 0, false)
}
