package draughts

import (
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

// diagram reads a test board; the board's first line is blank.
func diagram(t *testing.T, board string) Position {
	t.Helper()
	p, err := ParseDiagram(board)
	if err != nil {
		t.Fatalf("ParseDiagram = %v", err)
	}
	return p
}

// stateAt returns a game starting at p.
func stateAt(t *testing.T, p Position) State {
	t.Helper()
	s, err := NewState(game.Options{"fen": p.FEN()}, 0)
	if err != nil {
		t.Fatalf("NewState(%s) = %v", p.FEN(), err)
	}
	return s
}

func texts(ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

func TestLegalMoves(t *testing.T) {
	tests := []struct {
		name  string
		board string
		want  []string
	}{{
		name: "start: men step forward",
		board: `
 b b b b b
b b b b b
 b b b b b
b b b b b
 . . . . .
. . . . .
 w w w w w
w w w w w
 w w w w w
w w w w w
White to move`,
		want: []string{"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"},
	}, {
		name: "a man captures backwards",
		board: `
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . w . .
 . b . . .
. . . . .
 . . . . .
. . . . .
White to move`,
		want: []string{"28x37"},
	}, {
		name: "the maximum capture is compulsory: 34x14 takes 2, 32x21 only 1",
		board: `
 . . . . .
. . . . .
 . . . . .
. . . b .
 . . . . .
. b . b .
 . w . w .
. . . . .
 . . . . .
. . . . .
White to move`,
		want: []string{"34x14"},
	}, {
		name: "a man goes round and back to its square: two ways, one move",
		board: `
 . . . . .
. . . . .
 . . . . .
. . . . .
 . b b . .
. . . . .
 . b b . .
. . w . .
 . . . . .
. . . . .
White to move`,
		want: []string{"38x38"},
	}, {
		name: "a man passing the far row in a capture is not crowned",
		board: `
 . . . . .
. b b . .
 w . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
White to move`,
		want: []string{"11x13"},
	}, {
		name: "a king flies, up to the first piece",
		board: `
 . . . . b
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
W . . . .
White to move`,
		want: []string{"46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41"},
	}, {
		name: "a king lands on any square beyond the piece it takes",
		board: `
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . b . .
 . . . . .
. . . . .
 . . . . .
W . . . .
White to move`,
		want: []string{"46x5", "46x10", "46x14", "46x19", "46x23"},
	}, {
		// 46x32 lands on 23, takes 18 to 12, 17 to 21 or 26; from 21
		// the way to 38 is blocked by 32, taken but still on the
		// board (the Turkish strike rule), so 38 is not taken.
		name: "taken pieces stay on the board until the end and block",
		board: `
 . . . . .
. . . . .
 . . . . .
. b b . .
 . . . . .
. . . . .
 . b . . .
. . b . .
 . . . . .
W . . . .
White to move`,
		want: []string{"46x21", "46x26"},
	}, {
		name: "captures sharing start and end are written in full",
		board: `
 . . W . .
. . . b .
 . . . . .
. . . b .
 . b . b .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
White to move`,
		want: []string{"3x14x28x6", "3x20x33x6", "3x14x28x11", "3x20x33x11", "3x14x28x17", "3x20x33x17"},
	}, {
		name: "black men capture too",
		board: `
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. b b . .
 . w . . .
. . . . .
 . . . . .
. . . . .
Black to move`,
		want: []string{"27x38", "28x37"},
	}, {
		name: "a king and a man without capture",
		board: `
 b . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . w . .
 . . . . .
. . . . .
 . . . . .
. . . . W
White to move`,
		want: []string{"28-22", "28-23", "50-33", "50-39", "50-44", "50-45"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.board)
			s := stateAt(t, p)
			if got := texts(s.Legal()); !slices.Equal(got, tt.want) {
				t.Errorf("Legal() = %q, want %q", got, tt.want)
			}
			if got := p.CountMoves(make([]Move, 0, MaxMoves)); got != len(tt.want) {
				t.Errorf("CountMoves() = %d, want %d", got, len(tt.want))
			}
		})
	}
}

func TestCrowning(t *testing.T) {
	tests := []struct {
		fen, move string
		to        Square
		want      Piece
	}{
		{"W:W11:B7,8", "11x13", 13, WhiteMan},    // passes 2 and goes on: a man
		{"W:W11:B7", "11x2", 2, WhiteKing},       // ends on 2: crowned
		{"W:W6:B20", "6-1", 1, WhiteKing},        // a step to the far row
		{"B:W50:B44", "44-49", 49, BlackKing},    // Black crowns on 46 to 50
		{"B:W39,40:B34", "34x43", 43, BlackMan},  // lands on 43, row 8
		{"B:W42:B37,K5", "37x48", 48, BlackKing}, // a capture ending on 48
	}
	for _, tt := range tests {
		s, err := NewState(game.Options{"fen": tt.fen}, 0)
		if err != nil {
			t.Fatalf("NewState(%s) = %v", tt.fen, err)
		}
		n, facts, err := s.PlayMove(s.ToMove(), tt.move)
		if err != nil {
			t.Errorf("%s: Play(%s) = %v (legal %q)", tt.fen, tt.move, err, s.Legal())
			continue
		}
		pos := n.Position()
		if got := pos.At(tt.to); got != tt.want {
			t.Errorf("%s: after %s, %d holds %v, want %v", tt.fen, tt.move, tt.to, got, tt.want)
		}
		crowned := slices.ContainsFunc(facts, func(f game.Fact) bool { return f.Kind == "crown" })
		if crowned != tt.want.King() {
			t.Errorf("%s: after %s, facts %v, crowned %v", tt.fen, tt.move, facts, tt.want.King())
		}
	}
}

func TestDiagramRoundTrip(t *testing.T) {
	p := Start()
	q, err := ParseDiagram(p.String())
	if err != nil || !q.Equal(&p) || q.Hash() != p.Hash() {
		t.Fatalf("ParseDiagram(Start().String()) = %v, %v", q.FEN(), err)
	}
	if _, err := ParseDiagram(strings.Repeat(" . . . . .\n", 9)); err == nil {
		t.Errorf("ParseDiagram of 9 rows: no error")
	}
}
