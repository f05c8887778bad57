package draughts

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
)

// These tests look at the pictures as a person does: at the colour of a
// piece's face, of a crown, of the arrow, of a captured piece.

func drawGame(tb testing.TB, s rules.State, opts Options) (image.Image, *layout) {
	tb.Helper()
	var buf bytes.Buffer
	if err := Game(&buf, s, opts); err != nil {
		tb.Fatalf("Game = %v", err)
	}
	px, err := pixels(opts.Size)
	if err != nil {
		tb.Fatal(err)
	}
	l := newLayout(px, opts.Flip)
	return decodePNG(tb, buf.Bytes()), &l
}

func at(img image.Image, x, y float64) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(int(math.Floor(x)), int(math.Floor(y)))).(color.NRGBA)
}

func lum(c color.NRGBA) float64 { return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B) }

func dist(a, b color.NRGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

// faceAt returns the colour of the face of whatever stands on s, left of
// the middle, where neither the crown nor the groove nor an arrow through
// the square's middle reaches.
func faceAt(img image.Image, l *layout, s rules.Square) color.NRGBA {
	cx, cy := l.center(s)
	return at(img, cx-0.78*pieceRadius*float64(l.sq), cy)
}

// look says what a person sees on s: "w" for a white piece, "b" for a
// black one, "." for an empty dark square (or a captured piece, faded).
func look(img image.Image, l *layout, s rules.Square) string {
	c := faceAt(img, l, s)
	chroma := int(max(c.R, c.G, c.B)) - int(min(c.R, c.G, c.B))
	switch v := lum(c); {
	case v > 180 && chroma < 50:
		return "w"
	case v < 60:
		return "b"
	}
	return "."
}

func wantLook(x rules.Piece) string {
	switch {
	case x == rules.Empty:
		return "."
	case x.Color() == rules.White:
		return "w"
	}
	return "b"
}

// TestPieces looks at every square of the golden positions, from both
// sides and at the smallest size.
func TestPieces(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			img, l := drawGame(t, c.s, c.opts)
			p := c.s.Position()
			for s := rules.Square(1); s <= rules.NumSquares; s++ {
				if got, want := look(img, l, s), wantLook(p.At(s)); got != want {
					t.Errorf("square %d looks %q, want %q", s, got, want)
				}
			}
		})
	}
}

// TestFlip checks where the corners go: from White's side square 1 is
// the second cell of the top row and 46 the first of the bottom row;
// from Black's, 50 is the second cell of the top row.
func TestFlip(t *testing.T) {
	for _, c := range []struct {
		flip      bool
		topLeft   rules.Square // the dark square in the top row's second cell
		bottomLft rules.Square // the dark square in the bottom row's first cell
		top       string       // what stands there at the start
	}{{false, 1, 46, "b"}, {true, 50, 5, "w"}} {
		l := newLayout(DefaultPixels, c.flip)
		if got := l.square(c.topLeft); got != l.rect(0, 1) {
			t.Errorf("flip %v: square %d at %v, want %v", c.flip, c.topLeft, got, l.rect(0, 1))
		}
		if got := l.square(c.bottomLft); got != l.rect(9, 0) {
			t.Errorf("flip %v: square %d at %v, want %v", c.flip, c.bottomLft, got, l.rect(9, 0))
		}
		img, _ := drawGame(t, play(t, ""), Options{Flip: c.flip})
		if got := look(img, &l, c.topLeft); got != c.top {
			t.Errorf("flip %v: the top row looks %q, want %q", c.flip, got, c.top)
		}
	}
}

func isCrown(c color.NRGBA) bool { return dist(c, wood.crown) < 40 }

// TestCrowns checks that a king's middle is gold and a man's is not.
func TestCrowns(t *testing.T) {
	for _, flip := range []bool{false, true} {
		s := midgame(t)
		img, l := drawGame(t, s, Options{Flip: flip})
		p := s.Position()
		for q := rules.Square(1); q <= rules.NumSquares; q++ {
			x := p.At(q)
			if x == rules.Empty {
				continue
			}
			cx, cy := l.center(q)
			if got := isCrown(at(img, cx, cy)); got != x.King() {
				t.Errorf("flip %v: %v on %d: crown at its middle %v (colour %v), want %v", flip, x, q, got, at(img, cx, cy), x.King())
			}
		}
	}
}

func isArrow(c color.NRGBA) bool { return int(c.G) > int(c.R)+40 && int(c.G) > int(c.B)+40 }

// between returns the squares of the diagonal from a to b, a included and
// b not.
func between(a, b rules.Square) []rules.Square {
	dr, dc := sign(b.Row()-a.Row()), sign(b.Col()-a.Col())
	var out []rules.Square
	for r, c := a.Row(), a.Col(); r != b.Row(); r, c = r+dr, c+dc {
		out = append(out, rules.SquareAt(r, c))
	}
	return out
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// TestArrow checks that the arrow covers the middle of every square its
// move passes over, captured pieces' included, and points into the last.
func TestArrow(t *testing.T) {
	for _, c := range goldenCases(t) {
		if c.s.MoveCount() == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			img, l := drawGame(t, c.s, c.opts)
			last, err := lastMove(c.s)
			if err != nil {
				t.Fatal(err)
			}
			route := last.route.Squares
			for i := 0; i+1 < len(route); i++ {
				for _, q := range between(route[i], route[i+1]) {
					if cx, cy := l.center(q); !isArrow(at(img, cx, cy)) {
						t.Errorf("%v: square %d's middle is %v, not the arrow", last.route, q, at(img, cx, cy))
					}
				}
			}
			// Just short of the tip, in the head.
			ax, ay := l.center(route[len(route)-2])
			bx, by := l.center(route[len(route)-1])
			d := math.Hypot(bx-ax, by-ay)
			back := (arrowShort + 0.1) * float64(l.sq) / d
			if x, y := bx-(bx-ax)*back, by-(by-ay)*back; !isArrow(at(img, x, y)) {
				t.Errorf("%v: the head at (%.0f, %.0f) is %v, not the arrow", last.route, x, y, at(img, x, y))
			}
		})
	}
}

// TestFaded checks that a captured piece looks neither like a piece nor
// like an empty square.
func TestFaded(t *testing.T) {
	for _, c := range []struct {
		name        string
		s           rules.State
		taken       rules.Square
		live, empty rules.Square // a live piece of the taken colour, an empty square
	}{
		{"black man", midgame(t), 37, 26, 22},
		{"black man, flipped", midgame(t), 24, 26, 22},
		{"white man", opening(t), 19, 31, 28},
	} {
		for _, flip := range []bool{false, true} {
			img, l := drawGame(t, c.s, Options{Flip: flip})
			taken, live, empty := faceAt(img, l, c.taken), faceAt(img, l, c.live), faceAt(img, l, c.empty)
			if d := dist(taken, live); d < 40 {
				t.Errorf("%s, flip %v: captured %v on %d is %.0f from the live piece's %v", c.name, flip, taken, c.taken, d, live)
			}
			if d := dist(taken, empty); d < 25 {
				t.Errorf("%s, flip %v: captured %v on %d is %.0f from the empty square's %v", c.name, flip, taken, c.taken, d, empty)
			}
		}
	}
}

// TestNumbers checks that the square numbers are drawn, but for the
// smallest pictures, and that no piece covers them.
func TestNumbers(t *testing.T) {
	for _, px := range []int{MinPixels, 480, DefaultPixels, MaxPixels} {
		k, err := shared.kit(px, false)
		if err != nil {
			t.Fatal(err)
		}
		for s := rules.Square(1); s <= rules.NumSquares; s++ {
			box, err := numberBox(&k.l, s)
			if err != nil {
				t.Fatal(err)
			}
			if box.Empty() {
				if px >= 480 {
					t.Errorf("%d px: no number on square %d", px, s)
				}
				continue
			}
			ink := 0
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					if c := k.bg.RGBAAt(x, y); dist(color.NRGBA{c.R, c.G, c.B, 255}, wood.number) < 60 {
						ink++
					}
				}
			}
			if ink < 4 {
				t.Errorf("%d px: square %d's number has %d pixels of ink in %v", px, s, ink, box)
			}
			rel := box.Sub(k.l.square(s).Min)
			for x, spr := range k.piece {
				if spr == nil {
					continue
				}
				for y := rel.Min.Y; y < rel.Max.Y; y++ {
					for x2 := rel.Min.X; x2 < rel.Max.X; x2++ {
						if a := spr.Image().RGBAAt(x2, y).A; a > 128 {
							t.Fatalf("%d px: a %v covers square %d's number at (%d, %d) with opacity %d", px, rules.Piece(x), s, x2, y, a)
						}
					}
				}
			}
		}
	}
}

// TestNumbersOverArrow checks that the arrow leaves the square numbers
// readable: a move entering its last square from the top left, where the
// number stands, passes under the number (Black's 18-23 from White's
// side, White's 33-28 from Black's), and so does every square the golden
// arrows cross.
func TestNumbersOverArrow(t *testing.T) {
	cases := []struct {
		name string
		s    rules.State
		opts Options
	}{
		{"black 18-23", play(t, "", "32-28", "18-23"), Options{}},
		{"white 33-28, flipped", play(t, "", "33-28"), Options{Flip: true}},
	}
	for _, c := range goldenCases(t) {
		cases = append(cases, struct {
			name string
			s    rules.State
			opts Options
		}{c.name, c.s, c.opts})
	}
	for _, c := range cases {
		if c.s.MoveCount() == 0 {
			continue
		}
		img, l := drawGame(t, c.s, c.opts)
		last, err := lastMove(c.s)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range last.route.Squares {
			box, err := numberBox(l, s)
			if err != nil {
				t.Fatal(err)
			}
			if box.Empty() {
				continue // too small a picture for numbers
			}
			ink := 0
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					if dist(at(img, float64(x), float64(y)), wood.number) < 60 {
						ink++
					}
				}
			}
			if ink < 4 {
				t.Errorf("%s: square %d's number has %d pixels of ink in %v under the arrow %v", c.name, s, ink, box, last.route)
			}
		}
	}
}
