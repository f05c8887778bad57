package hub

import (
	"errors"
	"testing"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// FuzzParseLine: any line reads as a Line or is ErrSyntax, never a
// panic; a line that reads writes back to one that reads the same.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"hub", `id name=Scan version=3.1 author="Fabien Letouzey"`, "go think", `pos moves="32-28 19-23"`, "level move-time = 1.5", `x="`, "=", "a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLine(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("ParseLine(%q) error = %v, not ErrSyntax", s, err)
			}
			return
		}
		back, err := ParseLine(l.String())
		if err != nil {
			t.Fatalf("ParseLine(%q) = %#v, written %q, which does not read: %v", s, l, l.String(), err)
		}
		if back.String() != l.String() {
			t.Fatalf("%q reads back as %q", l.String(), back.String())
		}
	})
}

// FuzzParseMove: any text is a legal move of the position or ErrMove.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"32-28", "28x19x23", "28x10x14x23", "1-50", "x", "32 - 28", "28x19x10"} {
		f.Add(s)
	}
	p, err := draughts.ParseFEN("W:W28,32,33:B23,14,19")
	if err != nil {
		f.Fatal(err)
	}
	legal := p.Generate(nil)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(&p, s)
		if err != nil {
			if !errors.Is(err, ErrMove) {
				t.Fatalf("ParseMove(%q) error = %v, not ErrMove", s, err)
			}
			return
		}
		for _, l := range legal {
			if l == m {
				return
			}
		}
		t.Fatalf("ParseMove(%q) = %v, not a legal move", s, m)
	})
}
