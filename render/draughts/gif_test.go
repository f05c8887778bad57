package draughts

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"testing"
	"time"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// prefix returns s's game after its first n moves.
func prefix(tb testing.TB, s rules.State, n int) rules.State {
	tb.Helper()
	var moves []string
	for _, m := range s.Moves()[:n] {
		moves = append(moves, string(m))
	}
	start := s.Start()
	return play(tb, start.FEN(), moves...)
}

// TestGIFFrames plays each frame over the last and checks that the
// picture after every move is the one Game draws of the game so far.
func TestGIFFrames(t *testing.T) {
	for _, c := range []struct {
		name string
		s    rules.State
		opts GIFOptions
	}{
		{"random", randomState(t, 30, 5), GIFOptions{}},
		{"midgame, flipped, small", midgame(t), GIFOptions{Flip: true, Size: 300}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := GIF(&buf, c.s, c.opts); err != nil {
				t.Fatalf("GIF = %v", err)
			}
			anim, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatalf("gif.DecodeAll = %v", err)
			}
			if got, want := len(anim.Image), c.s.MoveCount()+1; got != want {
				t.Fatalf("%d frames, want %d (the start and one per move)", got, want)
			}
			if c.opts.Delay == 0 && anim.LoopCount != 0 {
				t.Errorf("LoopCount = %d, want 0 (loop for ever)", anim.LoopCount)
			}
			if last := anim.Delay[len(anim.Delay)-1]; last < 500 {
				t.Errorf("the final position shows %d cs, want at least 500", last)
			}
			canvas := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
			for i, f := range anim.Image {
				draw.Draw(canvas, f.Rect, f, f.Rect.Min, draw.Over)
				if i%7 != 0 && i != len(anim.Image)-1 {
					continue
				}
				var png bytes.Buffer
				if err := Game(&png, prefix(t, c.s, i), Options{Flip: c.opts.Flip, Size: c.opts.Size}); err != nil {
					t.Fatal(err)
				}
				want := decodePNG(t, png.Bytes())
				if g, w := pixelHash(canvas), pixelHash(want); g != w {
					t.Errorf("frame %d differs from Game's picture after %d moves", i, i)
				}
			}
		})
	}
}

func TestGIFErrors(t *testing.T) {
	s := opening(t)
	for _, c := range []struct {
		opts GIFOptions
		want error
	}{
		{GIFOptions{Size: MinPixels - 1}, ErrImageSize},
		{GIFOptions{Size: MaxPixels + 1}, ErrImageSize},
		{GIFOptions{Delay: -time.Second}, ErrBadDelay},
		{GIFOptions{Hold: -time.Second}, ErrBadDelay},
	} {
		var buf bytes.Buffer
		if err := GIF(&buf, s, c.opts); !errors.Is(err, c.want) || buf.Len() > 0 {
			t.Errorf("GIF(%+v) = %v with %d bytes written, want %v and nothing", c.opts, err, buf.Len(), c.want)
		}
	}
}

// TestGIFTiming checks the delays asked for and the one-shot loop count.
func TestGIFTiming(t *testing.T) {
	var buf bytes.Buffer
	if err := GIF(&buf, opening(t), GIFOptions{Delay: 250 * time.Millisecond, Hold: 2 * time.Second, PlayOnce: true}); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := anim.Delay[1]; got != 25 {
		t.Errorf("a move shows %d cs, want 25", got)
	}
	if got := anim.Delay[len(anim.Delay)-1]; got != 200 {
		t.Errorf("the final position shows %d cs, want 200", got)
	}
	if anim.LoopCount != -1 {
		t.Errorf("LoopCount = %d, want -1 (play once)", anim.LoopCount)
	}
	// The frames after the first are the changed rectangles with the
	// unchanged pixels transparent.
	for i, f := range anim.Image[1:] {
		if f.Rect == anim.Image[0].Rect {
			t.Errorf("frame %d is the whole picture", i+1)
		}
		if _, _, _, a := f.Palette[len(f.Palette)-1].RGBA(); a != 0 {
			t.Errorf("frame %d's last palette entry is %v, want transparent", i+1, f.Palette[len(f.Palette)-1])
		}
	}
}

// BenchmarkGIF animates a random game of 100 moves and reports the CPU
// time and the GIF's size.
func BenchmarkGIF(b *testing.B) {
	s := randomState(b, 100, 1)
	var buf bytes.Buffer
	b.ReportAllocs()
	cpu := runtimetest.CPUTime()
	for b.Loop() {
		buf.Reset()
		if err := GIF(&buf, s, GIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runtimetest.CPUTime()-cpu)/float64(b.N)/1e6, "ms/gif")
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
	b.ReportMetric(float64(s.MoveCount()), "moves")
}
