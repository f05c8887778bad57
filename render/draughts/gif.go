package draughts

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// GIFOptions say how to animate a game. The zero GIFOptions give a
// DefaultPixels picture from White's side that plays the whole game in
// about a minute, holds the final position for five seconds and loops.
type GIFOptions struct {
	// Flip turns the board round for Black's view, as Options.Flip.
	Flip bool
	// Size is the picture's side in pixels, MinPixels..MaxPixels;
	// 0 means DefaultPixels.
	Size int
	// Delay is how long each move shows, rounded to hundredths of a
	// second; 0 chooses one so the game takes about a minute, at least
	// 0.3 s and at most 1 s a move.
	Delay time.Duration
	// Hold is how long the final position shows before the animation
	// starts again; 0 means five seconds.
	Hold time.Duration
	// PlayOnce stops the animation on the final position instead of
	// looping.
	PlayOnce bool
}

// GIF writes an animated GIF of s to w: its starting position, then one
// frame per move with the move's arrow and the pieces it took faded, as
// Game draws them, holding the final position. Frames after the first
// hold only the rectangle that changed, with the pixels in it that did not
// change left transparent, so a game of 100 moves takes a few hundred KB.
// Invalid options are reported before anything is written.
func GIF(w io.Writer, s rules.State, opts GIFOptions) error {
	px, err := pixels(opts.Size)
	if err != nil {
		return err
	}
	if opts.Delay < 0 || opts.Hold < 0 {
		return fmt.Errorf("delay %v, hold %v: %w", opts.Delay, opts.Hold, ErrBadDelay)
	}
	k, err := shared.kit(px, opts.Flip)
	if err != nil {
		return err
	}
	q, bgPal, err := k.paletted(shared)
	if err != nil {
		return err
	}
	n := s.MoveCount()
	delay := raster.Centis(opts.Delay)
	if opts.Delay == 0 {
		delay = min(100, max(30, 6000/max(1, n)))
	}
	hold := raster.Centis(opts.Hold)
	if opts.Hold == 0 {
		hold = 500
	}

	// The GIF's palette is the board's with a transparent colour after
	// it: a frame's pixels that did not change are transparent, which
	// LZW packs to almost nothing.
	pal := append(q.Pal[:len(q.Pal):len(q.Pal)], color.RGBA{})
	clear := uint8(len(q.Pal))
	anim := &gif.GIF{Config: image.Config{ColorModel: pal, Width: px, Height: px}}
	if opts.PlayOnce {
		anim.LoopCount = -1
	}
	add := func(f *image.Paletted, d int) {
		anim.Image = append(anim.Image, f)
		anim.Delay = append(anim.Delay, d)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}

	start := s.Start()
	sc, err := newScene(&start, &Options{})
	if err != nil {
		return err
	}
	cur := image.NewPaletted(bgPal.Rect, q.Pal)
	k.compose(cur, sc, bgPal)
	first := image.NewPaletted(cur.Rect, pal)
	copy(first.Pix, cur.Pix)
	add(first, max(delay, 100))
	prev := image.NewPaletted(cur.Rect, q.Pal)
	copy(prev.Pix, cur.Pix)

	err = replay(s, func(m played, p *rules.Position) error {
		sc, err := newScene(p, &Options{Last: m.route, TakenKings: m.kings})
		if err != nil {
			return err
		}
		k.compose(cur, sc, bgPal)
		r := raster.Changed(prev, cur, cur.Rect)
		if r.Empty() {
			anim.Delay[len(anim.Delay)-1] += delay
			return nil
		}
		f := image.NewPaletted(r, pal)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			fr := f.Pix[f.PixOffset(r.Min.X, y):f.PixOffset(r.Max.X, y)]
			cr := cur.Pix[cur.PixOffset(r.Min.X, y):cur.PixOffset(r.Max.X, y)]
			pr := prev.Pix[prev.PixOffset(r.Min.X, y):prev.PixOffset(r.Max.X, y)]
			for x := range fr {
				if cr[x] == pr[x] {
					fr[x] = clear
				} else {
					fr[x] = cr[x]
				}
			}
			copy(pr, cr)
		}
		add(f, delay)
		return nil
	})
	if err != nil {
		return err
	}
	anim.Delay[len(anim.Delay)-1] = max(anim.Delay[len(anim.Delay)-1], hold)
	return gif.EncodeAll(w, anim)
}
