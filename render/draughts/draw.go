package draughts

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
	rules "github.com/gobot-dev/gobot/engine/draughts"
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
	return truetype.NewFace(f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull}), nil
}

// drawBoard draws the empty board: the frame, the squares in grained
// wood and the numbers of the dark squares in their top-left corners.
func drawBoard(img *image.RGBA, l *layout, st *style) error {
	fill(img, img.Rect, st.frame)
	b := l.board()
	edge := max(1, l.sq/40)
	fill(img, b.Inset(-edge), st.frameLine)
	for row := 0; row < rules.Width; row++ {
		for col := 0; col < rules.Width; col++ {
			drawSquare(img, l, st, row, col)
		}
	}
	return drawNumbers(img, l, st)
}

func fill(img *image.RGBA, r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
		}
	}
}

// drawSquare fills one square with wood whose straight grain runs top to
// bottom. Each square is cut from another part of the plank, but within a
// square every row of pixels is the same, so the PNG packs it to almost
// nothing.
func drawSquare(img *image.RGBA, l *layout, st *style, row, col int) {
	r := l.rect(row, col)
	base, grain, depth := st.light, st.lightGrain, 0.8
	if (row+col)%2 == 1 {
		base, grain, depth = st.dark, st.darkGrain, 0.7
	}
	// A fixed pseudo-random offset into the plank for each square, from
	// its place on the board as White sees it, so a flipped board shows
	// the same squares turned round.
	br, bc := row, col
	if l.flip {
		br, bc = rules.Width-1-row, rules.Width-1-col
	}
	seed := uint32(br*rules.Width+bc)*2654435761 + 12345
	seed ^= seed >> 13
	offset := float64(seed % 600)
	line := make([]byte, 4*l.sq)
	for x := 0; x < l.sq; x++ {
		u := offset + (float64(x)+0.5)/float64(l.sq)*120 // a square is 120 units of grain
		wave := 0.5*math.Sin(2*math.Pi*u/173+1.3) + 0.3*math.Sin(2*math.Pi*u/61+0.4) + 0.2*math.Sin(2*math.Pi*u/23+2.1)
		t := math.Min(1, 0.2*(wave+1)/2+0.7*raster.GrainLines(u)) * depth
		lift := 1 + 0.04*(0.5-(float64(x)+0.5)/float64(l.sq)) // lit from the left
		mix := func(a, b uint8) uint8 {
			v := (float64(a)*(1-t) + float64(b)*t) * lift
			return uint8(math.Max(0, math.Min(255, math.Round(v))))
		}
		line[4*x], line[4*x+1], line[4*x+2], line[4*x+3] = mix(base.R, grain.R), mix(base.G, grain.G), mix(base.B, grain.B), 255
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(r.Min.X, y):], line)
	}
}

// minNumberFont is the smallest font, in pixels, in which the square
// numbers are drawn: smaller pictures (below about 450 pixels) leave them
// out rather than show specks.
const minNumberFont = 7.5

// drawNumbers writes each dark square's number small in its top-left
// corner, clear of the piece that may stand on it.
func drawNumbers(img *image.RGBA, l *layout, st *style) error {
	if numberSize*float64(l.sq) < minNumberFont {
		return nil
	}
	face, err := newFace(numberSize * float64(l.sq))
	if err != nil {
		return err
	}
	defer face.Close()
	capH := capHeight(face)
	pad := math.Max(1, math.Round(numberPad*float64(l.sq)))
	for s := rules.Square(1); s <= rules.NumSquares; s++ {
		r := l.square(s)
		d := font.Drawer{Dst: img, Src: image.NewUniform(st.number), Face: face,
			Dot: fixed.P(r.Min.X+int(pad), r.Min.Y+int(pad+math.Ceil(capH)))}
		d.DrawString(strconv.Itoa(int(s)))
	}
	return nil
}

// numberBox returns the pixels that square s's number may cover, none
// when the numbers are left out: for tests, which check that pieces
// leave it clear.
func numberBox(l *layout, s rules.Square) (image.Rectangle, error) {
	if numberSize*float64(l.sq) < minNumberFont {
		return image.Rectangle{}, nil
	}
	face, err := newFace(numberSize * float64(l.sq))
	if err != nil {
		return image.Rectangle{}, err
	}
	defer face.Close()
	b, _ := font.BoundString(face, strconv.Itoa(int(s)))
	capH := capHeight(face)
	pad := math.Max(1, math.Round(numberPad*float64(l.sq)))
	r := l.square(s)
	at := image.Pt(r.Min.X+int(pad), r.Min.Y+int(pad+math.Ceil(capH)))
	return image.Rect(b.Min.X.Floor(), b.Min.Y.Floor(), b.Max.X.Ceil(), b.Max.Y.Ceil()).Add(at), nil
}

// capHeight returns the height of the face's digits, for placing numbers
// by their ink rather than their line box.
func capHeight(face font.Face) float64 {
	b, _ := font.BoundString(face, "0123456789")
	return float64(-b.Min.Y) / 64
}

// drawShadow draws the soft shadow of a piece centred at (cx, cy), cast
// towards the lower right.
func drawShadow(dc *gg.Context, cx, cy, r float64, st *style) {
	sx, sy, sr := cx+0.05*r, cy+0.1*r, r*1.08
	a := uint8(255 * st.shadow)
	g := gg.NewRadialGradient(sx, sy, 0, sx, sy, sr)
	g.AddColorStop(0, color.NRGBA{0, 0, 0, a})
	g.AddColorStop(0.8, color.NRGBA{0, 0, 0, a})
	g.AddColorStop(0.92, color.NRGBA{0, 0, 0, a / 3})
	g.AddColorStop(1, color.NRGBA{0, 0, 0, 0})
	dc.SetFillStyle(g)
	dc.DrawCircle(sx, sy, sr)
	dc.Fill()
}

// drawMan draws a man centred at (cx, cy): a disc with a rim, a face lit
// from above and a turned groove.
func drawMan(dc *gg.Context, cx, cy, r float64, ps *pieceStyle) {
	dc.SetColor(ps.rim)
	dc.DrawCircle(cx, cy, r)
	dc.Fill()
	face := 0.9 * r
	g := gg.NewLinearGradient(cx, cy-face, cx, cy+face)
	g.AddColorStop(0, ps.highlight)
	g.AddColorStop(1, ps.face)
	dc.SetFillStyle(g)
	dc.DrawCircle(cx, cy, face)
	dc.Fill()
	w := math.Max(1.2, 0.07*r)
	ring(dc, cx, cy+0.6*w, 0.62*r, w, ps.shine)
	ring(dc, cx, cy, 0.62*r, w, ps.groove)
	if ps.outline.A > 0 {
		lw := math.Max(1, 0.045*r)
		ring(dc, cx, cy, r-lw/2, lw, ps.outline)
	}
}

// ring fills a ring of radius r and width w: a fill rather than a
// stroke, which leaves a notch where the circle's path meets itself.
func ring(dc *gg.Context, cx, cy, r, w float64, c color.Color) {
	dc.SetFillRuleEvenOdd()
	dc.SetColor(c)
	dc.DrawCircle(cx, cy, r+w/2)
	dc.DrawCircle(cx, cy, r-w/2)
	dc.Fill()
	dc.SetFillRuleWinding()
}

// crownDrop is how far below the piece's centre the crown's outline is
// drawn, as a part of the radius, so that the crown looks centred.
const crownDrop = 0.06

// drawCrown draws the king's crown on a piece centred at (cx, cy): three
// points with a ball on each, over a band, in gold with a dark outline.
func drawCrown(dc *gg.Context, cx, cy, r float64, st *style) {
	s := 1.02 * r
	cy += crownDrop * r
	pts := [][2]float64{
		{-0.46, 0.3}, {0.46, 0.3}, {0.5, -0.22}, {0.23, 0.0}, {0, -0.34}, {-0.23, 0.0}, {-0.5, -0.22},
	}
	path := func() {
		dc.NewSubPath()
		for i, p := range pts {
			if i == 0 {
				dc.MoveTo(cx+p[0]*s, cy+p[1]*s)
			} else {
				dc.LineTo(cx+p[0]*s, cy+p[1]*s)
			}
		}
		dc.ClosePath()
	}
	lw := math.Max(1.2, 0.07*r)
	dc.SetLineJoinRound()
	path()
	dc.SetColor(st.crown)
	dc.FillPreserve()
	dc.SetColor(st.crownLine)
	dc.SetLineWidth(lw)
	dc.Stroke()
	for _, p := range [][2]float64{{-0.5, -0.22}, {0, -0.34}, {0.5, -0.22}} {
		dc.DrawCircle(cx+p[0]*s, cy+p[1]*s, 0.095*s)
		dc.SetColor(st.crown)
		dc.FillPreserve()
		dc.SetColor(st.crownLine)
		dc.Stroke()
	}
	// The band across the crown's foot.
	dc.SetLineWidth(lw)
	dc.DrawLine(cx-0.44*s, cy+0.17*s, cx+0.44*s, cy+0.17*s)
	dc.Stroke()
}

// fade scales a premultiplied image's opacity by f, for captured pieces.
func fade(img *image.RGBA, f float64) {
	k := uint32(f * 256)
	for i := range img.Pix {
		img.Pix[i] = uint8(uint32(img.Pix[i]) * k >> 8)
	}
}
