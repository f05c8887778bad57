package shape

import (
	"math/rand/v2"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
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
		for i, off := range offsets {
			dx, dy := off[0], off[1]
			// Place the stones by transforming (0,-1) and (1,-1).
			own, opp := tf(0, -1, sym), tf(1, -1, sym)
			switch [2]int{dx, dy} {
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

func tf(dx, dy, sym int) [2]int {
	if sym&4 != 0 {
		dx, dy = dy, dx
	}
	if sym&1 != 0 {
		dx = -dx
	}
	if sym&2 != 0 {
		dy = -dy
	}
	return [2]int{dx, dy}
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
		want        Features // Pattern is checked separately
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
			got[Pattern] = 0
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
