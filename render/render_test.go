package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// diagram builds a board from rows of X (black), O (white) and . (empty),
// the top row first, as the board is seen (see enginetest.Diagram).
func diagram(tb testing.TB, rows ...string) *engine.Board {
	tb.Helper()
	return enginetest.Board(tb, strings.Join(rows, "\n"))
}

// scoredBoard is a finished 9×9 game: White on the left, Black on the
// right, a dead black stone at B7 and a dead white stone at H7.
func scoredBoard(tb testing.TB) (*engine.Board, Options) {
	b := diagram(tb,
		". . . O X . . . .",
		". . . O X . . . .",
		". X . O X . . O .",
		". . . O X . . . .",
		". . O X X . . . .",
		". . O X . . . . .",
		". . O X . X . . .",
		". . O X . . . . .",
		". . O X . . . . .",
	)
	dead := []engine.Point{enginetest.Point(tb, "B7", 9), enginetest.Point(tb, "H7", 9)}
	score := engine.ScoreBoard(b, engine.DefaultRules(), dead, 0)
	return b, Options{Dead: dead, Owner: score.Owner}
}

// koGame is a 9×9 game in which White has just taken a ko at E5,
// capturing F5, so Black may not retake at F5 at once.
func koGame(tb testing.TB) *engine.Game {
	return playGame(tb, 9, 0, "E4 F4 D5 G5 E6 F6 F5 E5")
}

type goldenCase struct {
	name string
	b    *engine.Board
	opts Options
}

func goldenCases(tb testing.TB) []goldenCase {
	empty, _ := engine.NewBoard(19)
	hcp := playGame(tb, 19, 9, "")
	ko := koGame(tb)
	koLast, _ := ko.LastMove()
	scored, scoredOpts := scoredBoard(tb)
	g19 := playGame(tb, 19, 0, game19)
	last19, _ := g19.LastMove()
	g13 := playGame(tb, 13, 0, game13)
	last13, _ := g13.LastMove()
	return []goldenCase{
		// The example picture the README shows.
		{"example", g19.Board(), Options{LastMove: last19}},
		{"empty19", empty, Options{}},
		{"handicap19-walnut", hcp.Board(), Options{Theme: Walnut}},
		{"ko9", ko.Board(), Options{LastMove: koLast}},
		{"score9", scored, scoredOpts},
		{"numbers19", g19.Board(), Options{LastMove: last19, Numbers: MoveNumbers(g19, 30)}},
		{"game13-paper", g13.Board(), Options{LastMove: last13, Theme: Paper}},
	}
}

// pixelHash hashes a picture's decoded pixels, so that the golden files
// do not depend on the PNG encoder's choices.
func pixelHash(img image.Image) string {
	h := sha256.New()
	b := img.Bounds()
	fmt.Fprintf(h, "%v;", b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			h.Write([]byte{c.R, c.G, c.B, c.A})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func decodePNG(tb testing.TB, data []byte) image.Image {
	tb.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("png.Decode = %v", err)
	}
	return img
}

// golden compares a picture with testdata/NAME.png by its pixels, and
// rewrites the file with -update.
func golden(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if g, w := pixelHash(decodePNG(t, data)), pixelHash(decodePNG(t, want)); g != w {
		out := filepath.Join(t.TempDir(), name+".png")
		os.WriteFile(out, data, 0o644)
		t.Errorf("%s: picture hash %s, want %s (got written to %s; run go test -update if the change is intended)", name, g[:12], w[:12], out)
	}
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Board(&buf, c.b, c.opts); err != nil {
				t.Fatalf("Board = %v", err)
			}
			golden(t, c.name, buf.Bytes())
		})
	}
}

// probe classifies the board point p of a picture drawn with l by the
// colour a quarter of a spacing below and right of its centre: inside a
// stone, clear of the grid lines, the star points and the markers.
func probe(img image.Image, l *layout, p engine.Point) engine.Color {
	cx, cy := l.center(p)
	d := 0.25 * float64(l.sp)
	c := color.NRGBAModel.Convert(img.At(int(cx+d), int(cy+d))).(color.NRGBA)
	lum := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	chroma := int(max(c.R, c.G, c.B)) - int(min(c.R, c.G, c.B))
	switch {
	case lum < 70:
		return engine.Black
	case lum > 200 && chroma < 30:
		return engine.White
	}
	return engine.Empty
}

func TestPixelProbes(t *testing.T) {
	for _, c := range goldenCases(t) {
		if c.opts.Theme == Paper { // white stones on white paper: no colour to tell
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Board(&buf, c.b, c.opts); err != nil {
				t.Fatalf("Board = %v", err)
			}
			img := decodePNG(t, buf.Bytes())
			n := c.b.Size()
			l := newLayout(n, DefaultPixels)
			dead := map[engine.Point]bool{}
			for _, p := range c.opts.Dead {
				dead[p] = true
			}
			for row := 0; row < n; row++ {
				for col := 0; col < n; col++ {
					p := engine.Point{Col: col, Row: row}
					if dead[p] {
						continue
					}
					if got, want := probe(img, &l, p), c.b.At(p); got != want {
						t.Errorf("point %v looks %v, want %v", p, got, want)
					}
				}
			}
		})
	}
}

// TestSizes draws every board size from 2 to 25 at the default picture
// size, and some at the extreme picture sizes, and checks what comes back.
func TestSizes(t *testing.T) {
	for n := engine.MinSize; n <= engine.MaxSize; n++ {
		pxs := []int{0}
		if n == 2 || n == 9 || n == 25 {
			pxs = append(pxs, MinPixels, MaxPixels)
		}
		for _, px := range pxs {
			b, err := engine.NewBoard(n)
			if err != nil {
				t.Fatal(err)
			}
			b.SetStone(engine.Point{Col: 0, Row: 0}, engine.Black)
			b.SetStone(engine.Point{Col: n - 1, Row: n - 1}, engine.White)
			var buf bytes.Buffer
			if err := Board(&buf, b, Options{Size: px}); err != nil {
				t.Fatalf("Board(%d×%d, %d px) = %v", n, n, px, err)
			}
			img := decodePNG(t, buf.Bytes())
			want := px
			if want == 0 {
				want = DefaultPixels
			}
			if got := img.Bounds(); got.Dx() != want || got.Dy() != want {
				t.Errorf("%d×%d at %d px: picture %v", n, n, px, got)
			}
			if px == 0 {
				l := newLayout(n, want)
				if got := probe(img, &l, engine.Point{Col: 0, Row: 0}); got != engine.Black {
					t.Errorf("%d×%d: A1 looks %v, want black", n, n, got)
				}
				if got := probe(img, &l, engine.Point{Col: n - 1, Row: n - 1}); got != engine.White {
					t.Errorf("%d×%d: top right looks %v, want white", n, n, got)
				}
			}
		}
	}
}

func TestLayout(t *testing.T) {
	for n := 5; n <= engine.MaxSize; n++ {
		l := newLayout(n, DefaultPixels)
		grid := (n-1)*l.sp + l.lw
		// The margins must hold an edge stone and a label beyond it.
		if margin := float64(l.x0) - l.r; margin < 1.5*l.font {
			t.Errorf("%d×%d: %.1f px between the edge stones and the picture's edge, want at least %.1f", n, n, margin, 1.5*l.font)
		}
		if l.x0+grid > DefaultPixels || l.x0 < 0 {
			t.Errorf("%d×%d: grid %d..%d outside the picture", n, n, l.x0, l.x0+grid)
		}
		if n <= 19 && l.sp < 36 {
			t.Errorf("%d×%d: spacing %d px, too small to read on a phone", n, n, l.sp)
		}
	}
}

func TestStarPoints(t *testing.T) {
	tests := []struct {
		size int
		want string
	}{
		{19, "D4 Q4 D16 Q16 D10 Q10 K4 K16 K10"},
		{13, "D4 K4 D10 K10 G7"},
		{9, "C3 G3 C7 G7 E5"},
		{5, "C3"},
		{4, ""},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range starPoints(tt.size) {
			got = append(got, p.String())
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("starPoints(%d) = %v, want %v", tt.size, got, tt.want)
		}
	}
}

func TestLabels(t *testing.T) {
	var cols []string
	for c := 0; c < 25; c++ {
		cols = append(cols, colLabel(c))
	}
	if got, want := strings.Join(cols, ""), "ABCDEFGHJKLMNOPQRSTUVWXYZ"; got != want {
		t.Errorf("column labels %s, want %s", got, want)
	}
	if got := rowLabel(0); got != "1" {
		t.Errorf("rowLabel(0) = %s, want 1", got)
	}
}

func TestOptionErrors(t *testing.T) {
	b, _ := engine.NewBoard(9)
	b.SetStone(engine.Point{Col: 4, Row: 4}, engine.Black)
	tests := []struct {
		name string
		b    *engine.Board
		opts Options
		want error
	}{
		{"nil board", nil, Options{}, ErrNilBoard},
		{"too small", b, Options{Size: MinPixels - 1}, ErrImageSize},
		{"too big", b, Options{Size: MaxPixels + 1}, ErrImageSize},
		{"negative size", b, Options{Size: -800}, ErrImageSize},
		{"theme", b, Options{Theme: numThemes}, ErrUnknownTheme},
		{"owner length", b, Options{Owner: make([]engine.Color, 80)}, ErrOwnerLength},
		{"dead off board", b, Options{Dead: []engine.Point{{Col: 9, Row: 0}}}, ErrOffBoard},
		{"number off board", b, Options{Numbers: map[engine.Point]int{{Col: -1, Row: 2}: 3}}, ErrOffBoard},
		{"last move off board", b, Options{LastMove: engine.PlaceAt(engine.Black, engine.Point{Col: 3, Row: 12})}, ErrOffBoard},
		{"zero number", b, Options{Numbers: map[engine.Point]int{{Col: 4, Row: 4}: 0}}, ErrBadNumber},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Board(&buf, tt.b, tt.opts)
			if !errors.Is(err, tt.want) {
				t.Errorf("Board = %v, want %v", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("Board wrote %d bytes on error", buf.Len())
			}
		})
	}
}

// TestLenientOptions checks what the options tolerate: marks where there
// is nothing to mark draw nothing there.
func TestLenientOptions(t *testing.T) {
	b, _ := engine.NewBoard(9)
	var plain, marked bytes.Buffer
	if err := Board(&plain, b, Options{}); err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Dead:     []engine.Point{{Col: 2, Row: 2}},                           // no stone there
		LastMove: engine.PlaceAt(engine.Black, engine.Point{Col: 3, Row: 3}), // no stone there either
	}
	if err := Board(&marked, b, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), marked.Bytes()) {
		t.Errorf("marks on empty points changed the picture")
	}
	pass := Options{LastMove: engine.PassMove(engine.White)}
	marked.Reset()
	if err := Board(&marked, b, pass); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), marked.Bytes()) {
		t.Errorf("a pass as last move changed the picture")
	}
}

func TestParseTheme(t *testing.T) {
	for i, name := range ThemeNames {
		th, err := ParseTheme(strings.ToUpper(name))
		if err != nil || th != Theme(i) || th.String() != name {
			t.Errorf("ParseTheme(%q) = %v, %v, want %s", strings.ToUpper(name), th, err, name)
		}
	}
	if th, err := ParseTheme(""); err != nil || th != Wood {
		t.Errorf(`ParseTheme("") = %v, %v, want wood`, th, err)
	}
	if _, err := ParseTheme("marble"); !errors.Is(err, ErrUnknownTheme) {
		t.Errorf(`ParseTheme("marble") = %v, want %v`, err, ErrUnknownTheme)
	}
}

// TestMarkers checks that the ko marker, the last-move ring and the move
// numbers each change the picture where they should.
func TestMarkers(t *testing.T) {
	g := koGame(t)
	b := g.Board()
	last, _ := g.LastMove()
	render := func(opts Options) image.Image {
		var buf bytes.Buffer
		if err := Board(&buf, b, opts); err != nil {
			t.Fatal(err)
		}
		return decodePNG(t, buf.Bytes())
	}
	l := newLayout(9, DefaultPixels)
	at := func(img image.Image, s string) color.NRGBA {
		x, y := l.center(enginetest.Point(t, s, 9))
		return color.NRGBAModel.Convert(img.At(int(x), int(y))).(color.NRGBA)
	}
	ring := func(img image.Image, s string) color.NRGBA { // on the last-move ring
		x, y := l.center(enginetest.Point(t, s, 9))
		return color.NRGBAModel.Convert(img.At(int(x+ringRadius*l.r), int(y))).(color.NRGBA)
	}
	koEdge := func(img image.Image, s string) color.NRGBA { // on the ko square's edge
		x, y := l.center(enginetest.Point(t, s, 9))
		return color.NRGBAModel.Convert(img.At(int(x+0.4*l.r), int(y-0.2*l.r))).(color.NRGBA)
	}
	plain := render(Options{HideKo: true})
	withKo := render(Options{})
	withLast := render(Options{HideKo: true, LastMove: last})
	if koEdge(plain, "F5") == koEdge(withKo, "F5") {
		t.Errorf("the ko marker at F5 does not show")
	}
	if ring(plain, "E5") == ring(withLast, "E5") {
		t.Errorf("the last-move ring on E5 does not show")
	}
	if at(plain, "E5") != at(withLast, "E5") {
		t.Errorf("the last-move ring covers the stone's centre")
	}
	numbered := render(Options{HideKo: true, Numbers: map[engine.Point]int{enginetest.Point(t, "E5", 9): 8}})
	if at(plain, "E5") == at(numbered, "E5") && ring(plain, "E5") == ring(numbered, "E5") {
		t.Errorf("the number on E5 does not show")
	}
}

func TestMoveNumbers(t *testing.T) {
	g := koGame(t) // E5 (move 8) captured F5 (move 7)
	tests := []struct {
		last int
		want map[string]int
	}{
		{0, map[string]int{"E4": 1, "F4": 2, "D5": 3, "G5": 4, "E6": 5, "F6": 6, "E5": 8}},
		{3, map[string]int{"F6": 6, "E5": 8}},
		{1, map[string]int{"E5": 8}},
	}
	for _, tt := range tests {
		got := MoveNumbers(g, tt.last)
		if len(got) != len(tt.want) {
			t.Errorf("MoveNumbers(last %d) = %v, want %v", tt.last, got, tt.want)
			continue
		}
		for s, n := range tt.want {
			if got[enginetest.Point(t, s, 9)] != n {
				t.Errorf("MoveNumbers(last %d) = %v, want %v", tt.last, got, tt.want)
				break
			}
		}
	}
	// Retaking after a ko fight: the point shows the later move.
	g = playGame(t, 9, 0, "E4 F4 D5 G5 E6 F6 F5 E5 A1 A2 B1 B2 F5")
	// F5 retaken by Black (move 13) captures E5: E5 has no number now.
	got := MoveNumbers(g, 0)
	if got[enginetest.Point(t, "F5", 9)] != 13 {
		t.Errorf("MoveNumbers after retaking = %v, want F5 13", got)
	}
	if _, ok := got[enginetest.Point(t, "E5", 9)]; ok {
		t.Errorf("MoveNumbers numbers the captured E5: %v", got)
	}
}

// TestConcurrent renders different boards, sizes and themes at once and
// checks every picture against the same picture drawn alone (run it with
// -race).
func TestConcurrent(t *testing.T) {
	type job struct {
		g    *engine.Game
		opts Options
	}
	var jobs []job
	for _, c := range []struct {
		size  int
		moves string
	}{{9, game9}, {13, game13}, {19, game19}} {
		g := playGame(t, c.size, 0, c.moves)
		jobs = append(jobs, job{g, Options{Theme: Walnut, Numbers: MoveNumbers(g, 10), Size: 600 + c.size}})
	}
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		var buf bytes.Buffer
		if err := Game(&buf, j.g, j.opts); err != nil {
			t.Fatal(err)
		}
		want[i] = buf.Bytes()
	}
	shared = newCache() // start cold, so the kits are built concurrently too
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(jobs))
	for rep := 0; rep < 3; rep++ {
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf bytes.Buffer
				if err := Game(&buf, j.g, j.opts); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(buf.Bytes(), want[i]) {
					errs <- fmt.Errorf("job %d: concurrent picture differs from the one drawn alone", i)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCacheBound checks that the cache forgets the least recently used
// kits beyond its memory bound.
func TestCacheBound(t *testing.T) {
	c := newCache()
	px := MinPixels
	c.limit = 5 * kitBytes(px+10)
	n := 8
	for i := 0; i < n; i++ {
		if _, err := c.kit(5, Wood, px+i); err != nil {
			t.Fatal(err)
		}
		if _, err := c.kit(5, Wood, px); err != nil { // keep the first one in use
			t.Fatal(err)
		}
	}
	if c.bytes > c.limit {
		t.Errorf("cache holds %d bytes of kits, want at most %d", c.bytes, c.limit)
	}
	if len(c.kits) >= n {
		t.Errorf("cache holds all %d kits", len(c.kits))
	}
	if _, ok := c.kits[kitKey{5, px, Wood}]; !ok {
		t.Errorf("the most recently used kit is gone")
	}
	if _, ok := c.kits[kitKey{5, px + 1, Wood}]; ok {
		t.Errorf("the least recently used kit is still cached")
	}
}

// TestSize19 checks the size budget of a mid-game 19×19 picture.
func TestSize19(t *testing.T) {
	for _, th := range []Theme{Wood, Walnut, Paper} {
		g := playGame(t, 19, 0, game19)
		var buf bytes.Buffer
		if err := Game(&buf, g, Options{Theme: th}); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > 120<<10 {
			t.Errorf("%v: mid-game 19×19 picture is %d bytes, want at most 120 KB", th, buf.Len())
		}
	}
}

// TestRandomProbes draws random positions on boards of many sizes and
// checks every point's colour.
func TestRandomProbes(t *testing.T) {
	seed := uint32(7)
	next := func() uint32 { seed = seed*1664525 + 1013904223; return seed >> 16 }
	for _, n := range []int{5, 7, 9, 11, 13, 15, 19, 21, 25} {
		b, err := engine.NewBoard(n)
		if err != nil {
			t.Fatal(err)
		}
		for row := 0; row < n; row++ {
			for col := 0; col < n; col++ {
				switch next() % 3 {
				case 1:
					b.SetStone(engine.Point{Col: col, Row: row}, engine.Black)
				case 2:
					b.SetStone(engine.Point{Col: col, Row: row}, engine.White)
				}
			}
		}
		var buf bytes.Buffer
		if err := Board(&buf, b, Options{Theme: Theme(n % 2)}); err != nil {
			t.Fatalf("Board(%d×%d) = %v", n, n, err)
		}
		img := decodePNG(t, buf.Bytes())
		l := newLayout(n, DefaultPixels)
		for row := 0; row < n; row++ {
			for col := 0; col < n; col++ {
				p := engine.Point{Col: col, Row: row}
				if got, want := probe(img, &l, p), b.At(p); got != want {
					t.Errorf("%d×%d: point %v looks %v, want %v", n, n, p, got, want)
				}
			}
		}
	}
}

// TestNaiveMatches checks that the cached compositor draws the same
// picture as drawing everything afresh with gg, up to rounding.
func TestNaiveMatches(t *testing.T) {
	g := playGame(t, 19, 0, game19)
	last, _ := g.LastMove()
	b := g.Board()
	var dead []engine.Point
	for _, s := range []string{"C15", "R8", "K4"} {
		dead = append(dead, enginetest.Point(t, s, 19))
	}
	opts := Options{LastMove: last, Numbers: MoveNumbers(g, 12), Dead: dead, Owner: g.Score(dead).Owner}
	for _, th := range []Theme{Wood, Walnut, Paper} {
		opts.Theme = th
		var cached, naive bytes.Buffer
		if err := Board(&cached, b, opts); err != nil {
			t.Fatal(err)
		}
		if err := naiveBoard(&naive, b, opts); err != nil {
			t.Fatal(err)
		}
		ci, ni := decodePNG(t, cached.Bytes()), decodePNG(t, naive.Bytes())
		bounds := ci.Bounds()
		if bounds != ni.Bounds() {
			t.Fatalf("%v: cached picture %v, naive %v", th, bounds, ni.Bounds())
		}
		off := 0
		for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
			for x := bounds.Min.X; x < bounds.Max.X; x++ {
				c := color.NRGBAModel.Convert(ci.At(x, y)).(color.NRGBA)
				n := color.NRGBAModel.Convert(ni.At(x, y)).(color.NRGBA)
				if diff(c.R, n.R) > 24 || diff(c.G, n.G) > 24 || diff(c.B, n.B) > 24 {
					off++
				}
			}
		}
		if total := bounds.Dx() * bounds.Dy(); off > total/200 {
			t.Errorf("%v: %d of %d pixels differ between the cached and the naive picture", th, off, total)
		}
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
