package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/gg"

	"github.com/gobot-dev/gobot/engine"
)

// Graph sizes, in pixels.
const (
	DefaultGraphWidth  = 1000
	DefaultGraphHeight = 420
)

// GraphOptions say how to draw a win-rate graph. The zero value draws
// DefaultGraphWidth × DefaultGraphHeight pixels on the Wood theme.
type GraphOptions struct {
	Theme Theme
	// Width and Height in pixels, 0 for the defaults; each at most
	// MaxPixels and at least MinPixels/2.
	Width, Height int
	// Marks are move numbers to mark on the curve and number 1, 2, 3…
	// in the order given (a review gives its biggest swings).
	Marks []int
}

// WinrateGraph writes a PNG graph of Black's winning chance by move:
// winrates[i] is the chance after i moves, from 0 to 1. The area under the
// curve is Black's, above it White's, in the theme's stone colours on its
// wood; the 50% line is dashed, the axes are labelled, and each mark is a
// numbered disc on the curve at its move.
func WinrateGraph(w io.Writer, winrates []float64, opts GraphOptions) error {
	if !opts.Theme.valid() {
		return fmt.Errorf("theme %d: %w", opts.Theme, ErrUnknownTheme)
	}
	if len(winrates) == 0 {
		return ErrNoData
	}
	width, height := opts.Width, opts.Height
	if width == 0 {
		width = DefaultGraphWidth
	}
	if height == 0 {
		height = DefaultGraphHeight
	}
	for _, px := range []int{width, height} {
		if px < MinPixels/2 || px > MaxPixels {
			return fmt.Errorf("%d×%d px (want %d to %d a side): %w", width, height, MinPixels/2, MaxPixels, ErrImageSize)
		}
	}
	for _, m := range opts.Marks {
		if m < 0 || m >= len(winrates) {
			return fmt.Errorf("mark at move %d of %d: %w", m, len(winrates)-1, ErrNoData)
		}
	}
	st := &styles[opts.Theme]
	dc := gg.NewContext(width, height)
	dc.SetColor(st.wood)
	dc.Clear()

	fontPx := math.Max(11, float64(height)/26)
	face, err := newFace(fontPx)
	if err != nil {
		return err
	}
	defer face.Close()
	dc.SetFontFace(face)

	// The plot area, leaving room for the labels.
	left, right := 4.2*fontPx, float64(width)-1.5*fontPx
	top, bottom := 1.8*fontPx, float64(height)-3.4*fontPx
	n := len(winrates) - 1
	x := func(move float64) float64 {
		if n == 0 {
			return left
		}
		return left + (right-left)*move/float64(n)
	}
	y := func(wr float64) float64 { return bottom - (bottom-top)*math.Min(1, math.Max(0, wr)) }

	// White's area is the whole plot; Black's is under the curve.
	dc.SetColor(st.white.mid)
	dc.DrawRectangle(left, top, right-left, bottom-top)
	dc.Fill()
	dc.SetColor(st.black.mid)
	dc.MoveTo(x(0), bottom)
	for i, wr := range winrates {
		dc.LineTo(x(float64(i)), y(wr))
	}
	if n == 0 {
		dc.LineTo(right, y(winrates[0]))
	}
	dc.LineTo(x(float64(max(n, 1))), bottom)
	if n == 0 {
		dc.LineTo(right, bottom)
	}
	dc.ClosePath()
	dc.Fill()

	// Grid: 25%, 50% (dashed, stronger) and 75%.
	for _, q := range []float64{0.25, 0.5, 0.75} {
		c := st.line
		c.A = 90
		dc.SetLineWidth(1)
		if q == 0.5 {
			c.A = 200
			dc.SetDash(6, 4)
			dc.SetLineWidth(1.5)
		}
		dc.SetColor(c)
		dc.DrawLine(left, y(q), right, y(q))
		dc.Stroke()
		dc.SetDash()
	}
	dc.SetColor(st.line)
	dc.SetLineWidth(2)
	dc.DrawRectangle(left, top, right-left, bottom-top)
	dc.Stroke()

	// Axes: percentages on the left, move numbers below.
	dc.SetColor(st.label)
	capH := capHeight(face)
	for _, q := range []float64{0, 0.25, 0.5, 0.75, 1} {
		s := strconv.Itoa(int(100*q)) + "%"
		tw, _ := dc.MeasureString(s)
		dc.DrawString(s, left-tw-0.4*fontPx, y(q)+capH/2)
	}
	step := tickStep(n)
	for m := 0; m <= n; m += step {
		s := strconv.Itoa(m)
		tw, _ := dc.MeasureString(s)
		dc.DrawString(s, x(float64(m))-tw/2, bottom+capH+0.5*fontPx)
		dc.SetLineWidth(1)
		dc.DrawLine(x(float64(m)), bottom, x(float64(m)), bottom+0.3*fontPx)
		dc.Stroke()
	}
	axis := "Move"
	tw, _ := dc.MeasureString(axis)
	dc.DrawString(axis, (left+right)/2-tw/2, float64(height)-0.6*fontPx)
	title := "Black's winning chance"
	dc.DrawString(title, left, top-0.55*fontPx)

	// The marks: a disc in the accent colour with its number.
	r := math.Max(0.8*fontPx, 9)
	for i, m := range opts.Marks {
		cx, cy := x(float64(m)), y(winrates[m])
		dc.SetColor(st.line)
		dc.SetLineWidth(1.5)
		dc.DrawLine(cx, top, cx, bottom)
		dc.Stroke()
		dc.SetColor(markRing)
		dc.DrawCircle(cx, cy, r+2)
		dc.Fill()
		dc.SetColor(st.white.accent)
		dc.DrawCircle(cx, cy, r)
		dc.Fill()
		dc.SetColor(markRing)
		s := strconv.Itoa(i + 1)
		tw, _ := dc.MeasureString(s)
		dc.DrawString(s, cx-tw/2, cy+capH/2)
	}
	return png.Encode(w, dc.Image())
}

// markRing is the white halo around graph marks and board markers, so
// they read on black and white alike.
var markRing = color.NRGBA{255, 255, 255, 255}

// tickStep returns the spacing of the move numbers on a graph of n moves:
// about eight ticks at round numbers.
func tickStep(n int) int {
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100} {
		if n/s <= 10 {
			return s
		}
	}
	return 200
}

// WinrateAlt describes a win-rate graph in one line for screen readers:
// the number of moves, Black's chance at the start and the end, and each
// mark with its move and the change it made.
func WinrateAlt(winrates []float64, marks []int) string {
	if len(winrates) == 0 {
		return "Win-rate graph with no moves"
	}
	n := len(winrates) - 1
	pct := func(x float64) string { return strconv.Itoa(int(math.Round(100*x))) + "%" }
	s := fmt.Sprintf("Win-rate graph of %d %s: Black's winning chance starts at %s and ends at %s",
		n, plural(n, "move"), pct(winrates[0]), pct(winrates[n]))
	var ms []string
	for i, m := range marks {
		if m <= 0 || m > n {
			continue
		}
		ms = append(ms, fmt.Sprintf("%d at move %d (%s to %s)", i+1, m, pct(winrates[m-1]), pct(winrates[m])))
	}
	if len(ms) > 0 {
		s += "; marked: " + strings.Join(ms, ", ")
	}
	return s
}

// VariationOptions say what a mistake board shows besides the position.
type VariationOptions struct {
	// Played is the move that was played: marked with a cross in the
	// accent colour on a ghost stone of its colour. A pass marks nothing.
	// A move of PV on its point is not drawn but said (LineNotes), so the
	// point keeps the mover's colour under the cross.
	Played engine.Move
	// PV is the engine's preferred line from the position, numbered from
	// 1 on the position as it stands (its first move, the preferred move,
	// also gets a ring), as Go diagrams draw a line: nothing it captures
	// is taken off, so the position stays in view, and a move on a point
	// already taken is not drawn but said (LineNotes). At most 9 moves are
	// drawn.
	PV []engine.Move
	// Previous is the opponent's move that the mistake answered, the last
	// move on b: its stone gets the board's last-move ring, so a reader
	// sees what was being answered. A pass or the zero Move marks nothing.
	Previous engine.Move
	Theme    Theme
	Size     int // pixels on a side, 0 for DefaultPixels
}

// Variation writes a PNG of the position b before a mistake: the move that
// was played, marked, the opponent's previous move with the last-move ring,
// and the preferred line as numbered stones, its first stone ringed. The PV must be legal from b, each move by the colour it
// names; b is not modified.
func Variation(w io.Writer, b *engine.Board, opts VariationOptions) error {
	if b == nil {
		return ErrNilBoard
	}
	n := b.Size()
	pv := opts.PV[:min(len(opts.PV), 9)]
	played := opts.Played
	shown, nums, _, err := line(b, played, pv)
	if err != nil {
		return err
	}
	if played.Kind == engine.Place && !played.Point.Valid(n) {
		return fmt.Errorf("played move %v on a %d×%d board: %w", played.Point, n, n, ErrOffBoard)
	}
	img, k, err := rgbaBoard(shown, &Options{Numbers: nums, LastMove: opts.Previous, Theme: opts.Theme, Size: opts.Size, HideKo: true})
	if err != nil {
		return err
	}
	dc := gg.NewContextForRGBA(img)
	r := k.l.r
	if len(pv) > 0 && pv[0].Kind == engine.Place {
		cx, cy := k.l.center(pv[0].Point)
		dc.SetLineWidth(math.Max(3, 0.16*r))
		dc.SetColor(markRing)
		dc.DrawCircle(cx, cy, r*1.08)
		dc.Stroke()
		dc.SetColor(preferred)
		dc.SetLineWidth(math.Max(2, 0.1*r))
		dc.DrawCircle(cx, cy, r*1.08)
		dc.Stroke()
	}
	if played.Kind == engine.Place {
		cx, cy := k.l.center(played.Point)
		if shown.At(played.Point) == engine.Empty {
			ss := k.st.stoneStyle(played.Color)
			ghost := ss.mid
			ghost.A = 140
			dc.SetColor(ghost)
			dc.DrawCircle(cx, cy, r)
			dc.Fill()
		}
		d := 0.45 * r
		dc.SetLineCapRound()
		for i, c := range []color.Color{markRing, k.st.white.accent} {
			dc.SetColor(c)
			dc.SetLineWidth(math.Max(2, 0.2*r) + float64(1-i)*math.Max(2, 0.12*r))
			dc.DrawLine(cx-d, cy-d, cx+d, cy+d)
			dc.DrawLine(cx-d, cy+d, cx+d, cy-d)
			dc.Stroke()
		}
	}
	return png.Encode(w, img)
}

// LineNotes says what the mistake board Variation draws from b and opts
// cannot draw of the first 9 moves of opts.PV: its passes and the moves on
// points already taken or on the played move's point ("4 pass", "6 at 2",
// "7 at D4", "2 at G9"), joined by commas; "" when it draws every move.
func LineNotes(b *engine.Board, opts VariationOptions) string {
	if b == nil {
		return ""
	}
	_, _, notes, err := line(b, opts.Played, opts.PV[:min(len(opts.PV), 9)])
	if err != nil {
		return ""
	}
	return strings.Join(notes, ", ")
}

// line checks that pv can be played from b and returns the board a
// diagram draws (b with pv's stones put on the points that are empty,
// nothing captured), their numbers, and the notes for the moves it cannot
// draw. The point of played, the mistake, is left to its ghost stone and
// cross: a line's stone there would show the mistake in the other colour
// (the opponent often takes the point the mistake was played on) and the
// cross would hide its number.
func line(b *engine.Board, played engine.Move, pv []engine.Move) (*engine.Board, map[engine.Point]int, []string, error) {
	n := b.Size()
	after, shown := *b, *b
	nums := map[engine.Point]int{}
	var notes []string
	for i, m := range pv {
		if m.Kind != engine.Place {
			notes = append(notes, fmt.Sprintf("%d pass", i+1))
			continue
		}
		if !m.Point.Valid(n) {
			return nil, nil, nil, fmt.Errorf("variation move %v on a %d×%d board: %w", m.Point, n, n, ErrOffBoard)
		}
		v := after.Vertex(m.Point)
		if !after.Legal(v, m.Color) {
			return nil, nil, nil, fmt.Errorf("variation move %d %v: %w", i+1, m, ErrIllegalVariation)
		}
		after.Play(v, m.Color)
		switch at, ok := nums[m.Point]; {
		case ok:
			notes = append(notes, fmt.Sprintf("%d at %d", i+1, at))
		case shown.At(m.Point) != engine.Empty, played.Kind == engine.Place && m.Point == played.Point:
			notes = append(notes, fmt.Sprintf("%d at %s", i+1, m.Point))
		default:
			shown.SetStone(m.Point, m.Color)
			nums[m.Point] = i + 1
		}
	}
	return &shown, nums, notes, nil
}

// preferred is the colour of the ring around the engine's preferred move.
var preferred = color.NRGBA{24, 150, 60, 255}

// OwnershipOptions say how to draw an ownership board.
type OwnershipOptions struct {
	Theme Theme
	Size  int // pixels on a side, 0 for DefaultPixels
	// DeadAt is how surely a stone must belong to the other side to be
	// drawn dead (faded and crossed out); 0 means 0.5.
	DeadAt float64
}

// Ownership writes a PNG of b with an ownership estimate: own[i] for the
// point at index Row*size+Col, from +1 (surely Black's) to -1 (surely
// White's). An empty point gets a square of its likely owner's colour,
// bigger and bolder the surer it is; a stone that likely belongs to the
// other side is drawn dead (faded and crossed out), and a stone whose fate
// is open is veiled in the board's colour in proportion to the doubt.
func Ownership(w io.Writer, b *engine.Board, own []float64, opts OwnershipOptions) error {
	if b == nil {
		return ErrNilBoard
	}
	n := b.Size()
	if len(own) != n*n {
		return fmt.Errorf("%d entries for a %d×%d board (want %d): %w", len(own), n, n, n*n, ErrOwnerLength)
	}
	deadAt := opts.DeadAt
	if deadAt <= 0 {
		deadAt = 0.5
	}
	dead := DeadByOwnership(b, own, deadAt)
	img, k, err := rgbaBoard(b, &Options{Dead: dead, Theme: opts.Theme, Size: opts.Size, HideKo: true})
	if err != nil {
		return err
	}
	isDead := map[engine.Point]bool{}
	for _, p := range dead {
		isDead[p] = true
	}
	dc := gg.NewContextForRGBA(img)
	r := k.l.r
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			p := engine.Point{Col: col, Row: row}
			o := own[row*n+col]
			cx, cy := k.l.center(p)
			owner := engine.Black
			if o < 0 {
				owner = engine.White
			}
			sure := math.Min(1, math.Abs(o))
			switch c := b.At(p); {
			case isDead[p]:
				// Drawn faded and crossed out already.
			case c == engine.Empty:
				if sure < 0.1 {
					continue
				}
				s := r * (0.35 + 0.6*sure)
				ss := k.st.stoneStyle(owner)
				fill := ss.mid
				fill.A = uint8(90 + 165*sure)
				if owner == engine.White {
					edge := k.st.terrEdge
					edge.A = fill.A
					dc.SetColor(edge)
					dc.DrawRectangle(cx-s/2-1, cy-s/2-1, s+2, s+2)
					dc.Fill()
				}
				dc.SetColor(fill)
				dc.DrawRectangle(cx-s/2, cy-s/2, s, s)
				dc.Fill()
			default:
				mine := o
				if c == engine.White {
					mine = -o
				}
				if doubt := 1 - math.Max(0, mine); doubt > 0.25 {
					veil := k.st.wood
					veil.A = uint8(110 * doubt)
					dc.SetColor(veil)
					dc.DrawCircle(cx, cy, r*0.98)
					dc.Fill()
					// Keep the stone's edge, so a veiled white stone
					// still reads as a stone.
					edge := k.st.stoneStyle(c).edge
					if c == engine.White {
						edge = k.st.terrEdge
					}
					dc.SetColor(edge)
					dc.SetLineWidth(math.Max(1.5, 0.06*r))
					dc.DrawCircle(cx, cy, r*0.96)
					dc.Stroke()
				}
			}
		}
	}
	return png.Encode(w, img)
}

// DeadByOwnership returns the stones of b that belong to the other side
// with at least the given certainty (0 to 1) by the ownership estimate own.
func DeadByOwnership(b *engine.Board, own []float64, certainty float64) []engine.Point {
	n := b.Size()
	var dead []engine.Point
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			p := engine.Point{Col: col, Row: row}
			o := own[row*n+col]
			switch b.At(p) {
			case engine.Black:
				if o <= -certainty {
					dead = append(dead, p)
				}
			case engine.White:
				if o >= certainty {
					dead = append(dead, p)
				}
			}
		}
	}
	return dead
}

// rgbaBoard draws the picture of b with opts in full colour, for drawing
// more on it, and returns the kit whose layout places the points.
func rgbaBoard(b *engine.Board, opts *Options) (*image.RGBA, *kit, error) {
	if !opts.Theme.valid() {
		return nil, nil, fmt.Errorf("theme %d: %w", opts.Theme, ErrUnknownTheme)
	}
	px, err := pixels(opts.Size)
	if err != nil {
		return nil, nil, err
	}
	k, err := shared.kit(b.Size(), opts.Theme, px)
	if err != nil {
		return nil, nil, err
	}
	sc, err := newScene(b, opts)
	if err != nil {
		return nil, nil, err
	}
	img := image.NewRGBA(k.bg.Rect)
	draw.Draw(img, img.Rect, k.bg, image.Point{}, draw.Src)
	if err := sc.draw(img, k); err != nil {
		return nil, nil, err
	}
	return img, k, nil
}
