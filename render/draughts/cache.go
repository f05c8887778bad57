package draughts

import (
	"image"
	"image/color"
	"math"
	"sync"
	"sync/atomic"

	"github.com/fogleman/gg"
	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/render/internal/raster"
)

// kit is everything drawn once for one picture size and orientation: the
// empty board, in full colour and in palette indices, and the piece
// sprites. It is immutable once built and safe for concurrent use.
type kit struct {
	l  layout
	st *style
	bg *image.RGBA
	// numbers holds the square numbers alone, on a transparent picture
	// of the board's size: drawn again over the arrow, which would
	// otherwise hide the number of the square it enters from the top
	// left (the corner the numbers stand in).
	numbers *image.RGBA
	// numberBox holds, by square, the pixels its number may cover.
	numberBox [rules.NumSquares + 1]image.Rectangle
	// The sprites are premultiplied pictures of one square, placed on a
	// square's top-left pixel; by rules.Piece.
	piece [5]*raster.Sprite
	faded [5]*raster.Sprite
	// cells holds, by square and by sprite (piece, or 4 + piece when
	// faded), the square with that sprite in palette indices, rows one
	// after the other, worked out the first time a picture needs it: most
	// of a picture is copied from here rather than composited and
	// quantised again.
	cells [rules.NumSquares + 1][9]atomic.Pointer[[]uint8]

	palOnce sync.Once
	q       *raster.Quantizer
	bgPal   *image.Paletted
	palErr  error
}

// newKit draws the empty board and the sprites.
func newKit(px int, flip bool) (*kit, error) {
	k := &kit{l: newLayout(px, flip), st: &wood}
	k.bg = image.NewRGBA(image.Rect(0, 0, px, px))
	if err := drawBoard(k.bg, &k.l, k.st); err != nil {
		return nil, err
	}
	k.numbers = image.NewRGBA(k.bg.Rect)
	if err := drawNumbers(k.numbers, &k.l, k.st); err != nil {
		return nil, err
	}
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		b, err := numberBox(&k.l, s)
		if err != nil {
			return nil, err
		}
		k.numberBox[s] = b
	}
	sq := k.l.sq
	c := float64(sq) / 2
	r := pieceRadius * float64(sq)
	for _, p := range []rules.Piece{rules.WhiteMan, rules.WhiteKing, rules.BlackMan, rules.BlackKing} {
		ps := k.st.pieceStyle(p.Color() == rules.Black)
		for _, faded := range []bool{false, true} {
			img := image.NewRGBA(image.Rect(0, 0, sq, sq))
			dc := gg.NewContextForRGBA(img)
			if !faded {
				drawShadow(dc, c, c, r, k.st)
			}
			drawMan(dc, c, c, r, ps)
			if p.King() {
				drawCrown(dc, c, c, r, k.st)
			}
			if faded {
				fade(img, k.st.fade)
				k.faded[p] = raster.NewSprite(img)
			} else {
				k.piece[p] = raster.NewSprite(img)
			}
		}
	}
	return k, nil
}

// cell returns square s with sprite i on it in palette indices, sq rows
// of sq bytes; q is the palette.
func (k *kit) cell(s rules.Square, i int, q *raster.Quantizer) []uint8 {
	c := &k.cells[s][i]
	if v := c.Load(); v != nil {
		return *v
	}
	r := k.l.square(s)
	src := image.NewRGBA(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		copy(src.Pix[src.PixOffset(r.Min.X, y):src.PixOffset(r.Max.X, y)], k.bg.Pix[k.bg.PixOffset(r.Min.X, y):k.bg.PixOffset(r.Max.X, y)])
	}
	k.sprite(i).DrawOver(src, r.Min)
	dst := image.NewPaletted(r, q.Pal)
	q.Quantize(dst, src, r)
	// Concurrent callers store the same bytes; either copy will do.
	c.Store(&dst.Pix)
	return dst.Pix
}

// sprite returns sprite i of cells: piece i, or the faded piece i-4.
func (k *kit) sprite(i int) *raster.Sprite {
	if i > 4 {
		return k.faded[i-4]
	}
	return k.piece[i]
}

// paletted returns the quantizer and the empty board in its palette,
// fitting the palette first if no picture has been drawn yet.
func (k *kit) paletted(c *cache) (*raster.Quantizer, *image.Paletted, error) {
	k.palOnce.Do(func() {
		q, err := c.quantizer()
		if err != nil {
			k.palErr = err
			return
		}
		bgPal := image.NewPaletted(k.bg.Rect, q.Pal)
		q.Quantize(bgPal, k.bg, k.bg.Rect)
		k.q, k.bgPal = q, bgPal
	})
	return k.q, k.bgPal, k.palErr
}

// cache holds the kits, least recently used first out, and the palette.
// Its methods are safe for concurrent use: a kit or the palette is built
// once, by whichever caller asks first, while others wait for it.
type cache struct {
	mu    sync.Mutex
	kits  map[kitKey]*kitEntry
	bytes int // the kits' estimated size
	limit int // at most this many bytes of kits: maxKitBytes
	tick  uint64
	quant struct {
		once sync.Once
		q    *raster.Quantizer
		err  error
	}
}

type kitKey struct {
	px   int
	flip bool
}

type kitEntry struct {
	once sync.Once
	k    *kit
	err  error
	used uint64
}

// maxKitBytes bounds the cache: a kit of an 800-pixel picture holds about
// 6 MB (the board in full colour and in palette indices, its numbers
// alone, and the sprites), so some six such kits fit, while a bot needs
// two (White's and Black's view) per picture size in use.
const maxKitBytes = 40 << 20

// kitBytes estimates the memory a kit for px-pixel pictures holds.
func kitBytes(px int) int { return px*px*9 + 8*(px/10)*(px/10)*4 }

// shared is the package's cache. It only remembers drawings that are a
// pure function of their key, so sharing it between callers is safe.
var shared = newCache()

func newCache() *cache { return &cache{kits: make(map[kitKey]*kitEntry), limit: maxKitBytes} }

// kit returns the kit for a picture size and orientation.
func (c *cache) kit(px int, flip bool) (*kit, error) {
	key := kitKey{px, flip}
	c.mu.Lock()
	c.tick++
	e, ok := c.kits[key]
	if !ok {
		for len(c.kits) > 0 && c.bytes+kitBytes(px) > c.limit {
			var oldest kitKey
			least := uint64(math.MaxUint64)
			for k, v := range c.kits {
				if v.used < least {
					oldest, least = k, v.used
				}
			}
			delete(c.kits, oldest) // callers holding the kit keep it
			c.bytes -= kitBytes(oldest.px)
		}
		e = &kitEntry{}
		c.kits[key] = e
		c.bytes += kitBytes(px)
	}
	e.used = c.tick
	c.mu.Unlock()
	e.once.Do(func() { e.k, e.err = newKit(px, flip) })
	return e.k, e.err
}

// quantizer returns the palette, fitted once to sample pictures that hold
// everything the board draws: both woods and the numbers, men and kings
// of both colours, live and captured, and the arrow over all of them.
func (c *cache) quantizer() (*raster.Quantizer, error) {
	qe := &c.quant
	qe.once.Do(func() {
		k, err := c.kit(DefaultPixels, false)
		if err != nil {
			qe.err = err
			return
		}
		var imgs []*image.RGBA
		for _, sc := range sampleScenes() {
			img := image.NewRGBA(k.bg.Rect)
			copy(img.Pix, k.bg.Pix)
			k.draw(img, sc)
			imgs = append(imgs, img)
		}
		st := k.st
		anchors := []color.NRGBA{st.number, st.crown, st.crownLine, st.frame, st.frameLine,
			st.white.rim, st.black.rim, st.dark, st.light}
		qe.q = raster.NewQuantizer(raster.Histogram(imgs...), anchors)
	})
	return qe.q, qe.err
}

// sampleScenes returns busy positions with every kind of piece, live and
// captured, and long arrows over pieces and squares of both kinds.
func sampleScenes() []*scene {
	var out []*scene
	seed := uint32(2024)
	for i := 0; i < 2; i++ {
		sc := &scene{}
		for s := rules.Square(1); s <= rules.NumSquares; s++ {
			seed = seed*1664525 + 1013904223
			switch v := seed >> 24; {
			case v < 70:
				sc.pieces[s] = rules.BlackMan
			case v < 140:
				sc.pieces[s] = rules.WhiteMan
			case v < 165:
				sc.pieces[s] = rules.BlackKing
			case v < 190:
				sc.pieces[s] = rules.WhiteKing
			case v < 215:
				sc.faded[s] = rules.Piece(1 + seed>>8%4)
			}
		}
		out = append(out, sc)
	}
	out[0].route = []rules.Square{46, 5}
	out[1].route = []rules.Square{1, 12, 23, 34, 45}
	out = append(out, &scene{route: []rules.Square{32, 28}}, &scene{route: []rules.Square{6, 50}})
	return out
}
