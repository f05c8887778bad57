package draughts

import (
	"fmt"
	"image"
	"image/draw"
	"io"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// Picture sizes, in pixels on a side.
const (
	DefaultPixels = 800
	MinPixels     = 256
	MaxPixels     = 2048
)

// Options say what to draw besides the pieces. The zero Options draw the
// position alone, from White's side, at DefaultPixels.
type Options struct {
	// Last is the last move's route, drawn as an arrow from its start
	// through every landing square to its end, with the pieces it took
	// (Last.Taken) drawn faded on their squares, which must be empty.
	// The zero Route draws nothing. Game fills it in from the game.
	Last rules.Route
	// TakenKings says which of Last.Taken were kings, to draw them faded
	// with their crowns; the others are drawn as men. Their colour is
	// the opponent's of the piece on the move's last square.
	TakenKings rules.Set
	// Flip turns the board round for Black's view: square 50 at the top
	// left and Black's men at the bottom.
	Flip bool
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

// Board writes a PNG picture of the position p to w. Invalid options are
// reported before anything is written.
func Board(w io.Writer, p *rules.Position, opts Options) error {
	if p == nil {
		return ErrNilPosition
	}
	sc, err := newScene(p, &opts)
	if err != nil {
		return err
	}
	img, err := shared.render(sc, &opts)
	if err != nil {
		return err
	}
	defer raster.PutPaletted(img)
	// The fastest compression: the picture, mostly rows that repeat the
	// row above, stays small.
	enc := raster.Encoder()
	return enc.Encode(w, img)
}

// Game writes a PNG picture of s's current position to w, with its last
// move unless opts.Last is already set.
func Game(w io.Writer, s rules.State, opts Options) error {
	p := s.Position()
	if len(opts.Last.Squares) == 0 {
		last, err := lastMove(s)
		if err != nil {
			return err
		}
		opts.Last, opts.TakenKings = last.route, last.kings
	}
	return Board(w, &p, opts)
}

// played is a move of a game with what it changed: its route and which
// of the pieces it took were kings.
type played struct {
	route rules.Route
	kings rules.Set
}

// replay plays s's moves from its start, calling f after each with the
// move and the position it leads to.
func replay(s rules.State, f func(m played, p *rules.Position) error) error {
	p := s.Start()
	for i, text := range s.Moves() {
		m, err := p.ParseMove(string(text))
		if err != nil {
			return fmt.Errorf("move %d (%s): %w: %w", i+1, text, ErrReplay, err)
		}
		mv := played{route: p.Path(m)}
		for _, q := range m.Captured.Squares() {
			if p.At(q).King() {
				mv.kings |= rules.SetOf(q)
			}
		}
		p.Play(m)
		if err := f(mv, &p); err != nil {
			return err
		}
	}
	return nil
}

// lastMove returns s's last move, or the zero played when it has none.
func lastMove(s rules.State) (played, error) {
	var last played
	n, i := s.MoveCount(), 0
	err := replay(s, func(m played, _ *rules.Position) error {
		if i++; i == n {
			last = m
		}
		return nil
	})
	return last, err
}

// scene is what a picture shows, checked against the position: by square
// (index 1 to 50), the live pieces and the captured ones, and the route
// of the arrow.
type scene struct {
	pieces [rules.NumSquares + 1]rules.Piece
	faded  [rules.NumSquares + 1]rules.Piece
	route  []rules.Square
}

// newScene checks the options against p and lists what to draw.
func newScene(p *rules.Position, opts *Options) (*scene, error) {
	sc := &scene{}
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		sc.pieces[s] = p.At(s)
	}
	last := opts.Last
	if len(last.Squares) == 0 {
		if !last.Taken.Empty() {
			return nil, fmt.Errorf("pieces taken on %v without a route: %w", last.Taken, ErrBadMove)
		}
		return sc, nil
	}
	if len(last.Squares) < 2 {
		return nil, fmt.Errorf("a route of one square: %w", ErrBadMove)
	}
	for i, s := range last.Squares {
		if !s.Valid() {
			return nil, fmt.Errorf("square %d in the route: %w", int(s), ErrBadMove)
		}
		if i > 0 {
			a := last.Squares[i-1]
			dr, dc := s.Row()-a.Row(), s.Col()-a.Col()
			if dr == 0 || (dr != dc && dr != -dc) {
				return nil, fmt.Errorf("%d to %d is not a diagonal: %w", a, s, ErrBadMove)
			}
		}
	}
	// The pieces taken are the opponent's of the one that moved.
	black := p.Turn() == rules.Black
	if x := p.At(last.Squares[len(last.Squares)-1]); x != rules.Empty {
		black = x.Color() == rules.White
	}
	for _, s := range last.Taken.Squares() {
		if x := p.At(s); x != rules.Empty {
			return nil, fmt.Errorf("captured piece on %d, where a %v stands: %w", s, x, ErrBadMove)
		}
		x := rules.WhiteMan
		if black {
			x = rules.BlackMan
		}
		if opts.TakenKings.Has(s) {
			x++ // the king of the man's colour
		}
		sc.faded[s] = x
	}
	sc.route = last.Squares
	return sc, nil
}

// render composites the picture of sc into a pooled paletted image; the
// caller puts the image back into palPool when done with it.
func (c *cache) render(sc *scene, opts *Options) (*image.Paletted, error) {
	px, err := pixels(opts.Size)
	if err != nil {
		return nil, err
	}
	k, err := c.kit(px, opts.Flip)
	if err != nil {
		return nil, err
	}
	q, bgPal, err := k.paletted(c)
	if err != nil {
		return nil, err
	}
	img := raster.Paletted(bgPal.Rect, q.Pal)
	k.compose(img, sc, bgPal)
	return img, nil
}

// draw draws the scene in full colour over img, which holds the empty
// board (or, outside what the scene covers, anything).
func (k *kit) draw(img *image.RGBA, sc *scene) {
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		at := k.l.square(s).Min
		if x := sc.faded[s]; x != rules.Empty {
			k.faded[x].DrawOver(img, at)
		}
		if x := sc.pieces[s]; x != rules.Empty {
			k.piece[x].DrawOver(img, at)
		}
	}
	if len(sc.route) >= 2 {
		a := newArrow(&k.l, sc.route)
		a.draw(img, k.st.arrow)
		dirty := raster.NewTiles(img.Rect)
		a.mark(dirty)
		k.numbersOver(img, dirty.Runs())
	}
}

// numbersOver draws the square numbers again in runs, over the arrow
// drawn there: a move that enters its last square from the top left
// would otherwise cover that square's number, the one a reader of the
// move looks for.
func (k *kit) numbersOver(img *image.RGBA, runs []image.Rectangle) {
	for _, r := range runs {
		for _, box := range k.numberBox {
			if b := box.Intersect(r); !b.Empty() {
				draw.Draw(img, b, k.numbers, b.Min, draw.Over)
			}
		}
	}
}

// compose writes the picture of the scene into dst: the cached empty board
// in palette indices, each piece's square copied from the kit's cells,
// and the tiles that the arrow touches composited in full colour and
// quantised again.
func (k *kit) compose(dst *image.Paletted, sc *scene, bgPal *image.Paletted) {
	copy(dst.Pix, bgPal.Pix)
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		i := int(sc.pieces[s])
		if x := sc.faded[s]; x != rules.Empty && i == 0 {
			i = 4 + int(x)
		}
		if i == 0 {
			continue
		}
		r := k.l.square(s)
		cell := k.cell(s, i, k.q)
		for y := 0; y < k.l.sq; y++ {
			copy(dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):], cell[y*k.l.sq:(y+1)*k.l.sq])
		}
	}
	if len(sc.route) < 2 {
		return
	}
	a := newArrow(&k.l, sc.route)
	dirty := raster.NewTiles(dst.Rect)
	a.mark(dirty)
	runs := dirty.Runs()
	scratch := raster.RGBA(dst.Rect)
	defer raster.PutRGBA(scratch)
	for _, r := range runs {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i, j := k.bg.PixOffset(r.Min.X, y), k.bg.PixOffset(r.Max.X, y)
			copy(scratch.Pix[i:j], k.bg.Pix[i:j])
		}
	}
	// The pieces under the arrow, then the arrow.
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		if sc.pieces[s] == rules.Empty && sc.faded[s] == rules.Empty {
			continue
		}
		if r := k.l.square(s); dirty.Touches(r) {
			if x := sc.faded[s]; x != rules.Empty {
				k.faded[x].DrawOver(scratch, r.Min)
			}
			if x := sc.pieces[s]; x != rules.Empty {
				k.piece[x].DrawOver(scratch, r.Min)
			}
		}
	}
	a.draw(scratch, k.st.arrow)
	k.numbersOver(scratch, runs)
	for _, r := range runs {
		k.q.Quantize(dst, scratch, r)
	}
}
