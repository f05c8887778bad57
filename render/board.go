package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// Picture sizes, in pixels on a side.
const (
	DefaultPixels = 800
	MinPixels     = 256
	MaxPixels     = 2048
)

// Options say what to draw besides the stones. The zero Options draw the
// position alone on the Wood theme at DefaultPixels, with the ko marker
// when the board has a ko.
type Options struct {
	// LastMove is marked with a ring on its stone, or, when the stone
	// carries a number, by drawing that number in an accent colour. The
	// zero Move (no colour) marks nothing, and so do passes and
	// resignations. Game fills it in from the game.
	LastMove engine.Move
	// HideKo turns off the square drawn on the point that the board's
	// simple-ko rule forbids (engine.Board.KoVertex) while a ko is on.
	HideKo bool
	// Dead stones, in the scoring phase, are drawn faded and crossed out
	// in the colour of the player who takes them off. Points without a
	// stone are ignored.
	Dead []engine.Point
	// Owner, when not empty, holds one entry per point (index
	// Row*size+Col), as engine.Score.Owner gives it: every empty point
	// owned by Black or White gets a small square of the owner's colour.
	Owner []engine.Color
	// Numbers are drawn on the stones (or empty points) they name: move
	// numbers, usually from MoveNumbers. They must be positive.
	Numbers map[engine.Point]int
	// Theme is the board's look; the zero Theme is Wood.
	Theme Theme
	// Size is the picture's side in pixels, MinPixels..MaxPixels;
	// 0 means DefaultPixels.
	Size int
}

// pixels returns the picture size the options ask for.
func pixels(size int) (int, error) {
	switch {
	case size == 0:
		return DefaultPixels, nil
	case size < MinPixels || size > MaxPixels:
		return 0, fmt.Errorf("%d px (want %d to %d): %w", size, MinPixels, MaxPixels, ErrImageSize)
	}
	return size, nil
}

// Board writes a PNG picture of the position b to w. Invalid options are
// reported before anything is written.
func Board(w io.Writer, b *engine.Board, opts Options) error {
	if b == nil {
		return ErrNilBoard
	}
	img, err := shared.render(b, &opts)
	if err != nil {
		return err
	}
	defer raster.PutPaletted(img)
	// The fastest compression: it takes a third less time than the
	// default and the picture, mostly rows that repeat the row above,
	// stays small (about 65 KB for a 19×19 game against 44 KB).
	enc := raster.Encoder()
	return enc.Encode(w, img)
}

// Game writes a PNG picture of g's current position to w, marking its last
// move unless opts.LastMove is already set.
func Game(w io.Writer, g *engine.Game, opts Options) error {
	if g == nil {
		return ErrNilBoard
	}
	if opts.LastMove.Color == engine.Empty {
		if m, ok := g.LastMove(); ok {
			opts.LastMove = m
		}
	}
	return Board(w, g.Board(), opts)
}

// render composites the picture of b into a pooled paletted image; the
// caller puts the image back into palPool when done with it.
func (c *cache) render(b *engine.Board, opts *Options) (*image.Paletted, error) {
	if !opts.Theme.valid() {
		return nil, fmt.Errorf("theme %d: %w", opts.Theme, ErrUnknownTheme)
	}
	px, err := pixels(opts.Size)
	if err != nil {
		return nil, err
	}
	k, err := c.kit(b.Size(), opts.Theme, px)
	if err != nil {
		return nil, err
	}
	q, bgPal, err := k.paletted(c)
	if err != nil {
		return nil, err
	}
	sc, err := newScene(b, opts)
	if err != nil {
		return nil, err
	}
	img := raster.Paletted(bgPal.Rect, q.Pal)
	if err := k.compose(img, sc, bgPal); err != nil {
		raster.PutPaletted(img)
		return nil, err
	}
	return img, nil
}

// scene is what a picture shows, checked against the board.
type scene struct {
	stones  []stone // live stones
	dead    []stone
	terr    []stone // territory: owner at an empty point
	ko      engine.Point
	last    stone // Color Empty: none
	numbers []number
}

type stone struct {
	p engine.Point
	c engine.Color
}

type number struct {
	p    engine.Point
	n    int
	on   engine.Color // the stone it is drawn on, or Empty
	last bool
}

// newScene checks the options against b and lists what to draw.
func newScene(b *engine.Board, opts *Options) (*scene, error) {
	n := b.Size()
	if len(opts.Owner) != 0 && len(opts.Owner) != n*n {
		return nil, fmt.Errorf("%d entries for a %d×%d board (want %d): %w", len(opts.Owner), n, n, n*n, ErrOwnerLength)
	}
	sc := &scene{ko: engine.NoPoint, last: stone{p: engine.NoPoint}}
	if m := opts.LastMove; m.Color != engine.Empty && m.Kind == engine.Place {
		if !m.Point.Valid(n) {
			return nil, fmt.Errorf("last move %v on a %d×%d board: %w", m.Point, n, n, ErrOffBoard)
		}
		if c := b.At(m.Point); c != engine.Empty {
			sc.last = stone{m.Point, c}
		}
	}
	dead := make(map[engine.Point]bool, len(opts.Dead))
	for _, p := range opts.Dead {
		if !p.Valid(n) {
			return nil, fmt.Errorf("dead stone at %v on a %d×%d board: %w", p, n, n, ErrOffBoard)
		}
		dead[p] = true
	}
	for p, v := range opts.Numbers {
		if !p.Valid(n) {
			return nil, fmt.Errorf("move number %d at %v on a %d×%d board: %w", v, p, n, n, ErrOffBoard)
		}
		if v <= 0 {
			return nil, fmt.Errorf("move number %d at %v: %w", v, p, ErrBadNumber)
		}
	}
	for row := n - 1; row >= 0; row-- { // from the top, for the shadows
		for col := 0; col < n; col++ {
			p := engine.Point{Col: col, Row: row}
			c := b.At(p)
			switch {
			case c == engine.Empty:
				if len(opts.Owner) > 0 {
					if o := opts.Owner[row*n+col]; o == engine.Black || o == engine.White {
						sc.terr = append(sc.terr, stone{p, o})
					}
				}
			case dead[p]:
				sc.dead = append(sc.dead, stone{p, c})
			default:
				sc.stones = append(sc.stones, stone{p, c})
			}
			if v, ok := opts.Numbers[p]; ok {
				nb := number{p: p, n: v, on: c, last: p == sc.last.p}
				if nb.last {
					sc.last.c = engine.Empty // the number marks it instead
				}
				sc.numbers = append(sc.numbers, nb)
			}
		}
	}
	if v, _ := b.KoVertex(); v != 0 && !opts.HideKo {
		if p := b.Point(v); p.Valid(n) && b.At(p) == engine.Empty {
			sc.ko = p
		}
	}
	return sc, nil
}

// signature returns, for every point (index Row*size+Col), a byte that
// changes whenever what is drawn at the point changes.
func (sc *scene) signature(size int) []uint8 {
	sig := make([]uint8, size*size)
	for _, s := range sc.stones {
		sig[s.p.Row*size+s.p.Col] = uint8(s.c)
	}
	for _, s := range sc.dead {
		sig[s.p.Row*size+s.p.Col] = uint8(s.c) | 4
	}
	for _, s := range sc.terr {
		sig[s.p.Row*size+s.p.Col] |= uint8(s.c) << 3
	}
	if sc.ko != engine.NoPoint {
		sig[sc.ko.Row*size+sc.ko.Col] |= 32
	}
	if sc.last.c != engine.Empty {
		sig[sc.last.p.Row*size+sc.last.p.Col] |= 64
	}
	for _, nb := range sc.numbers {
		sig[nb.p.Row*size+nb.p.Col] |= 128 // numbers do not change in GIFs
	}
	return sig
}

// pointBox returns the square of the picture that any sprite on p covers.
func (k *kit) pointBox(p engine.Point) image.Rectangle {
	x, y := k.l.cornerPixel(p, k.o)
	return image.Rect(x, y, x+k.side, y+k.side)
}

// item is one sprite or coloured mask placed on the picture.
type item struct {
	at   image.Point
	spr  *raster.Sprite
	mask *image.Alpha
	col  *image.Uniform
}

// box returns the part of the picture that the item covers.
func (it *item) box() image.Rectangle {
	if it.spr != nil {
		return it.spr.Box().Add(it.at)
	}
	return it.mask.Rect.Add(it.at)
}

// items lists the scene's sprites in drawing order: territory, stones
// with their shadows from the top row down, markers, numbers.
func (k *kit) items(sc *scene) ([]item, error) {
	its := make([]item, 0, len(sc.terr)+2*len(sc.stones)+len(sc.dead)+len(sc.numbers)+2)
	at := func(p engine.Point) image.Point {
		x, y := k.l.cornerPixel(p, k.o)
		return image.Point{x, y}
	}
	for _, s := range sc.terr {
		its = append(its, item{at: at(s.p), spr: k.terr[s.c]})
	}
	for _, s := range sc.stones {
		its = append(its, item{at: at(s.p), spr: k.stone[s.c]})
	}
	for _, s := range sc.dead {
		its = append(its, item{at: at(s.p), spr: k.dead[s.c]})
	}
	if sc.ko != engine.NoPoint {
		its = append(its, item{at: at(sc.ko), spr: k.ko})
	}
	if sc.last.c != engine.Empty {
		its = append(its, item{at: at(sc.last.p), spr: k.last[sc.last.c]})
	}
	for _, nb := range sc.numbers {
		m, err := k.number(nb.n, nb.on != engine.Empty)
		if err != nil {
			return nil, err
		}
		var col color.NRGBA
		switch {
		case nb.on == engine.Empty:
			col = k.st.label
		case nb.last:
			col = k.st.stoneStyle(nb.on).accent
		default:
			col = k.st.stoneStyle(nb.on).text
		}
		its = append(its, item{at: at(nb.p), mask: m, col: image.NewUniform(col)})
	}
	return its, nil
}

// draw draws the scene onto img, which holds the empty board.
func (sc *scene) draw(img *image.RGBA, k *kit) error {
	its, err := k.items(sc)
	if err != nil {
		return err
	}
	drawItems(img, its)
	return nil
}

func drawItems(dst *image.RGBA, its []item) {
	for _, it := range its {
		if it.spr != nil {
			it.spr.DrawOver(dst, it.at)
			continue
		}
		draw.DrawMask(dst, it.mask.Rect.Add(it.at), it.col, image.Point{}, it.mask, it.mask.Rect.Min, draw.Over)
	}
}

// compose writes the picture of the scene into dst: the cached empty board
// in palette indices, with only the tiles that sprites touch composited in
// full colour and quantised again.
func (k *kit) compose(dst *image.Paletted, sc *scene, bgPal *image.Paletted) error {
	its, err := k.items(sc)
	if err != nil {
		return err
	}
	copy(dst.Pix, bgPal.Pix)
	dirty := raster.NewTiles(dst.Rect)
	for _, it := range its {
		dirty.Mark(it.box())
	}
	k.redraw(dst, its, dirty)
	return nil
}

// redraw composites the items over the empty board in the dirty tiles of
// dst and leaves the rest of dst alone. Items need not lie within the
// dirty tiles: only what falls inside them is kept.
func (k *kit) redraw(dst *image.Paletted, its []item, dirty *raster.Tiles) {
	runs := dirty.Runs()
	if len(runs) == 0 {
		return
	}
	scratch := raster.RGBA(dst.Rect)
	defer raster.PutRGBA(scratch)
	for _, r := range runs {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i, j := k.bg.PixOffset(r.Min.X, y), k.bg.PixOffset(r.Max.X, y)
			copy(scratch.Pix[i:j], k.bg.Pix[i:j])
		}
	}
	area := dirty.Bounds()
	for _, it := range its {
		if it.box().Overlaps(area) {
			drawItems(scratch, []item{it})
		}
	}
	for _, r := range runs {
		k.q.Quantize(dst, scratch, r)
	}
}
