package commands_test

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EConfirmationsClose: pressing a confirmation's button ("Yes,
// resign", "Yes, abort", a team's "Yes, vote to abort") answers with an
// update of the private question (Discord's UPDATE_MESSAGE, type 7) that
// takes its button away, so it cannot be pressed again only to hear that
// the game has ended; the announcement still goes to the channel.
func TestE2EConfirmationsClose(t *testing.T) { bothModes(t, testE2EConfirmationsClose) }

func testE2EConfirmationsClose(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	// confirm presses yes on the question ask as u, checks that the
	// question loses its button and says what it said, and returns the
	// public announcement that follows.
	confirm := func(what string, u discordtest.User, ask discordtest.Message, yes, announced string) {
		t.Helper()
		if !ask.Ephemeral {
			t.Fatalf("%s: the question %q is public", what, ask.Text())
		}
		it := e.click(u, ask, yes)
		r := e.d.Do(it)
		if r.Type != discordtest.CallbackUpdateMessage {
			t.Errorf("%s: %q was answered with type %d, want %d (UPDATE_MESSAGE)", what, yes, r.Type, discordtest.CallbackUpdateMessage)
		}
		if labels, text := e.labels(ask.ID); len(labels) > 0 || text != ask.Text() {
			t.Errorf("%s: after the press the question has the buttons %q and says %q; want no buttons, and still %q", what, labels, text, ask.Text())
		}
		var f []discordtest.Message
		e.d.WaitFor(what+": the announcement", func() bool { f = e.d.Followups(it); return len(f) > 0 })
		if len(f) != 1 || f[0].Ephemeral || !strings.Contains(f[0].Text(), announced) {
			t.Errorf("%s: the press's follow-ups are %d, the first %q (ephemeral %v); want one, public, saying %q", what, len(f), f[0].Text(), f[0].Ephemeral, announced)
		}
	}

	// Go: Resign, then Yes, resign.
	ch := e.d.GuildChannel("resign")
	e.challenge(ch, alice, bob)
	e.do(e.play(ch, alice, "D4"))
	board := e.do(e.play(ch, bob, "E5"))
	confirm("Go's resign", alice, e.do(e.click(alice, board, "Resign")), "Yes, resign", "wins by resignation")

	// Go: /go abort, then Yes, abort.
	ch = e.d.GuildChannel("abort")
	e.challenge(ch, alice, bob)
	e.do(e.play(ch, alice, "D4"))
	confirm("Go's abort", bob, e.do(e.slash(ch, bob, "abort")), "Yes, abort", "🚫 "+bob.Mention()+" aborted the game")

	// Draughts: Resign, then Yes, resign.
	ch = e.d.GuildChannel("draughts")
	e.do(e.click(bob, e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))), "accept"))
	board = e.waitBoard(ch.ID, "⚪ white to play")
	confirm("draughts' resign", bob, e.do(e.click(bob, board, "Resign")), "Yes, resign", "🏳️")

	// A team's vote to abort: the vote is cast once.
	ch = e.d.GuildChannel("rengo")
	ann, cid, dan := e.d.NewUser("ann"), e.d.NewUser("cid"), e.d.NewUser("dan")
	e.do(e.click(ann, e.rengoLobby(ch, ann, bob, cid, dan, discordtest.Bool("thread", false)), "Start"))
	e.do(e.play(ch, ann, "E5"))
	confirm("a team's vote", cid, e.do(e.slash(ch, cid, "abort")), "Yes, vote to abort", "🚫 "+cid.Mention()+" votes that ⚫ black abort the game")
}
