package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// benchmarkSearch measures the playouts of a one-thread search from the
// empty board, per wall second and per CPU second, with the shape prior as
// hard and max search, in a tree of nodes nodes (0 for the default) that
// is collected when it fills if collect is set.
func benchmarkSearch(b *testing.B, size, playouts, nodes int, collect bool) {
	benchmarkSearchFrom(b, newGame(b, size), playouts, nodes, collect)
}

// benchmarkSearchFrom measures as benchmarkSearch from the position of g.
func benchmarkSearchFrom(b *testing.B, g *engine.Game, playouts, nodes int, collect bool) {
	total, collected := 0, 0
	var wall time.Duration
	cpu0 := runtimetest.CPUTime()
	for i := 0; i < b.N; i++ {
		e := NewSearcher(Options{Seed: int64(i), Threads: 1, NoEarlyStop: true, Shape: true, SelfAtari: true,
			MaxNodes: nodes, Collect: collect})
		if _, err := e.GenMove(context.Background(), g, 0, playouts); err != nil {
			b.Fatal(err)
		}
		st := e.Stats()
		total += st.Playouts
		wall += st.Elapsed
		collected += st.Collected
	}
	cpu := runtimetest.CPUTime() - cpu0
	b.ReportMetric(float64(total)/wall.Seconds(), "playouts/s")
	if cpu > 0 {
		b.ReportMetric(float64(total)/cpu.Seconds(), "playouts/cpu-s")
	}
	if collect {
		b.ReportMetric(float64(collected)/float64(b.N), "collections/op")
	}
}

func BenchmarkSearch9x9(b *testing.B)   { benchmarkSearch(b, 9, 20000, 0, false) }
func BenchmarkSearch19x19(b *testing.B) { benchmarkSearch(b, 19, 3000, 0, false) }

// The cost of collecting: a search in a tree of 256k nodes, which fills
// after about 7,000 playouts, collecting or going on from its leaves.
func BenchmarkSearchFull9x9(b *testing.B)    { benchmarkSearch(b, 9, 20000, 1<<18, false) }
func BenchmarkSearchCollect9x9(b *testing.B) { benchmarkSearch(b, 9, 20000, 1<<18, true) }

// The two steps of a collection, on a 9×9 tree of 20,000 playouts (about
// 700k nodes): counting the visits that decide what is kept, and copying
// the tree into half its size (counting first, as a collection does).
func BenchmarkPruneVisits(b *testing.B) {
	s := grownTree(b, 20000)
	keep := s.tree.used() / 2
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pruneVisits(s.tree, s.root, keep)
	}
	b.ReportMetric(float64(s.tree.used()), "nodes")
}

func BenchmarkCopySubtree(b *testing.B) {
	s := grownTree(b, 20000)
	used := s.tree.used()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copySubtree(s.tree, s.root, used, used/2)
	}
	b.ReportMetric(float64(used), "nodes")
}

// benchmarkPlayout measures bare playouts from the empty board, without
// the tree.
func benchmarkPlayout(b *testing.B, size int) {
	g := newGame(b, size)
	e := NewSearcher(Options{Threads: 1})
	s := e.newSearch(g, time.Now())
	s.tree = newArena(1)
	w := newWorker(s, 1, 0)
	cpu0 := runtimetest.CPUTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.board = s.board
		w.stamp++
		w.simulate(&w.board, s.toPlay, 0, 0, 0)
	}
	if cpu := runtimetest.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "playouts/cpu-s")
	}
}

func BenchmarkPlayout9x9(b *testing.B)   { benchmarkPlayout(b, 9) }
func BenchmarkPlayout19x19(b *testing.B) { benchmarkPlayout(b, 19) }
