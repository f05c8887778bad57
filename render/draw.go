package render

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/render/internal/raster"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/math/fixed"
)

// boldFont is Go Bold, parsed once. A parsed font is read-only and safe
// for concurrent use; the faces made from it are not, so every drawing
// makes its own.
var boldFont = sync.OnceValues(func() (*truetype.Font, error) {
	return truetype.Parse(gobold.TTF)
})

// newFace returns a Go Bold face of the given pixel size.
func newFace(px float64) (font.Face, error) {
	f, err := boldFont()
	if err != nil {
		return nil, err
	}
	return truetype.NewFace(f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingNone}), nil
}

// drawWood fills img with the board's wood: a base colour with a fine,
// straight (masame) grain that runs top to bottom, lit slightly from the
// left. The grain depends on the column alone, so every row of the board
// is the same and the PNG compresses them to almost nothing.
func drawWood(img *image.RGBA, st *style) {
	w := img.Bounds().Dx()
	row := make([]byte, 4*w)
	for x := 0; x < w; x++ {
		c := woodAt(float64(x)+0.5, float64(w), st)
		row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, 255
	}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(img.Rect.Min.X, y):], row)
	}
}

// woodAt returns the wood colour at column x of a picture w pixels wide.
func woodAt(x, w float64, st *style) color.NRGBA {
	t := 0.0
	if st.grain > 0 {
		u := x / w * 800 // the grain is drawn for an 800-pixel board and scaled
		wave := 0.5*math.Sin(2*math.Pi*u/173+1.3) + 0.3*math.Sin(2*math.Pi*u/61+0.4) + 0.2*math.Sin(2*math.Pi*u/23+2.1)
		t = 0.16*(wave+1)/2 + 0.75*raster.GrainLines(u)
		t = math.Min(1, t) * st.grain
	}
	lift := 1 + st.light*(0.5-x/w)
	mix := func(a, b uint8) uint8 {
		v := (float64(a)*(1-t) + float64(b)*t) * lift
		return uint8(math.Max(0, math.Min(255, math.Round(v))))
	}
	return color.NRGBA{mix(st.wood.R, st.woodDark.R), mix(st.wood.G, st.woodDark.G), mix(st.wood.B, st.woodDark.B), 255}
}

// drawBoard draws the empty board: wood, grid, star points and the
// coordinates on all four sides.
func drawBoard(img *image.RGBA, l *layout, st *style) error {
	drawWood(img, st)
	dc := gg.NewContextForRGBA(img)
	// The lines are opaque rectangles on whole pixels: crisp, and
	// crossings may be painted twice without darkening.
	dc.SetColor(opaque(st.line))
	grid := float64((l.size-1)*l.sp + l.lw)
	out := float64(l.border - l.lw) // the outer lines grow outwards
	lo := float64(l.x0) - out
	for i := 0; i < l.size; i++ {
		at, w := float64(l.x0+i*l.sp), float64(l.lw)
		switch i {
		case 0:
			at, w = at-out, w+out
		case l.size - 1:
			w += out
		}
		dc.DrawRectangle(at, lo, w, grid+2*out) // vertical
		dc.DrawRectangle(lo, at, grid+2*out, w) // horizontal (x0 == y0)
		dc.Fill()
	}
	hoshi := math.Max(2.2, 0.085*float64(l.sp)+float64(l.lw)/2)
	for _, p := range starPoints(l.size) {
		cx, cy := l.center(p)
		dc.DrawCircle(cx, cy, hoshi)
		dc.Fill()
	}
	return drawLabels(dc, l, st)
}

// drawLabels writes the column letters above and below the grid and the
// row numbers left and right of it.
func drawLabels(dc *gg.Context, l *layout, st *style) error {
	face, err := newFace(l.font)
	if err != nil {
		return err
	}
	defer face.Close()
	dc.SetFontFace(face)
	dc.SetColor(st.label)
	capH := capHeight(face)
	near := float64(l.x0) - 0.5*float64(l.sp) // where the edge stones end
	if near < 2*l.font {
		near = 2 * l.font
	}
	mid := near / 2 // labels sit in the middle of the margin
	for i := 0; i < l.size; i++ {
		cx, _ := l.center(engine.Point{Col: i, Row: 0})
		s := colLabel(i)
		w, _ := dc.MeasureString(s)
		dc.DrawString(s, cx-w/2, mid+capH/2)
		dc.DrawString(s, cx-w/2, float64(l.px)-mid+capH/2)
	}
	for r := 0; r < l.size; r++ {
		_, cy := l.center(engine.Point{Col: 0, Row: r})
		s := rowLabel(r)
		w, _ := dc.MeasureString(s)
		dc.DrawString(s, mid-w/2, cy+capH/2)
		dc.DrawString(s, float64(l.px)-mid-w/2, cy+capH/2)
	}
	return nil
}

// capHeight returns the height of the face's digits and capitals, for
// centring labels on their ink rather than on the line box.
func capHeight(face font.Face) float64 {
	b, _ := font.BoundString(face, "0H")
	return float64(-b.Min.Y) / 64
}

func opaque(c color.NRGBA) color.NRGBA { c.A = 255; return c }

// drawShadow draws the soft shadow of a stone centred at (cx, cy), cast
// towards the lower right.
func drawShadow(dc *gg.Context, cx, cy, r float64, st *style) {
	if st.shadow == 0 {
		return
	}
	sx, sy, sr := cx+0.07*r, cy+0.11*r, r*1.13
	a := uint8(255 * st.shadow)
	g := gg.NewRadialGradient(sx, sy, 0, sx, sy, sr)
	g.AddColorStop(0, color.NRGBA{0, 0, 0, a})
	g.AddColorStop(0.76, color.NRGBA{0, 0, 0, a})
	g.AddColorStop(0.9, color.NRGBA{0, 0, 0, a / 3})
	g.AddColorStop(1, color.NRGBA{0, 0, 0, 0})
	dc.SetFillStyle(g)
	dc.DrawCircle(sx, sy, sr)
	dc.Fill()
}

// drawStone draws a stone centred at (cx, cy): a radial gradient from a
// highlight at the upper left, and an outline where the theme has one.
func drawStone(dc *gg.Context, cx, cy, r float64, ss *stoneStyle) {
	g := gg.NewRadialGradient(cx-0.36*r, cy-0.42*r, 0, cx, cy, r)
	g.AddColorStop(0, ss.highlight)
	g.AddColorStop(0.5, ss.mid)
	g.AddColorStop(1, ss.edge)
	dc.SetFillStyle(g)
	dc.DrawCircle(cx, cy, r)
	dc.Fill()
	if ss.outline.A > 0 {
		lw := math.Max(1, 0.035*r)
		dc.SetColor(ss.outline)
		dc.SetLineWidth(lw)
		dc.DrawCircle(cx, cy, r-lw/2)
		dc.Stroke()
	}
}

// ringRadius is the last-move ring's radius as a part of the stone's.
const ringRadius = 0.5

// drawLastMove draws the last-move ring on a stone of style ss.
func drawLastMove(dc *gg.Context, cx, cy, r float64, ss *stoneStyle) {
	dc.SetColor(ss.text)
	dc.SetLineWidth(math.Max(2, 0.16*r))
	dc.DrawCircle(cx, cy, ringRadius*r)
	dc.Stroke()
}

// drawKo draws the square that marks a ko point.
func drawKo(dc *gg.Context, cx, cy, r float64, st *style) {
	lw := math.Max(2, 0.12*r)
	s := 0.8 * r
	dc.SetColor(st.ko)
	dc.SetLineWidth(lw)
	dc.DrawRectangle(cx-s/2, cy-s/2, s, s)
	dc.Stroke()
}

// drawTerritory draws the small square that shows who owns a point.
func drawTerritory(dc *gg.Context, cx, cy, r float64, owner engine.Color, st *style) {
	s := math.Round(0.62 * r)
	x, y := cx-s/2, cy-s/2
	if owner == engine.Black {
		dc.SetColor(st.territoryB)
		dc.DrawRectangle(x, y, s, s)
		dc.Fill()
		return
	}
	dc.SetColor(st.terrEdge)
	dc.DrawRectangle(x, y, s, s)
	dc.Fill()
	e := math.Max(1, math.Round(0.06*r))
	dc.SetColor(st.territoryW)
	dc.DrawRectangle(x+e, y+e, s-2*e, s-2*e)
	dc.Fill()
}

// drawCross crosses out a dead stone of colour c: a cross in the colour of
// the player who captures it, with a thin halo so it reads on the faded
// stone.
func drawCross(dc *gg.Context, cx, cy, r float64, c engine.Color, st *style) {
	fg, halo := st.white.highlight, st.black.edge
	if c == engine.White {
		fg, halo = st.black.edge, st.white.highlight
	}
	d := 0.4 * r
	w := math.Max(2, 0.16*r)
	dc.SetLineCapRound()
	for i, col := range []color.NRGBA{halo, fg} {
		dc.SetColor(col)
		dc.SetLineWidth(w + float64(1-i)*math.Max(2, 0.12*r))
		dc.DrawLine(cx-d, cy-d, cx+d, cy+d)
		dc.DrawLine(cx-d, cy+d, cx+d, cy-d)
		dc.Stroke()
	}
}

// fade scales a premultiplied image's opacity by f, for dead stones.
func fade(img *image.RGBA, f float64) {
	k := uint32(f * 256)
	for i := range img.Pix {
		img.Pix[i] = uint8(uint32(img.Pix[i]) * k >> 8)
	}
}

// textMask draws s in the face centred on (cx, cy) of a new alpha mask of
// the given side, centring the digits on their ink.
func textMask(face font.Face, s string, side int, cx, cy float64) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, side, side))
	adv := font.MeasureString(face, s)
	capH := capHeight(face)
	d := font.Drawer{Dst: m, Src: image.Opaque, Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6((cx - float64(adv)/64/2) * 64), Y: fixed.Int26_6((cy + capH/2) * 64)}}
	d.DrawString(s)
	return m
}
