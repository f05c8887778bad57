package raster

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
	"sync/atomic"
)

// The quantiser maps every colour to a palette entry through a lookup
// table of 6 bits per channel, filled lazily: a picture uses a few
// thousand of its 262144 cells, and each is worked out once per theme.
// The background, the sprites and everything composited over them go
// through the same table, so a pixel of wood that a stone or a piece did
// not touch keeps its palette index whether or not it lies in a region
// that was redrawn.
const (
	lutBits  = 6
	lutShift = 8 - lutBits
	lutSize  = 1 << (3 * lutBits)
)

// PaletteSize is the number of colours fitted to a theme: one short of
// 256, so that GIF frames have an index left for "unchanged" pixels.
const PaletteSize = 255

// Quantizer is a theme's palette and its lookup table. It is immutable
// once built and safe for concurrent use.
type Quantizer struct {
	Pal   color.Palette // sorted by green
	rgb   [][3]int32    // the palette as integers
	origs []int         // while fitting: each entry's place in the input
	// lut holds 1 + the palette index of each cell, or 0 while the cell
	// has not been worked out. Concurrent fills store the same value.
	lut []atomic.Uint32
}

// Channel weights for colour distance: a rough account of how much more
// the eye notices a change in green than in red or blue.
const wR, wG, wB = 3, 4, 2

// ColorCount is one distinct colour of a sample and its weight.
type ColorCount struct {
	c [3]int32
	w float64
}

// Histogram counts the distinct opaque colours of the sample images.
func Histogram(imgs ...*image.RGBA) []ColorCount {
	counts := make(map[uint32]int)
	for _, img := range imgs {
		for i := 0; i+3 < len(img.Pix); i += 4 {
			k := uint32(img.Pix[i])<<16 | uint32(img.Pix[i+1])<<8 | uint32(img.Pix[i+2])
			counts[k]++
		}
	}
	keys := make([]uint32, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys) // a deterministic palette for deterministic pictures
	cc := make([]ColorCount, len(keys))
	for i, k := range keys {
		// Square-root weights: the wood covers most of the picture but
		// must not take most of the palette from the stones' shading.
		cc[i] = ColorCount{c: [3]int32{int32(k >> 16), int32(k >> 8 & 255), int32(k & 255)}, w: math.Sqrt(float64(counts[k]))}
	}
	return cc
}

// NewQuantizer fits a palette of PaletteSize colours to the sample colours by median
// cut and a few rounds of k-means, keeping the anchor colours (line, label,
// marker colours) exactly, and builds the lookup table.
func NewQuantizer(cc []ColorCount, anchors []color.NRGBA) *Quantizer {
	var fixed [][3]int32
	seen := map[[3]int32]bool{}
	for _, a := range anchors {
		c := [3]int32{int32(a.R), int32(a.G), int32(a.B)}
		if !seen[c] {
			seen[c] = true
			fixed = append(fixed, c)
		}
	}
	free := PaletteSize - len(fixed)
	centres := medianCut(cc, free)
	for round := 0; round < 4; round++ {
		all := append(append([][3]int32{}, fixed...), centres...)
		q := indexPalette(all)
		sum := make([][4]float64, len(all))
		for _, c := range cc {
			i := q.origs[q.nearest(c.c)]
			sum[i][0] += float64(c.c[0]) * c.w
			sum[i][1] += float64(c.c[1]) * c.w
			sum[i][2] += float64(c.c[2]) * c.w
			sum[i][3] += c.w
		}
		for j := range centres {
			s := sum[len(fixed)+j]
			if s[3] > 0 {
				centres[j] = [3]int32{int32(math.Round(s[0] / s[3])), int32(math.Round(s[1] / s[3])), int32(math.Round(s[2] / s[3]))}
			}
		}
	}
	all := append(append([][3]int32{}, fixed...), centres...)
	for len(all) < PaletteSize { // a sample with few colours: pad with greys
		v := int32(len(all))
		all = append(all, [3]int32{v, v, v})
	}
	q := indexPalette(all)
	q.origs = nil
	q.lut = make([]atomic.Uint32, lutSize)
	return q
}

// indexPalette sorts the colours by green into a Quantizer (without its
// lookup table).
func indexPalette(all [][3]int32) *Quantizer {
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return all[idx[a]][1] < all[idx[b]][1] })
	q := &Quantizer{rgb: make([][3]int32, len(all)), Pal: make(color.Palette, len(all)), origs: idx}
	for i, j := range idx {
		q.rgb[i] = all[j]
		q.Pal[i] = color.RGBA{uint8(all[j][0]), uint8(all[j][1]), uint8(all[j][2]), 255}
	}
	return q
}

// nearest returns the index of the palette entry nearest to c, searching
// outwards from c's green and stopping when green alone is too far.
func (q *Quantizer) nearest(c [3]int32) int {
	lo := sort.Search(len(q.rgb), func(i int) bool { return q.rgb[i][1] >= c[1] })
	best, bestD := 0, int32(math.MaxInt32)
	try := func(i int) bool {
		p := q.rgb[i]
		dg := p[1] - c[1]
		if wG*dg*dg >= bestD {
			return false
		}
		dr, db := p[0]-c[0], p[2]-c[2]
		if d := wR*dr*dr + wG*dg*dg + wB*db*db; d < bestD {
			best, bestD = i, d
		}
		return true
	}
	for i, j := lo, lo-1; i < len(q.rgb) || j >= 0; {
		more := false
		if i < len(q.rgb) {
			if try(i) {
				more = true
				i++
			} else {
				i = len(q.rgb)
			}
		}
		if j >= 0 {
			if try(j) {
				more = true
				j--
			} else {
				j = -1
			}
		}
		if !more && i >= len(q.rgb) && j < 0 {
			break
		}
	}
	return best
}

// cell returns the palette index for lookup cell i, working it out from
// the cell's centre colour the first time.
func (q *Quantizer) cell(i int) uint8 {
	if v := q.lut[i].Load(); v != 0 {
		return uint8(v - 1)
	}
	const mask = 1<<lutBits - 1
	half := int32(1 << lutShift / 2)
	c := [3]int32{int32(i>>(2*lutBits))<<lutShift + half, int32(i>>lutBits&mask)<<lutShift + half, int32(i&mask)<<lutShift + half}
	v := q.nearest(c)
	q.lut[i].Store(uint32(v) + 1)
	return uint8(v)
}

// index returns the palette index of an opaque colour.
func (q *Quantizer) Index(r, g, b uint8) uint8 {
	return q.cell(int(r>>lutShift)<<(2*lutBits) | int(g>>lutShift)<<lutBits | int(b>>lutShift))
}

// quantize writes the palette indices of src's pixels in rect into dst.
// The pixels must be opaque (they are: the board is).
func (q *Quantizer) Quantize(dst *image.Paletted, src *image.RGBA, rect image.Rectangle) {
	lut := q.lut
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		s := src.Pix[src.PixOffset(rect.Min.X, y):src.PixOffset(rect.Max.X, y)]
		d := dst.Pix[dst.PixOffset(rect.Min.X, y):dst.PixOffset(rect.Max.X, y)]
		for i := range d {
			p := s[4*i : 4*i+3 : 4*i+3]
			k := int(p[0]>>lutShift)<<(2*lutBits) | int(p[1]>>lutShift)<<lutBits | int(p[2]>>lutShift)
			if v := lut[k].Load(); v != 0 {
				d[i] = uint8(v - 1)
			} else {
				d[i] = q.cell(k)
			}
		}
	}
}

// medianCut splits the colours into n boxes, always splitting the box with
// the largest weighted error along its widest channel at the weighted
// median, and returns the boxes' weighted means.
func medianCut(cc []ColorCount, n int) [][3]int32 {
	type box struct {
		cs  []ColorCount
		err float64
		ch  int
	}
	measure := func(cs []ColorCount) box {
		var sum [3]float64
		var w float64
		for _, c := range cs {
			for k := 0; k < 3; k++ {
				sum[k] += float64(c.c[k]) * c.w
			}
			w += c.w
		}
		var v [3]float64
		for _, c := range cs {
			for k := 0; k < 3; k++ {
				d := float64(c.c[k]) - sum[k]/w
				v[k] += d * d * c.w
			}
		}
		v[0], v[1], v[2] = v[0]*wR, v[1]*wG, v[2]*wB
		ch := 0
		for k := 1; k < 3; k++ {
			if v[k] > v[ch] {
				ch = k
			}
		}
		b := box{cs: cs, err: v[0] + v[1] + v[2], ch: ch}
		if len(cs) < 2 {
			b.err = 0
		}
		return b
	}
	if len(cc) == 0 {
		return nil
	}
	boxes := []box{measure(cc)}
	for len(boxes) < n {
		bi := 0
		for i, b := range boxes {
			if b.err > boxes[bi].err {
				bi = i
			}
		}
		b := boxes[bi]
		if b.err == 0 {
			break
		}
		ch := b.ch
		slices.SortStableFunc(b.cs, func(x, y ColorCount) int { return int(x.c[ch] - y.c[ch]) })
		var total float64
		for _, c := range b.cs {
			total += c.w
		}
		cut, acc := 1, 0.0
		for i, c := range b.cs[:len(b.cs)-1] {
			acc += c.w
			cut = i + 1
			if acc >= total/2 {
				break
			}
		}
		boxes[bi] = measure(b.cs[:cut])
		boxes = append(boxes, measure(b.cs[cut:]))
	}
	out := make([][3]int32, len(boxes))
	for i, b := range boxes {
		var sum [3]float64
		var w float64
		for _, c := range b.cs {
			for k := 0; k < 3; k++ {
				sum[k] += float64(c.c[k]) * c.w
			}
			w += c.w
		}
		for k := 0; k < 3; k++ {
			out[i][k] = int32(math.Round(sum[k] / w))
		}
	}
	return out
}
