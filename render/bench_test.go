package render

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// BenchmarkBoard draws and encodes mid-game positions (GNU Go games of
// 40, 70 and 120 moves, last move marked) three ways: "cached" is Board;
// "naive" redraws everything with gg for every picture but quantises and
// encodes like Board; "rgba" is the naive redraw written as a full-colour
// PNG at the default compression, the first thing one would write.
// Each reports the picture's size in bytes and the process's CPU time per
// picture (cpu-ns/op), which a machine shared with other work inflates far
// less than the wall clock; run with -cpu 1 for one core.
func BenchmarkBoard(b *testing.B) {
	for _, c := range []struct {
		size  int
		moves string
	}{{9, game9}, {13, game13}, {19, game19}} {
		g := playGame(b, c.size, 0, c.moves)
		board := g.Board()
		last, _ := g.LastMove()
		opts := Options{LastMove: last}
		ways := []struct {
			name string
			f    func(io.Writer, *engine.Board, Options) error
		}{
			{"cached", Board},
			{"naive", naiveBoard},
			{"rgba", func(w io.Writer, b *engine.Board, o Options) error {
				img, err := naiveRGBA(b, o)
				if err != nil {
					return err
				}
				return png.Encode(w, img)
			}},
		}
		for _, way := range ways {
			b.Run(fmt.Sprintf("%dx%d/%s", c.size, c.size, way.name), func(b *testing.B) {
				var buf bytes.Buffer
				if err := way.f(&buf, board, opts); err != nil { // warm the cache
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu := runtimetest.CPUTime()
				for b.Loop() {
					buf.Reset()
					if err := way.f(&buf, board, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(buf.Len()), "bytes")
			})
		}
	}
}

// randomGame plays n random legal moves on a 19×19 board, never filling a
// player's own eye, so that the game looks like a (poor) game rather than
// a board filling up. Candidates come from the board's fast door; the game
// checks each move in full.
func randomGame(tb testing.TB, n int, seed uint64) *engine.Game {
	tb.Helper()
	g, err := engine.NewGame(engine.Config{Size: 19, Rules: engine.DefaultRules()})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for g.MoveCount() < n {
		b := g.Board()
		c := g.ToPlay()
		m := engine.PassMove(c)
		for try := 0; try < 50 && b.EmptyCount() > 0; try++ {
			v := b.EmptyVertex(rng.IntN(b.EmptyCount()))
			if b.Legal(v, c) && !b.IsEye(v, c) {
				if cand := engine.PlaceAt(c, b.Point(v)); g.Check(cand) == nil {
					m = cand
					break
				}
			}
		}
		if err := g.Play(m); err != nil {
			tb.Fatalf("Play(%v) = %v", m, err)
		}
		if g.Over() {
			tb.Fatalf("random game ended after %d moves", g.MoveCount())
		}
	}
	return g
}

// BenchmarkGIF animates a 250-move 19×19 game and reports the GIF's size.
func BenchmarkGIF(b *testing.B) {
	g := randomGame(b, 250, 1)
	var buf bytes.Buffer
	if err := GIF(&buf, g, GIFOptions{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := runtimetest.CPUTime()
	for b.Loop() {
		buf.Reset()
		if err := GIF(&buf, g, GIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(buf.Len()), "bytes")
}
