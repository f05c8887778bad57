package engine_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// TestWriteSGFCommentsAndVariations writes a record with comments on moves
// and variations beside the main line, and reads it back: the main line and
// the result are unchanged.
func TestWriteSGFCommentsAndVariations(t *testing.T) {
	g := enginetest.NewGame(t, Config{Size: 9, Rules: DefaultRules()}, "E5", "C3", "G7", "D4", "pass", "F4")
	mv := func(c Color, s string) Move {
		m, err := ParseMove(c, s, 9)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	info := SGFInfo{
		RE:       "W+R",
		Comments: map[int]string{2: "Black 50% → 40%", 4: "a [bracket] and \\\\ backslash"},
		Variations: map[int][]Move{
			2: {mv(White, "D5"), mv(Black, "E4")},
			5: {mv(Black, "C7")},
		},
	}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, g, info); err != nil {
		t.Fatal(err)
	}
	sgf := buf.String()
	for _, want := range []string{";W[cg]C[Black 50% → 40%]", `C[a [bracket\] and \\\\ backslash]`, "(;W[de];B[ef]))", "(;B[cc]))"} {
		if !strings.Contains(sgf, want) {
			t.Errorf("record lacks %q:\n%s", want, sgf)
		}
	}
	back, bi, err := ParseSGF(buf.Bytes())
	if err != nil {
		t.Fatalf("ParseSGF: %v\n%s", err, sgf)
	}
	if !slices.Equal(back.Moves(), g.Moves()) || bi.RE != "W+R" {
		t.Errorf("main line read back: %v RE %q, want %v W+R\n%s", back.Moves(), bi.RE, g.Moves(), sgf)
	}
}
