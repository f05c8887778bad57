package render

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render/internal/raster"
	"golang.org/x/image/font"
)

// kit is everything drawn once for one board size, theme and picture
// size: the empty board and the sprites. It is immutable once built,
// apart from the number masks, which are added under their own map's
// guard, and is safe for concurrent use.
type kit struct {
	l     layout
	st    *style
	theme Theme
	bg    *image.RGBA
	// The sprites are premultiplied pictures of one side, drawn once and
	// composited many times. A sprite's centre lies at (o+lw/2, o+lw/2),
	// so it is placed on a point by its corner pixel.
	o, side int
	stone   [3]*raster.Sprite // by engine.Color, with its shadow
	dead    [3]*raster.Sprite // faded and crossed out, without a shadow
	last    [3]*raster.Sprite // last-move ring on a stone of that colour
	terr    [3]*raster.Sprite // territory square of that owner
	ko      *raster.Sprite

	numbers sync.Map // numberKey -> *image.Alpha

	palOnce sync.Once
	q       *raster.Quantizer
	bgPal   *image.Paletted
	palErr  error
}

type numberKey struct {
	n     int
	stone bool // on a stone (bigger) or on an empty point
}

// newKit draws the empty board and the sprites.
func newKit(size int, theme Theme, px int) (*kit, error) {
	l := newLayout(size, px)
	k := &kit{l: l, st: &styles[theme], theme: theme}
	k.o = int(math.Ceil(l.r*1.3)) + 1
	k.side = 2*k.o + l.lw + 1
	k.bg = image.NewRGBA(image.Rect(0, 0, px, px))
	if err := drawBoard(k.bg, &k.l, k.st); err != nil {
		return nil, err
	}
	c := float64(k.o) + float64(l.lw)/2
	draw := func(f ...func(dc *gg.Context)) *raster.Sprite {
		img := image.NewRGBA(image.Rect(0, 0, k.side, k.side))
		dc := gg.NewContextForRGBA(img)
		for i, f := range f {
			if i > 0 && f == nil {
				fade(img, 0.5)
				continue
			}
			f(dc)
		}
		return raster.NewSprite(img)
	}
	st := k.st
	for _, col := range []engine.Color{engine.Black, engine.White} {
		ss := st.stoneStyle(col)
		// A stone and its shadow are one sprite: stones are drawn from
		// the top row down, so each one covers the shadows cast on it.
		k.stone[col] = draw(
			func(dc *gg.Context) { drawShadow(dc, c, c, l.r, st) },
			func(dc *gg.Context) { drawStone(dc, c, c, l.r, ss) })
		k.dead[col] = draw(
			func(dc *gg.Context) { drawStone(dc, c, c, l.r, ss) },
			nil, // fade
			func(dc *gg.Context) { drawCross(dc, c, c, l.r, col, st) })
		k.last[col] = draw(func(dc *gg.Context) { drawLastMove(dc, c, c, l.r, ss) })
		k.terr[col] = draw(func(dc *gg.Context) { drawTerritory(dc, c, c, l.r, col, st) })
	}
	k.ko = draw(func(dc *gg.Context) { drawKo(dc, c, c, l.r, st) })
	return k, nil
}

func (st *style) stoneStyle(c engine.Color) *stoneStyle {
	if c == engine.White {
		return &st.white
	}
	return &st.black
}

// number returns the alpha mask of a move number, drawn once.
func (k *kit) number(n int, onStone bool) (*image.Alpha, error) {
	key := numberKey{n, onStone}
	if m, ok := k.numbers.Load(key); ok {
		return m.(*image.Alpha), nil
	}
	s := strconv.Itoa(n)
	face, err := numberFace(&k.l, s, onStone)
	if err != nil {
		return nil, err
	}
	c := float64(k.o) + float64(k.l.lw)/2
	m := textMask(face, s, k.side, c, c)
	face.Close()
	actual, _ := k.numbers.LoadOrStore(key, m)
	return actual.(*image.Alpha), nil
}

// paletted returns the theme's quantizer and the empty board in its
// palette, fitting the palette first if this is the theme's first use.
func (k *kit) paletted(c *cache) (*raster.Quantizer, *image.Paletted, error) {
	k.palOnce.Do(func() {
		q, err := c.quantizer(k.theme)
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

// cache holds the kits, least recently used first out, and the themes'
// quantizers. Its methods are safe for concurrent use: a kit or quantizer
// is built once, by whichever caller asks first, while others wait for it.
type cache struct {
	mu    sync.Mutex
	kits  map[kitKey]*kitEntry
	bytes int // the kits' estimated size
	limit int // at most this many bytes of kits: maxKitBytes
	tick  uint64
	quant [numThemes]struct {
		once sync.Once
		q    *raster.Quantizer
		err  error
	}
}

type kitKey struct {
	size, px int
	theme    Theme
}

type kitEntry struct {
	once sync.Once
	k    *kit
	err  error
	used uint64
}

// maxKitBytes bounds the cache: a kit of an 800-pixel picture holds about
// 3.3 MB (the board in full colour and in palette indices, and the
// sprites), so some thirty such kits fit, while a bot needs one per board
// size and theme in use.
const maxKitBytes = 96 << 20

// kitBytes estimates the memory a kit for px-pixel pictures holds.
func kitBytes(px int) int { return px*px*5 + 64<<10 }

// shared is the package's cache. It only remembers drawings that are a
// pure function of their key, so sharing it between callers is safe.
var shared = newCache()

func newCache() *cache { return &cache{kits: make(map[kitKey]*kitEntry), limit: maxKitBytes} }

// kit returns the kit for a board size, theme and picture size.
func (c *cache) kit(size int, theme Theme, px int) (*kit, error) {
	key := kitKey{size, px, theme}
	c.mu.Lock()
	c.tick++
	e, ok := c.kits[key]
	if !ok {
		for len(c.kits) > 0 && c.bytes+kitBytes(px) > c.limit {
			var oldest kitKey
			min := uint64(math.MaxUint64)
			for k, v := range c.kits {
				if v.used < min {
					oldest, min = k, v.used
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
	e.once.Do(func() { e.k, e.err = newKit(size, theme, px) })
	return e.k, e.err
}

// quantizer returns the theme's palette, fitted once to sample pictures
// that hold everything the theme draws: wood, lines, labels, both stones
// big and small, dead stones, territory, markers and numbers.
func (c *cache) quantizer(theme Theme) (*raster.Quantizer, error) {
	qe := &c.quant[theme]
	qe.once.Do(func() {
		var imgs []*image.RGBA
		for _, size := range []int{19, 9} {
			k, err := c.kit(size, theme, DefaultPixels)
			if err != nil {
				qe.err = err
				return
			}
			img, err := k.sample()
			if err != nil {
				qe.err = err
				return
			}
			imgs = append(imgs, img)
		}
		st := &styles[theme]
		anchors := []color.NRGBA{opaque(st.line), st.label, st.black.text, st.white.text,
			st.black.accent, st.white.accent, st.territoryB, st.territoryW, st.wood}
		qe.q = raster.NewQuantizer(raster.Histogram(imgs...), anchors)
	})
	return qe.q, qe.err
}

// sample composites a busy position with every kind of mark, in full
// colour, for fitting the palette.
func (k *kit) sample() (*image.RGBA, error) {
	n := k.l.size
	b, err := engine.NewBoard(n)
	if err != nil {
		return nil, err
	}
	opts := Options{Numbers: map[engine.Point]int{}}
	opts.Owner = make([]engine.Color, n*n)
	// A deterministic scatter of stones over most of the board, the
	// rest marked as territory, some stones dead, some numbered.
	seed := uint32(12345)
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			seed = seed*1664525 + 1013904223
			p := engine.Point{Col: col, Row: row}
			switch v := seed >> 24; {
			case v < 90:
				b.SetStone(p, engine.Black)
			case v < 180:
				b.SetStone(p, engine.White)
			default:
				opts.Owner[row*n+col] = engine.Color(1 + v%2)
			}
			if b.At(p) != engine.Empty {
				switch seed >> 16 & 15 {
				case 0, 1:
					opts.Dead = append(opts.Dead, p)
				case 2, 3, 4:
					opts.Numbers[p] = int(seed>>8&255) + 1
				}
			}
		}
	}
	for _, p := range []engine.Point{{Col: 2, Row: 2}, {Col: 3, Row: 3}} {
		b.SetStone(p, engine.Empty)
		opts.Owner[p.Row*n+p.Col] = engine.Empty
	}
	opts.Numbers[engine.Point{Col: 2, Row: 2}] = 7
	b.SetStone(engine.Point{Col: 1, Row: 1}, engine.White)
	delete(opts.Numbers, engine.Point{Col: 1, Row: 1})
	opts.LastMove = engine.PlaceAt(engine.White, engine.Point{Col: 1, Row: 1})
	sc, err := newScene(b, &opts)
	if err != nil {
		return nil, err
	}
	sc.ko = engine.Point{Col: 3, Row: 3}
	img := image.NewRGBA(k.bg.Rect)
	copy(img.Pix, k.bg.Pix)
	if err := sc.draw(img, k); err != nil {
		return nil, err
	}
	return img, nil
}

// numberFace returns the face for number s: about half a spacing high,
// smaller for three digits and on empty points, and shrunk until the
// number fits well inside a stone.
func numberFace(l *layout, s string, onStone bool) (font.Face, error) {
	size := 0.5 * float64(l.sp)
	if len(s) >= 3 {
		size = 0.42 * float64(l.sp)
	}
	if !onStone {
		size *= 0.9
	}
	face, err := newFace(size)
	if err != nil {
		return nil, err
	}
	for measure(face, s) > int(1.6*l.r) && size > 6 {
		face.Close()
		size *= 0.92
		if face, err = newFace(size); err != nil {
			return nil, err
		}
	}
	return face, nil
}

// measure returns the advance width of s in whole pixels.
func measure(face font.Face, s string) int { return font.MeasureString(face, s).Ceil() }
