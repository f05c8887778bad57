package raster

import (
	"image"
	"image/color"
	"slices"
	"testing"
)

// TestTiles: marking a rectangle marks the tiles it touches, neighbours in
// a row join into one run, and Bounds and Touches agree with the marks.
func TestTiles(t *testing.T) {
	tl := NewTiles(image.Rect(0, 0, 100, 50)) // 7×4 tiles, the last ones cut
	if runs := tl.Runs(); len(runs) != 0 || !tl.Bounds().Empty() {
		t.Fatalf("a new set: runs %v, bounds %v", runs, tl.Bounds())
	}
	tl.Mark(image.Rect(10, 5, 40, 20))    // tiles x 0–2, y 0–1
	tl.Mark(image.Rect(95, 45, 200, 200)) // cut to the picture: tiles x 5–6, y 2–3
	want := []image.Rectangle{image.Rect(0, 0, 48, 16), image.Rect(0, 16, 48, 32), image.Rect(80, 32, 100, 48), image.Rect(80, 48, 100, 50)}
	if got := tl.Runs(); !slices.Equal(got, want) {
		t.Errorf("Runs() = %v, want %v", got, want)
	}
	if got := tl.Bounds(); got != image.Rect(0, 0, 100, 50) {
		t.Errorf("Bounds() = %v, want the whole picture", got)
	}
	for _, tt := range []struct {
		r    image.Rectangle
		want bool
	}{
		{image.Rect(47, 31, 49, 33), true},
		{image.Rect(48, 0, 80, 32), false},
		{image.Rect(-10, -10, 0, 0), false},
	} {
		if got := tl.Touches(tt.r); got != tt.want {
			t.Errorf("Touches(%v) = %v, want %v", tt.r, got, tt.want)
		}
	}
}

// TestPools: a lent image of the same bounds comes back with the palette
// asked for; other bounds get a new image.
func TestPools(t *testing.T) {
	r := image.Rect(0, 0, 8, 8)
	img := RGBA(r)
	PutRGBA(img)
	if got := RGBA(image.Rect(0, 0, 4, 4)); got.Rect != image.Rect(0, 0, 4, 4) {
		t.Errorf("RGBA(4×4) has bounds %v", got.Rect)
	}
	p := Paletted(r, nil)
	PutPaletted(p)
	if q := Paletted(r, []color.Color{color.Black}); len(q.Palette) != 1 || q.Rect != r {
		t.Errorf("Paletted = %v with %d colours", q.Rect, len(q.Palette))
	}
}
