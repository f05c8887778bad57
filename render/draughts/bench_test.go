package draughts

import (
	"bytes"
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// BenchmarkBoard draws and encodes the start, the middle game with its
// king's double capture, a random game's position after 40 moves and a
// crowded board of men and kings after a long capture, and
// reports the CPU time per board (ms/board; a machine shared with other
// work inflates it far less than the wall clock) and the PNG's size
// (bytes/board). The budget is 5 ms and 100 KB a board.
func BenchmarkBoard(b *testing.B) {
	type bench struct {
		name string
		p    rules.Position
		opts Options
	}
	var cases []bench
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
		last, err := lastMove(c.s)
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases, bench{c.name, c.s.Position(), Options{Last: last.route, TakenKings: last.kings, Flip: c.flip}})
	}
	// The worst case: a crowded board, a third of its pieces kings, after
	// a king's long capture.
	crowded := randomPosition(1011)
	best := crowded.Path(crowded.Generate(nil)[0])
	for _, m := range crowded.Generate(nil) {
		if r := crowded.Path(m); len(r.Squares) > len(best.Squares) {
			best = r
		}
	}
	crowded.Play(best.Move())
	cases = append(cases, bench{"crowded", crowded, Options{Last: best}})
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var buf bytes.Buffer
			if err := Board(&buf, &c.p, c.opts); err != nil { // warm the cache
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := runtimetest.CPUTime()
			for b.Loop() {
				buf.Reset()
				if err := Board(&buf, &c.p, c.opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N)/1e6, "ms/board")
			b.ReportMetric(float64(buf.Len()), "bytes/board")
		})
	}
}

// BenchmarkGame draws a random game of 80 moves through Game, which
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
