package raster

import (
	"image"
	"image/draw"
)

// Sprite is a premultiplied picture drawn once and composited many times,
// with each row cut into spans of opaque and partly transparent pixels so
// that compositing copies the opaque runs (most of a stone or a piece) outright and
// skips the transparent ones.
type Sprite struct {
	img   *image.RGBA
	box   image.Rectangle // the part that is not fully transparent
	spans [][]span        // by row of img
}

type span struct {
	x0, x1 int // img columns [x0, x1)
	opaque bool
}

// NewSprite cuts img, premultiplied, into the spans of a Sprite.
func NewSprite(img *image.RGBA) *Sprite {
	s := &Sprite{img: img, spans: make([][]span, img.Rect.Dy())}
	b := img.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		var row []span
		for x := b.Min.X; x < b.Max.X; {
			a := img.Pix[img.PixOffset(x, y)+3]
			if a == 0 {
				x++
				continue
			}
			start, opaque := x, a == 255
			for x < b.Max.X {
				a := img.Pix[img.PixOffset(x, y)+3]
				if a == 0 || (a == 255) != opaque {
					break
				}
				x++
			}
			row = append(row, span{start, x, opaque})
			s.box = s.box.Union(image.Rect(start, y, x, y+1))
		}
		s.spans[y-b.Min.Y] = row
	}
	return s
}

// DrawOver composites the Sprite over dst, which must be opaque, with the
// Sprite's origin at p.
func (s *Sprite) DrawOver(dst *image.RGBA, p image.Point) {
	box := s.box.Add(p)
	if !box.In(dst.Rect) {
		draw.Draw(dst, s.img.Rect.Add(p), s.img, s.img.Rect.Min, draw.Over)
		return
	}
	for y, row := range s.spans {
		if len(row) == 0 {
			continue
		}
		src := s.img.Pix[y*s.img.Stride:]
		d := dst.Pix[dst.PixOffset(p.X, p.Y+y):]
		for _, sp := range row {
			if sp.opaque {
				copy(d[4*sp.x0:4*sp.x1], src[4*sp.x0:4*sp.x1])
				continue
			}
			for i := 4 * sp.x0; i < 4*sp.x1; i += 4 {
				sc := src[i : i+4 : i+4]
				dc := d[i : i+3 : i+3]
				inv := uint32(255 - sc[3])
				dc[0] = sc[0] + uint8((uint32(dc[0])*inv+127)/255)
				dc[1] = sc[1] + uint8((uint32(dc[1])*inv+127)/255)
				dc[2] = sc[2] + uint8((uint32(dc[2])*inv+127)/255)
			}
		}
	}
}

// Box returns the part of the sprite that is not fully transparent.
func (s *Sprite) Box() image.Rectangle { return s.box }

// Image returns the sprite's picture, premultiplied; it must not be changed.
func (s *Sprite) Image() *image.RGBA { return s.img }
