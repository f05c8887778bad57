package raster

import (
	"bytes"
	"image"
	"time"
)

// Centis converts a duration to the GIF's hundredths of a second.
func Centis(d time.Duration) int { return int((d + 5*time.Millisecond) / (10 * time.Millisecond)) }

// Changed returns the smallest rectangle outside which a and b agree,
// looking only within r.
func Changed(a, b *image.Paletted, r image.Rectangle) image.Rectangle {
	r = r.Intersect(a.Rect)
	w := r.Dx()
	minY, maxY := -1, -1
	minX, maxX := w, -1
	for y := r.Min.Y; y < r.Max.Y; y++ {
		ra := a.Pix[a.PixOffset(r.Min.X, y):][:w]
		rb := b.Pix[b.PixOffset(r.Min.X, y):][:w]
		if bytes.Equal(ra, rb) {
			continue
		}
		if minY < 0 {
			minY = y
		}
		maxY = y
		x0 := 0
		for x0 < w && ra[x0] == rb[x0] {
			x0++
		}
		x1 := w - 1
		for x1 > x0 && ra[x1] == rb[x1] {
			x1--
		}
		minX, maxX = min(minX, x0), max(maxX, x1)
	}
	if minY < 0 {
		return image.Rectangle{}
	}
	return image.Rect(r.Min.X+minX, minY, r.Min.X+maxX+1, maxY+1)
}
