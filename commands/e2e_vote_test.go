package commands_test

// End-to-end tests of a vote game, "the server against gobot": several
// people vote on each of the channel's moves, with a tie, a changed vote,
// an empty period and an adjournment, and the refusals of a vote given
// twice, an illegal move, a resignation and a vote button from another
// channel. The harness is in e2e_harness_test.go.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

func TestE2EVoteGame(t *testing.T) { httpMode(t, testE2EVoteGame) }

func testE2EVoteGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2, v3 := e.d.NewUser("v1"), e.d.NewUser("v2"), e.d.NewUser("v3")
	start := e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	if start.Ephemeral || !strings.Contains(start.Text(), "This channel against gobot tester") || !strings.Contains(start.Text(), "🗳️ No votes yet. The move is played <t:") {
		t.Fatalf("start = %q", start.Text())
	}
	// A second vote game, or any other, has no room in this channel; a
	// vote game cannot go to a thread, so the answer names no thread.
	e.said(e.slash(ch, v2, "vote", discordtest.Str("level", "tester")), "A game is already running in this channel, and a vote game needs a channel to itself: start `/go vote` in another channel, or here once this game is over.")
	g := e.game(ch.ID)
	if !g.Unrated || g.Vote == nil || !g.Vote.Deadline.Equal(e.clock.Now().Add(time.Minute)) {
		t.Fatalf("vote game = unrated %v, vote %+v", g.Unrated, g.Vote)
	}
	vote := func(u discordtest.User, move, want string) {
		t.Helper()
		m := e.do(e.play(ch, u, move))
		if !m.Ephemeral || !strings.Contains(m.Text(), want) {
			t.Errorf("%s votes %s: reply %q, want a private %q", u.Username, move, m.Text(), want)
		}
	}
	// closeRound lets the period end and waits for the chosen move and
	// gobot's answer (moves in all).
	closeRound := func(want string, moves int) {
		t.Helper()
		e.clock.Advance(time.Minute)
		e.waitMoves("the vote's move and gobot's answer", ch.ID, moves)
		e.d.WaitFor("the vote's announcement", func() bool { return len(e.publicWith(ch.ID, want)) > 0 })
		// gobot answers the vote: the round's one board is the one after
		// its move (a board with the vote's result could come after it
		// and show the position before gobot's move).
		for _, m := range e.publicWith(ch.ID, want) {
			if _, ok := m.PNG(); ok {
				t.Errorf("the vote's announcement %q carries a board", m.Text())
			}
		}
		// The board this round's vote was shown on also says what gobot
		// played (the round before): gobot's new board is known by its
		// move number, and the votes show on it once it is kept as the
		// vote's board (a vote cast before that is drawn on it only
		// afterwards, by keepVoteBoard, not before its reply).
		next := fmt.Sprintf("**Move %d** · ", moves+1)
		e.d.WaitFor("gobot's board, kept to show the votes", func() bool {
			b := e.board(ch.ID)
			g := e.game(ch.ID)
			return strings.Contains(b.Text(), "gobot (tester) played") && strings.Contains(b.Text(), next) && slices.Contains(g.Delivery.MessageIDs, b.ID) && g.Vote != nil && g.Vote.Board == b.ID
		})
	}

	// Round 1: most votes.
	vote(v1, "D4", "🗳️ Your vote: **D4**. Votes: **D4** 1.")
	vote(v2, "C3", "Votes: **D4** 1 · **C3** 1.")
	vote(v3, "c3", "Votes: **C3** 2 · **D4** 1.")
	e.refused(e.play(ch, v3, "C3"), "You already vote for **C3**: one vote a person a move.")
	e.refused(e.slash(ch, v2, "resign"), "Nobody resigns for the channel in a vote game")
	e.refused(e.slash(ch, v2, "undo"), "There is no undo in a vote game")
	board := e.board(ch.ID)
	if _, ok := board.Button("Vote C3"); !ok {
		t.Errorf("the board's buttons %+v have no Vote C3", board.Buttons())
	}
	closeRound("🗳️ The vote chose **C3**: 2 votes of 3 voters (v2, v3).", 2)
	if g := e.game(ch.ID); at(g, "C3") == 0 || g.Vote == nil || !g.Vote.Deadline.Equal(e.clock.Now().Add(time.Minute)) {
		t.Fatalf("after round 1: C3 %v, vote %+v", at(g, "C3"), g.Vote)
	}
	// gobot (tester) took A9, the first free point from the top left.
	e.refused(e.play(ch, v1, "A9"), "A9 is already taken by a white stone.")

	// Round 2: a tie goes to the move that reached its count first.
	vote(v1, "E5", "Votes: **E5** 1.")
	board = e.board(ch.ID)
	vote(v2, "D5", "Votes: **E5** 1 · **D5** 1.")
	closeRound("🗳️ The vote chose **E5**: 1 vote of 2 voters (v1).", 4)
	// The board the round was voted on says why E5 and not D5.
	if got, _ := e.d.Message(board.ID); !strings.Contains(got.Text(), "🗳️ Votes: **E5** 1 · **D5** 1. The vote chose **E5**, which reached 1 vote before **D5**.") {
		t.Errorf("the closed board of a tied vote reads %q", got.Text())
	}

	// A vote button of this game pressed in another channel is refused.
	other := e.d.GuildChannel("random")
	stray := board
	stray.ChannelID = other.ID
	e.refused(e.d.Click(v3, stray, mustButton(t, board, "Vote E5").CustomID), "That vote button belongs to a game of another channel, or to one that has ended")

	// Round 3: a changed vote (by button) counts, the old one not.
	vote(v1, "G6", "Votes: **G6** 1.")
	vote(v2, "G6", "Votes: **G6** 2.")
	vote(v3, "H6", "Votes: **G6** 2 · **H6** 1.")
	board = e.board(ch.ID)
	if m := e.do(e.click(v1, board, "Vote H6")); !strings.Contains(m.Text(), "Votes: **H6** 2 · **G6** 1.") {
		t.Errorf("a changed vote by button: %q", m.Text())
	}
	closeRound("🗳️ The vote chose **H6**: 2 votes of 3 voters (v1, v3).", 6)

	// Round 4: an empty period begins again once, then the game is
	// adjourned until someone votes.
	e.clock.Advance(time.Minute)
	e.d.WaitFor("the restart", func() bool {
		return len(e.publicWith(ch.ID, "🗳️ Nobody voted: the vote stays open, closing <t:")) > 0
	})
	e.clock.Advance(time.Minute)
	e.d.WaitFor("the adjournment", func() bool {
		return len(e.publicWith(ch.ID, "🗳️ Nobody voted in two periods: the game is adjourned.")) > 0
	})
	if g := e.game(ch.ID); g.Vote == nil || !g.Vote.Deadline.IsZero() || g.State.MoveCount() != 6 {
		t.Fatalf("adjourned game: vote %+v, %d moves", g.Vote, g.State.MoveCount())
	}
	e.clock.Advance(time.Hour)
	vote(v2, "B2", "Votes: **B2** 1. The move is played <t:")
	closeRound("🗳️ The vote chose **B2**", 8)

	// Round 5, and a pass.
	vote(v3, "J1", "Votes: **J1** 1.")
	closeRound("🗳️ The vote chose **J1**", 10)
	vote(v1, "pass", "Votes: **pass** 1.")
	closeRound("🗳️ The vote chose **pass**", 12)

	sgf := e.do(e.slash(ch, v1, "sgf"))
	var record string
	for _, a := range sgf.Attachments {
		if strings.HasSuffix(a.Filename, ".sgf") {
			record = string(a.Data)
		}
	}
	for _, want := range []string{"PB[the channel's vote]", "C[Voted by v2, v3 (2 votes).]", "C[Voted by v1 (1 vote).]", "C[Voted by v1, v3 (2 votes).]"} {
		if !strings.Contains(record, want) {
			t.Errorf("record lacks %s:\n%s", want, record)
		}
	}
}

// TestE2EVoteGameCount: when the channel's vote and gobot both pass, the
// game is counted at once with the estimate's marking (nobody can accept
// for a channel), announced and archived, unrated.
func TestE2EVoteGameCount(t *testing.T) { httpMode(t, testE2EVoteGameCount) }

func testE2EVoteGameCount(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1 := e.d.NewUser("v1")
	e.players.setScript(nil) // the scripted level passes
	e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "scripted"), discordtest.Int("size", 9), discordtest.Str("period", "1m")))
	id := e.game(ch.ID).ID
	e.do(e.play(ch, v1, "E5"))
	e.clock.Advance(time.Minute)
	e.waitMoves("E5 and gobot's pass", ch.ID, 2)
	e.do(e.slash(ch, v1, "pass"))
	e.clock.Advance(time.Minute)
	a := e.archived(ch.ID, id)
	if a.Result != "B+73.5" || a.Rated {
		t.Errorf("archived %s (rated %v), want B+73.5 unrated: Black's lone stone owns the board", a.Result, a.Rated)
	}
	e.d.WaitFor("the count's announcement", func() bool {
		return len(e.publicWith(ch.ID, "Both sides passed: I count the position with the dead stones as I estimate them.")) > 0
	})
	// No scoring phase is shown: nobody could accept or resume for the
	// channel.
	for _, text := range []string{"Accept", "Resume play", "Please check", "Nobody changed the marking"} {
		if ms := e.publicWith(ch.ID, text); len(ms) > 0 {
			t.Errorf("a vote game's end showed a scoring phase: %q", ms[0].Text())
		}
	}
	// A vote sent just after the count, by anyone in the channel, is told
	// that the vote game ended, not that there is no game.
	ended := fmt.Sprintf("This channel's vote game ended <t:%d:R>: B+73.5. `/go board` shows it; `/go vote` starts another.", a.FinishedAt.Unix())
	late := e.d.NewUser("late")
	e.said(e.play(ch, late, "C3"), ended)
	e.said(e.slash(ch, v1, "pass"), ended)
}

// TestE2EVoteResignTyped: "resign" typed as a vote gets the answer
// /go resign gives in a vote game, not a pointer to /go resign and a
// Resign button, which refuse or do not exist there.
func TestE2EVoteResignTyped(t *testing.T) { httpMode(t, testE2EVoteResignTyped) }

func testE2EVoteResignTyped(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2 := e.d.NewUser("v1"), e.d.NewUser("v2")
	e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m")))
	const want = "Nobody resigns for the channel in a vote game: vote `pass`, and two passes end the game with a count. A moderator may abort it."
	if m := e.do(e.play(ch, v2, "resign")); !m.Ephemeral || m.Text() != want {
		t.Errorf("/go play move:resign: reply %q, want privately %q", m.Text(), want)
	}
	if m := e.do(e.slash(ch, v2, "resign")); !m.Ephemeral || m.Text() != want {
		t.Errorf("/go resign: reply %q, want privately %q", m.Text(), want)
	}
	// Nor does anyone mark dead stones: a voter is not told that they do
	// not play.
	e.refused(e.slash(ch, v2, "dead", discordtest.Str("point", "E5")), "A vote game has no marking of dead stones: two passes end it, and I count it at once with my own estimate.")
}

// TestE2ENotPlayingNamesBot: a spectator of a game against a bot is told
// who plays, the bot's level and colour in one pair of brackets.
func TestE2ENotPlayingNamesBot(t *testing.T) { httpMode(t, testE2ENotPlayingNamesBot) }

func testE2ENotPlayingNamesBot(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, carol := e.d.NewUser("alice"), e.d.NewUser("carol")
	e.do(e.botGame(ch, alice, "tester"))
	e.refused(e.slash(ch, carol, "pass"), "You are not playing in this game: it is gobot (tester, black) against "+alice.Mention()+" (white).")
}

// TestE2EVotesAtOnce: twelve people vote at the same moment; every vote is
// counted (a vote that finds the game just written by another is tried
// again, not refused).
func TestE2EVotesAtOnce(t *testing.T) { httpMode(t, testE2EVotesAtOnce) }

func testE2EVotesAtOnce(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	starter := e.d.NewUser("starter")
	e.do(e.slash(ch, starter, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1h")))
	var wg sync.WaitGroup
	replies := make([]discordtest.Message, 12)
	for i := range replies {
		u := e.d.NewUser(fmt.Sprintf("voter%d", i))
		move := []string{"D4", "E5", "C3"}[i%3]
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = e.do(e.play(ch, u, move))
		}()
	}
	wg.Wait()
	for i, m := range replies {
		if !strings.Contains(m.Text(), "🗳️ Your vote:") {
			t.Errorf("voter %d: %q", i, m.Text())
		}
	}
	counts, _ := e.game(ch.ID).Vote.Counts()
	if counts["D4"] != 4 || counts["E5"] != 4 || counts["C3"] != 4 {
		t.Errorf("counts after twelve votes at once = %v, want 4 each", counts)
	}
}

// TestE2EVoteBanAndTie: the ballots of people banned while the vote is
// open do not count when it closes; and a tie goes to the move that has
// held its count longest, not to one that lost a vote and won it back.
func TestE2EVoteBanAndTie(t *testing.T) { httpMode(t, testE2EVoteBanAndTie) }

func testE2EVoteBanAndTie(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	var v []discordtest.User
	for _, name := range []string{"eve", "dan", "cid", "v4", "v5"} {
		v = append(v, e.d.NewUser(name))
	}
	eve, dan, cid := v[0], v[1], v[2]
	e.do(e.slash(ch, eve, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	for _, b := range []struct {
		u    discordtest.User
		move string
	}{{eve, "E5"}, {dan, "D4"}, {cid, "E5"}} {
		if m := e.do(e.play(ch, b.u, b.move)); !strings.Contains(m.Text(), "🗳️ Your vote: **"+b.move+"**.") {
			t.Fatalf("%s votes %s: %q", b.u.Username, b.move, m.Text())
		}
	}
	for _, u := range []discordtest.User{eve, cid} {
		e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", u), discordtest.Str("reason", "trolling the vote")))
	}
	e.clock.Advance(time.Minute)
	e.waitMoves("the vote's move and gobot's answer", ch.ID, 2)
	want := "🗳️ The vote chose **D4**: 1 vote of 1 voter (dan)."
	e.d.WaitFor("the vote's announcement", func() bool { return len(e.publicWith(ch.ID, "🗳️ The vote chose")) > 0 })
	if got := e.publicWith(ch.ID, "🗳️ The vote chose")[0].Text(); !strings.HasPrefix(got, want) {
		t.Errorf("announcement = %q, want %q: the banned voters' E5 does not count", got, want)
	}

	// dan E5, v4 F5, and F5 2 at the third ballot; v4's change to G6 takes
	// it back to 1; E5 2 at the fifth ballot; v5 F5 brings it back to 2
	// only at the sixth. E5 has held 2 longer.
	for _, b := range []struct {
		u    discordtest.User
		move string
	}{{dan, "E5"}, {v[3], "F5"}, {e.d.NewUser("v6"), "F5"}, {v[3], "G6"}, {e.d.NewUser("v7"), "E5"}, {v[4], "F5"}} {
		e.do(e.play(ch, b.u, b.move))
	}
	e.clock.Advance(time.Minute)
	e.waitMoves("the second vote's move and gobot's answer", ch.ID, 4)
	want = "🗳️ The vote chose **E5**: 2 votes of 5 voters (dan, v7)."
	e.d.WaitFor("the second announcement", func() bool { return len(e.publicWith(ch.ID, "🗳️ The vote chose")) > 1 })
	if got := e.publicWith(ch.ID, "🗳️ The vote chose")[1].Text(); !strings.HasPrefix(got, want) {
		t.Errorf("announcement = %q, want %q", got, want)
	}
}

// TestE2EVoteNewestBoard: the votes show on the newest board, with its
// buttons and its note: a /go board asked for while gobot makes its first
// move, and one asked for in a round.
func TestE2EVoteNewestBoard(t *testing.T) { httpMode(t, testE2EVoteNewestBoard) }

func testE2EVoteNewestBoard(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2 := e.d.NewUser("v1"), e.d.NewUser("v2")
	e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "white")))
	e.thinking("slow")
	it := e.slash(ch, v2, "board")
	answer := make(chan discordtest.Message)
	go func() { answer <- e.do(it) }()
	e.d.WaitFor("/go board to wait for gobot's move", func() bool { m, ok := e.d.Original(it); return ok && m.Deferred })
	close(e.players.gate)
	first := <-answer
	e.kept(ch.ID, first.ID)
	deadline := e.game(ch.ID).Vote.Deadline.Unix()
	// shows is what board id shows now: its text and its buttons.
	shows := func(id string) (string, []string) {
		m, _ := e.d.Message(id)
		var labels []string
		for _, b := range m.Buttons() {
			labels = append(labels, b.Label)
		}
		return m.Text(), labels
	}
	check := func(id, votes string, buttons ...string) {
		t.Helper()
		text, labels := shows(id)
		for _, want := range []string{"⚫ gobot (slow) played **A9**.", fmt.Sprintf("🗳️ %s. The move is played <t:%d:R>.", votes, deadline)} {
			if !strings.Contains(text, want) {
				t.Errorf("board %s = %q, want it to say %q", id, text, want)
			}
		}
		if !slices.Equal(labels, buttons) {
			t.Errorf("board %s has the buttons %q, want %q", id, labels, buttons)
		}
	}
	check(first.ID, "No votes yet", "Vote pass")
	e.do(e.play(ch, v2, "D4"))
	e.do(e.play(ch, v1, "E4"))
	check(first.ID, "Votes: **D4** 1 · **E4** 1", "Vote D4", "Vote E4", "Vote pass")

	// A /go board in the round becomes the board the votes show on, and
	// the board it replaces says so, without the votes and their buttons.
	second := e.do(e.slash(ch, v2, "board"))
	e.kept(ch.ID, second.ID)
	check(second.ID, "Votes: **D4** 1 · **E4** 1", "Vote D4", "Vote E4", "Vote pass")
	e.d.WaitFor("the older board to close", func() bool {
		text, _ := shows(first.ID)
		return strings.Contains(text, "⚫ gobot (slow) played **A9**.\n🗳️ The vote goes on below, on the newest board.\n**Move 2**")
	})
	before, _ := e.d.Message(first.ID)
	if text, labels := shows(first.ID); len(labels) > 0 || strings.Contains(text, "The move is played") {
		t.Errorf("the replaced board = %q with the buttons %q, want neither the votes nor buttons", text, labels)
	}
	e.do(e.play(ch, e.d.NewUser("v3"), "E4"))
	check(second.ID, "Votes: **E4** 2 · **D4** 1", "Vote E4", "Vote D4", "Vote pass")
	if after, _ := e.d.Message(first.ID); after.Edits != before.Edits {
		t.Errorf("the older board was edited after the newer one was shown: %q", after.Text())
	}
}

// kept waits until the game in channelID has recorded board id, and, when
// id is the newest board of a vote open on its move, recorded it as the
// board that vote shows on (keepVoteBoard records the two one after the
// other: a vote cast between them is drawn on the board only afterwards).
func (e *env) kept(channelID, id string) {
	e.t.Helper()
	e.d.WaitFor("board "+id+" to be recorded", func() bool {
		g := e.game(channelID)
		ids := g.Delivery.MessageIDs
		if !slices.Contains(ids, id) {
			return false
		}
		if v := g.Vote; v != nil && ids[len(ids)-1] == id && v.Moves == g.State.MoveCount() {
			return v.Board == id
		}
		return true
	})
}

// TestE2EVoteEndedByModerator: a vote game a moderator aborts with its
// vote open keeps on its newest board the votes of the round and says the
// vote closed without a move, instead of the move to be played.
func TestE2EVoteEndedByModerator(t *testing.T) { httpMode(t, testE2EVoteEndedByModerator) }

func testE2EVoteEndedByModerator(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2, mod := e.d.NewUser("v1"), e.d.NewUser("v2"), e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator
	e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	e.do(e.play(ch, v1, "E5"))
	e.do(e.play(ch, v2, "E5"))
	id := e.board(ch.ID).ID
	e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "stop")))
	m, _ := e.d.Message(id)
	if want := "🗳️ Votes: **E5** 2. The game ended: the vote closed without a move.\n**Move 1** · ⚫ black: the vote has closed\n"; !strings.Contains(m.Text(), want) || strings.Contains(m.Text(), "The move is played") || strings.Contains(m.Text(), "to play") || len(m.Buttons()) > 0 {
		t.Errorf("the newest board after the abort = %q with %d buttons, want %q and no buttons", m.Text(), len(m.Buttons()), want)
	}
}

// TestE2EVoteBannedVoterShown: the vote of someone banned while it is open
// leaves the tally and the Vote buttons at once, as it will not count: on
// the board, in the answer to another vote and on the board page; lifting
// the ban before the close shows it again.
func TestE2EVoteBannedVoterShown(t *testing.T) { httpMode(t, testE2EVoteBannedVoterShown) }

func testE2EVoteBannedVoterShown(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	v1, v2, v3 := e.d.NewUser("v1"), e.d.NewUser("v2"), e.d.NewUser("v3")
	start := e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	e.do(e.click(v1, start, "Vote pass"))
	e.do(e.play(ch, v2, "D5"))
	if b := e.do(e.slash(ch, v1, "board")); !strings.Contains(b.Text(), "🗳️ Votes: **pass** 1 · **D5** 1.") {
		t.Fatalf("the board before the ban = %q, want both votes", b.Text())
	}
	e.do(e.adminCmd(ch, admin, "ban", discordtest.UserOpt("user", v2), discordtest.Str("reason", "x")))
	b := e.do(e.slash(ch, v1, "board"))
	if !strings.Contains(b.Text(), "🗳️ Votes: **pass** 1. The move is played <t:") {
		t.Errorf("the board after v2's ban = %q, want the tally without v2's D5", b.Text())
	}
	if _, ok := b.Button("Vote D5"); ok {
		t.Errorf("the board after v2's ban has a Vote D5 button, for v2's vote that does not count")
	}
	if m := e.do(e.play(ch, v3, "E5")); m.Text() != fmt.Sprintf("🗳️ Your vote: **E5**. Votes: **pass** 1 · **E5** 1. The move is played <t:%d:R>.", e.game(ch.ID).Vote.Deadline.Unix()) {
		t.Errorf("v3's vote = %q, want the tally without v2's D5", m.Text())
	}
	if v, err := e.app.View(context.Background(), ch.ID); err != nil || v.Votes == nil || v.Votes.Text != "Votes: pass 1 · E5 1" {
		t.Errorf("the board page's votes = %+v (%v), want them without v2's D5", v, err)
	}
	e.do(e.adminCmd(ch, admin, "unban", discordtest.UserOpt("user", v2)))
	if b := e.do(e.slash(ch, v1, "board")); !strings.Contains(b.Text(), "🗳️ Votes: **pass** 1 · **D5** 1 · **E5** 1.") {
		t.Errorf("the board after v2's unban = %q, want v2's D5 back", b.Text())
	}
}

// TestE2EVoteWhereGobotMayNotPost: a vote game posts each move when its
// vote closes, long after any command, so /go vote is refused at once,
// privately, in a channel where gobot may not post (Send Messages, or
// Send Messages in Threads in a thread); a bot game, which answers
// through the interaction, still starts there.
func TestE2EVoteWhereGobotMayNotPost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const want = "gobot may not post in this channel (it needs Send Messages here, or Send Messages in Threads in a thread), " +
		"and a vote game needs to: each move is posted when its vote closes, long after any command. " +
		"Ask the server's admins to let gobot send messages here, or start `/go vote` in a channel where it may."
	ch := e.d.GuildChannel("read-only")
	ch.AppPermissions = discordtest.PermViewChannel | discordtest.PermReadMessageHistory
	v := e.d.NewUser("v")
	e.refused(e.slash(ch, v, "vote", discordtest.Int("size", 9), discordtest.Str("period", "16m")), want)
	if g := e.game(ch.ID); g != nil {
		t.Fatalf("a refused vote game was stored: %+v", g)
	}
	// Send Messages in Threads alone does not do in a channel.
	ch.AppPermissions = discordtest.PermBot &^ discordtest.PermSendMessages
	e.refused(e.slash(ch, v, "vote", discordtest.Int("size", 9)), want)
	// A bot game answers through its interactions: it starts.
	if m := e.do(e.slash(ch, v, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9))); m.Ephemeral || !strings.Contains(m.Text(), "gobot tester") {
		t.Errorf("bot game where gobot may not post = %q (private %v), want it started", m.Text(), m.Ephemeral)
	}

	// In a thread, Send Messages in Threads is what counts.
	general := e.d.GuildChannel("general")
	ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(general, ann, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.do(e.click(bob, msg, "accept"))
	var th *discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		ts := e.d.Threads(general.ID)
		if len(ts) == 1 && e.game(ts[0].ID) != nil {
			th = ts[0]
			return true
		}
		return false
	})
	e.waitBoard(th.ID, "")
	th.AppPermissions = discordtest.PermBot &^ discordtest.PermSendMessagesInThreads
	e.refused(e.slash(th, v, "vote", discordtest.Int("size", 9)), want)
	// With Send Messages in Threads (and no Send Messages) the thread is
	// fine for gobot's posts: the refusal is the game running there.
	th.AppPermissions = discordtest.PermBot &^ discordtest.PermSendMessages
	e.refused(e.slash(th, v, "vote", discordtest.Int("size", 9)), "A game is already running in this channel, and a vote game needs a channel to itself")
}

// boardKeepHook is the store with hook run once, once armed, as a board
// message is about to be recorded (AddMessageID): after the board was
// posted, before the game knows it.
type boardKeepHook struct {
	commands.Store
	armed atomic.Bool
	hook  func()
}

func (h *boardKeepHook) AddMessageID(ctx context.Context, channelID, gameID, messageID string) error {
	if h.armed.CompareAndSwap(true, false) {
		h.hook()
	}
	return h.Store.AddMessageID(ctx, channelID, gameID, messageID)
}

// TestE2EVoteBeforeNewBoardKept: a vote cast after gobot's move was saved,
// but before its new board was recorded, is counted and shown on that new
// board once it is; the round's board before it, closed with the vote
// that chose the channel's move, stays closed. (The vote redrew the newest
// board recorded, the closed one, as an open board of the new round, and
// the new board said "No votes yet" until the next vote.)
func TestE2EVoteBeforeNewBoardKept(t *testing.T) { onBothStores(t, testE2EVoteBeforeNewBoardKept) }

func testE2EVoteBeforeNewBoardKept(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	v1, v2 := e.d.NewUser("v1"), e.d.NewUser("v2")
	hook := &boardKeepHook{}
	e.wrapStore = func(s commands.Store) commands.Store {
		hook.Store = s
		return hook
	}
	e.restart()
	e.do(e.slash(ch, v1, "vote", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("period", "1m"), discordtest.Str("color", "black")))
	e.do(e.play(ch, v1, "E5"))
	old := e.board(ch.ID)
	e.kept(ch.ID, old.ID)
	voted := make(chan discordtest.Message, 1)
	hook.hook = func() { voted <- e.do(e.play(ch, v2, "D4")) }
	hook.armed.Store(true)
	e.clock.Advance(time.Minute)
	if m := <-voted; !strings.Contains(m.Text(), "🗳️ Your vote: **D4**. Votes: **D4** 1.") {
		t.Fatalf("v2's vote before gobot's board was recorded = %q", m.Text())
	}
	const closed = "🗳️ Votes: **E5** 1. The vote chose **E5**."
	if m, _ := e.d.Message(old.ID); !strings.Contains(m.Text(), closed) || strings.Contains(m.Text(), "The move is played") || len(m.Buttons()) > 0 {
		t.Errorf("the closed board of round 1 after a vote of round 2 = %q with %d buttons, want it to say %q without buttons", m.Text(), len(m.Buttons()), closed)
	}
	var next discordtest.Message
	e.d.WaitFor("gobot's board, kept", func() bool {
		next = e.board(ch.ID)
		return next.ID != old.ID && strings.Contains(next.Text(), "**Move 3** · ") && slices.Contains(e.game(ch.ID).Delivery.MessageIDs, next.ID)
	})
	want := fmt.Sprintf("🗳️ Votes: **D4** 1. The move is played <t:%d:R>.", e.game(ch.ID).Vote.Deadline.Unix())
	e.d.WaitFor("gobot's board to show v2's vote", func() bool {
		m, _ := e.d.Message(next.ID)
		return strings.Contains(m.Text(), want)
	})
	if m, _ := e.d.Message(next.ID); !slices.ContainsFunc(m.Buttons(), func(b discordtest.Component) bool { return b.Label == "Vote D4" }) {
		t.Errorf("gobot's board %q has no Vote D4 button", m.Text())
	}
}
