package draughts

import (
	"image"

	rules "github.com/gobot-dev/gobot/engine/draughts"
)

// layout places the 10×10 squares on a square picture of px pixels: a
// wooden frame round whole-pixel squares, so that every square, piece
// sprite and number lands on the same pixels as its neighbours.
type layout struct {
	px     int
	sq     int // a square's side
	x0, y0 int // the top-left pixel of the squares; the frame is outside
	flip   bool
}

func newLayout(px int, flip bool) layout {
	frame := max(4, px/64)
	sq := (px - 2*frame) / rules.Width
	x0 := (px - rules.Width*sq) / 2
	return layout{px: px, sq: sq, x0: x0, y0: x0, flip: flip}
}

// cell returns the row and column, 0 to 9 from the top left of the
// picture, at which square s is drawn.
func (l *layout) cell(s rules.Square) (row, col int) {
	row, col = s.Row(), s.Col()
	if l.flip {
		row, col = rules.Width-1-row, rules.Width-1-col
	}
	return row, col
}

// rect returns the pixels of the cell at row and column.
func (l *layout) rect(row, col int) image.Rectangle {
	x, y := l.x0+col*l.sq, l.y0+row*l.sq
	return image.Rect(x, y, x+l.sq, y+l.sq)
}

// square returns the pixels of square s.
func (l *layout) square(s rules.Square) image.Rectangle { return l.rect(l.cell(s)) }

// center returns the centre of square s in pixel coordinates.
func (l *layout) center(s rules.Square) (float64, float64) {
	r := l.square(s)
	return float64(r.Min.X) + float64(l.sq)/2, float64(r.Min.Y) + float64(l.sq)/2
}

// board returns the pixels of the squares, without the frame.
func (l *layout) board() image.Rectangle {
	return image.Rect(l.x0, l.y0, l.x0+rules.Width*l.sq, l.y0+rules.Width*l.sq)
}

// The proportions of what is drawn on a square, as parts of its side.
const (
	pieceRadius = 0.40 // a piece's radius
	numberSize  = 0.17 // the square numbers' font size
	numberPad   = 0.05 // the numbers' distance from the square's corner
)
