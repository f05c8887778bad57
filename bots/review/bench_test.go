package review

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// The review benchmarks measure the two targets on this machine:
// a 60-move 9×9 game and a 250-move 19×19 game, each reviewed with the
// built-in engine at its review budget on one thread. Run them with
//
//	nice go test ./bots/review/ -run XXX -bench Review -benchtime 1x
//
// and read the seconds per review (s/review) and, on a shared machine, the
// CPU seconds (cpu-s/review): one review runs on one thread.

// selfPlay returns a game of the given number of moves played by the Monte
// Carlo engine against itself with a small budget (deterministic).
func selfPlay(tb testing.TB, size, moves int) *engine.Game {
	tb.Helper()
	g, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules()})
	if err != nil {
		tb.Fatal(err)
	}
	e := mcts.NewSearcher(mcts.Options{Seed: 3, Threads: 1, ResignThreshold: -1})
	for g.MoveCount() < moves && !g.Over() {
		m, err := e.GenMove(context.Background(), g, 0, 200)
		if err != nil {
			tb.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// proGame returns the first n moves of a professional 19×19 game.
func proGame(tb testing.TB, n int) *engine.Game {
	tb.Helper()
	data, err := os.ReadFile("testdata/pro19.sgf")
	if err != nil {
		tb.Fatal(err)
	}
	full, _, err := engine.ParseSGF(data)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := full.Config()
	g, err := engine.NewGame(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	for _, m := range full.Moves()[:n] {
		if err := g.Play(m); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

func benchmarkReview(b *testing.B, g *engine.Game) {
	var total time.Duration
	cpu0 := runtimetest.CPUTime()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r, err := Run(context.Background(), g, MCTS{Seed: 1}, nil)
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		if len(r.Positions) != g.MoveCount()+1 {
			b.Fatalf("%d positions for %d moves", len(r.Positions), g.MoveCount())
		}
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/review")
	// The machine is shared: the CPU time is what the review costs on a
	// core of its own.
	b.ReportMetric((runtimetest.CPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s/review")
}

func BenchmarkReview9x9(b *testing.B) {
	g := selfPlay(b, 9, 60)
	if g.MoveCount() != 60 {
		b.Fatalf("self-play game ended after %d moves", g.MoveCount())
	}
	b.ResetTimer()
	benchmarkReview(b, g)
}

func BenchmarkReview19x19(b *testing.B) {
	benchmarkReview(b, proGame(b, 250))
}
