package draughts

import (
	"testing"

	rules "github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

func TestAltText(t *testing.T) {
	resigned, err := opening(t).EndWith(game.Result{Winner: game.Side(rules.White), Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	agreed, err := play(t, "").EndWith(game.Result{Winner: game.NoSide, Reason: game.ByAgreement})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    rules.State
		want string
	}{
		{"start", play(t, ""), "White to move; White 20 men, Black 20 men"},
		{"one move", play(t, "", "32-28"), "Black to move; White 20 men, Black 20 men; last move 32-28"},
		{"capture", opening(t), "White to move; White 19 men, Black 19 men; last move 14x23"},
		{"kings", midgame(t), "Black to move; White 12 men and 1 king, Black 10 men and 1 king; last move 46x30"},
		// White's last man takes; Black has nothing left.
		{"no pieces", play(t, "W:W28:B23", "28x19"), "Game over, White wins 2-0 (all of Black's pieces are taken); White 1 man, Black no pieces; last move 28x19"},
		// Black has pieces but no move: blocked.
		{"blocked", play(t, "B:W41,47:B36"), "Game over, White wins 2-0 (Black cannot move); White 2 men, Black 1 man"},
		{"resigned", resigned, "Game over, White wins 2-0 (resignation); White 19 men, Black 19 men; last move 14x23"},
		{"agreed", agreed, "Game over, draw 1-1 (by agreement); White 20 men, Black 20 men"},
		{"kings only", play(t, "B:WK1,K2:BK50"), "Black to move; White 2 kings, Black 1 king"},
	} {
		if got := AltText(c.s); got != c.want {
			t.Errorf("%s: AltText = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAltTextEnded(t *testing.T) {
	got := AltTextEnded(play(t, "", "32-28"), "aborted, not counted")
	if want := "Game over, aborted, not counted; White 20 men, Black 20 men; last move 32-28"; got != want {
		t.Errorf("AltTextEnded = %q, want %q", got, want)
	}
}

func TestAltTextNoted(t *testing.T) {
	s, err := play(t, "", "32-28").EndWith(game.Result{Winner: game.Side(rules.White), Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	got := AltTextNoted(s, "annulled, not counted")
	if want := "Game over, White wins 2-0 (resignation), annulled, not counted; White 20 men, Black 20 men; last move 32-28"; got != want {
		t.Errorf("AltTextNoted = %q, want %q", got, want)
	}
}
