package render

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

func decodeGIF(tb testing.TB, data []byte) *gif.GIF {
	tb.Helper()
	a, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("gif.DecodeAll = %v", err)
	}
	return a
}

// replay composites the frames of an animation as a viewer shows them.
func replay(a *gif.GIF) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, a.Config.Width, a.Config.Height))
	for _, f := range a.Image {
		draw.Draw(img, f.Rect, f, f.Rect.Min, draw.Over)
	}
	return img
}

// TestGIFLongGame animates a 250-move 19×19 game: it must stay under
// 8 MB, have a frame per move plus the start, hold the last frame, and
// end on exactly the picture Game draws of the final position.
func TestGIFLongGame(t *testing.T) {
	if testing.Short() {
		t.Skip("250 moves of random play")
	}
	g := randomGame(t, 250, 1)
	var buf bytes.Buffer
	if err := GIF(&buf, g, GIFOptions{}); err != nil {
		t.Fatalf("GIF = %v", err)
	}
	if buf.Len() >= 8<<20 {
		t.Errorf("GIF of 250 moves is %d bytes, want under 8 MB", buf.Len())
	}
	a := decodeGIF(t, buf.Bytes())
	if a.Config.Width != DefaultPixels || a.Config.Height != DefaultPixels {
		t.Errorf("GIF is %d×%d, want %d×%d", a.Config.Width, a.Config.Height, DefaultPixels, DefaultPixels)
	}
	places, passes := 0, 0
	for _, m := range g.Moves() {
		switch m.Kind {
		case engine.Place:
			places++
		case engine.Pass:
			passes++
		}
	}
	if passes == 0 && len(a.Image) != places+1 {
		t.Errorf("GIF has %d frames, want %d (the start and %d moves)", len(a.Image), places+1, places)
	}
	if a.LoopCount != 0 {
		t.Errorf("LoopCount = %d, want 0 (loop)", a.LoopCount)
	}
	if d := a.Delay[len(a.Delay)-1]; d != 500 {
		t.Errorf("last frame shows %d cs, want 500", d)
	}
	if d := a.Delay[1]; d < 20 || d > 80 {
		t.Errorf("a move shows %d cs, want 20..80", d)
	}

	var png bytes.Buffer
	if err := Game(&png, g, Options{}); err != nil {
		t.Fatal(err)
	}
	want := decodePNG(t, png.Bytes())
	got := replay(a)
	if pixelHash(got) != pixelHash(want) {
		t.Errorf("the animation's last picture differs from Game's picture of the final position")
	}
}

// TestGIFFrames checks the frames of a short game with handicap stones,
// passes and a resignation.
func TestGIFFrames(t *testing.T) {
	g := playGame(t, 9, 2, "E5 D6 pass pass")
	if err := g.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(engine.ResignMove(g.ToPlay())); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	opts := GIFOptions{Delay: 300 * time.Millisecond, Hold: 2 * time.Second, PlayOnce: true, Size: 400, Theme: Walnut}
	if err := GIF(&buf, g, opts); err != nil {
		t.Fatalf("GIF = %v", err)
	}
	a := decodeGIF(t, buf.Bytes())
	// The start with two handicap stones, E5, D6, and the first pass
	// (which takes the ring off D6); the second pass and the
	// resignation change nothing.
	if len(a.Image) != 4 {
		t.Fatalf("GIF has %d frames, want 4", len(a.Image))
	}
	wantDelays := []int{100, 30, 30, 200}
	for i, d := range wantDelays {
		if a.Delay[i] != d {
			t.Errorf("frame %d shows %d cs, want %d", i, a.Delay[i], d)
		}
	}
	if a.LoopCount != -1 {
		t.Errorf("LoopCount = %d, want -1 (play once)", a.LoopCount)
	}
	if a.Config.Width != 400 {
		t.Errorf("GIF is %d wide, want 400", a.Config.Width)
	}
	l := newLayout(9, 400)
	first := replay(&gif.GIF{Image: a.Image[:1], Config: a.Config})
	hcp, err := engine.HandicapPoints(9, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range hcp {
		if got := probe(first, &l, p); got != engine.Black {
			t.Errorf("first frame: handicap stone %v looks %v", p, got)
		}
	}
	last := replay(a)
	for s, want := range map[string]engine.Color{"E5": engine.White, "D6": engine.Black, "E4": engine.Empty} {
		if got := probe(last, &l, enginetest.Point(t, s, 9)); got != want {
			t.Errorf("last frame: %s looks %v, want %v", s, got, want)
		}
	}
	for i, f := range a.Image[1:] {
		if f.Rect.Dx() > 3*l.sp || f.Rect.Dy() > 3*l.sp {
			t.Errorf("frame %d covers %v, more than the moves changed", i+1, f.Rect)
		}
	}
}

func TestGIFErrors(t *testing.T) {
	g := playGame(t, 9, 0, "E5")
	tests := []struct {
		name string
		g    *engine.Game
		opts GIFOptions
		want error
	}{
		{"nil game", nil, GIFOptions{}, ErrNilBoard},
		{"size", g, GIFOptions{Size: 100}, ErrImageSize},
		{"theme", g, GIFOptions{Theme: -1}, ErrUnknownTheme},
		{"delay", g, GIFOptions{Delay: -time.Second}, ErrBadDelay},
		{"hold", g, GIFOptions{Hold: -time.Second}, ErrBadDelay},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := GIF(&buf, tt.g, tt.opts); !errors.Is(err, tt.want) {
			t.Errorf("%s: GIF = %v, want %v", tt.name, err, tt.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: GIF wrote %d bytes on error", tt.name, buf.Len())
		}
	}
}

func TestGIFEmptyGame(t *testing.T) {
	g := playGame(t, 13, 0, "")
	var buf bytes.Buffer
	if err := GIF(&buf, g, GIFOptions{}); err != nil {
		t.Fatal(err)
	}
	a := decodeGIF(t, buf.Bytes())
	if len(a.Image) != 1 || a.Delay[0] != 500 {
		t.Errorf("GIF of an empty game: %d frames, delay %v; want 1 frame held 500 cs", len(a.Image), a.Delay)
	}
}

// TestGIFScore checks the extra last frame that shows the count.
func TestGIFScore(t *testing.T) {
	g := koGame(t)
	dead := []engine.Point{enginetest.Point(t, "E6", 9)}
	score := g.Score(dead)
	var plain, scored bytes.Buffer
	if err := GIF(&plain, g, GIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := GIF(&scored, g, GIFOptions{Dead: dead, Owner: score.Owner}); err != nil {
		t.Fatal(err)
	}
	a, b := decodeGIF(t, plain.Bytes()), decodeGIF(t, scored.Bytes())
	if len(b.Image) != len(a.Image)+1 {
		t.Errorf("scored GIF has %d frames, want %d", len(b.Image), len(a.Image)+1)
	}
	var want bytes.Buffer
	if err := Board(&want, g.Board(), Options{Dead: dead, Owner: score.Owner, HideKo: true}); err != nil {
		t.Fatal(err)
	}
	if pixelHash(replay(b)) != pixelHash(decodePNG(t, want.Bytes())) {
		t.Errorf("the scored GIF's last picture differs from Board's picture of the count")
	}
	var buf bytes.Buffer
	err := GIF(&buf, g, GIFOptions{Dead: []engine.Point{{Col: 9, Row: 9}}})
	if !errors.Is(err, ErrOffBoard) || buf.Len() != 0 {
		t.Errorf("GIF with a dead stone off the board = %v and %d bytes, want %v and nothing", err, buf.Len(), ErrOffBoard)
	}
}
