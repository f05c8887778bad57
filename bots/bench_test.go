package bots

import (
	"context"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// benchPosition returns a 9×9 middle-game position reached by greedy
// self-play, the same every time.
func benchPosition(b testing.TB, size, moves int) *engine.Game {
	b.Helper()
	g, err := engine.NewGame(engine.Config{Size: size})
	if err != nil {
		b.Fatal(err)
	}
	black, white := NewGreedy(1), NewGreedy(2)
	for g.MoveCount() < moves && !g.Over() {
		bot := black
		if g.ToPlay() == engine.White {
			bot = white
		}
		m, err := bot.GenMove(context.Background(), g, Budget{})
		if err != nil {
			b.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkMinimax reports minimax's search speed in nodes per second
// (a node is a position visited, quiescence included).
func BenchmarkMinimax(b *testing.B) {
	for _, bc := range []struct {
		name        string
		size, moves int
	}{{"9x9", 9, 20}, {"19x19", 19, 60}} {
		b.Run(bc.name, func(b *testing.B) {
			g := benchPosition(b, bc.size, bc.moves)
			var nodes int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m := NewMinimax(int64(i))
				if _, err := m.GenMove(context.Background(), g, Budget{Playouts: 50000}); err != nil {
					b.Fatal(err)
				}
				nodes += m.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkGreedy and BenchmarkRandom time one move on a 19×19 board.
func BenchmarkGreedy(b *testing.B) { benchMove(b, NewGreedy(1)) }

func BenchmarkRandom(b *testing.B) { benchMove(b, NewRandom(1)) }

// benchMove times bot's move in a 19×19 position of 60 moves, with no
// budget.
func benchMove(b *testing.B, bot Bot) {
	g := benchPosition(b, 19, 60)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bot.GenMove(context.Background(), g, Budget{}); err != nil {
			b.Fatal(err)
		}
	}
}
