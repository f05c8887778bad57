package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// reviewSeries is Black's chance over a 60-move game that Black leads,
// throws away at move 23, wins back at move 41 and keeps.
func reviewSeries() []float64 {
	wr := make([]float64, 61)
	for i := range wr {
		switch {
		case i < 23:
			wr[i] = 0.5 + 0.1*math.Sin(float64(i)/3)
		case i < 41:
			wr[i] = 0.18 + 0.04*math.Cos(float64(i))
		default:
			wr[i] = 0.8 + 0.1*float64(i-41)/20
		}
	}
	wr[30] = 0.45
	return wr
}

func TestWinrateGraph(t *testing.T) {
	wr := reviewSeries()
	marks := []int{23, 41, 30}
	for _, tc := range []struct {
		name string
		opts GraphOptions
	}{
		{"winrate-wood", GraphOptions{Marks: marks}},
		{"winrate-walnut", GraphOptions{Marks: marks, Theme: Walnut, Width: 600, Height: 300}},
	} {
		var buf bytes.Buffer
		if err := WinrateGraph(&buf, wr, tc.opts); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.name, buf.Bytes())
		img := decodePNG(t, buf.Bytes())
		w, h := tc.opts.Width, tc.opts.Height
		if w == 0 {
			w, h = DefaultGraphWidth, DefaultGraphHeight
		}
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Errorf("%s: %v, want %d×%d", tc.name, b, w, h)
		}
	}
	alt := WinrateAlt(wr, marks)
	want := "Win-rate graph of 60 moves: Black's winning chance starts at 50% and ends at 90%; marked: 1 at move 23 (59% to 16%), 2 at move 41 (15% to 80%), 3 at move 30 (15% to 45%)"
	if alt != want {
		t.Errorf("WinrateAlt = %q\nwant %q", alt, want)
	}
	for _, bad := range []struct {
		wr   []float64
		opts GraphOptions
		err  error
	}{
		{nil, GraphOptions{}, ErrNoData},
		{wr, GraphOptions{Marks: []int{61}}, ErrNoData},
		{wr, GraphOptions{Width: 5000}, ErrImageSize},
		{wr, GraphOptions{Theme: 9}, ErrUnknownTheme},
	} {
		var buf bytes.Buffer
		if err := WinrateGraph(&buf, bad.wr, bad.opts); !errors.Is(err, bad.err) || buf.Len() > 0 {
			t.Errorf("WinrateGraph(%d positions, %+v) = %v with %d bytes, want %v and nothing written", len(bad.wr), bad.opts, err, buf.Len(), bad.err)
		}
	}
}

// mistakeBoard is a 9×9 position before White's mistake at C8: White
// should have cut at E5 (the variation E5 F5 H6 F6).
func mistakeBoard(t *testing.T) *engine.Board {
	return diagram(t,
		". . . . . . . . .",
		". . . . . . . . .",
		". . . O O . X . .",
		". . O X X . X . .",
		". . O X . . O . .",
		". . O X . X O . .",
		". . . O X X O . .",
		". . . . . . . . .",
		". . . . . . . . .")
}

func TestVariation(t *testing.T) {
	b := mistakeBoard(t)
	n := 9
	mv := func(c engine.Color, s string) engine.Move { return engine.PlaceAt(c, enginetest.Point(t, s, n)) }
	W, B := engine.White, engine.Black
	opts := VariationOptions{
		Played: mv(W, "C8"),
		PV:     []engine.Move{mv(W, "E5"), mv(B, "F5"), mv(W, "H6"), mv(B, "F6")},
	}
	before := *b
	var buf bytes.Buffer
	if err := Variation(&buf, b, opts); err != nil {
		t.Fatal(err)
	}
	golden(t, "mistake9", buf.Bytes())
	if b.Hash() != before.Hash() {
		t.Error("Variation modified the board")
	}
	img := decodePNG(t, buf.Bytes())
	l := newLayout(n, DefaultPixels)
	for s, want := range map[string]engine.Color{"E5": W, "H6": W, "F5": B, "F6": B} {
		if got := probe(img, &l, enginetest.Point(t, s, n)); got != want {
			t.Errorf("variation stone at %s probes as %v, want %v", s, got, want)
		}
	}
	bad := opts
	bad.PV = []engine.Move{mv(W, "D5")} // occupied
	buf.Reset()
	if err := Variation(&buf, b, bad); !errors.Is(err, ErrIllegalVariation) || buf.Len() > 0 {
		t.Errorf("Variation with an occupied point = %v, want ErrIllegalVariation and nothing written", err)
	}
}

func TestOwnership(t *testing.T) {
	b := diagram(t,
		". . . O X . . . .",
		". . . O X . . . .",
		". X . O X . . . .",
		". . . O X . . . .",
		"O O O O X . . O .",
		"X X X X X . . . .",
		". . . . . X X X X",
		". . . . . X O O O",
		". . . . . X O . .")
	n := 9
	own := make([]float64, n*n)
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			switch {
			case row >= 4 && col <= 3:
				own[row*n+col] = -0.9 // White's corner, the black stone at B7 dead
			case row <= 2 && col >= 6:
				own[row*n+col] = 0.2 // the white corner group is unsettled
			case col >= 5 && row >= 4:
				own[row*n+col] = 0.7 // Black's side, the white stone at H5 dead
			default:
				own[row*n+col] = 0.95
			}
		}
	}
	var buf bytes.Buffer
	if err := Ownership(&buf, b, own, OwnershipOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "ownership9", buf.Bytes())
	dead := DeadByOwnership(b, own, 0.5)
	var names []string
	for _, p := range dead {
		names = append(names, p.String())
	}
	if got, want := strings.Join(names, " "), "H5 B7"; got != want {
		t.Errorf("DeadByOwnership = %s, want %s", got, want)
	}
	buf.Reset()
	if err := Ownership(&buf, b, own[:10], OwnershipOptions{}); !errors.Is(err, ErrOwnerLength) || buf.Len() > 0 {
		t.Errorf("Ownership with 10 entries = %v, want ErrOwnerLength", err)
	}
}

// TestVariationKeepsThePosition: a line that captures is drawn as Go
// diagrams draw one, on the position as it stands: the captured stone
// stays in view, and what cannot be drawn (a pass, a move on a taken
// point) is said by LineNotes.
func TestVariationKeepsThePosition(t *testing.T) {
	b := diagram(t,
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		"X O . . . . . . .")
	n := 9
	mv := func(c engine.Color, s string) engine.Move { return engine.PlaceAt(c, enginetest.Point(t, s, n)) }
	W, B := engine.White, engine.Black
	pv := []engine.Move{mv(W, "A2"), engine.PassMove(B), mv(W, "A1"), mv(B, "E5")}
	var buf bytes.Buffer
	if err := Variation(&buf, b, VariationOptions{Played: mv(W, "J9"), PV: pv}); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, buf.Bytes())
	l := newLayout(n, DefaultPixels)
	for s, want := range map[string]engine.Color{"A1": B, "A2": W, "B1": W, "E5": B} {
		if got := probe(img, &l, enginetest.Point(t, s, n)); got != want {
			t.Errorf("stone at %s probes as %v, want %v", s, got, want)
		}
	}
	if got, want := LineNotes(b, VariationOptions{Played: mv(W, "J9"), PV: pv}), "2 pass, 3 at A1"; got != want {
		t.Errorf("LineNotes = %q, want %q", got, want)
	}
	if got := LineNotes(b, VariationOptions{Played: mv(W, "J9"), PV: pv[:1]}); got != "" {
		t.Errorf("LineNotes of a line it draws whole = %q, want none", got)
	}
}

// TestVariationMarksPrevious: a mistake board rings the stone of the
// opponent's move that the mistake answered, as a board rings the last
// move, and nothing else changes colour at that stone.
func TestVariationMarksPrevious(t *testing.T) {
	b := mistakeBoard(t)
	n := 9
	mv := func(c engine.Color, s string) engine.Move { return engine.PlaceAt(c, enginetest.Point(t, s, n)) }
	W, B := engine.White, engine.Black
	draw := func(prev engine.Move) image.Image {
		var buf bytes.Buffer
		opts := VariationOptions{Played: mv(W, "C8"), PV: []engine.Move{mv(W, "E5"), mv(B, "F5")}, Previous: prev}
		if err := Variation(&buf, b, opts); err != nil {
			t.Fatal(err)
		}
		return decodePNG(t, buf.Bytes())
	}
	l := newLayout(n, DefaultPixels)
	lum := func(img image.Image, s string, dx float64) float64 {
		x, y := l.center(enginetest.Point(t, s, n))
		c := color.NRGBAModel.Convert(img.At(int(x+dx*l.r), int(y))).(color.NRGBA)
		return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	}
	plain, marked := draw(engine.Move{}), draw(mv(B, "G7"))
	// On the black stone at G7 the ring is light; the stone stays black
	// at its centre and G6, a black stone not played last, gets no ring.
	if got := lum(plain, "G7", ringRadius); got > 70 {
		t.Fatalf("without a previous move the ring's place on G7 has luminance %.0f, want a black stone (< 70)", got)
	}
	if got := lum(marked, "G7", ringRadius); got < 150 {
		t.Errorf("the previous move G7 has no ring: luminance %.0f on the ring, want > 150", got)
	}
	if got := lum(marked, "G7", 0); got > 70 {
		t.Errorf("the ring covers G7's centre: luminance %.0f, want < 70", got)
	}
	if got := lum(marked, "G6", ringRadius); got > 70 {
		t.Errorf("G6 is ringed too: luminance %.0f, want < 70", got)
	}
	// A pass marks nothing.
	if a, b := pixelHash(draw(engine.PassMove(B))), pixelHash(plain); a != b {
		t.Errorf("a previous pass changed the picture")
	}
}

// TestVariationLineOnPlayedPoint: when the preferred line plays on the
// point of the mistake (W G9 was played; better W F5, then B G9), the
// board shows the mistake, a white ghost stone under the cross, and the
// caption says the line's move there ("2 at G9"): the line's black stone
// had been drawn on the point with the cross over its number, so a
// reader saw a black stone crossed out as White's mistake and could not
// find the line's move 2.
func TestVariationLineOnPlayedPoint(t *testing.T) {
	b := diagram(t,
		". . X . . . . . .",
		". . X . . . O . .",
		". . X X X . O . .",
		". . X O O X O . .",
		". . X O O . O . .",
		". . X O O X O . .",
		". . X X X . O . .",
		". . X . . . O . .",
		". . X . . . O . .")
	n := 9
	mv := func(c engine.Color, s string) engine.Move { return engine.PlaceAt(c, enginetest.Point(t, s, n)) }
	W, B := engine.White, engine.Black
	g9 := enginetest.Point(t, "G9", n)
	opts := VariationOptions{Played: mv(W, "G9"), PV: []engine.Move{mv(W, "F5"), mv(B, "G9")}, Previous: mv(B, "F6")}
	var buf bytes.Buffer
	if err := Variation(&buf, b, opts); err != nil {
		t.Fatal(err)
	}
	golden(t, "mistake-on-line9", buf.Bytes())
	img := decodePNG(t, buf.Bytes())
	buf.Reset()
	if err := Board(&buf, b, Options{}); err != nil {
		t.Fatal(err)
	}
	plain := decodePNG(t, buf.Bytes())
	// A pixel of G9 clear of the cross's arms and the grid lines is the
	// white ghost (the stone's colour at alpha 140) over the wood.
	l := newLayout(n, DefaultPixels)
	cx, cy := l.center(g9)
	x, y := int(cx+0.7*l.r), int(cy+0.2*l.r)
	ghost := styles[Wood].stoneStyle(W).mid
	wood := color.NRGBAModel.Convert(plain.At(x, y)).(color.NRGBA)
	got := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	a := float64(140) / 255
	for i, ch := range [][3]uint8{{got.R, ghost.R, wood.R}, {got.G, ghost.G, wood.G}, {got.B, ghost.B, wood.B}} {
		want := a*float64(ch[1]) + (1-a)*float64(ch[2])
		if math.Abs(float64(ch[0])-want) > 3 {
			t.Errorf("G9, the mistake, is %v at (%d, %d): channel %d is %d, want %.0f (White's ghost stone over the wood %v)", got, x, y, i, ch[0], want, wood)
			break
		}
	}
	if got := probe(img, &l, enginetest.Point(t, "F5", n)); got != W {
		t.Errorf("the line's first stone F5 probes as %v, want White", got)
	}
	if got, want := LineNotes(b, opts), "2 at G9"; got != want {
		t.Errorf("LineNotes = %q, want %q", got, want)
	}
}
