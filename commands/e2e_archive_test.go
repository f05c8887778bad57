package commands_test

// End-to-end tests of finished games: the final message, /go sgf after the
// end, game: and its suggestions, /go replay, /go history, and who may see
// which game.

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// attachment returns m's attachment whose name ends with suffix.
func attachment(t *testing.T, m discordtest.Message, suffix string) discordtest.Attachment {
	t.Helper()
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Filename, suffix) {
			return a
		}
	}
	t.Fatalf("no %s attachment on %q (attachments %d)", suffix, m.Text(), len(m.Attachments))
	return discordtest.Attachment{}
}

// playOut plays moves (both colours from Black, passes included) between
// black and white in ch; the last answer is returned.
func (e *env) playOut(ch *discordtest.Channel, black, white discordtest.User, moves []string) discordtest.Message {
	e.t.Helper()
	return e.playOutTimed(ch, black, white, 0, moves)
}

// playOutTimed is playOut with the suite's clock advanced by step before
// each move, so that each player uses step of their clock per move.
func (e *env) playOutTimed(ch *discordtest.Channel, black, white discordtest.User, step time.Duration, moves []string) discordtest.Message {
	e.t.Helper()
	var last discordtest.Message
	for i, mv := range moves {
		who := black
		if i%2 == 1 {
			who = white
		}
		e.clock.Advance(step)
		it := e.play(ch, who, mv)
		if mv == "pass" {
			it = e.slash(ch, who, "pass")
		}
		if last = e.do(it); last.Ephemeral {
			e.t.Fatalf("move %d %s refused: %q", i, mv, last.Text())
		}
	}
	return last
}

// resignedGame has black challenge white in ch on 9×9 and resign at once;
// it returns the game's ID.
func (e *env) resignedGame(ch *discordtest.Channel, black, white discordtest.User) string {
	e.t.Helper()
	e.startGame(ch, black, white, 9)
	id := e.game(ch.ID).ID
	if m := e.do(e.slash(ch, black, "resign")); m.Ephemeral {
		e.t.Fatalf("resign refused: %q", m.Text())
	}
	return id
}

func TestE2EFinishedGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := scoringCases()[0] // B+73.5
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.refused(e.slash(ch, alice, "sgf"), "No game has been played to the end in this channel yet")
	e.startGame(ch, alice, bob, 9)
	id := e.game(ch.ID).ID
	scoring := e.playOut(ch, alice, bob, c.moves)
	after := e.do(e.click(alice, scoring, "accept"))
	final := e.do(e.click(bob, after, "accept"))

	// The final message shows the counted board and carries the record.
	if _, ok := final.PNG(); !ok {
		t.Errorf("the final message has no board picture")
	}
	a, err := e.store.ArchivedGame(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got := attachment(t, final, ".sgf"); !bytes.Equal(got.Data, a.SGF) || !bytes.Contains(got.Data, []byte("RE[B+73.5]")) {
		t.Errorf("the final message's SGF is not the archived record with RE[B+73.5]:\n%s", got.Data)
	}

	// /go sgf after the end: the last game finished here.
	m := e.do(e.slash(ch, carol, "sgf"))
	if m.Ephemeral {
		t.Fatalf("/go sgf after the end refused: %q", m.Text())
	}
	if got := attachment(t, m, ".sgf"); !bytes.Equal(got.Data, a.SGF) {
		t.Errorf("/go sgf after the end attached %q, want the archived record", got.Data)
	}
	if !strings.Contains(m.Text(), "B+73.5") {
		t.Errorf("/go sgf answer %q does not give the result", m.Text())
	}
	// With game:ID, and from another channel of the same server.
	other := e.d.GuildChannel("other")
	m = e.do(e.slash(other, carol, "sgf", discordtest.Str("game", id)))
	if got := attachment(t, m, ".sgf"); !bytes.Equal(got.Data, a.SGF) {
		t.Errorf("/go sgf game:%s attached %q", id, got.Data)
	}
	// Suggestions: the user's recent games, labelled.
	e.clock.Advance(50 * time.Hour)
	r := e.d.Do(e.d.Autocomplete(other, alice, "go", discordtest.Sub("sgf", discordtest.Focused("game", ""))))
	if len(r.Choices) != 1 || r.Choices[0].Name != "vs @bob · 9×9 · B+73.5 · 2 d ago" || r.Choices[0].Value != id {
		t.Errorf("game: suggestions for alice = %+v, want one labelled %q", r.Choices, "vs @bob · 9×9 · B+73.5 · 2 d ago")
	}
	r = e.d.Do(e.d.Autocomplete(other, alice, "go", discordtest.Sub("replay", discordtest.Focused("game", "carol"))))
	if len(r.Choices) != 0 {
		t.Errorf("game: suggestions for %q = %+v, want none", "carol", r.Choices)
	}
	// Replay: the animated GIF of the last game finished here.
	m = e.do(e.slash(ch, carol, "replay"))
	if got := attachment(t, m, ".gif"); !bytes.HasPrefix(got.Data, []byte("GIF89a")) {
		t.Errorf("/go replay attached no GIF: %q", m.Text())
	}

	// Bad input and other people's games.
	e.refused(e.slash(ch, carol, "sgf", discordtest.Str("game", "12345")), "There is no finished game with ID `12345`")
	elsewhere := e.d.OtherGuildChannel("999999999999999999", "elsewhere")
	e.refused(e.slash(elsewhere, carol, "sgf", discordtest.Str("game", id)), "was played on another server")
	e.refused(e.slash(elsewhere, carol, "replay", discordtest.Str("game", id)), "was played on another server")
	// Alice played it: she may get it from anywhere, but on another server
	// it is shown to her alone (its people may not see that server's games).
	if m := e.do(e.slash(elsewhere, alice, "sgf", discordtest.Str("game", id))); !m.Ephemeral || !bytes.Equal(attachment(t, m, ".sgf").Data, a.SGF) {
		t.Errorf("alice's own game from another server: %q (ephemeral %v), want its record, to her alone", m.Text(), m.Ephemeral)
	}
	if m := e.do(e.slash(elsewhere, alice, "replay", discordtest.Str("game", id))); !m.Ephemeral || !bytes.HasPrefix(attachment(t, m, ".gif").Data, []byte("GIF89a")) {
		t.Errorf("alice's replay from another server: %q (ephemeral %v), want the GIF, to her alone", m.Text(), m.Ephemeral)
	}
	if m := e.do(e.slash(elsewhere, alice, "sgf", discordtest.Str("game", id), discordtest.Bool("animation", true))); !m.Ephemeral || len(m.Attachments) != 2 {
		t.Errorf("alice's record and animation from another server: %q (ephemeral %v, %d files), want both, to her alone", m.Text(), m.Ephemeral, len(m.Attachments))
	}
	if m := e.do(e.slash(elsewhere, alice, "estimate", discordtest.Str("game", id))); !m.Ephemeral || !strings.Contains(m.Text(), "B+73.5") {
		t.Errorf("alice's count from another server: %q (ephemeral %v), want B+73.5, to her alone", m.Text(), m.Ephemeral)
	}
	// A DM game is seen by its players only.
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.botGame(dm, dave, "tester"))
	dmID := e.game(dm.ID).ID
	e.do(e.slash(dm, dave, "resign"))
	e.refused(e.slash(ch, carol, "sgf", discordtest.Str("game", dmID)), "Game `"+dmID+"` was played in private messages, and not by you: you can get the games you played and the games of this server.")
	e.refused(e.slash(e.d.DM(carol), carol, "review", discordtest.Str("game", dmID)), "Game `"+dmID+"` was played in private messages, and not by you: you can get the games you played, and on a server that server's games.")
	e.refused(e.slash(e.d.DM(carol), carol, "sgf", discordtest.Str("game", id)), "Game `"+id+"` was played on a server: you can get the games you played, and on a server that server's games.")
	if m := e.do(e.slash(dm, dave, "sgf")); m.Ephemeral || !strings.Contains(m.Text(), "B+R") {
		t.Errorf("/go sgf in the DM after the end = %q", m.Text())
	}
	// Dave may get it on a server, to himself alone.
	if m := e.do(e.slash(ch, dave, "sgf", discordtest.Str("game", dmID))); !m.Ephemeral || !strings.Contains(m.Text(), "B+R") {
		t.Errorf("dave's DM game asked for on a server: %q (ephemeral %v), want its record, to him alone", m.Text(), m.Ephemeral)
	}
}

func TestE2EHistory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	var ids []string
	for i := range 12 {
		black, white := alice, bob
		if i%3 == 2 {
			black, white = bob, alice
		}
		ids = append(ids, e.resignedGame(ch, black, white))
		e.clock.Advance(time.Minute)
	}
	// One more game of alice's, on another server, which carol may not see.
	elsewhere := e.d.OtherGuildChannel("999999999999999999", "elsewhere")
	hidden := e.resignedGame(elsewhere, alice, bob)

	m := e.do(e.slash(ch, alice, "history"))
	if !m.Ephemeral {
		t.Errorf("/go history is public")
	}
	text := m.Text()
	for _, want := range []string{"`1.` ⚫ lost vs <@" + bob.ID + "> · 9×9 · W+R", "`" + hidden + "`", "Page 1 of 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("history page 1 = %q, want it to say %q", text, want)
		}
	}
	if strings.Count(text, "vs <@") != 10 {
		t.Errorf("history page 1 lists %d games, want 10", strings.Count(text, "vs <@"))
	}
	if b := mustButton(t, m, "previous"); !b.Disabled {
		t.Errorf("Previous is enabled on page 1")
	}
	page2 := e.do(e.click(alice, m, "next"))
	for _, want := range []string{"`11.`", "`13.`", "`" + ids[0] + "`", "Page 2 of 2"} {
		if !strings.Contains(page2.Text(), want) {
			t.Errorf("history page 2 = %q, want it to say %q", page2.Text(), want)
		}
	}
	if b := mustButton(t, page2, "next"); !b.Disabled {
		t.Errorf("Next is enabled on the last page")
	}
	back := e.do(e.click(alice, page2, "previous"))
	if !strings.Contains(back.Text(), "Page 1 of 2") {
		t.Errorf("Previous from page 2 shows %q", back.Text())
	}
	// Each entry fetches its record.
	rec := e.do(e.click(alice, page2, "SGF 13"))
	a, _ := e.store.ArchivedGame(context.Background(), ids[0])
	if got := attachment(t, rec, ".sgf"); !rec.Ephemeral || !bytes.Equal(got.Data, a.SGF) {
		t.Errorf("SGF 13 attached %q (ephemeral %v), want game %s's record", got.Data, rec.Ephemeral, ids[0])
	}
	// Carol sees alice's games of this server only: 12, on two pages.
	cm := e.do(e.slash(ch, carol, "history", discordtest.UserOpt("player", alice)))
	if strings.Contains(cm.Text(), hidden) || !strings.Contains(cm.Text(), "Page 1 of 2") || !strings.HasSuffix(cm.Text(), "\n-# 1 game on other servers, in DMs or in private channels is not listed to you.") {
		t.Errorf("carol's view of alice's history = %q, want 12 games without %s, and a word for it", cm.Text(), hidden)
	}
	if strings.Contains(m.Text(), "not listed") {
		t.Errorf("alice's own history = %q: nothing of hers is hidden from her", m.Text())
	}
	// Her record counts all 13 games; its list says why it shows fewer.
	if st := e.do(e.slash(ch, carol, "stats", discordtest.UserOpt("player", alice))); !strings.Contains(st.Text(), "**13 games**") || !strings.HasSuffix(st.Text(), "\n-# 1 game on other servers, in DMs or in private channels is not listed to you.\n") {
		t.Errorf("carol's /go stats of alice = %q", st.Text())
	}
	if st := e.do(e.slash(ch, alice, "stats")); strings.Contains(st.Text(), "not listed") {
		t.Errorf("alice's own stats = %q: nothing of hers is hidden from her", st.Text())
	}
	cm = e.do(e.slash(ch, carol, "history", discordtest.UserOpt("player", alice), discordtest.Int("page", 2)))
	if strings.Count(cm.Text(), "vs <@") != 2 {
		t.Errorf("carol's page 2 of alice lists %d games, want 2: %q", strings.Count(cm.Text(), "vs <@"), cm.Text())
	}
	e.refused(e.slash(ch, alice, "history", discordtest.Int("page", 3)), "There is no page 3: <@"+alice.ID+"> has 2 pages")
	e.refused(e.slash(ch, carol, "history"), "You have not finished a game yet.")
	e.refused(e.d.Click(carol, m, "sgf/"+hidden), "was played on another server")
	e.refused(e.slash(ch, carol, "history", discordtest.UserOpt("player", alice), discordtest.Int("page", 3)), "There is no page 3: <@"+alice.ID+"> has 2 pages of games you can see")
	// In a DM there is no server whose games carol could see.
	e.refused(e.slash(e.d.DM(carol), carol, "history", discordtest.UserOpt("player", alice)),
		"<@"+alice.ID+"> has no finished game you can see here (your own games with them; in a server, its games too).")
}

// TestE2EThreadPermission: in a channel where the bot may not create
// threads, a thread:true challenge is refused at once, to the challenger,
// from the interaction's app_permissions; nothing is stored or posted.
func TestE2EThreadPermission(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("no-threads")
	ch.AppPermissions = discordtest.PermBot &^ discordtest.PermCreatePublicThreads
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true))
	e.refused(it, "I may not create threads in this channel (I need Create Public Threads and Send Messages in Threads)")
	if _, err := e.store.Challenge(context.Background(), it.ID); err == nil {
		t.Errorf("the refused challenge was stored")
	}
	// Without thread: the challenge goes ahead in the channel.
	if m := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9))); m.Ephemeral {
		t.Errorf("a challenge without thread: was refused: %q", m.Text())
	}

	// Threads refused only when bob accepts: he is told that alice, not
	// he, can challenge again, and the challenge stays open.
	open := e.d.GuildChannel("threads-later")
	msg := e.newChallenge(e.slash(open, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Bool("thread", true)))
	e.d.Fail(http.MethodPost, "/channels/{channel_id}/threads", http.StatusForbidden, 1)
	e.refused(e.click(bob, msg, "accept"), "I may not create threads here (I need Create Public Threads and Send Messages in Threads), so this game cannot start in a thread of its own. The challenge stays open: "+alice.Mention()+" can challenge again with `thread:false` to play here.")
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game in its thread", func() bool { return len(e.d.Threads(open.ID)) == 1 })
}

// TestE2EStatsOnlyAborted: a player whose only game was aborted has no
// counted game, and /go stats says so and where the game is, rather than
// that they never finished one.
func TestE2EStatsOnlyAborted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.startGame(ch, alice, bob, 9)
	confirm := e.do(e.slash(ch, bob, "abort"))
	e.do(e.click(bob, confirm, "abort"))
	m := e.do(e.slash(ch, alice, "stats"))
	if want := alice.Mention() + " has no counted game of Go yet: 1 game annulled or aborted, which `/go history` lists."; m.Text() != want || !m.Ephemeral {
		t.Errorf("/go stats = %q (ephemeral %v), want %q", m.Text(), m.Ephemeral, want)
	}
	if h := e.do(e.slash(ch, alice, "history")); !strings.Contains(h.Text(), "⚫ aborted vs "+bob.Mention()) {
		t.Errorf("/go history = %q, want the aborted game", h.Text())
	}
	// /go board says what became of it, not "no result".
	if b := e.do(e.slash(ch, alice, "board")); !strings.Contains(b.Text(), "**Game over: aborted, not counted · Void**") {
		t.Errorf("/go board after the abort = %q, want it aborted", b.Text())
	}
}

// TestE2ELastGameOfItsKind: without game:, /go sgf and /draughts record
// take the last game of their own kind finished in the channel: after a
// Go game then a game of draughts there, /go sgf gives the Go game's SGF
// (it gave the draughts game's PDN, and /go review refused "is a game of
// international draughts"), /draughts record the draughts game's PDN, and
// /go board and /draughts board show each its own.
func TestE2ELastGameOfItsKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	goID := e.resignedGame(ch, alice, bob)
	e.do(e.click(bob, e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))), "accept"))
	dID := e.game(ch.ID).ID
	if m := e.do(e.draughtsCmd(ch, alice, "resign")); m.Ephemeral {
		t.Fatalf("draughts resign refused: %q", m.Text())
	}
	for _, c := range []struct {
		it       *discordtest.Interaction
		id, file string
	}{
		{e.slash(ch, alice, "sgf"), goID, goID + ".sgf"},
		{e.draughtsCmd(ch, alice, "record"), dID, dID + ".pdn"},
	} {
		m := e.do(c.it)
		if len(m.Attachments) != 1 || !strings.HasSuffix(m.Attachments[0].Filename, c.file) {
			t.Errorf("the record without game: = %q with %d attachments, want %s", m.Text(), len(m.Attachments), c.file)
		}
	}
	// /go board shows the Go game, which finished before the draughts
	// one: the last game of its kind, as /go sgf takes.
	// (The draughts challenge drew the colours: bob won with either.)
	for _, c := range []struct {
		it   *discordtest.Interaction
		want []string
	}{
		{e.slash(ch, bob, "board"), []string{"The last game of Go in this channel ended <t:1748779200:R> after 0 moves; `/go challenge` or `/go bot` starts a new one.\n**Game over: ⚪ " + bob.Mention() + " wins by resignation · W+R**"}},
		{e.draughtsCmd(ch, bob, "board"), []string{
			"The last game of draughts in this channel ended <t:1748779200:R> after 0 moves; `/draughts challenge` or `/draughts bot` starts a new one.\n**Game over: ⚪ white " + bob.Mention() + " wins by resignation · 2-0**",
			"The last game of draughts in this channel ended <t:1748779200:R> after 0 moves; `/draughts challenge` or `/draughts bot` starts a new one.\n**Game over: ⚫ black " + bob.Mention() + " wins by resignation · 0-2**",
		}},
	} {
		m := e.do(c.it)
		if m.Ephemeral || !slices.ContainsFunc(c.want, func(w string) bool { return strings.Contains(m.Text(), w) }) {
			t.Errorf("the board of the last game (private %v) =\n%s\nwant one of %q", m.Ephemeral, m.Text(), c.want)
		}
	}
}

// TestE2ERecordBesideOtherKind: /go sgf beside a game of draughts in play
// gives the last Go game finished here, not the draughts game's PDN, and
// /draughts record beside a Go game in play, with no draughts game
// finished there, says which command gives that game's record.
func TestE2ERecordBesideOtherKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch, lobby := e.d.GuildChannel("general"), e.d.GuildChannel("lobby")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	goID := e.resignedGame(ch, alice, bob)
	e.do(e.click(bob, e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))), "accept"))
	dID := e.game(ch.ID).ID
	for _, c := range []struct {
		it   *discordtest.Interaction
		file string
	}{
		{e.slash(ch, alice, "sgf"), goID + ".sgf"},
		{e.draughtsCmd(ch, alice, "record"), dID + ".pdn"},
	} {
		m := e.do(c.it)
		if len(m.Attachments) != 1 || !strings.HasSuffix(m.Attachments[0].Filename, c.file) {
			t.Errorf("the record beside a game in play = %q with %d attachments, want %s", m.Text(), len(m.Attachments), c.file)
		}
	}
	e.startGame(lobby, alice, bob, 9)
	e.waitBoard(lobby.ID, "")
	e.refused(e.draughtsCmd(lobby, bob, "record"), "The game in this channel is Go: `/go sgf` gives its record. No game of international draughts has been played to the end here; name one with `game:`.")
}

// TestE2EPrivateChannelGames: the games of a private channel (@everyone
// denied View Channel) are not shown to the server at large: not listed
// by someone else's /go history or /go stats asked elsewhere, refused by
// /go sgf game: outside the channel, and sent privately to their own
// player, or to a member whose role may read the channel, who asks for
// one elsewhere. In the channel itself they are shown as any game. They
// were listed, and posted publicly anywhere on the server.
func TestE2EPrivateChannelGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const staffRole = "900000000000000077"
	games, staff := e.d.GuildChannel("games"), e.d.PrivateGuildChannel("staff", staffRole)
	ann, eve := e.d.NewUser("ann"), e.d.NewUser("eve")
	mod := e.d.NewUser("mod")
	mod.Role = staffRole
	if m := e.do(e.botGame(staff, ann, "tester")); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	id := e.game(staff.ID).ID
	if m := e.do(e.slash(staff, ann, "resign")); m.Ephemeral {
		t.Fatalf("resign refused: %q", m.Text())
	}
	e.refused(e.slash(games, eve, "history", discordtest.UserOpt("player", ann)), ann.Mention()+" has no finished game you can see (your own games with them, or games of this server outside its private channels).")
	// With a game of #games too, that one is listed, the other counted.
	e.do(e.botGame(games, ann, "tester"))
	open := e.game(games.ID).ID
	e.do(e.slash(games, ann, "resign"))
	if m := e.do(e.slash(games, eve, "history", discordtest.UserOpt("player", ann))); strings.Contains(m.Text(), id) || !strings.Contains(m.Text(), open) ||
		!strings.HasSuffix(m.Text(), "\n-# 1 game on other servers, in DMs or in private channels is not listed to you.") {
		t.Errorf("eve's /go history of ann in #games, want %s listed and %s counted as not listed:\n%s", open, id, m.Text())
	}
	if m := e.do(e.slash(staff, eve, "history", discordtest.UserOpt("player", ann))); !strings.Contains(m.Text(), id) {
		t.Errorf("eve's /go history of ann in #staff does not list its game %s:\n%s", id, m.Text())
	}
	e.refused(e.slash(games, eve, "sgf", discordtest.Str("game", id)), "Game `"+id+"` was played in a private channel of this server that you cannot read, and not by you: its games are shown to those who can read it.")
	// A member whose role lets them read the channel sees its games from
	// anywhere, privately (the others here may not read it).
	if m := e.do(e.slash(games, mod, "history", discordtest.UserOpt("player", ann))); !strings.Contains(m.Text(), id) {
		t.Errorf("mod's /go history of ann in #games, with a role that reads #staff, does not list %s:\n%s", id, m.Text())
	}
	if m := e.do(e.slash(games, mod, "sgf", discordtest.Str("game", id))); !m.Ephemeral || len(m.Attachments) != 1 {
		t.Errorf("mod's /go sgf of the #staff game in #games (private %v, %d attachments): %q, want it to them alone", m.Ephemeral, len(m.Attachments), m.Text())
	}
	if m := e.do(e.slash(staff, eve, "sgf", discordtest.Str("game", id))); m.Ephemeral || len(m.Attachments) != 1 {
		t.Errorf("eve's /go sgf in #staff itself (private %v, %d attachments): %q", m.Ephemeral, len(m.Attachments), m.Text())
	}
	if m := e.do(e.slash(games, ann, "sgf", discordtest.Str("game", id))); !m.Ephemeral || len(m.Attachments) != 1 {
		t.Errorf("ann's /go sgf of her #staff game in #games (private %v, %d attachments): %q, want it to her alone", m.Ephemeral, len(m.Attachments), m.Text())
	}
	// A deleted channel's games are the server's again, as before channels
	// were looked at: Discord answers 404 for it.
	gone := e.d.GuildChannel("gone")
	e.do(e.botGame(gone, ann, "tester"))
	goneID := e.game(gone.ID).ID
	e.do(e.slash(gone, ann, "resign"))
	e.d.DeleteChannel(gone.ID)
	if m := e.do(e.slash(games, eve, "history", discordtest.UserOpt("player", ann))); !strings.Contains(m.Text(), goneID) || strings.Contains(m.Text(), id) {
		t.Errorf("eve's /go history of ann in #games, want the deleted channel's game %s listed, not #staff's %s:\n%s", goneID, id, m.Text())
	}
}
