package render

import (
	"image"
	"image/png"
	"io"
	"strconv"

	"github.com/fogleman/gg"

	"github.com/gobot-dev/gobot/engine"
)

// naiveBoard is what Board would be without its cache: it draws the whole
// picture with gg for every call (wood, grid, labels, every stone and
// mark), then quantises and encodes it like Board. It is the baseline in
// the benchmarks and a reference that the cached pictures must match.
func naiveBoard(w io.Writer, b *engine.Board, opts Options) error {
	img, err := naiveRGBA(b, opts)
	if err != nil {
		return err
	}
	q, err := shared.quantizer(opts.Theme) // fitted once per theme in both
	if err != nil {
		return err
	}
	pal := image.NewPaletted(img.Rect, q.Pal)
	q.Quantize(pal, img, img.Rect)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, pal)
}

// naiveRGBA draws the full-colour picture from scratch.
func naiveRGBA(b *engine.Board, opts Options) (*image.RGBA, error) {
	px, err := pixels(opts.Size)
	if err != nil {
		return nil, err
	}
	l := newLayout(b.Size(), px)
	st := &styles[opts.Theme]
	img := image.NewRGBA(image.Rect(0, 0, px, px))
	if err := drawBoard(img, &l, st); err != nil {
		return nil, err
	}
	sc, err := newScene(b, &opts)
	if err != nil {
		return nil, err
	}
	dc := gg.NewContextForRGBA(img)
	for _, s := range sc.terr {
		cx, cy := l.center(s.p)
		drawTerritory(dc, cx, cy, l.r, s.c, st)
	}
	for _, s := range sc.stones {
		cx, cy := l.center(s.p)
		drawShadow(dc, cx, cy, l.r, st)
	}
	for _, s := range sc.stones {
		cx, cy := l.center(s.p)
		drawStone(dc, cx, cy, l.r, st.stoneStyle(s.c))
	}
	for _, s := range sc.dead {
		// A faded stone needs a layer of its own.
		o := int(l.r*1.3) + 1
		side := 2*o + l.lw + 1
		layer := image.NewRGBA(image.Rect(0, 0, side, side))
		ldc := gg.NewContextForRGBA(layer)
		c := float64(o) + float64(l.lw)/2
		drawStone(ldc, c, c, l.r, st.stoneStyle(s.c))
		fade(layer, 0.5)
		drawCross(ldc, c, c, l.r, s.c, st)
		x, y := l.cornerPixel(s.p, o)
		dc.DrawImage(layer, x, y)
	}
	if sc.ko != engine.NoPoint {
		cx, cy := l.center(sc.ko)
		drawKo(dc, cx, cy, l.r, st)
	}
	if sc.last.c != engine.Empty {
		cx, cy := l.center(sc.last.p)
		drawLastMove(dc, cx, cy, l.r, st.stoneStyle(sc.last.c))
	}
	for _, nb := range sc.numbers {
		s := strconv.Itoa(nb.n)
		face, err := numberFace(&l, s, nb.on != engine.Empty)
		if err != nil {
			return nil, err
		}
		dc.SetFontFace(face)
		switch {
		case nb.on == engine.Empty:
			dc.SetColor(st.label)
		case nb.last:
			dc.SetColor(st.stoneStyle(nb.on).accent)
		default:
			dc.SetColor(st.stoneStyle(nb.on).text)
		}
		cx, cy := l.center(nb.p)
		w, _ := dc.MeasureString(s)
		dc.DrawString(s, cx-w/2, cy+capHeight(face)/2)
		face.Close()
	}
	return img, nil
}
