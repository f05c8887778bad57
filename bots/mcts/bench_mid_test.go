package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
	"github.com/gobot-dev/gobot/internal/runtimetest"
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
	total := 0
	var wall time.Duration
	cpu0 := runtimetest.CPUTime()
	for i := 0; i < b.N; i++ {
		e := NewSearcher(Options{Seed: int64(i), Threads: 1, NoEarlyStop: true, Shape: true, SelfAtari: true})
		if _, err := e.GenMove(context.Background(), g, 0, 3000); err != nil {
			b.Fatal(err)
		}
		st := e.Stats()
		total += st.Playouts
		wall += st.Elapsed
	}
	cpu := runtimetest.CPUTime() - cpu0
	b.ReportMetric(float64(total)/wall.Seconds(), "playouts/s")
	if cpu > 0 {
		b.ReportMetric(float64(total)/cpu.Seconds(), "playouts/cpu-s")
	}
}
