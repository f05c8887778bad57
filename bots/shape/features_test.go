package shape

import (
	"math/rand/v2"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/playout"
)

func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		k := uint16(rng.Uint32())
		c := Canonical(k)
		if Canonical(c) != c {
			t.Fatalf("Canonical(Canonical(%#04x)) = %#04x, want %#04x", k, Canonical(c), c)
		}
		if c > k {
			t.Fatalf("Canonical(%#04x) = %#04x, bigger than the code itself", k, c)
		}
	}
	// A hane drawn in its eight orientations has one code. Around the
	// centre: own stone above, opponent stone above-right.
	//   . X O      O X .      . . .
	//   . * .  ->  . * .  ->  . * X ...
	//   . . .      . . .      . . O
	var seen []uint16
	for sym := range 8 {
		var k uint16
		// Place the stones by transforming (0,-1) and (1,-1).
		ox, oy := playout.Transform(0, -1, sym)
		px, py := playout.Transform(1, -1, sym)
		own, opp := [2]int{ox, oy}, [2]int{px, py}
		for i, off := range playout.NeighbourOffsets {
			switch off {
			case own:
				k |= pvOwn << (2 * i)
			case opp:
				k |= pvOpp << (2 * i)
			}
		}
		seen = append(seen, Canonical(k))
	}
	for _, c := range seen[1:] {
		if c != seen[0] {
			t.Fatalf("the eight orientations of a hane have codes %#04x, want one", seen)
		}
	}
}

func TestExtract(t *testing.T) {
	// Columns A–J without I, rows 9 (top) to 1.
	b := enginetest.Board(t, `
		. . . . . . X . .
		. . . . . . . X .
		. . X O . . . . .
		. X O . O . . . .
		. . X O . . . . .
		. . . . . . . . .
		. O . . . . . X .
		. X O . . . . O X
		. O . . . . . . O
	`)
	v := func(s string) int { return b.Vertex(enginetest.Point(t, s, 9)) }
	pass := engine.PassVertex
	tests := []struct {
		name        string
		move        string
		c           engine.Color
		last, last2 string
		want        Features // Pattern and Diamond are checked separately
	}{
		{"captures one stone", "D6", engine.Black, "E5", "", Features{Capture: 1, Last: 2, Line: 4}},
		{"extends to three liberties", "J3", engine.Black, "J1", "H3", Features{Escape: 2, Last: 3, Last2: 1, Line: 1}},
		{"extends to two liberties", "A2", engine.Black, "", "", Features{Escape: 1, Line: 1}},
		{"self-atari of a lone stone", "H9", engine.White, "", "", Features{SelfAtari: 1, Line: 1}},
		{"atari", "G2", engine.Black, "", "", Features{Atari: 1, Line: 2}},
		{"far from both moves", "E9", engine.White, "A1", "J1", Features{Last: 16, Last2: 16, Line: 1}},
		{"the fifth line", "E5", engine.White, "", "", Features{Line: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			last, last2 := pass, pass
			if tt.last != "" {
				last = v(tt.last)
			}
			if tt.last2 != "" {
				last2 = v(tt.last2)
			}
			got := Extract(b, v(tt.move), tt.c, last, last2)
			got[Pattern], got[Diamond] = 0, 0 // TestShapesSymmetric
			if got != tt.want {
				t.Errorf("Extract(%s) = %v, want %v", tt.move, got, tt.want)
			}
		})
	}
}

func TestExtractPatternSeenByThePlayer(t *testing.T) {
	// The same shape with the colours swapped has the same code for the
	// other player.
	b := enginetest.Board(t, `
		. . . . .
		. X O . .
		. . . . .
		. . . . .
		. . . . .
	`)
	w := enginetest.Board(t, `
		. . . . .
		. O X . .
		. . . . .
		. . . . .
		. . . . .
	`)
	at := b.Vertex(enginetest.Point(t, "B3", 5))
	pb := Extract(b, at, engine.Black, engine.PassVertex, engine.PassVertex)[Pattern]
	pw := Extract(w, at, engine.White, engine.PassVertex, engine.PassVertex)[Pattern]
	if pb != pw {
		t.Errorf("pattern of B3 for Black = %#04x, for White with colours swapped = %#04x, want equal", pb, pw)
	}
	if other := Extract(b, at, engine.White, engine.PassVertex, engine.PassVertex)[Pattern]; other == pb {
		t.Errorf("pattern of B3 is %#04x for both players, want them to differ", pb)
	}
}

// TestShapesSymmetric checks that a shape and its mirror image, near the
// edge, have the same 3×3 and diamond codes, and that another shape has
// another diamond.
func TestShapesSymmetric(t *testing.T) {
	a := enginetest.Board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X . . . .
		O . . X . . .
		. . . . . . .
	`)
	mirrored := enginetest.Board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . X . .
		. . . X . . O
		. . . . . . .
	`)
	other := enginetest.Board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X . . . .
		. . . X . . .
		. . . . . . .
	`)
	pass := engine.PassVertex
	fa := Extract(a, a.Vertex(enginetest.Point(t, "C2", 7)), engine.Black, pass, pass)
	fm := Extract(mirrored, mirrored.Vertex(enginetest.Point(t, "E2", 7)), engine.Black, pass, pass)
	fo := Extract(other, other.Vertex(enginetest.Point(t, "C2", 7)), engine.Black, pass, pass)
	if fa[Pattern] != fm[Pattern] || fa[Diamond] != fm[Diamond] {
		t.Errorf("C2 and its mirror image E2: pattern %#04x and %#04x, diamond %#06x and %#06x; want equal",
			fa[Pattern], fm[Pattern], fa[Diamond], fm[Diamond])
	}
	// Without the white stone two lines away, only the diamond changes.
	if fo[Pattern] != fa[Pattern] || fo[Diamond] == fa[Diamond] {
		t.Errorf("without A2: pattern %#04x (was %#04x, want the same), diamond %#06x (was %#06x, want another)",
			fo[Pattern], fa[Pattern], fo[Diamond], fa[Diamond])
	}
}
