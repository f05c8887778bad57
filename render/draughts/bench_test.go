package draughts

import (
	"bytes"
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// BenchmarkBoard draws and encodes the start, the middle game with its
// king's double capture and a random game's position after 40 moves, and
// reports the CPU time per board (ms/board; a machine shared with other
// work inflates it far less than the wall clock) and the PNG's size
// (bytes/board). The budget is 5 ms and 100 KB a board.
func BenchmarkBoard(b *testing.B) {
	for _, c := range []struct {
		name string
		s    rules.State
		flip bool
	}{
		{"start", play(b, ""), false},
		{"midgame", midgame(b), false},
		{"midgame-flipped", midgame(b), true},
		{"random40", randomState(b, 40, 1), false},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := c.s.Position()
			last, err := lastMove(c.s)
			if err != nil {
				b.Fatal(err)
			}
			opts := Options{Last: last.route, TakenKings: last.kings, Flip: c.flip}
			var buf bytes.Buffer
			if err := Board(&buf, &p, opts); err != nil { // warm the cache
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := runtimetest.CPUTime()
			for b.Loop() {
				buf.Reset()
				if err := Board(&buf, &p, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N)/1e6, "ms/board")
			b.ReportMetric(float64(buf.Len()), "bytes/board")
		})
	}
}

// BenchmarkGame is BenchmarkBoard's middle game through Game, which
// replays the game to find the last move and what it took.
func BenchmarkGame(b *testing.B) {
	s := randomState(b, 80, 2)
	var buf bytes.Buffer
	b.ReportAllocs()
	cpu := runtimetest.CPUTime()
	for b.Loop() {
		buf.Reset()
		if err := Game(&buf, s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N)/1e6, "ms/board")
	b.ReportMetric(float64(buf.Len()), "bytes/board")
}
