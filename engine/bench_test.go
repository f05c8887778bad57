package engine_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// randomGameMoves plays a random game through the checked door and returns
// its moves (no passes until the end), for the benchmarks.
func randomGameMoves(size, n int, seed uint64) []Move {
	g, _ := NewGame(Config{Size: size, Rules: Presets["chinese"]})
	rng := rand.New(rand.NewPCG(seed, seed))
	for g.MoveCount() < n && !g.Over() {
		enginetest.PlayRandom(g, rng)
	}
	return g.Moves()
}

// BenchmarkBoardPlay replays a 19×19 random game on the fast path; ns/op is
// per move.
func BenchmarkBoardPlay(bm *testing.B) {
	moves := randomGameMoves(19, 300, 7)
	start, _ := NewBoard(19)
	bm.ResetTimer()
	b := *start
	for i := 0; i < bm.N; i++ {
		k := i % len(moves)
		if k == 0 {
			b = *start
		}
		m := moves[k]
		v := PassVertex
		if m.Kind == Place {
			v = b.Vertex(m.Point)
		}
		b.Play(v, m.Color)
	}
}

// BenchmarkGamePlay replays a 19×19 random game through Game.Play with
// positional superko; ns/op is per move.
func BenchmarkGamePlay(bm *testing.B) {
	moves := randomGameMoves(19, 300, 7)
	bm.ResetTimer()
	var g *Game
	for i := 0; i < bm.N; i++ {
		k := i % len(moves)
		if k == 0 {
			bm.StopTimer()
			g, _ = NewGame(Config{Size: 19, Rules: Presets["chinese"]})
			bm.StartTimer()
		}
		if err := g.Play(moves[k]); err != nil {
			bm.Fatal(err)
		}
	}
}

// BenchmarkLegalMoves lists the legal points of a mid-game 19×19 position
// with the full rules (superko included).
func BenchmarkLegalMoves(bm *testing.B) {
	g, _ := NewGame(Config{Size: 19, Rules: Presets["chinese"]})
	for _, m := range randomGameMoves(19, 150, 9) {
		g.Play(m)
	}
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		if len(g.Legal()) == 0 {
			bm.Fatal("no legal moves")
		}
	}
}
