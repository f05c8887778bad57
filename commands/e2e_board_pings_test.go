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

// TestE2ECountBoardPings: the boards of the count ping the people whose
// Accept they wait for, as a move's board pings the player to move, but
// not the one whose action drew the board: the pass that ended play, a
// marking changed (it clears the acceptances), an Accept. A board asked
// for still pings nobody. In rengo every member the board waits for is
// pinged.
func TestE2ECountBoardPings(t *testing.T) { httpMode(t, testE2ECountBoardPings) }

func testE2ECountBoardPings(t *testing.T, e *env) {
	const ask = ", play has ended: check the dead stones, then press **Accept**."
	check := func(what string, m discordtest.Message, pinged ...discordtest.User) {
		t.Helper()
		var names, ids []string
		for _, u := range pinged {
			names, ids = append(names, u.Mention()), append(ids, u.ID)
		}
		want := strings.Join(names, ", ") + ask
		if n := len(names); n > 1 {
			want = strings.Join(names[:n-1], ", ") + " and " + names[n-1] + ask
		}
		if m.Content != want || !slices.Equal(m.Pings, ids) {
			t.Errorf("%s = %q pinging %v, want %q pinging %v", what, m.Content, m.Pings, want, ids)
		}
	}

	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "D4"))
	e.do(e.slash(ch, bob, "pass"))
	scoring := e.do(e.slash(ch, alice, "pass"))
	check("the board of alice's pass, which ended play", scoring, bob)
	marked := e.do(e.slash(ch, bob, "dead", discordtest.Str("point", "D4")))
	check("the board of bob's /go dead", marked, alice)
	// A board asked for names everyone the count waits for, alice who
	// passed last too (bob's marking cleared her acceptance), and pings
	// nobody.
	if b, want := e.do(e.slash(ch, bob, "board")), alice.Mention()+" and "+bob.Mention()+ask; b.Content != want || len(b.Pings) != 0 {
		t.Errorf("bob's /go board at the count = %q pinging %v, want %q pinging nobody", b.Content, b.Pings, want)
	}
	if m := e.do(e.click(alice, marked, "Accept")); m.Content != bob.Mention()+ask {
		t.Errorf("the board after alice's Accept = %q, want %q", m.Content, bob.Mention()+ask)
	}

	rch := e.d.GuildChannel("rengo")
	ann, rbob, cid, dan, _ := e.startedRengo(rch)
	e.do(e.play(rch, ann, "E5"))
	e.do(e.slash(rch, rbob, "pass"))
	scoring = e.do(e.slash(rch, cid, "pass"))
	check("the rengo board of cid's pass, which ended play", scoring, ann, rbob, dan)
	if m := e.do(e.click(dan, scoring, "Accept")); m.Content != ann.Mention()+" and "+cid.Mention()+ask {
		t.Errorf("the rengo board after dan's Accept for White = %q, want it to name Black's members", m.Content)
	}
	marked = e.do(e.slash(rch, ann, "dead", discordtest.Str("point", "E5")))
	check("the rengo board of ann's /go dead, which cleared White's acceptance", marked, cid, rbob, dan)
}
