package commands_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// The clocks, end to end: loss on time (with the bot stopped across the
// deadline, too), the reminder, and a clock option that does not parse.
// Every wait is on the suite's clock: the tests move it, the bot's
// scheduler wakes on it.

// publicWith returns the public messages in a channel whose text contains s.
func (e *env) publicWith(channelID, s string) []discordtest.Message {
	var out []discordtest.Message
	for _, m := range e.d.Public(channelID) {
		if strings.Contains(m.Text(), s) {
			out = append(out, m)
		}
	}
	return out
}

// archived waits for the game to be archived and returns it.
func (e *env) archived(channelID, id string) *storage.Archived {
	e.t.Helper()
	e.d.WaitFor("the game to end", func() bool { return e.game(channelID) == nil })
	a, err := e.store.ArchivedGame(context.Background(), id)
	if err != nil {
		e.t.Fatalf("ArchivedGame(%s) = %v", id, err)
	}
	return a
}

func TestE2ELossOnTime(t *testing.T) { httpMode(t, testE2ELossOnTime) }

// absoluteGame starts a game of black against white in ch on an absolute
// clock of 15 s, and returns its first board and the game once that board
// is recorded with it.
func (e *env) absoluteGame(ch *discordtest.Channel, black, white discordtest.User) (discordtest.Message, *storage.Game) {
	e.t.Helper()
	first := e.challenge(ch, black, white, discordtest.Str("clock", "absolute 15s"))
	var g *storage.Game
	e.d.WaitFor("the first board to be recorded with the game", func() bool {
		g = e.game(ch.ID)
		return len(g.Delivery.MessageIDs) == 1 && g.Delivery.MessageIDs[0] == first.ID
	})
	return first, g
}

func testE2ELossOnTime(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	first, g := e.absoluteGame(ch, alice, bob)
	deadline := e.clock.Now().Add(15 * time.Second)
	if got := g.Clock.Deadline(); !got.Equal(deadline) {
		t.Fatalf("Black's deadline = %v, want %v: 15 s from the start", got, deadline)
	}
	// The board shows both clocks and Black's deadline for Discord to count down.
	for _, want := range []string{"⏱ ⚫ 15 s · ⚪ 15 s", fmt.Sprintf("⚫ black's time runs out <t:%d:R>", deadline.Unix()), "absolute: 15 s for the whole game"} {
		if !strings.Contains(first.Text(), want) {
			t.Errorf("first board %q does not say %q", first.Text(), want)
		}
	}

	// Black never moves.
	e.clock.Advance(14 * time.Second)
	e.alive()
	if e.game(ch.ID) == nil {
		t.Fatalf("the game ended a second before Black's deadline")
	}
	e.clock.Advance(time.Second)
	a := e.archived(ch.ID, g.ID)
	// The archive keeps how it ended; the record, which other programs
	// read, has no result (RE[Void]): they would count W+T as a win.
	if a.Result != "W+T" || !a.Annulled || !strings.Contains(string(a.SGF), "RE[Void]") || strings.Contains(string(a.SGF), "RE[W+T]") {
		t.Errorf("archived %s annulled=%v, SGF %s; want W+T, annulled (Black made no move), RE[Void]", a.Result, a.Annulled, a.SGF)
	}
	if !a.FinishedAt.Equal(deadline) {
		t.Errorf("finished at %v, want the deadline %v", a.FinishedAt, deadline)
	}
	want := fmt.Sprintf("⌛ ⚫ %s ran out of time <t:%d:R>. They had not made two moves of their own, so the game against ⚪ %s is annulled: it is recorded, but it does not count.", alice.Mention(), deadline.Unix(), bob.Mention())
	var ann []discordtest.Message
	e.d.WaitFor("the announcement", func() bool { ann = e.publicWith(ch.ID, "ran out of time"); return len(ann) > 0 })
	if len(ann) != 1 || !strings.Contains(ann[0].Text(), want) || !strings.Contains(ann[0].Text(), "**Game over: annulled on time, not counted**") {
		t.Errorf("announcements %d, the first %q; want one saying %q and the result", len(ann), ann[0].Text(), want)
	}
	// So does its picture's description, for screen readers: no winner.
	if png, ok := ann[0].PNG(); !ok || png.Description != "alice (black) vs bob (white). 9×9 board, game over, annulled on time, not counted" || strings.Contains(png.Description, "wins") {
		t.Errorf("the announcement's board description = %q, want it annulled on time, naming no winner", png.Description)
	}
	// Its record says so, as /go sgf's does.
	var rec string
	for _, f := range ann[0].Attachments {
		if strings.HasSuffix(f.Filename, ".sgf") {
			rec = string(f.Data)
		}
	}
	if !strings.Contains(rec, "C[Annulled: ") || !strings.Contains(rec, "RE[Void]") || strings.Contains(rec, "RE[W+T]") {
		t.Errorf("the announcement's record %q does not say the game was annulled, with no result (RE[Void])", rec)
	}
	e.d.WaitFor("the first board's buttons to be removed", func() bool {
		m, _ := e.d.Message(first.ID)
		return len(m.Buttons()) == 0
	})
	if _, err := e.store.PlayerStats(context.Background(), alice.ID); err == nil {
		t.Errorf("an annulled game counts in alice's statistics")
	}
	// It is listed, and recorded, as annulled, not as a loss.
	if want := "C[Annulled: alice (black) ran out of time before making two moves of their own; the game is recorded but does not count.]"; !strings.Contains(string(a.SGF), want) {
		t.Errorf("archived SGF %s has no root comment %s", a.SGF, want)
	}
	if h := e.do(e.slash(ch, alice, "history")).Text(); !strings.Contains(h, "⚫ annulled vs "+bob.Mention()+" · 9×9 · on time · not counted") {
		t.Errorf("/go history = %q, want the game listed as annulled", h)
	}
	// gobot reads its record (RE[Void]) back as annulled on time.
	if b := e.do(e.slash(ch, alice, "board")).Text(); !strings.Contains(b, "**Game over: annulled on time, not counted**") {
		t.Errorf("/go board after the game = %q, want it annulled on time", b)
	}
	// Nor does any other view give it a winner: the suggestions of a
	// record, nor an admin's annul refused to a player of it.
	if r := e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("sgf", discordtest.Focused("game", "")))); len(r.Choices) != 1 || !strings.HasPrefix(r.Choices[0].Name, "vs @bob · 9×9 · annulled on time · ") {
		t.Errorf("/go sgf's suggestions = %+v, want the game annulled on time", r.Choices)
	}
	admin := alice
	admin.Permissions = discordtest.PermServerAdmin
	e.refused(e.adminCmd(ch, admin, "annul", discordtest.Str("game", a.ID), discordtest.Str("reason", "x")),
		"You played in the game `"+a.ID+"` (⚫ alice vs ⚪ bob, annulled on time), so you cannot annul it")

	// Two moves each, then Black runs out: a loss on time that counts.
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	g = e.game(ch.ID)
	e.playOutTimed(ch, alice, bob, time.Second, []string{"C3", "G7", "C7", "G3"})
	ranOut := e.clock.Now().Add(13 * time.Second)
	e.clock.Advance(13 * time.Second) // alice: 2 s used, 13 s left
	a = e.archived(ch.ID, g.ID)
	if a.Result != "W+T" || a.Annulled {
		t.Errorf("second game %s annulled=%v, want W+T that counts", a.Result, a.Annulled)
	}
	e.d.WaitFor("the second announcement", func() bool {
		return len(e.publicWith(ch.ID, "**Game over: ⚪ "+bob.Mention()+" wins on time · W+T**")) == 1
	})
	// Both players are told, the winner too: nobody may be watching.
	ann = e.publicWith(ch.ID, "**Game over: ⚪ "+bob.Mention()+" wins on time · W+T**")
	if want := fmt.Sprintf("⌛ ⚫ %s ran out of time <t:%d:R>: ⚪ %s wins.", alice.Mention(), ranOut.Unix(), bob.Mention()); !strings.Contains(ann[0].Text(), want) ||
		!slices.Contains(ann[0].Pings, alice.ID) || !slices.Contains(ann[0].Pings, bob.ID) {
		t.Errorf("the loss on time reads %q, pinging %v; want %q, pinging both players", ann[0].Text(), ann[0].Pings, want)
	}
	// The record has the clock and each player's time after each move.
	for _, want := range []string{"RE[W+T]TM[15]", ";B[cg]BL[14]", ";W[gc]WL[14]", ";B[cc]BL[13]", ";W[gg]WL[13]"} {
		if !strings.Contains(string(a.SGF), want) {
			t.Errorf("SGF does not contain %s:\n%s", want, a.SGF)
		}
	}
	if st, err := e.store.PlayerStats(context.Background(), alice.ID); err != nil || st.Losses != 1 || st.Games != 1 {
		t.Errorf("alice's statistics %+v, %v; want one game, lost", st, err)
	}
}

// TestE2ELossOnTimeOutage: the bot is down across Black's deadline. The
// outage is credited (nobody loses while they could not move), then the
// game ends on time.
func TestE2ELossOnTimeOutage(t *testing.T) { httpMode(t, testE2ELossOnTimeOutage) }

func testE2ELossOnTimeOutage(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	id := e.game(ch.ID).ID
	start := e.clock.Now()
	e.clock.Advance(5 * time.Second)
	e.stop() // Black has 10 s left
	e.clock.Advance(time.Minute)
	e.start() // a minute down: past the deadline, but credited
	g := e.game(ch.ID)
	if g == nil {
		t.Fatalf("the game ended on time while the bot was down")
	}
	want := start.Add(15*time.Second + time.Minute)
	if got := g.Clock.Deadline(); !got.Equal(want) {
		t.Errorf("deadline after the outage = %v, want %v (the minute down given back)", got, want)
	}
	e.clock.Advance(9 * time.Second)
	e.alive()
	if e.game(ch.ID) == nil {
		t.Fatalf("the game ended before the credited deadline")
	}
	e.clock.Advance(time.Second)
	a := e.archived(ch.ID, id)
	// Black made no move: annulled, with no result in the record.
	if a.Result != "W+T" || !a.Annulled || !strings.Contains(string(a.SGF), "RE[Void]") {
		t.Errorf("archived %s annulled=%v, SGF %s; want W+T, annulled, RE[Void]", a.Result, a.Annulled, a.SGF)
	}
	if !a.FinishedAt.Equal(want) {
		t.Errorf("finished at %v, want the credited deadline %v", a.FinishedAt, want)
	}
	e.d.WaitFor("the announcement", func() bool { return len(e.publicWith(ch.ID, "ran out of time")) == 1 })
}

// TestE2EReminder: a correspondence player is mentioned once, in the
// game's channel, when a quarter of their time for the move is left.
func TestE2EReminder(t *testing.T) { httpMode(t, testE2EReminder) }

func testE2EReminder(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame() // the default clock: correspondence
	g := e.game(ch.ID)
	if g.Clock == nil || g.Clock.Control.Name() != "correspondence" {
		t.Fatalf("a challenge without clock: has clock %+v, want correspondence", g.Clock)
	}
	const reminder = "⏰ "
	// Alice has 3 days for her first move: reminded with 18 hours left.
	e.clock.Advance(53 * time.Hour)
	e.alive()
	if n := len(e.publicWith(ch.ID, reminder)); n != 0 {
		t.Fatalf("%d reminders 19 hours before the quarter mark", n)
	}
	e.clock.Advance(time.Hour)
	var got []discordtest.Message
	e.d.WaitFor("the reminder", func() bool { got = e.publicWith(ch.ID, reminder); return len(got) > 0 })
	deadline := g.Clock.Deadline()
	want := fmt.Sprintf("⏰ %s, it is your move in ⚫ alice vs ⚪ bob (⚫ black): a quarter of your time for it is left, and your clock runs out <t:%d:R>.", alice.Mention(), deadline.Unix())
	if got[0].Text() != want {
		t.Errorf("reminder = %q, want %q", got[0].Text(), want)
	}
	// Once per move.
	e.clock.Advance(time.Hour)
	e.alive()
	e.d.WaitFor("the reminder to be recorded", func() bool { return e.game(ch.ID).Clock.Reminded })
	if n := len(e.publicWith(ch.ID, reminder)); n != 1 {
		t.Errorf("%d reminders for one move, want 1", n)
	}
	// Alice moves with 17 hours left: Fischer adds a day. Bob's turn has
	// its own reminder.
	e.do(e.play(ch, alice, "E5"))
	g = e.game(ch.ID)
	if g.Clock.Reminded || g.Clock.Time(g.Clock.ToMove.Opponent()).Main != 17*time.Hour+24*time.Hour {
		t.Errorf("after alice's move the clock is %+v, want alice at 17 h + 1 day and a new reminder", g.Clock)
	}
	e.clock.Advance(54 * time.Hour)
	e.d.WaitFor("bob's reminder", func() bool { return len(e.publicWith(ch.ID, "⏰ "+bob.Mention())) == 1 })
	if n := len(e.publicWith(ch.ID, reminder)); n != 2 {
		t.Errorf("%d reminders after two moves' worth, want 2", n)
	}
}

// TestE2EClockOption: autocomplete explains a spec; a malformed one is
// refused privately with the syntax, and nothing is created.
func TestE2EClockOption(t *testing.T) { httpMode(t, testE2EClockOption) }

func testE2EClockOption(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	r := e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("challenge", discordtest.Focused("clock", "byoyomi 10m 5x30s"))))
	if len(r.Choices) == 0 || r.Choices[0].Name != "byoyomi 10m 5x30s — byo-yomi: 10 min, then 5 periods of 30 s" || r.Choices[0].Value != "byoyomi 10m 5x30s" {
		t.Errorf("autocomplete of a valid spec = %+v", r.Choices)
	}
	r = e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("bot", discordtest.Focused("clock", ""))))
	var names []string
	for _, c := range r.Choices {
		names = append(names, fmt.Sprint(c.Value))
	}
	if got := strings.Join(names, " "); got != "correspondence daily live blitz none" {
		t.Errorf("autocomplete of nothing offers %s, want the presets", got)
	}
	// A system named in part gets an example of its spec; what reads as
	// nothing gets the reason.
	for _, tt := range []struct{ typed, want string }{
		{"byo", "byoyomi 10m 5x30s — byo-yomi: 10 min, then 5 periods of 30 s"},
		{"byoyomi 10m", "byoyomi 10m 5x30s — byo-yomi: 10 min, then 5 periods of 30 s | ⚠ expected a main time and NxTIME, like `byoyomi 10m 5x30s`"},
		{"Fischer", "fischer 3d +1d max 7d — Fischer: 3 days, +1 day per move, at most 7 days | ⚠ fischer takes a starting time and +increment, then optionally max and a time, like `fischer 3d +1…"},
		{"n", "none — no clock"},
		{"byoyomi 0 5x30s", "byoyomi 0s 5x30s — byo-yomi: no main time, 5 periods of 30 s"},
		{"hourglass", "⚠ unknown system or preset \"hourglass\""},
	} {
		r = e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub("challenge", discordtest.Focused("clock", tt.typed))))
		var got []string
		for _, c := range r.Choices {
			got = append(got, c.Name)
		}
		if strings.Join(got, " | ") != tt.want {
			t.Errorf("autocomplete of %q offers %q, want %q", tt.typed, got, tt.want)
		}
	}

	for _, it := range []*discordtest.Interaction{
		e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("clock", "fischer 3d")),
		e.slash(ch, alice, "bot", discordtest.Str("clock", "absolute 5s")),
	} {
		e.refused(it, "is not a clock I can read")
	}
	m := e.do(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("clock", "byoyomi 10m 30s")))
	for _, want := range []string{"`byoyomi 10m 30s` is not a clock I can read: expected NxTIME after the main time", "`fischer 3d +1d max 7d`", "units s, m, h, d"} {
		if !strings.Contains(m.Text(), want) {
			t.Errorf("refusal %q does not say %q", m.Text(), want)
		}
	}
	if _, err := e.store.Challenge(context.Background(), "x"); err == nil {
		t.Errorf("a challenge exists")
	}
	if e.game(ch.ID) != nil {
		t.Errorf("a refused clock started a game")
	}
}

// TestE2ELateMove: a move sent at the deadline does not count; the game
// ends on time, announced once, whether the move or the scheduler gets
// there first (the version check picks one).
func TestE2ELateMove(t *testing.T) { httpMode(t, testE2ELateMove) }

func testE2ELateMove(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "simple 30s"))
	id := e.game(ch.ID).ID
	e.clock.Advance(10 * time.Second)
	e.do(e.play(ch, alice, "E5"))
	e.clock.Advance(30 * time.Second) // bob's 30 s are up
	// The move races the scheduler: either finds the game still there and
	// ends it on time, or finds it ended.
	m := e.do(e.play(ch, bob, "C3"))
	a := e.archived(ch.ID, id)
	// A game lost on time after one move is annulled, and says so.
	ended := fmt.Sprintf("Your game here ended <t:%d:R>: annulled on time. `/go board` shows it.", a.FinishedAt.Unix())
	if !m.Ephemeral || !strings.Contains(m.Text(), "⌛ Too late: ⚪ white's time ran out") && m.Text() != ended {
		t.Errorf("a move at the deadline answered %q, want a private 'too late' (or %q, when the scheduler came first)", m.Text(), ended)
	}
	if a.Result != "B+T" || !a.Annulled || a.Moves != 1 {
		t.Errorf("archived %s annulled=%v after %d moves, want B+T annulled (bob made no move) after 1", a.Result, a.Annulled, a.Moves)
	}
	e.d.WaitFor("the announcement", func() bool { return len(e.publicWith(ch.ID, "ran out of time")) > 0 })
	e.alive()
	if n := len(e.publicWith(ch.ID, "ran out of time")); n != 1 {
		t.Errorf("%d announcements, want 1", n)
	}
}

// TestE2EBotClock: the bot's thinking time counts against its own clock.
func TestE2EBotClock(t *testing.T) { httpMode(t, testE2EBotClock) }

func testE2EBotClock(t *testing.T, e *env) {
	ch, u := e.d.GuildChannel("general"), e.d.NewUser("alice")
	it := e.slash(ch, u, "bot", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Str("clock", "absolute 1m"))
	done := make(chan discordtest.Message, 1)
	go func() { done <- e.do(it) }()
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
	e.clock.Advance(12 * time.Second) // the bot thinks for 12 s
	close(e.players.gate)
	<-done
	e.waitMoves("the bot's move", ch.ID, 1)
	g := e.game(ch.ID)
	if !g.First(engine.SideOf(engine.Black)).IsBot() {
		t.Fatalf("the bot plays white; want black")
	}
	if got := g.Clock.Time(clock.First).Main; got != 48*time.Second {
		t.Errorf("the bot has %v left after thinking 12 s, want 48s", got)
	}
}

// TestE2EMoveAfterLossOnTime: a move sent just after its player lost on
// time (the scheduler ended the game first) is told that their game here
// ended, when and how, not that there is no game; a spectator is told as
// before, and so is the player once it is long over.
func TestE2EMoveAfterLossOnTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "absolute 15s"))
	id := e.game(ch.ID).ID
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "E4"))
	last := e.do(e.play(ch, alice, "D5"))
	deadline := e.game(ch.ID).Clock.Deadline()
	e.clock.Advance(16 * time.Second) // the scheduler finds it a second late
	a := e.archived(ch.ID, id)
	// The game ended at the deadline, as the announcement says, not when
	// the loss was found.
	if !a.FinishedAt.Equal(deadline) {
		t.Errorf("finished at %v, want the deadline %v", a.FinishedAt, deadline)
	}
	// The ending is announced through the last move's interaction token,
	// and retires that board: both done before the clock moves an hour on
	// (the token would be stale then).
	e.d.WaitFor("the ending announced", func() bool {
		m, _ := e.d.Message(last.ID)
		return len(m.Buttons()) == 0 && len(e.publicWith(ch.ID, "Game over: annulled on time, not counted")) > 0
	})
	if want := fmt.Sprintf("ran out of time <t:%d:R>", deadline.Unix()); len(e.publicWith(ch.ID, want)) != 1 {
		t.Errorf("no announcement says %q", want)
	}
	// The game-over board, and the board shown afterwards, keep each
	// side's time as the game ended.
	final := "⏱ Time left at the end: ⚫ 15 s · ⚪ 0 s"
	if ann := e.publicWith(ch.ID, "ran out of time"); len(ann) != 1 || !strings.Contains(ann[0].Text(), final) {
		t.Errorf("the game-over board does not say %q", final)
	}
	e.said(e.play(ch, bob, "D4"), fmt.Sprintf("Your game here ended <t:%d:R>: annulled on time. `/go board` shows it.", deadline.Unix()))
	if b := e.do(e.slash(ch, carol, "board")).Text(); !strings.Contains(b, fmt.Sprintf("The last game of Go in this channel ended <t:%d:R>", deadline.Unix())) {
		t.Errorf("/go board afterwards = %q, want it ended at the deadline <t:%d:R>", b, deadline.Unix())
	} else if !strings.Contains(b, final) {
		t.Errorf("/go board afterwards = %q, want %q", b, final)
	}
	e.said(e.play(ch, carol, "D4"), "There is no game in this channel. Start one with `/go challenge` or `/go bot`.")
	e.clock.Advance(time.Hour)
	e.said(e.play(ch, bob, "D4"), "There is no game in this channel. Start one with `/go challenge` or `/go bot`.")
}

// TestE2EClockEnds: the side that ran out shows 0 s at the end with simple
// and Canadian time, as with the other systems. Simple time showed "10 s
// per move", and Canadian "0 s for 1 move" (White had played E4 of the
// period's two).
func TestE2EClockEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ clock, final string }{
		{"simple 10s", "⏱ Time left at the end: ⚫ 10 s per move · ⚪ 0 s"},
		{"canadian 0s 2/10s", "⏱ Time left at the end: ⚫ 10 s for 2 moves · ⚪ 0 s"},
	} {
		t.Run(strings.Fields(tc.clock)[0], func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ch := e.d.GuildChannel("general")
			alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
			e.challenge(ch, alice, bob, discordtest.Str("clock", tc.clock))
			e.do(e.play(ch, alice, "E5"))
			e.do(e.play(ch, bob, "E4"))
			e.do(e.play(ch, alice, "D5"))
			e.clock.Advance(11 * time.Second)
			e.d.WaitFor("the announcement", func() bool { return len(e.publicWith(ch.ID, "ran out of time")) > 0 })
			if ann := e.publicWith(ch.ID, "ran out of time"); !slices.Contains(strings.Split(ann[0].Text(), "\n"), tc.final) {
				t.Errorf("the game-over board %q does not say %q", ann[0].Text(), tc.final)
			}
			if b := e.do(e.slash(ch, bob, "board")).Text(); !slices.Contains(strings.Split(b, "\n"), tc.final) {
				t.Errorf("/go board afterwards = %q, want %q", b, tc.final)
			}
		})
	}
}

// TestE2EDraughtsMoveAfterLossOnTime: draughts says it as its players
// write results.
func TestE2EDraughtsMoveAfterLossOnTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	dr := e.d.GuildChannel("draughts")
	msg := e.newChallenge(e.draughtsCmd(dr, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("color", "white"), discordtest.Str("clock", "absolute 15s")))
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game of draughts", func() bool { return e.game(dr.ID) != nil })
	id := e.game(dr.ID).ID
	for i, m := range []string{"32-28", "17-21", "37-32", "21-26"} {
		e.do(e.draughtsMove(dr, []discordtest.User{alice, bob}[i%2], m))
	}
	e.clock.Advance(16 * time.Second)
	a := e.archived(dr.ID, id)
	e.said(e.draughtsMove(dr, alice, "31x22"), fmt.Sprintf("Your game here ended <t:%d:R>: 0-2 (time). `/draughts board` shows it.", a.FinishedAt.Unix()))
	// The game-over board, and the board shown afterwards, keep each
	// side's time as the game ended.
	final := "⏱ Time left at the end: ⚪ 0 s · ⚫ 15 s"
	e.d.WaitFor("the announcement", func() bool { return len(e.publicWith(dr.ID, "ran out of time")) > 0 })
	if ann := e.publicWith(dr.ID, "ran out of time"); !strings.Contains(ann[0].Text(), final) {
		t.Errorf("the game-over board %q does not say %q", ann[0].Text(), final)
	}
	// Its last line says how the game was played, as Go's finished board
	// does: its clock, and not "unrated" (a rated game).
	if b, want := e.do(e.draughtsCmd(dr, bob, "board")).Text(), final+"\n-# International draughts, 10×10 (FMJD rules) · absolute: 15 s for the whole game"; !strings.HasSuffix(b, want) {
		t.Errorf("/draughts board afterwards = %q, want it to end with %q", b, want)
	}
	// So does the board page's subtitle, as it did in play.
	if v, err := e.app.View(context.Background(), dr.ID); err != nil || v.Rules != "International draughts, 10×10 (FMJD rules) · absolute: 15 s for the whole game" {
		t.Errorf("the board page of the finished game: rules %q (%v), want the rules and the clock", v.Rules, err)
	}
}

// TestE2ESGFClockOGS: the record's TM and OT are written as OGS writes
// and reads them ("5 fischer", "10 simple"), and a Fischer maximum, which
// OT cannot say, is in the root comment in words.
func TestE2ESGFClockOGS(t *testing.T) { httpMode(t, testE2ESGFClockOGS) }

func testE2ESGFClockOGS(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	for _, tc := range []struct {
		clock string
		want  []string
		not   []string
	}{
		{"fischer 10s +5s max 20s", []string{"TM[10]OT[5 fischer]", "C[Time: Fischer: 10 s, +5 s per move, at most 20 s.]"}, []string{"max"}},
		{"simple 10s", []string{"TM[0]OT[10 simple]"}, []string{"C[Time"}},
		{"5+3", []string{"TM[300]OT[3 fischer]"}, []string{"C[Time"}},
		{"byoyomi 1m 5x30s", []string{"TM[60]OT[5x30 byo-yomi]"}, []string{"C[Time"}},
	} {
		ch := e.d.GuildChannel("clock-" + tc.clock)
		e.challenge(ch, alice, bob, discordtest.Str("clock", tc.clock))
		rec := string(attachment(t, e.do(e.slash(ch, alice, "sgf")), ".sgf").Data)
		for _, want := range tc.want {
			if !strings.Contains(rec, want) {
				t.Errorf("clock:%s: the record does not contain %s:\n%s", tc.clock, want, rec)
			}
		}
		for _, not := range tc.not {
			if strings.Contains(rec, not) {
				t.Errorf("clock:%s: the record contains %s:\n%s", tc.clock, not, rec)
			}
		}
	}
}

// TestE2ECountedGameKeepsClock: a game ended by counting shows each
// side's time as it ended and how it was played, as a game resigned or
// lost on time does, and so does /go board afterwards: its final message
// had neither, and the board afterwards named no clock.
func TestE2ECountedGameKeepsClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "byoyomi 5m 3x30s"))
	// The move's board is recorded after its answer: with the clock moved
	// on before that, the board would be owed past its due time and
	// posted again, a write that bob's pass would then race.
	moved := e.do(e.play(ch, alice, "E5"))
	e.kept(ch.ID, moved.ID)
	e.clock.Advance(40 * time.Second)
	e.do(e.slash(ch, bob, "pass"))
	counting := e.do(e.slash(ch, alice, "pass"))
	e.do(e.click(alice, counting, "Accept"))
	final := e.do(e.click(bob, counting, "Accept"))
	const (
		left  = "⏱ Time left at the end: ⚫ 5 min + 3×30 s · ⚪ 4 min 20 s + 3×30 s"
		setup = "-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · byo-yomi: 5 min, then 3 periods of 30 s"
	)
	lines := strings.Split(final.Text(), "\n")
	if len(lines) < 2 || lines[len(lines)-2] != left || lines[len(lines)-1] != setup {
		t.Errorf("the counted game's final message =\n%s\nwant it to end with\n%s\n%s", final.Text(), left, setup)
	}
	if b := e.do(e.slash(ch, bob, "board")).Text(); !strings.HasSuffix(b, left+"\n"+setup) {
		t.Errorf("/go board afterwards =\n%s\nwant it to end with\n%s\n%s", b, left, setup)
	}
	// The board page's subtitle names the clock too, as it did in play.
	if v, err := e.app.View(context.Background(), ch.ID); err != nil || v.Rules != strings.TrimPrefix(setup, "-# ") {
		t.Errorf("the board page of the finished game: rules %q (%v), want %q", v.Rules, err, strings.TrimPrefix(setup, "-# "))
	}
}

// TestE2ELossOnTimeDiscordDown: a loss on time found while Discord is
// down (503) is recorded at once and announced once Discord answers
// again, by a later try (announceRetries): before, the one failed post
// was all, and the channel never heard of it.
func TestE2ELossOnTimeDiscordDown(t *testing.T) { httpMode(t, testE2ELossOnTimeDiscordDown) }

func testE2ELossOnTimeDiscordDown(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("general"), e.d.NewUser("alice"), e.d.NewUser("bob")
	_, g := e.absoluteGame(ch, alice, bob)
	e.d.Down(http.StatusServiceUnavailable)
	e.clock.Advance(15 * time.Second)
	if a := e.archived(ch.ID, g.ID); a.Result != "W+T" {
		t.Fatalf("archived %s, want W+T", a.Result)
	}
	// The failed announcement waits for its next try, 5 s on.
	retry := e.clock.Now().Add(5 * time.Second)
	e.d.WaitFor("the announcement's next try to be set", func() bool { return e.clock.Waits(retry) })
	if got := e.publicWith(ch.ID, "ran out of time"); len(got) != 0 {
		t.Fatalf("announced while Discord was down: %v", got)
	}
	e.d.Up()
	e.clock.Advance(5 * time.Second)
	e.d.WaitFor("the announcement once Discord is back", func() bool { return len(e.publicWith(ch.ID, "ran out of time")) == 1 })
	if ann := e.publicWith(ch.ID, "ran out of time"); !strings.Contains(ann[0].Text(), "**Game over: annulled on time, not counted**") {
		t.Errorf("the late announcement reads %q", ann[0].Text())
	}
	// Once told, it is not told again.
	e.clock.Advance(10 * time.Minute)
	e.alive()
	if n := len(e.publicWith(ch.ID, "ran out of time")); n != 1 {
		t.Errorf("%d announcements of the loss, want 1", n)
	}
}

func TestE2ELossOnTimeRateLimited(t *testing.T) { httpMode(t, testE2ELossOnTimeRateLimited) }

// testE2ELossOnTimeRateLimited: Discord answers every call about one
// channel 429 with a wait of 90 s. The loss on time there is recorded and
// its announcement tried again later, and another game's deadline, a
// second later, is still enforced and announced meanwhile: the 429 held
// the clock's scheduler in discordgo's retries, for as long as Discord
// kept refusing.
func testE2ELossOnTimeRateLimited(t *testing.T, e *env) {
	limited, other := e.d.GuildChannel("limited"), e.d.GuildChannel("other")
	_, g1 := e.absoluteGame(limited, e.d.NewUser("alice"), e.d.NewUser("bob"))
	e.clock.Advance(time.Second)
	_, g2 := e.absoluteGame(other, e.d.NewUser("carol"), e.d.NewUser("dave"))
	e.d.Throttle(limited.ID, 90*time.Second)
	e.clock.Advance(14 * time.Second)
	if a := e.archived(limited.ID, g1.ID); a.Result != "W+T" {
		t.Fatalf("archived %s in the limited channel, want W+T", a.Result)
	}
	retry := e.clock.Now().Add(5 * time.Second)
	e.d.WaitFor("the announcement's next try to be set", func() bool { return e.clock.Waits(retry) })
	e.clock.Advance(time.Second)
	if a := e.archived(other.ID, g2.ID); a.Result != "W+T" {
		t.Fatalf("archived %s in the other channel, want W+T", a.Result)
	}
	e.d.WaitFor("the other game's announcement", func() bool { return len(e.publicWith(other.ID, "ran out of time")) == 1 })
	if got := e.publicWith(limited.ID, "ran out of time"); len(got) != 0 {
		t.Fatalf("announced while rate limited: %v", got)
	}
	if !slices.ContainsFunc(e.d.Calls(), func(c discordtest.Call) bool { return c.Status == http.StatusTooManyRequests }) {
		t.Fatal("the fake answered no 429")
	}
	e.d.Throttle(limited.ID, 0)
	e.clock.Advance(4 * time.Second)
	e.d.WaitFor("the announcement once the limit is over", func() bool { return len(e.publicWith(limited.ID, "ran out of time")) == 1 })
}

// TestE2ELossOnTimeChannelDeleted: a game whose channel an admin deleted
// while it was played runs out of time with nobody able to move: it is
// annulled, not lost (it was archived a rated loss that nobody was told
// of), and the server's log says so, by gobot.
func TestE2ELossOnTimeChannelDeleted(t *testing.T) { httpMode(t, testE2ELossOnTimeChannelDeleted) }

func testE2ELossOnTimeChannelDeleted(t *testing.T, e *env) {
	ch, alice, bob := e.d.GuildChannel("doomed"), e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, discordtest.Str("clock", "simple 1h"))
	g := e.game(ch.ID)
	for i, m := range []string{"E5", "C3", "G7", "C7"} {
		e.do(e.play(ch, []discordtest.User{alice, bob}[i%2], m))
	}
	e.d.DeleteChannel(ch.ID)
	e.waitBoard(ch.ID, "⚫ black to play")
	e.clock.Advance(61 * time.Minute) // alice's turn: nobody can move now
	var a *storage.Archived
	e.d.WaitFor("the game annulled", func() bool {
		x, err := e.store.ArchivedGame(context.Background(), g.ID)
		a = x
		return err == nil && x.Annulled
	})
	if a.Result != "W+T" || a.Rated && !a.Annulled || !strings.Contains(string(a.SGF), "its channel was deleted while it was played") {
		t.Errorf("archived %s annulled %v, record %s; want W+T annulled, saying why", a.Result, a.Annulled, a.SGF)
	}
	admin := e.d.NewUser("admin")
	admin.Permissions = discordtest.PermServerAdmin
	if log := e.do(e.d.Command(e.d.GuildChannel("staff"), admin, "go-admin", discordtest.Sub("log"))); !strings.Contains(log.Text(), "its channel was deleted while it was played, so nobody could move in it") {
		t.Errorf("the server's log = %q, want the annulment by gobot", log.Text())
	}
}
