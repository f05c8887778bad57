package commands_test

// End-to-end test of /go review on the wall game of issue 34.

import (
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/goroom"
)

// wallGameMoves is the game of issue 34 on 9×9: Black walls off the E
// line, White the F line, from the middle to the lower edge and then to
// the upper edge; Black drops a stone into White's area at H3, White one
// into Black's at B7, and both pass. With those two dead, B+1.5.
var wallGameMoves = []string{
	"E5", "F5", "E4", "F4", "E3", "F3", "E2", "F2", "E1", "F1",
	"E6", "F6", "E7", "F7", "E8", "F8", "E9", "F9",
	"H3", "B7", "pass", "pass",
}

func TestE2EReviewWallGame(t *testing.T) { httpMode(t, testE2EReviewWallGame) }

// testE2EReviewWallGame plays the wall game through Discord, counts it and
// asks for /go review, reviewed as /go review reviews (the built-in search
// at its full budget): the thread names no mistake and says so. Not F9,
// which closes White's border, nor the stones dropped into the other's
// area (H3, B7), and no move inside a sealed area is preferred. Nor the
// wall moves of the open game: the review used to name E1, E3, F1 and F3
// (the hane at the head of the other's wall looked bigger to the search),
// but each of those losses the opponent handed straight back with the next
// move, and the review names only a loss seen from both sides of the move
// (review.ConfirmedLosses) and standing out of the search's noise.
func testE2EReviewWallGame(t *testing.T, e *env) {
	// The review of /go review itself, at its full budget: the harness's
	// small one judges the open part of the game by other numbers.
	e.reviewer = goroom.NewLocalReviewer(review.MCTS{Seed: 1})
	e.restart()
	ch := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	e.startGame(ch, ann, bob, 9)
	id := e.game(ch.ID).ID
	last := e.playOut(ch, ann, bob, wallGameMoves)
	after := e.do(e.click(ann, last, "accept"))
	if final := e.do(e.click(bob, after, "accept")); !strings.Contains(final.Text(), "B+1.5") {
		t.Fatalf("the game did not end B+1.5: %q", final.Text())
	}
	answer := e.reviewedWithin(e.slash(ch, ann, "review", discordtest.Str("game", id)), 10*time.Minute)
	if !strings.Contains(answer.Text(), "Review of ⚫ ann vs ⚪ bob, 9×9, B+1.5, 22 moves: in the thread <#") {
		t.Fatalf("/go review answered %q", answer.Text())
	}
	rv := e.storedReview(id)

	// What the thread shows: one line per mistake.
	threads := e.d.Threads(ch.ID)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want the review's", len(threads))
	}
	msgs := e.d.Messages(threads[0].ID)
	if len(msgs) != 1 {
		t.Errorf("%d messages in the review thread, want the summary alone", len(msgs))
	}
	if text := msgs[0].Text(); !strings.Contains(text, "No move lost 2 points or more.") {
		t.Errorf("the summary %q does not say that no move lost 2 points", text)
	}
	// Nor does it name a move that lost nothing as where the game turned
	// (it said "The game turned at move 10 (W F1)").
	if text := msgs[0].Text(); !strings.Contains(text, "No single move turned the game: Black pulled ahead in small steps and kept the lead to the end.") || strings.Contains(text, "turned at move") {
		t.Errorf("the summary %q names a turning move", text)
	}
	for _, m := range rv.Mistakes {
		t.Errorf("move %d (%s) is a mistake of %.1f points", m.Number, m.Move, m.Loss)
	}
	// No preferred move, from the closing of Black's border on, lies in
	// the area Black sealed (columns A to D) or White's (G to J).
	for i := 17; i < len(rv.Positions); i++ {
		if b := rv.Positions[i].Best; b != "" && b != "pass" && b[0] != 'E' && b[0] != 'F' {
			t.Errorf("after move %d the engine prefers %s, inside a sealed area", i, b)
		}
	}
	if last := rv.Positions[len(rv.Positions)-1]; last.Score != 1.5 || !last.Counted {
		t.Errorf("last position %+v, want the counted B+1.5", last)
	}
}

// reviewedWithin is reviewed with a longer wait than the fake Discord's
// minute: a review at /go review's full budget takes a few seconds, but
// several minutes under the race detector on a shared machine. It bounds
// the wait; it asserts nothing about speed.
func (e *env) reviewedWithin(it *discordtest.Interaction, d time.Duration) discordtest.Message {
	e.t.Helper()
	m := e.do(it)
	if m.Ephemeral {
		return m
	}
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if m, _ = e.d.Original(it); strings.HasPrefix(m.Content, "Review of") {
			return m
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no review after %v: %q", d, m.Content)
		}
	}
}
