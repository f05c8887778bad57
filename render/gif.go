package render

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// GIFOptions say how to animate a game. The zero GIFOptions give a
// DefaultPixels picture on the Wood theme that plays the whole game in
// about a minute, holds the final position for five seconds and loops.
type GIFOptions struct {
	// Theme is the board's look; the zero Theme is Wood.
	Theme Theme
	// Size is the picture's side in pixels, MinPixels..MaxPixels;
	// 0 means DefaultPixels.
	Size int
	// Delay is how long each move shows, rounded to hundredths of a
	// second; 0 chooses one so the game takes about a minute, at least
	// 0.2 s and at most 0.8 s a move.
	Delay time.Duration
	// Hold is how long the final position shows before the animation
	// starts again; 0 means five seconds.
	Hold time.Duration
	// PlayOnce stops the animation on the final position instead of
	// looping.
	PlayOnce bool
	// Dead and Owner, when either is given, add a last frame that shows
	// the count of a scored game: dead stones crossed out and territory
	// marked, as Options.Dead and Options.Owner draw them on the final
	// position.
	Dead  []engine.Point
	Owner []engine.Color
}

// GIF writes an animated GIF of g to w: the starting position (empty, or
// with its handicap or set-up stones), then one frame per move with the
// last move marked, holding the final position. Frames after the first
// hold only the rectangle that changed, with the pixels in it that did not
// change left transparent, so a 250-move 19×19 game takes about 600 KB. A pass changes only the markers, and a
// resignation nothing, so they add no frame of their own. Invalid options
// or a game that does not replay are reported before anything is written.
func GIF(w io.Writer, g *engine.Game, opts GIFOptions) error {
	if g == nil {
		return ErrNilBoard
	}
	if !opts.Theme.valid() {
		return fmt.Errorf("theme %d: %w", opts.Theme, ErrUnknownTheme)
	}
	px, err := pixels(opts.Size)
	if err != nil {
		return err
	}
	if opts.Delay < 0 || opts.Hold < 0 {
		return fmt.Errorf("delay %v, hold %v: %w", opts.Delay, opts.Hold, ErrBadDelay)
	}
	k, err := shared.kit(g.Size(), opts.Theme, px)
	if err != nil {
		return err
	}
	q, bgPal, err := k.paletted(shared)
	if err != nil {
		return err
	}
	moves := g.Moves()
	delay := raster.Centis(opts.Delay)
	if opts.Delay == 0 {
		delay = 6000 / max(1, len(moves))
		delay = min(80, max(20, delay))
	}
	hold := raster.Centis(opts.Hold)
	if opts.Hold == 0 {
		hold = 500
	}

	b, err := engine.NewBoard(g.Size())
	if err != nil {
		return err
	}
	b.AllowSuicide = g.Rules().Suicide
	for _, s := range g.Setup() {
		b.SetStone(s.Point, s.Color)
	}
	// The GIF's palette is the theme's with a transparent colour after
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

	sc, err := newScene(b, &Options{})
	if err != nil {
		return err
	}
	cur := image.NewPaletted(bgPal.Rect, q.Pal)
	if err := k.compose(cur, sc, bgPal); err != nil {
		return err
	}
	first := image.NewPaletted(cur.Rect, pal)
	copy(first.Pix, cur.Pix)
	add(first, max(delay, 100))
	prev := image.NewPaletted(cur.Rect, q.Pal)
	copy(prev.Pix, cur.Pix)
	prevSig := sc.signature(b.Size())
	// step adds the frame that turns the last picture into sc's, or
	// lengthens the last frame when nothing changed.
	step := func(sc *scene, d int) error {
		its, err := k.items(sc)
		if err != nil {
			return err
		}
		// Redraw only around the points whose stone or marker changed.
		sig := sc.signature(b.Size())
		dirty := raster.NewTiles(cur.Rect)
		for v := range sig {
			if sig[v] != prevSig[v] {
				dirty.Mark(k.pointBox(engine.Point{Col: v % b.Size(), Row: v / b.Size()}))
			}
		}
		prevSig = sig
		k.redraw(cur, its, dirty)
		r := raster.Changed(prev, cur, dirty.Bounds())
		if r.Empty() {
			anim.Delay[len(anim.Delay)-1] += d
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
		add(f, d)
		return nil
	}

	for i, m := range moves {
		switch m.Kind {
		case engine.Place:
			if !m.Point.Valid(b.Size()) || !b.Legal(b.Vertex(m.Point), m.Color) {
				return fmt.Errorf("move %d (%v %v) does not replay: %w", i+1, m.Color, m, engine.ErrInvalidState)
			}
			b.Play(b.Vertex(m.Point), m.Color)
		case engine.Pass:
			b.Play(engine.PassVertex, m.Color)
		default:
			continue
		}
		sc, err := newScene(b, &Options{LastMove: m})
		if err != nil {
			return err
		}
		if err := step(sc, delay); err != nil {
			return err
		}
	}
	if len(opts.Dead) > 0 || len(opts.Owner) > 0 {
		sc, err := newScene(b, &Options{Dead: opts.Dead, Owner: opts.Owner, HideKo: true})
		if err != nil {
			return err
		}
		if err := step(sc, delay); err != nil {
			return err
		}
	}
	anim.Delay[len(anim.Delay)-1] = max(anim.Delay[len(anim.Delay)-1], hold)
	return gif.EncodeAll(w, anim)
}
