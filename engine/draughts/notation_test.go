package draughts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

func TestParseSquares(t *testing.T) {
	tests := []struct {
		text string
		want []Square
		err  string // the exact message, when an error
	}{
		{"32-28", []Square{32, 28}, ""},
		{"28x19", []Square{28, 19}, ""},
		{" 28 x 19 x 10 ", []Square{28, 19, 10}, ""},
		{"32 - 28", []Square{32, 28}, ""},
		{"32X28", []Square{32, 28}, ""},
		{"5-10", []Square{5, 10}, ""},
		{"", nil, "draughts: empty move: write a move as 32-28, or 28x19 for a capture"},
		{"   ", nil, "draughts: empty move: write a move as 32-28, or 28x19 for a capture"},
		{"0-5", nil, "draughts: square 0 is off the board (1 to 50)"},
		{"46-51", nil, "draughts: square 51 is off the board (1 to 50)"},
		{"32–28", []Square{32, 28}, ""},
		{"32—28", []Square{32, 28}, ""},
		{"32 − 28", []Square{32, 28}, ""},
		{"28×19×10", []Square{28, 19, 10}, ""},
		{"32––28", nil, `draughts: "32––28": a square number is missing before "–"`},
		{"32:28", nil, `draughts: "32:28": the dash must be '-' or 'x', not ":"`},
		{"c3-d4", nil, `draughts: "c3-d4" is not a move: write squares 1 to 50 joined by '-' or 'x', as 32-28 or 28x19`},
		{"32", nil, `draughts: "32": a move needs a start and an end square, as 32-28`},
		{"32-", nil, `draughts: "32-": a square number is missing at the end`},
		{"-28", nil, `draughts: "-28": a square number is missing before "-"`},
		{"32--28", nil, `draughts: "32--28": a square number is missing before "-"`},
		{"32 28", nil, `draughts: "32 28": squares must be joined by '-' or 'x'`},
		{"3228", []Square{32, 28}, ""},
		{"３２－２８", []Square{32, 28}, ""},
		{"２８ｘ１９", []Square{28, 19}, ""},
		{" 1923 ", []Square{19, 23}, ""},
		{"728", []Square{7, 28}, ""},
		{"128", nil, `draughts: "128": write it with a dash, as 1-28 or 12-8`},
		{"9999", nil, "draughts: square 9999 is off the board (1 to 50)"},
		{"3205", nil, "draughts: square 3205 is off the board (1 to 50)"},
		{"99999999999999999999-1", nil, "draughts: square 99999999999999999999 is off the board (1 to 50)"},
	}
	for _, tt := range tests {
		got, err := ParseSquares(tt.text)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseSquares(%q) = %v, %v, want error %q", tt.text, got, err, tt.err)
			}
			if !errors.Is(err, ErrNotation) && !errors.Is(err, ErrSquare) {
				t.Errorf("ParseSquares(%q) = %v, not an ErrNotation or ErrSquare", tt.text, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseSquares(%q) = %v, %v, want %v", tt.text, got, err, tt.want)
		}
	}
}

func TestPlayRefusals(t *testing.T) {
	maxCapture := `
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
White to move`
	start := Start().String()
	ambiguous := `
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
White to move`
	tests := []struct {
		board string
		side  game.Side
		move  string
		kind  error
		err   string
	}{
		{maxCapture, 0, "32x21", ErrMaximumCapture,
			"draughts: 32x21 takes 1 piece, but 34x23x14 takes 2: the maximum capture is compulsory"},
		{maxCapture, 0, "34x23", ErrMaximumCapture,
			"draughts: 34x23 takes 1 piece, but 34x23x14 takes 2: the maximum capture is compulsory"},
		{maxCapture, 0, "32-28", ErrCaptureRequired,
			"draughts: 32-28 does not capture, but a capture is compulsory: 34x14"},
		{maxCapture, 0, "34-30", ErrCaptureRequired,
			"draughts: 34-30 does not capture, but a capture is compulsory: 34x14"},
		{maxCapture, 0, "27-22", ErrNoPiece,
			"draughts: 27-22: there is a black piece on 27, and white is to move"},
		{maxCapture, 1, "19-24", ErrNotYourTurn, "draughts: it is White's turn, not Black's"},
		{start, 0, "19-23", ErrNoPiece, "draughts: 19-23: there is a black piece on 19, and white is to move"},
		{start, 0, "26-21", ErrNoPiece, "draughts: 26-21: there is no piece on 26, and white is to move"},
		{start, 0, "32-23", ErrIllegalMove, "draughts: 32-23 is not a legal move: a man moves one square, and jumps only to capture"},
		{start, 0, "37-28", ErrIllegalMove, "draughts: 37-28 is not a legal move: a man cannot jump its own piece on 32"},
		{start, 0, "35-31", ErrIllegalMove, "draughts: 35-31 is not a legal move: 35 and 31 are not on one diagonal"},
		{start, 0, "32-32", ErrIllegalMove, "draughts: 32-32 is not a move: it starts and ends on 32"},
		{start, 0, "31-23", ErrIllegalMove, "draughts: 31-23 is not a legal move: 31 and 23 are not on one diagonal"},
		{"\n . . . . .\nb . . . .\n . . . . .\n. . . w .\n . . . . .\n. . W . .\n . . . . .\n. . . . .\n . . . . .\n. . . . .\nWhite to move",
			0, "28-14", ErrIllegalMove, "draughts: 28-14 is not a legal move: 19 is in the way"},
		{"\n . . . . .\nb . . . .\n . . . . .\n. . . w .\n . . . . .\n. . W . .\n . . . . .\n. . . . .\n . . . . .\n. . . . .\nWhite to move",
			0, "28-19", ErrIllegalMove, "draughts: 28-19 is not a legal move: 19 is taken"},
		{start, 0, "36-31", ErrIllegalMove, "draughts: 36-31 is not a legal move: 31 is taken"},
		{start, 0, "37-32", ErrIllegalMove, "draughts: 37-32 is not a legal move: 32 is taken"},
		{"\n . . . . .\n. . . . .\n . . . . .\n. . . . .\n . . . . .\n. . w . .\n . . . . .\n. . . . .\n . . . b .\n. . . . .\nWhite to move",
			0, "28-32", ErrBackward, "draughts: 28-32 goes backward: a man moves forward only, unless it captures"},
		{ambiguous, 0, "3x17", ErrAmbiguous,
			"draughts: 3x17 could be 3x14x28x17 or 3x20x33x17: write the full path"},
		{ambiguous, 0, "3x14x17x6", ErrIllegalMove, "draughts: 3x14x17x6 is not a legal move: a capture is compulsory: 3x14x28x6, 3x20x33x6, 3x14x28x11, 3x20x33x11 or …"},
		// A refusal quotes the move as the player wrote it: a capture
		// as a capture, a plain move as a plain move.
		{start, 0, "23x32", ErrNoPiece, "draughts: 23x32: there is no piece on 23, and white is to move"},
		{start, 0, "19X23", ErrNoPiece, "draughts: 19x23: there is a black piece on 19, and white is to move"},
		{start, 0, "32x23", ErrIllegalMove, "draughts: 32x23 is not a legal move: a man moves one square, and jumps only to capture"},
		{start, 0, "37 x 32", ErrIllegalMove, "draughts: 37x32 is not a legal move: 32 is taken"},
		{"\n . . . . .\n. . . . .\n . . . . .\n. . . . .\n . . . . .\n. . w . .\n . . . . .\n. . . . .\n . . . b .\n. . . . .\nWhite to move",
			0, "28x32", ErrBackward, "draughts: 28x32 goes backward: a man moves forward only, unless it captures"},
		{maxCapture, 0, "32x28", ErrCaptureRequired,
			"draughts: 32x28 does not capture, but a capture is compulsory: 34x14"},
		{maxCapture, 0, "32-21", ErrMaximumCapture,
			"draughts: 32-21 takes 1 piece, but 34x23x14 takes 2: the maximum capture is compulsory"},
		{ambiguous, 0, "3-17", ErrAmbiguous,
			"draughts: 3-17 could be 3x14x28x17 or 3x20x33x17: write the full path"},
		// A plain move written as a capture is not played as the plain
		// move: the player is asked whether they meant it.
		{start, 0, "32x28", ErrNotCapture, "draughts: 32x28 does not capture: did you mean 32-28?"},
		{start, 0, "32 X 28", ErrNotCapture, "draughts: 32x28 does not capture: did you mean 32-28?"},
		// A man moving backward is told so first, even onto a taken
		// square.
		{strings.Replace(start, "White to move", "Black to move", 1), 1, "19-14", ErrBackward,
			"draughts: 19-14 goes backward: a man moves forward only, unless it captures"},
		{start, 0, "32-37", ErrBackward, "draughts: 32-37 goes backward: a man moves forward only, unless it captures"},
		{ambiguous, 0, "3-14-17-6", ErrIllegalMove, "draughts: 3-14-17-6 is not a legal move: a capture is compulsory: 3x14x28x6, 3x20x33x6, 3x14x28x11, 3x20x33x11 or …"},
	}
	for _, tt := range tests {
		p := diagram(t, tt.board)
		s := stateAt(t, p)
		_, _, err := s.Play(tt.side, game.Move(tt.move))
		if err == nil || err.Error() != tt.err || !errors.Is(err, tt.kind) {
			t.Errorf("Play(%d, %s) = %v, want %q (%v)", tt.side, tt.move, err, tt.err, tt.kind)
		}
		if tt.kind == ErrNotYourTurn {
			continue
		}
		// The same refusal when the move is read first, as the bot reads
		// a player's move (ParseMove, then Play), and by the position's
		// reader (PDN, Hub, the bots).
		if m, err := s.ParseMove(tt.side, tt.move); err == nil {
			if _, _, err := s.Play(tt.side, m); err == nil || err.Error() != tt.err {
				t.Errorf("Play(%d, ParseMove(%s) = %s) = %v, want %q", tt.side, tt.move, m, err, tt.err)
			}
		} else if !errors.Is(err, ErrAmbiguous) || err.Error() != tt.err {
			t.Errorf("ParseMove(%d, %s) = %v", tt.side, tt.move, err)
		}
		// (The position lists the legal moves in another order: compare
		// the kind and the move quoted.)
		if _, err := p.ParseMove(tt.move); err == nil || !errors.Is(err, tt.kind) || strings.Fields(err.Error())[1] != strings.Fields(tt.err)[1] {
			t.Errorf("Position.ParseMove(%s) = %v, want %q (%v)", tt.move, err, tt.err, tt.kind)
		}
	}
}

func TestPlayForms(t *testing.T) {
	ambiguous := `
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
White to move`
	s := stateAt(t, diagram(t, ambiguous))
	for _, tt := range []struct{ text, want string }{
		{"3x14x28x17", "3x14x28x17"}, // the full path
		{"3 x 14 x 28 x 17", "3x14x28x17"},
		{"3x28x17", "3x14x28x17"},      // some of the landing squares
		{"3x17x9x19x22", "3x14x28x17"}, // the Hub form: start, end, the pieces taken
		{"3x17x24", "3x20x33x17"},
		{"3-20-33-17", "3x20x33x17"},
	} {
		got, err := s.ParseMove(0, tt.text)
		if err != nil || string(got) != tt.want {
			t.Errorf("ParseMove(%q) = %q, %v, want %q", tt.text, got, err, tt.want)
		}
		n, _, err := s.Play(0, game.Move(tt.text))
		if err != nil {
			t.Errorf("Play(%q) = %v", tt.text, err)
			continue
		}
		if ms := n.(State).Moves(); string(ms[0]) != tt.want {
			t.Errorf("Play(%q) recorded %q, want %q", tt.text, ms[0], tt.want)
		}
	}
	// Not to move, or over: the text tidied, and Play says why.
	if got, err := s.ParseMove(1, " 19 - 23 "); err != nil || got != "19-23" {
		t.Errorf("ParseMove(Black, 19 - 23) = %q, %v", got, err)
	}
	if _, err := s.ParseMove(0, "3x17"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("ParseMove(3x17) = %v, want ErrAmbiguous", err)
	}
}

// TestSuggest: what autocomplete offers for a move being typed covers
// what ParseMove reads: '-' for 'x', either case, spaces, and the short
// forms, which list every full path they match; never a plain move
// written with 'x', which ParseMove refuses.
func TestSuggest(t *testing.T) {
	ambiguous := stateAt(t, diagram(t, `
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
White to move`))
	start := stateAt(t, Start())
	n, _, err := start.Play(0, "32-28")
	if err == nil {
		n, _, err = n.Play(1, "19-23")
	}
	if err != nil {
		t.Fatal(err)
	}
	capture := n.(State)
	tests := []struct {
		s    State
		text string
		want string
	}{
		{ambiguous, "", "3x14x28x6 3x20x33x6 3x14x28x11 3x20x33x11 3x14x28x17 3x20x33x17"},
		{ambiguous, "3x17", "3x14x28x17 3x20x33x17"}, // start and end: both paths
		{ambiguous, "3-17", "3x14x28x17 3x20x33x17"},
		{ambiguous, " 3 X 17 ", "3x14x28x17 3x20x33x17"},
		{ambiguous, "3x28x17", "3x14x28x17"}, // some landing squares
		{ambiguous, "3 x 28 x 1", "3x14x28x11 3x14x28x17"},
		{ambiguous, "3x17x24", "3x20x33x17"}, // the Hub form
		{ambiguous, "3x14x", "3x14x28x6 3x14x28x11 3x14x28x17"},
		{ambiguous, "3x14x28x17x", ""},
		{capture, "", "28x19"},
		{capture, "28-", "28x19"},
		{capture, "28-19", "28x19"},
		{capture, "28X", "28x19"},
		{capture, " 28 x 19 ", "28x19"},
		{capture, "33", ""},
		{capture, "33x", ""},
		{start, "32x", ""}, // a plain move written as a capture is refused
		{start, "32x28", ""},
		{start, "32-", "32-27 32-28"},
		{start, "32 - 28", "32-28"},
		{start, "3", "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"},
		{start, "32–28", "32-28"},
		{capture, "28×", "28x19"},
	}
	for _, tt := range tests {
		got := tt.s.Suggest(tt.text)
		if s := strings.Trim(fmt.Sprint(got), "[]"); s != tt.want {
			t.Errorf("side %d to move: Suggest(%q) = %q, want %q", tt.s.ToMove(), tt.text, s, tt.want)
		}
		// Each suggestion plays, and a complete text names a
		// suggestion when it names a move.
		for _, m := range got {
			if _, _, err := tt.s.Play(tt.s.ToMove(), m); err != nil {
				t.Errorf("Suggest(%q) offers %s, which Play refuses: %v", tt.text, m, err)
			}
		}
		if m, err := tt.s.ParseMove(tt.s.ToMove(), tt.text); err == nil && !slices.Contains(got, m) {
			if _, _, err := tt.s.Play(tt.s.ToMove(), m); err == nil {
				t.Errorf("%q plays %s, which Suggest does not offer", tt.text, m)
			}
		}
	}
	over, err := start.End(game.Result{Winner: game.Side(White), Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	if len(over.(State).Suggest("")) != 0 {
		t.Error("a finished game suggests moves")
	}
}
