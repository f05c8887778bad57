package draughts

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/render/internal/raster"
	"golang.org/x/image/vector"
)

// The arrow's proportions, as parts of a square's side.
const (
	arrowWidth = 0.14 // the shaft
	arrowHead  = 0.38 // the head's length
	arrowSpan  = 0.44 // the head's width
	arrowTail  = 0.13 // the radius of the dot on the start square
	arrowShort = 0.18 // how far short of the last square's centre the tip stops
)

type pt struct{ x, y float64 }

func (a pt) add(b pt) pt        { return pt{a.x + b.x, a.y + b.y} }
func (a pt) sub(b pt) pt        { return pt{a.x - b.x, a.y - b.y} }
func (a pt) mul(f float64) pt   { return pt{a.x * f, a.y * f} }
func (a pt) len() float64       { return math.Hypot(a.x, a.y) }
func (a pt) perp() pt           { return pt{-a.y, a.x} }
func (a pt) unit() pt           { return a.mul(1 / a.len()) }
func (a pt) round() image.Point { return image.Pt(int(math.Round(a.x)), int(math.Round(a.y))) }
func (a pt) floor() image.Point { return image.Pt(int(math.Floor(a.x)), int(math.Floor(a.y))) }
func (a pt) ceil() image.Point  { return image.Pt(int(math.Ceil(a.x)), int(math.Ceil(a.y))) }

// arrow is the last move drawn as an arrow through the centres of the
// squares it stands on, from a dot on its start to a head at its end: one
// straight leg for a quiet move, one leg per capture. It is a union of
// polygons, each wound the same way, which the rasteriser fills as one
// shape, so the arrow's translucent colour never doubles where they meet.
type arrow struct {
	polys [][]pt
	// legs are the shaft's segments, and pad the distance from them
	// within which the arrow may draw: for marking what to redraw.
	legs [][2]pt
	pad  float64
	box  image.Rectangle
}

// newArrow returns the arrow of a route of at least two squares, each leg
// of which is a diagonal.
func newArrow(l *layout, route []rules.Square) *arrow {
	sq := float64(l.sq)
	hw := arrowWidth * sq / 2
	a := &arrow{pad: arrowSpan*sq/2 + 2}
	c := make([]pt, len(route))
	for i, s := range route {
		c[i].x, c[i].y = l.center(s)
	}
	a.disc(c[0], arrowTail*sq)
	for i := 0; i+1 < len(c); i++ {
		from, to := c[i], c[i+1]
		a.legs = append(a.legs, [2]pt{from, to})
		if i+2 < len(c) {
			a.rect(from, to, hw)
			a.disc(to, hw) // a round join
			continue
		}
		u := to.sub(from).unit()
		tip := to.sub(u.mul(arrowShort * sq))
		base := tip.sub(u.mul(arrowHead * sq))
		if u.x*(base.x-from.x)+u.y*(base.y-from.y) <= 0 {
			base = from // too short for a shaft: the head alone
		} else {
			a.rect(from, base, hw)
		}
		n := u.perp().mul(arrowSpan * sq / 2)
		a.poly(base.add(n), tip, base.sub(n))
	}
	for _, p := range a.polys {
		for _, q := range p {
			a.box = a.box.Union(image.Rectangle{q.floor(), q.ceil().Add(image.Pt(1, 1))})
		}
	}
	return a
}

// poly adds a polygon, turning it round if needed so that every polygon
// winds the same way.
func (a *arrow) poly(p ...pt) {
	area := 0.0
	for i := range p {
		q, r := p[i], p[(i+1)%len(p)]
		area += q.x*r.y - r.x*q.y
	}
	if area < 0 {
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	a.polys = append(a.polys, p)
}

func (a *arrow) rect(from, to pt, hw float64) {
	n := to.sub(from).unit().perp().mul(hw)
	a.poly(from.add(n), to.add(n), to.sub(n), from.sub(n))
}

func (a *arrow) disc(c pt, r float64) {
	const n = 32
	p := make([]pt, n)
	for i := range p {
		t := 2 * math.Pi * float64(i) / n
		p[i] = pt{c.x + r*math.Cos(t), c.y + r*math.Sin(t)}
	}
	a.poly(p...)
}

// mark adds to t the tiles that the arrow may draw on: a band along each
// leg rather than the legs' bounding boxes, which for a king's long move
// would cover most of the board.
func (a *arrow) mark(t *raster.Tiles) {
	for _, leg := range a.legs {
		d := leg[1].sub(leg[0])
		n := int(d.len()/(raster.Tile/2)) + 1
		for i := 0; i <= n; i++ {
			p := leg[0].add(d.mul(float64(i) / float64(n)))
			t.Mark(image.Rectangle{p.sub(pt{a.pad, a.pad}).floor(), p.add(pt{a.pad, a.pad}).ceil()})
		}
	}
}

var (
	rasterPool = sync.Pool{New: func() any { return vector.NewRasterizer(0, 0) }}
	maskPool   sync.Pool // *image.Alpha
)

// draw composites the arrow in colour c over dst. The arrow is rasterised
// into a coverage mask first and blended only where the mask is not
// empty: most of a long diagonal's bounding box is.
func (a *arrow) draw(dst *image.RGBA, c color.NRGBA) {
	box := a.box.Intersect(dst.Rect)
	if box.Empty() {
		return
	}
	z := rasterPool.Get().(*vector.Rasterizer)
	defer rasterPool.Put(z)
	z.Reset(box.Dx(), box.Dy())
	z.DrawOp = draw.Src
	o := pt{float64(box.Min.X), float64(box.Min.Y)}
	for _, p := range a.polys {
		for i, q := range p {
			q = q.sub(o)
			if i == 0 {
				z.MoveTo(float32(q.x), float32(q.y))
			} else {
				z.LineTo(float32(q.x), float32(q.y))
			}
		}
		z.ClosePath()
	}
	mask := getAlpha(box.Dx(), box.Dy())
	defer maskPool.Put(mask)
	z.Draw(mask, mask.Rect, image.Opaque, image.Point{})
	// Blend the colour, premultiplied, by coverage times its opacity.
	sa := uint32(c.A)
	sr, sg, sb := uint32(c.R)*sa, uint32(c.G)*sa, uint32(c.B)*sa
	for y := 0; y < box.Dy(); y++ {
		m := mask.Pix[y*mask.Stride : y*mask.Stride+box.Dx()]
		d := dst.Pix[dst.PixOffset(box.Min.X, box.Min.Y+y):]
		for x, cov := range m {
			if cov == 0 {
				continue
			}
			k := uint32(cov) // coverage, 0..255
			inv := 255*255 - k*sa
			p := d[4*x : 4*x+3 : 4*x+3]
			p[0] = uint8((uint32(p[0])*inv + sr*k + 255*255/2) / (255 * 255))
			p[1] = uint8((uint32(p[1])*inv + sg*k + 255*255/2) / (255 * 255))
			p[2] = uint8((uint32(p[2])*inv + sb*k + 255*255/2) / (255 * 255))
		}
	}
}

// getAlpha returns a pooled mask of w×h pixels, its contents undefined.
func getAlpha(w, h int) *image.Alpha {
	if m, ok := maskPool.Get().(*image.Alpha); ok && cap(m.Pix) >= w*h {
		m.Pix, m.Stride, m.Rect = m.Pix[:w*h], w, image.Rect(0, 0, w, h)
		return m
	}
	return image.NewAlpha(image.Rect(0, 0, w, h))
}
