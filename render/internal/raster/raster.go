package raster

import (
	"image"
	"image/color"
	"image/png"
	"sync"
)

// Tile is the side of the squares Tiles tracks as redrawn.
const Tile = 16

// Tiles is a set of tile-sized squares of a picture that need redrawing.
type Tiles struct {
	rect   image.Rectangle
	nx, ny int
	dirty  []bool
	area   image.Rectangle
}

// NewTiles returns an empty set over the picture r.
func NewTiles(r image.Rectangle) *Tiles {
	nx, ny := (r.Dx()+Tile-1)/Tile, (r.Dy()+Tile-1)/Tile
	return &Tiles{rect: r, nx: nx, ny: ny, dirty: make([]bool, nx*ny)}
}

// Mark adds the tiles that r touches.
func (t *Tiles) Mark(r image.Rectangle) {
	r = r.Intersect(t.rect)
	if r.Empty() {
		return
	}
	r = r.Sub(t.rect.Min)
	for ty := r.Min.Y / Tile; ty <= (r.Max.Y-1)/Tile; ty++ {
		for tx := r.Min.X / Tile; tx <= (r.Max.X-1)/Tile; tx++ {
			t.dirty[ty*t.nx+tx] = true
		}
	}
	t.area = t.area.Union(t.tileRect(r.Min.X/Tile, r.Min.Y/Tile, (r.Max.X-1)/Tile+1, (r.Max.Y-1)/Tile+1))
}

// Touches reports whether r touches a marked tile.
func (t *Tiles) Touches(r image.Rectangle) bool {
	r = r.Intersect(t.rect)
	if r.Empty() {
		return false
	}
	r = r.Sub(t.rect.Min)
	for ty := r.Min.Y / Tile; ty <= (r.Max.Y-1)/Tile; ty++ {
		for tx := r.Min.X / Tile; tx <= (r.Max.X-1)/Tile; tx++ {
			if t.dirty[ty*t.nx+tx] {
				return true
			}
		}
	}
	return false
}

// tileRect returns the pixels of tiles [x0, x1) in rows [y0, y1).
func (t *Tiles) tileRect(x0, y0, x1, y1 int) image.Rectangle {
	return image.Rect(x0*Tile, y0*Tile, x1*Tile, y1*Tile).Add(t.rect.Min).Intersect(t.rect)
}

// Bounds returns the smallest rectangle holding every marked tile.
func (t *Tiles) Bounds() image.Rectangle { return t.area }

// Runs returns the marked tiles as rectangles, joining neighbours in a row.
func (t *Tiles) Runs() []image.Rectangle {
	var runs []image.Rectangle
	for ty := 0; ty < t.ny; ty++ {
		for tx := 0; tx < t.nx; {
			if !t.dirty[ty*t.nx+tx] {
				tx++
				continue
			}
			start := tx
			for tx < t.nx && t.dirty[ty*t.nx+tx] {
				tx++
			}
			runs = append(runs, t.tileRect(start, ty, tx, ty+1))
		}
	}
	return runs
}

var (
	rgbaPool sync.Pool // *image.RGBA
	palPool  sync.Pool // *image.Paletted
	encPool  sync.Pool // *png.EncoderBuffer
)

// RGBA lends a working image of bounds r; PutRGBA gives it back.
func RGBA(r image.Rectangle) *image.RGBA {
	if img, ok := rgbaPool.Get().(*image.RGBA); ok && img.Rect == r {
		return img
	}
	return image.NewRGBA(r)
}

// PutRGBA gives back an image RGBA lent.
func PutRGBA(img *image.RGBA) { rgbaPool.Put(img) }

// Paletted lends a paletted image of bounds r with palette pal (its pixels
// are whatever they were); PutPaletted gives it back.
func Paletted(r image.Rectangle, pal color.Palette) *image.Paletted {
	if img, ok := palPool.Get().(*image.Paletted); ok && img.Rect == r {
		img.Palette = pal
		return img
	}
	return image.NewPaletted(r, pal)
}

// PutPaletted gives back an image Paletted lent.
func PutPaletted(img *image.Paletted) { palPool.Put(img) }

// Encoder returns the PNG encoder the renderers write with: fast
// compression, buffers from a pool.
func Encoder() png.Encoder {
	return png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoderPool{}}
}

// encoderPool lends the PNG encoder its buffers.
type encoderPool struct{}

func (encoderPool) Get() *png.EncoderBuffer {
	b, _ := encPool.Get().(*png.EncoderBuffer)
	return b
}

func (encoderPool) Put(b *png.EncoderBuffer) { encPool.Put(b) }
