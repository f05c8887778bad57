package commands_test

// End-to-end test of /go review on the wall game of issue 34.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

// wantWallMistakes are the mistakes the review names in the wall game, as
// "Move N ⚫ MOVE better: BEST": all from the open game, where each player
// in turn left the hane at the head of the other's wall (F6 and F3 for
// Black, E6 for White) to extend his own. The search's own games from the
// position after move 8 (12 each way, 3,000 playouts a move) ended on
// average B−6 after E1 and B+16 after F6, and GNU Go (level 8) playing
// both sides from there W+18.5 and B+33.5: those are mistakes, not noise.
// The false alarms came after the borders closed (F9, H3, B7, and
// the invasions B5 and B6 offered as better) and are gone.
var wantWallMistakes = []string{
	"Move 9 ⚫ E1 better: F6",
	"Move 5 ⚫ E3 better: F3",
	"Move 10 ⚪ F1 better: E6",
	"Move 6 ⚪ F3 better: E6",
}

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
// at its full budget). Once the borders are closed (F9, move 18) nothing
// is a mistake: not F9, which closes White's, not the stones dropped into
// the other's area (H3, B7), and no move inside a sealed area is
// preferred. The mistakes left are those of the open game (see
// wantWallMistakes), each on a board that rings the move it answered.
func testE2EReviewWallGame(t *testing.T, e *env) {
	// The review of /go review itself, at its full budget: the harness's
	// small one judges the open part of the game by other numbers.
	e.reviewer = commands.NewLocalReviewer(review.MCTS{Seed: 1})
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
	var lines, alts []string
	for _, m := range e.d.Messages(threads[0].ID)[1:] {
		for _, em := range m.Embeds {
			lines = append(lines, em.Description)
		}
		for _, a := range m.Attachments {
			alts = append(alts, a.Description)
		}
	}
	var shown []string
	for _, l := range lines {
		// "Move 9 · ⚫ E1 · Black's winning chance 48% → 47% · 7 points lost · better: F6"
		parts := strings.Split(l, " · ")
		if len(parts) != 5 {
			t.Fatalf("mistake line %q", l)
		}
		shown = append(shown, parts[0]+" "+parts[1]+" "+parts[4])
	}
	if want := wantWallMistakes; !slices.Equal(shown, want) {
		t.Errorf("mistakes shown:\n%s\nwant:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	for _, m := range rv.Mistakes {
		if m.Number >= 18 {
			t.Errorf("move %d %s is a mistake of %.1f points after the borders closed", m.Number, m.Move, m.Loss)
		}
	}
	// No preferred move, from the closing of Black's border on, lies in
	// the area Black sealed (columns A to D) or White's (G to J).
	for i := 17; i < len(rv.Positions); i++ {
		if b := rv.Positions[i].Best; b != "" && b != "pass" && b[0] != 'E' && b[0] != 'F' {
			t.Errorf("after move %d the engine prefers %s, inside a sealed area", i, b)
		}
	}
	// Each board names the move it answers, ringed as the last move.
	for i, m := range rv.Mistakes {
		prev := wallGameMoves[m.Number-2]
		side := "White"
		if m.Color == engine.White {
			side = "Black"
		}
		if want := "answering " + side + " " + prev + " (marked as the last move)"; i >= len(alts) || !strings.Contains(alts[i], want) {
			t.Errorf("board of move %d: %q, want it to say %q", m.Number, alts[min(i, len(alts)-1)], want)
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
