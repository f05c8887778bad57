package draughts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

var update = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// midgameFEN is a middle game in which White's king on 46 may fly over
// 37, land on 19 and take 24, landing on 30; Black has a king on 3.
const midgameFEN = "W:W31,33,34,35,38,39,40,43,44,45,48,49,K46:B7,8,9,12,13,16,18,21,24,26,27,37,K3"

// play starts a game from fen ("" for the start) and plays the moves.
func play(tb testing.TB, fen string, moves ...string) rules.State {
	tb.Helper()
	s, err := rules.NewState(game.Options{"fen": fen}, 0)
	if err != nil {
		tb.Fatalf("NewState(%q) = %v", fen, err)
	}
	for _, m := range moves {
		if s, _, err = s.PlayMove(s.ToMove(), m); err != nil {
			tb.Fatalf("PlayMove(%s) = %v", m, err)
		}
	}
	return s
}

// midgame is midgameFEN after the king's double capture 46x19x30.
func midgame(tb testing.TB) rules.State { return play(tb, midgameFEN, "46x30") }

// opening is the start after 32-28 19-23 28x19 14x23 (Black retaking):
// Black's last move is a capture by a man.
func opening(tb testing.TB) rules.State { return play(tb, "", "32-28", "19-23", "28x19", "14x23") }

type goldenCase struct {
	name string
	s    rules.State
	opts Options
}

func goldenCases(tb testing.TB) []goldenCase {
	return []goldenCase{
		// The two example pictures.
		{"start", play(tb, ""), Options{}},
		{"midgame", midgame(tb), Options{}},
		{"midgame-flipped", midgame(tb), Options{Flip: true}},
		{"opening", opening(tb), Options{}},
		{"opening-small", opening(tb), Options{Size: MinPixels}},
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
			if err := Game(&buf, c.s, c.opts); err != nil {
				t.Fatalf("Game = %v", err)
			}
			golden(t, c.name, buf.Bytes())
		})
	}
}
