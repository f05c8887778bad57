package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/gobot-dev/gobot/engine"
)

// layout places a board of a given size on a square picture of px pixels.
// Intersections are an integer number of pixels apart, so that every grid
// line is crisp and every stone sprite lands on the same sub-pixel offset.
type layout struct {
	size, px int
	sp       int     // distance between neighbouring lines
	lw       int     // grid line width
	border   int     // outer line width
	x0, y0   int     // first pixel of the leftmost and the top line
	r        float64 // stone radius
	font     float64 // coordinate label size in pixels
}

func newLayout(size, px int) layout {
	n := float64(size - 1)
	// The picture is (size-1) spacings of grid, plus on each side half a
	// spacing for the edge stones and room for a two-character label.
	// Labels are 0.46 of a spacing, capped so small boards do not shout.
	sp := float64(px) / (n + 1 + 2*1.7*0.46)
	font := math.Min(0.46*sp, float64(px)/31)
	sp = (float64(px) - 2*1.7*font) / (n + 1)
	l := layout{size: size, px: px, sp: int(sp), font: font}
	if l.sp < 4 {
		l.sp = 4
	}
	l.lw = 1
	l.border = 2
	if l.sp >= 56 {
		l.lw, l.border = 2, 3
	}
	grid := (size-1)*l.sp + l.lw
	l.x0 = (px - grid) / 2
	l.y0 = (px - grid) / 2
	l.r = 0.485 * float64(l.sp)
	return l
}

// center returns the pixel coordinates of the centre of point p.
func (l *layout) center(p engine.Point) (float64, float64) {
	half := float64(l.lw) / 2
	return float64(l.x0+p.Col*l.sp) + half, float64(l.y0+(l.size-1-p.Row)*l.sp) + half
}

// cornerPixel returns the integer pixel at which a sprite whose centre sits
// at (o+half, o+half) within it must be drawn to centre it on p.
func (l *layout) cornerPixel(p engine.Point, o int) (int, int) {
	return l.x0 + p.Col*l.sp - o, l.y0 + (l.size-1-p.Row)*l.sp - o
}

// starPoints returns the hoshi of a board: the 4-4 points, sides and
// centre on 19×19 and other big odd boards, 4-4 points and centre on 13×13
// and its neighbours, 3-3 points and centre on 9×9 and the small boards
// down to 7×7, the centre alone on 5×5, and none where hoshi would crowd.
func starPoints(size int) []engine.Point {
	var d int
	switch {
	case size >= 12:
		d = 3
	case size >= 7:
		d = 2
	default:
		if size%2 == 1 && size >= 5 {
			return []engine.Point{{Col: size / 2, Row: size / 2}}
		}
		return nil
	}
	far := size - 1 - d
	pts := []engine.Point{{Col: d, Row: d}, {Col: far, Row: d}, {Col: d, Row: far}, {Col: far, Row: far}}
	if size%2 == 1 {
		mid := size / 2
		if size >= 15 {
			pts = append(pts, engine.Point{Col: d, Row: mid}, engine.Point{Col: far, Row: mid},
				engine.Point{Col: mid, Row: d}, engine.Point{Col: mid, Row: far})
		}
		pts = append(pts, engine.Point{Col: mid, Row: mid})
	}
	return pts
}

// colLabel returns the letter of column c as players type it (no I).
func colLabel(c int) string {
	return strings.TrimRight(engine.Point{Col: c, Row: 0}.String(), "0123456789")
}

// rowLabel returns the number of row r, 1 at the bottom.
func rowLabel(r int) string { return strconv.Itoa(r + 1) }
