package draughts

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// BenchmarkSearch searches the start position and a middle game to a
// fixed depth and reports the nodes a CPU second (the search's speed on
// one core; the CPU time, not the wall clock, so that a shared machine
// does not halve the figure).
func BenchmarkSearch(b *testing.B) {
	positions := []string{
		draughts.StartFEN,
		"W:W27,28,31,32,33,34,35,36,37,38,39,40,41,43,44,45,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,19,20,23",
	}
	var nodes int64
	cpu := runtimetest.CPUTime()
	for b.Loop() {
		for _, f := range positions {
			p, err := draughts.ParseFEN(f)
			if err != nil {
				b.Fatal(err)
			}
			s := NewSearcher(Options{Threats: 1})
			if _, err := s.Search(context.Background(), NewGame(p), Budget{Nodes: 400_000}); err != nil {
				b.Fatal(err)
			}
			nodes += s.Nodes()
		}
	}
	used := runtimetest.CPUTime() - cpu
	if used <= 0 {
		used = b.Elapsed()
	}
	b.ReportMetric(float64(nodes)/used.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestSearchQuick(t *testing.T) {
	s := NewSearcher(Options{Threats: 1})
	res, err := s.Search(context.Background(), NewGame(draughts.Start()), Budget{Time: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v nps=%.0f", res, float64(res.Nodes)/res.Time.Seconds())
}
