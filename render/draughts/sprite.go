package draughts

import (
	"image"
	"image/draw"
)

// sprite (as in package render) is a premultiplied picture drawn once and composited many times,
// with each row cut into spans of opaque and partly transparent pixels so
// that compositing copies the opaque runs (most of a piece) outright and
// skips the transparent ones.
type sprite struct {
	img   *image.RGBA
	box   image.Rectangle // the part that is not fully transparent
	spans [][]span        // by row of img
}

type span struct {
	x0, x1 int // img columns [x0, x1)
	opaque bool
}

func newSprite(img *image.RGBA) *sprite {
	s := &sprite{img: img, spans: make([][]span, img.Rect.Dy())}
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

// drawOver composites the sprite over dst, which must be opaque, with the
// sprite's origin at p.
func (s *sprite) drawOver(dst *image.RGBA, p image.Point) {
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
