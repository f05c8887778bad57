package review

import (
	"context"
	"testing"
)

// g5Moves is a 9×9 game (Chinese rules, komi 7.5) of issue 28 that White
// won by 56.5: at move 39 Black ignored an atari and lost three stones.
// After 41.B D1 Black's corner A1–B3 around a dead White stone on B2 looks
// sealed, but White's A3 there still gains (GNU Go: 15.6 points, Black
// must answer at B3).
var g5Moves = []string{
	"G6", "D4", "F3", "D7", "C3", "D3", "C4", "C5", "B5", "F4", "H4", "C6", "G4", "B6", "B4", "B2",
	"C2", "E3", "D2", "F2", "G3", "E2", "B1", "F8", "F5", "H7", "H6", "H2", "A6", "A7", "A5", "B7",
	"E1", "E4", "F1", "G2", "G1", "H1", "J9", "H8", "D1", "A3", "pass", "pass",
}

// TestSettledNotWhileAMoveGains: a position where a move inside a sealed
// region still changes the count is not settled.
func TestSettledNotWhileAMoveGains(t *testing.T) {
	g := playGame(t, 9, g5Moves[:41]...)
	if tr := analyse(context.Background(), g); tr.settled {
		t.Errorf("after move 41 of g5 the position is settled (count %s), want it open: White's A3 still gains", ScoreText(tr.count))
	}
	// The finished g3 stays counted.
	if tr := analyse(context.Background(), playGame(t, 9, finishedG3[:27]...)); !tr.settled || ScoreText(tr.count) != "B+5.5" {
		t.Errorf("g3 after its last move: settled %v, count %s; want settled, B+5.5", tr.settled, ScoreText(tr.count))
	}
}

// TestReviewG5NoSwingAtA3: White's A3 in g5, its only good move after the
// corner looked sealed, is neither White's mistake nor the game's
// biggest swing.
func TestReviewG5NoSwingAtA3(t *testing.T) {
	t.Parallel() // whole reviews, the package's slowest tests, share the cores
	g := playGame(t, 9, g5Moves...)
	r, err := Run(context.Background(), g, MCTS{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Mistakes {
		if m.Number == 42 {
			t.Errorf("mistake %+v, want none at move 42", m)
		}
	}
	if r.Summary.Swing == 42 {
		t.Errorf("the biggest swing is move 42 (A3); graph %.2f", r.Winrates()[38:])
	}
	t.Logf("swings %v mistakes %+v graph %.2f", r.Swings(3), r.Mistakes, r.Winrates()[36:])
}
