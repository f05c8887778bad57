package commands_test

// End-to-end tests of who a board pings: the board after a move pings the
// player to move next; a board someone asks for (/go board, /draughts
// board) names that player but pings nobody, so that no spectator can ping
// a player at will.

import (
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

func TestE2EAskedBoardPingsNobody(t *testing.T) { httpMode(t, testE2EAskedBoardPingsNobody) }

func testE2EAskedBoardPingsNobody(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	cid := e.d.NewUser("cid")
	moved := e.do(e.play(ch, alice, "D4"))
	if want := bob.Mention() + ", your move."; moved.Content != want || !slices.Equal(moved.Pings, []string{bob.ID}) {
		t.Errorf("board after alice's move = %q pinging %v, want %q pinging bob (%s)", moved.Content, moved.Pings, want, bob.ID)
	}
	for _, u := range []discordtest.User{cid, alice, bob} {
		b := e.do(e.slash(ch, u, "board"))
		if want := bob.Mention() + ", your move."; b.Ephemeral || b.Content != want || len(b.Pings) != 0 {
			t.Errorf("%s's /go board = %q (private %v) pinging %v, want a public %q pinging nobody", u.Username, b.Content, b.Ephemeral, b.Pings, want)
		}
	}
	// The next move still pings the player to move.
	moved = e.do(e.play(ch, bob, "E5"))
	if want := alice.Mention() + ", your move."; moved.Content != want || !slices.Equal(moved.Pings, []string{alice.ID}) {
		t.Errorf("board after bob's move = %q pinging %v, want %q pinging alice", moved.Content, moved.Pings, want)
	}

	dch := e.d.GuildChannel("draughts")
	msg := e.newChallenge(e.draughtsCmd(dch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white")))
	e.do(e.click(bob, msg, "accept"))
	first := e.waitBoard(dch.ID, "**Move 1** · ⚪ white to play: "+alice.Mention())
	if !slices.Equal(first.Pings, []string{alice.ID}) {
		t.Errorf("draughts' first board = %q pinging %v, want alice pinged", first.Content, first.Pings)
	}
	b := e.do(e.draughtsCmd(dch, cid, "board"))
	if want := alice.Mention() + ", your move."; b.Ephemeral || b.Content != want || len(b.Pings) != 0 {
		t.Errorf("cid's /draughts board = %q (private %v) pinging %v, want a public %q pinging nobody", b.Content, b.Ephemeral, b.Pings, want)
	}
	moved = e.do(e.draughtsMove(dch, alice, "32-28"))
	if want := bob.Mention() + ", your move."; !strings.Contains(moved.Content, want) || !slices.Equal(moved.Pings, []string{bob.ID}) {
		t.Errorf("draughts board after alice's move = %q pinging %v, want %q pinging bob", moved.Content, moved.Pings, want)
	}
}
