package playout

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// board builds the board of a diagram (see enginetest.Diagram).
func board(t testing.TB, diagram string) *engine.Board {
	t.Helper()
	return enginetest.Board(t, diagram)
}

// vertex returns the vertex of the point named s on b.
func vertex(t testing.TB, b *engine.Board, s string) int {
	t.Helper()
	p, err := engine.ParsePoint(s, b.Size())
	if err != nil {
		t.Fatal(err)
	}
	return b.Vertex(p)
}

func TestSelfAtari(t *testing.T) {
	diagram := `
		. . . . . . .
		. O O O . . .
		O X X X O . .
		O . . O . . .
		. O . . . X O
		. . . . X O .
		. . . . . X O`
	tests := []struct {
		move     string
		c        engine.Color
		want     bool
		wantSize int
	}{
		{"B4", engine.Black, true, 4},  // leaves the chain only C4
		{"C4", engine.Black, false, 1}, // the chain keeps B4 and gains C3
		{"G2", engine.Black, false, 1}, // captures F2
		{"G2", engine.White, true, 4},  // joins F2, G3 and G1 with one liberty left
		{"E5", engine.White, false, 1},
		{"A3", engine.Black, true, 1}, // a lone stone with one liberty
		{"A2", engine.Black, false, 1},
	}
	b := board(t, diagram)
	for _, tt := range tests {
		v := vertex(t, b, tt.move)
		got, size := SelfAtari(b, v, tt.c)
		if got != tt.want || (got && size != tt.wantSize) {
			t.Errorf("SelfAtari(%s, %v) = %v, %d; want %v, %d\n%v", tt.move, tt.c, got, size, tt.want, tt.wantSize, b)
		}
	}
}

func TestLadder(t *testing.T) {
	// A white stone in atari that can only run along a ladder towards an
	// empty corner dies; with a white ladder breaker on the path it lives.
	dies := board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X X . . .
		. X O . . . .
		. . X . . . .
		. . . . . . .`)
	// White C3 has one liberty, D3: extending there gives two (D2, E3),
	// and Black chases it to the edge.
	b := dies
	scratch := *b
	if !LadderCaptured(&scratch, vertex(t, b, "C3"), 20) {
		t.Errorf("ladder towards the empty corner: not captured\n%v", b)
	}
	lives := board(t, `
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . X X . . .
		. X O . . . .
		. . X . O . .
		. . . . . . .`)
	b = lives
	scratch = *b
	if LadderCaptured(&scratch, vertex(t, b, "C3"), 20) {
		t.Errorf("ladder with a breaker: captured\n%v", b)
	}
}

func TestPatterns(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		point   string
		want    bool
	}{
		{"empty board", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. . . . .`, "C3", false},
		{"hane enclosing", `
			. . . . .
			. X O X .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"hane, colours swapped", `
			. . . . .
			. O X O .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"cut", `
			. . . . .
			. X O . .
			. O . . .
			. . . . .
			. . . . .`, "C3", true},
		{"lone stone on the side", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. O . . .`, "C1", false},
		{"side block connection", `
			. . . . .
			. . . . .
			. . . . .
			. . X . .
			. . . O .`, "C1", true},
	}
	for _, tt := range tests {
		b := board(t, tt.diagram)
		if got := MatchesPattern(b, vertex(t, b, tt.point)); got != tt.want {
			t.Errorf("%s: MatchesPattern(%s) = %v, want %v\n%v", tt.name, tt.point, got, tt.want, b)
		}
	}
}
