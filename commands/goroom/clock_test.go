package goroom

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// startClocked starts a 9×9 game between ann (black) and bob with clock
// spec, and returns its first board.
func startClocked(t *testing.T, tb *testApp, spec string) call {
	t.Helper()
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black clock:"+spec)
	if len(calls) != 2 || calls[1].Op != "edit" {
		t.Fatalf("challenge with clock %s: %v", spec, calls)
	}
	calls = tb.press(bob, calls[1].buttonID(t, "Accept"))
	if len(calls) != 2 {
		t.Fatalf("accept: %v", calls)
	}
	return calls[1]
}

// TestLateMove: a move after the deadline is refused and ends the game on
// time, once (the scheduler, running later, finds nothing to do).
func TestLateMove(t *testing.T) {
	tb := newTestApp(t)
	startClocked(t, tb, "simple 30s")
	only(t, tb.command(ann, "/go play move:E5"))
	tb.clk.Advance(30 * time.Second)
	calls := tb.command(bob, "/go play move:C3")
	var reply, announce string
	for _, c := range calls {
		if c.Message != nil && c.Message.Ephemeral {
			reply = c.text()
		} else if strings.Contains(c.text(), "ran out of time") {
			announce = c.text()
		}
	}
	if !strings.HasPrefix(reply, "⌛ Too late: ⚪ white's time ran out <t:") {
		t.Errorf("reply to a late move = %q", reply)
	}
	if !strings.Contains(announce, "They had not made two moves of their own, so the game against ⚫ <@"+ann.ID+"> is annulled") || !strings.Contains(announce, "**Game over: annulled on time, not counted**") || strings.Contains(announce, "wins") {
		t.Errorf("announcement = %q, want B+T, annulled (white made no move)", announce)
	}
	if _, err := tb.store.Game(context.Background(), channelID); err == nil {
		t.Errorf("the game is still active")
	}
	tb.HandleDueGames(context.Background())
	if calls := tb.rec.take(); len(calls) != 0 {
		t.Errorf("the scheduler acted again: %v", calls)
	}
}

// TestClockFollowsTheGame: an undo gives the turn (and the clock) back; the
// scoring phase stops the clock and resuming play starts it.
func TestClockFollowsTheGame(t *testing.T) {
	tb := newTestApp(t)
	startClocked(t, tb, "absolute 10m")
	tb.clk.Advance(time.Minute)
	only(t, tb.command(ann, "/go play move:E5"))
	g, _ := tb.store.Game(context.Background(), channelID)
	if k := g.Clock; k.ToMove != clock.Second || k.Time(clock.First).Main != 9*time.Minute || len(k.Log) != 1 {
		t.Fatalf("after ann's move the clock is %+v", k)
	}
	tb.clk.Advance(time.Minute)
	only(t, tb.command(bob, "/go pass"))
	tb.clk.Advance(time.Minute)
	only(t, tb.command(ann, "/go pass"))
	g, _ = tb.store.Game(context.Background(), channelID)
	if g.Scoring == nil || g.Clock.Running() || !g.Due().Equal(g.Scoring.Deadline) {
		t.Fatalf("in the scoring phase the clock runs (%+v) or the game is not due at the phase's end", g.Clock)
	}
	if got := g.Clock.Time(clock.First).Main; got != 8*time.Minute {
		t.Errorf("black has %v, want 8m", got)
	}
	tb.clk.Advance(time.Hour) // the scoring phase takes no time off anyone
	resume := ""
	for _, c := range tb.command(ann, "/go board") {
		if id, ok := findButton(c, "Resume"); ok {
			resume = id
		}
	}
	if resume == "" {
		t.Fatalf("no Resume play button")
	}
	tb.press(ann, resume)
	g, _ = tb.store.Game(context.Background(), channelID)
	if k := g.Clock; !k.Running() || k.ToMove != clock.Second || !k.Deadline().Equal(tb.Now().Add(9*time.Minute)) {
		t.Errorf("after resuming play the clock is %+v, want white's 9 minutes running from now", k)
	}
}

func findButton(c call, label string) (string, bool) {
	if c.Message == nil {
		return "", false
	}
	for _, row := range c.Message.Components {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, comp := range ar.Components {
			if b, ok := comp.(discordgo.Button); ok && strings.Contains(b.Label, label) {
				return b.CustomID, true
			}
		}
	}
	return "", false
}

// TestVacation: a vacation pauses the correspondence turn the player has,
// and the one that comes while they are away; ending it early gives the
// unused days back; the allowance is 30 days a year.
func TestVacation(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb) // correspondence: ann to move, 3 days
	start := tb.Now()
	reply := vacationReply(t, tb.command(ann, "/go vacation days:5"))
	if !reply.Message.Ephemeral || !strings.Contains(reply.text(), "paused (now in 1 game") || !strings.Contains(reply.text(), "25 days of your 30 days for") {
		t.Fatalf("vacation reply = %q", reply.text())
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	if want := start.Add(5*24*time.Hour + 3*24*time.Hour); !g.Clock.Deadline().Equal(want) {
		t.Errorf("ann's deadline on vacation = %v, want %v (3 days after the 5 days)", g.Clock.Deadline(), want)
	}
	refused := func(line, want string) {
		t.Helper()
		c := only(t, tb.command(ann, line))
		if !c.Message.Ephemeral || !strings.Contains(c.text(), want) {
			t.Errorf("%s = %q, want %q", line, c.text(), want)
		}
	}
	refused("/go vacation days:3", "already on vacation")
	tb.clk.Advance(24 * time.Hour)
	only(t, tb.command(ann, "/go play move:E5")) // moves while away: her clock did not run
	g, _ = tb.store.Game(context.Background(), channelID)
	if got := g.Clock.Time(clock.First).Main; got != 4*24*time.Hour {
		t.Errorf("ann has %v after a move on vacation, want 3 days + 1 day", got)
	}
	only(t, tb.command(bob, "/go play move:C3")) // ann's next turn starts paused
	g, _ = tb.store.Game(context.Background(), channelID)
	if want := start.Add(5*24*time.Hour + 4*24*time.Hour); !g.Clock.Deadline().Equal(want) {
		t.Errorf("ann's new turn runs out at %v, want %v", g.Clock.Deadline(), want)
	}
	tb.clk.Advance(24 * time.Hour)
	reply = vacationReply(t, tb.command(ann, "/go vacation end:true"))
	if !strings.Contains(reply.text(), "Welcome back") || !strings.Contains(reply.text(), "28 days of your 30 days") {
		t.Errorf("end of vacation = %q", reply.text())
	}
	g, _ = tb.store.Game(context.Background(), channelID)
	if want := tb.Now().Add(4 * 24 * time.Hour); !g.Clock.Deadline().Equal(want) {
		t.Errorf("after the vacation ann's deadline = %v, want %v", g.Clock.Deadline(), want)
	}
	refused("/go vacation end:true", "not on vacation")
	tb.clk.Advance(time.Hour)
	vacationReply(t, tb.command(ann, "/go vacation days:1"))
	tb.clk.Advance(5 * time.Second)
	if reply := vacationReply(t, tb.command(ann, "/go vacation end:true")); !strings.Contains(reply.text(), "27 days 23 h of your 30 days") {
		t.Errorf("a vacation ended after 5 s: %q, want an hour counted: 27 days 23 h left", reply.text())
	}
	refused("/go vacation days:28", "more than your allowance: 27 days 23 h of your 30 days")
	if reply := vacationReply(t, tb.command(ann, "/go vacation days:27")); !strings.Contains(reply.text(), "23 h of your 30 days for 2026 left") {
		t.Errorf("27 more days: %q, want \"23 h of your 30 days for 2026 left\"", reply.text())
	}
	// Ended while her one game waits for bob: no clock of hers was paused,
	// and the answer does not say they "run again in 0 games".
	only(t, tb.command(ann, "/go play move:G7"))
	if reply := vacationReply(t, tb.command(ann, "/go vacation end:true")); !strings.Contains(reply.text(), "👋 Welcome back: your vacation is over. No game was waiting for your move, so none of your clocks was paused.") {
		t.Errorf("a vacation ended with no turn of hers = %q", reply.text())
	}
}

// TestVacationNewYear: a vacation that runs into a new year can be ended
// early; the new year's allowance starts once it has ended.
func TestVacationNewYear(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	now := tb.Now()
	tb.clk.Advance(time.Date(now.Year(), 12, 29, 12, 0, 0, 0, time.UTC).Sub(now))
	if reply := vacationReply(t, tb.command(ann, "/go vacation days:10")); !strings.Contains(reply.text(), fmt.Sprintf("20 days of your 30 days for %d left", now.Year())) {
		t.Fatalf("vacation from 29 December = %q", reply.text())
	}
	tb.clk.Advance(5 * 24 * time.Hour) // 3 January
	if reply := vacationReply(t, tb.command(ann, "/go vacation")); !strings.Contains(reply.text(), "You are on vacation until") {
		t.Errorf("on vacation in the new year: %q", reply.text())
	}
	reply := vacationReply(t, tb.command(ann, "/go vacation end:true"))
	if !strings.Contains(reply.text(), "Welcome back") || !strings.Contains(reply.text(), fmt.Sprintf("25 days of your 30 days for %d left", now.Year())) {
		t.Errorf("ending it early in the new year = %q, want the welcome and the unused days back", reply.text())
	}
	if reply := vacationReply(t, tb.command(ann, "/go vacation")); !strings.Contains(reply.text(), fmt.Sprintf("30 days of your 30 days for %d left", now.Year()+1)) {
		t.Errorf("after it, the new year's allowance: %q", reply.text())
	}
}

// TestLiveClockNoReminder: a live clock gets no reminder, and its board
// shows both players' time.
func TestLiveClockNoReminder(t *testing.T) {
	tb := newTestApp(t)
	board := startClocked(t, tb, "live")
	if !strings.Contains(board.text(), "⏱ ⚫ 10 min + 5×30 s · ⚪ 10 min + 5×30 s · ⚫ black's time runs out <t:") {
		t.Errorf("board = %q", board.text())
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	if !g.Due().Equal(g.Clock.Deadline()) {
		t.Errorf("a live game is due at %v, want its deadline %v (no reminder)", g.Due(), g.Clock.Deadline())
	}
}

// TestPastDeadlineWording: a deadline that has passed when the message is
// made is said in the past tense, not as "runs out 40 seconds ago".
func TestPastDeadlineWording(t *testing.T) {
	tb := newTestApp(t)
	startClocked(t, tb, "absolute 10s")
	ctx := context.Background()
	g, _ := tb.store.Game(ctx, channelID)
	now := tb.Now()
	if got, want := clockStatus(g, now), fmt.Sprintf("⏱ ⚫ 10 s · ⚪ 10 s · ⚫ black's time runs out <t:%d:R>", g.Clock.Deadline().Unix()); got != want {
		t.Errorf("before the deadline: %q, want %q", got, want)
	}
	// Shown again later in the turn (/go board), the time is as of then.
	if got, want := clockStatus(g, now.Add(4*time.Second)), fmt.Sprintf("⏱ ⚫ 6 s · ⚪ 10 s · ⚫ black's time runs out <t:%d:R>", g.Clock.Deadline().Unix()); got != want {
		t.Errorf("4 s into the turn: %q, want %q", got, want)
	}
	if got, want := clockStatus(g, now.Add(40*time.Second)), "⏱ ⚫ 0 s · ⚪ 10 s · ⚫ black's time ran out"; got != want {
		t.Errorf("after the deadline: %q, want %q", got, want)
	}

	tb = newTestApp(t)
	startClocked(t, tb, "none")
	only(t, tb.command(ann, "/go pass"))
	only(t, tb.command(bob, "/go pass"))
	g, _ = tb.store.Game(ctx, channelID)
	if g.Scoring == nil || g.Scoring.Deadline.IsZero() {
		t.Fatalf("no scoring phase with a deadline: %+v", g.Scoring)
	}
	m, err := tb.scoringMessage(ctx, g, g.Scoring.Deadline.Add(-time.Second), "", storage.Player{})
	if want := fmt.Sprintf("\nThe marking stands <t:%d:R> if nobody changes it (where it goes against my estimate, only if the player it costs has accepted it; else my proposal counts).", g.Scoring.Deadline.Unix()); err != nil || !strings.HasSuffix(m.Embeds[0].Description, want) {
		t.Errorf("before the deadline: %v %q, want it to end %q", err, m.Embeds[0].Description, want)
	}
	m, err = tb.scoringMessage(ctx, g, g.Scoring.Deadline.Add(16*time.Second), "", storage.Player{})
	if want := "\nNobody changed the marking in time: the game is scored at the next check."; err != nil || !strings.HasSuffix(m.Embeds[0].Description, want) {
		t.Errorf("after the deadline: %v %q, want it to end %q", err, m.Embeds[0].Description, want)
	}

	// A bot that does not accept the marking: its own marking counts.
	tb = newTestApp(t)
	only(t, tb.command(ann, "/go bot level:first size:9 color:black"))
	tb.command(ann, "/go pass")
	g, _ = tb.store.Game(ctx, channelID)
	if g.Scoring == nil || g.Scoring.Deadline.IsZero() || !g.First(engine.SideOf(engine.White)).IsBot() {
		t.Fatalf("no scoring phase against the bot: %+v", g.Scoring)
	}
	g.Scoring.Accepted[engine.SideOf(engine.White)] = false
	m, err = tb.scoringMessage(ctx, g, g.Scoring.Deadline, "", storage.Player{})
	if want := "\nThe deadline has passed: as gobot does not accept the marking, the game is scored with gobot's own marking at the next check."; err != nil || !strings.HasSuffix(m.Embeds[0].Description, want) {
		t.Errorf("after the deadline, the bot refusing: %v %q, want it to end %q", err, m.Embeds[0].Description, want)
	}
}

// TestUndoRestoresClocks: undo against the bot (no consent needed) gives
// no time back: both clocks return to where they stood before the moves
// taken back, and black, to move, is charged all the time spent since.
func TestUndoRestoresClocks(t *testing.T) {
	tb := newTestApp(t)
	start := tb.clk.Now()
	if c := only(t, tb.command(ann, "/go bot level:first size:9 color:black rated:false clock:fischer 30s +20s max 5m")); !strings.Contains(c.text(), "⏱ ⚫ 30 s · ⚪ 30 s") {
		t.Fatalf("bot game with a clock: %q", c.text())
	}
	var c call
	for range 3 {
		tb.clk.Advance(5 * time.Second)
		calls := tb.command(ann, "/go play move:E5")
		if len(calls) == 0 || !strings.Contains(calls[len(calls)-1].text(), "played **E5**") {
			t.Fatalf("E5: %v", calls)
		}
		tb.clk.Advance(2 * time.Second)
		c = only(t, tb.command(ann, "/go undo"))
	}
	// Black has spent 3 × (5 s + 2 s) of the 30 s since the game began.
	want := fmt.Sprintf("⏱ ⚫ 9 s · ⚪ 30 s · ⚫ black's time runs out <t:%d:R>", start.Add(30*time.Second).Unix())
	if !strings.Contains(c.text(), "took back 2 moves") || !strings.Contains(c.text(), want) {
		t.Errorf("board after the third undo: %q, want %q", c.text(), want)
	}
}

// TestUndoChargesOnlyTheUndoer: bob thought two days over his reply; ann's
// undo, which he allows, gives her back her clock as it stood before her
// move, charged with her own two days and two hours, never his: she plays
// on with 22 hours, where she was flagged at once before.
func TestUndoChargesOnlyTheUndoer(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb) // correspondence: 3 days, +1 day a move
	tb.clk.Advance(48 * time.Hour)
	only(t, tb.command(ann, "/go play move:E5"))
	tb.clk.Advance(48 * time.Hour)
	only(t, tb.command(bob, "/go play move:C3"))
	tb.clk.Advance(time.Hour)
	ask := only(t, tb.command(ann, "/go undo"))
	tb.clk.Advance(time.Hour)
	calls := tb.press(bob, ask.buttonID(t, "Allow undo"))
	if len(calls) != 2 || !strings.Contains(calls[1].text(), "took back 2 moves") {
		t.Fatalf("allow undo: %v", calls)
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatalf("the game after the undo: %v", err)
	}
	if want := tb.Now().Add(22 * time.Hour); !g.Clock.Deadline().Equal(want) || g.Clock.ToMove != clock.First {
		t.Errorf("after the undo %v runs out at %v, want black at %v", g.Clock.ToMove, g.Clock.Deadline(), want)
	}
	if got := g.Clock.Time(clock.Second).Main; got != 72*time.Hour {
		t.Errorf("bob has %v after the undo, want his 3 days before C3", got)
	}
}

// TestUndoThatWouldFlag: an undo whose requester would be out of time once
// their own time on the moves counts again (and E5's day of increment
// goes) is refused, and the game goes on unchanged.
func TestUndoThatWouldFlag(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb)
	tb.clk.Advance(48 * time.Hour)
	only(t, tb.command(ann, "/go play move:E5")) // 1 day left, +1 day
	tb.clk.Advance(time.Hour)
	only(t, tb.command(bob, "/go play move:C3"))
	tb.clk.Advance(36 * time.Hour) // 2 days less 36 hours: still in time
	wantEphemeral(t, tb.command(ann, "/go undo"), "Taking back now would leave you no time")
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil || g.State.MoveCount() != 2 || g.Undo != nil || g.Clock.Flagged(tb.Now()) {
		t.Fatalf("after the refused undo: %v, %d moves, request %v", err, g.State.MoveCount(), g.Undo)
	}
}

// TestVacationTurnWhileAwayRealClock: on a clock that moves between two
// reads in one request, as a real one does, a turn that comes while its
// player is away still starts paused until the vacation ends.
func TestVacationTurnWhileAwayRealClock(t *testing.T) {
	tb := newTestApp(t)
	startGame(t, tb) // correspondence: ann to move, 3 days
	only(t, tb.command(ann, "/go play move:E5"))
	vacationReply(t, tb.command(ann, "/go vacation days:10"))
	until := tb.Now().Add(10 * 24 * time.Hour)
	tb.clk.SetTick(time.Millisecond)
	tb.command(bob, "/go play move:C3")
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	left := g.Clock.Time(clock.First).Main // 3 days + 1 day for E5
	if d := g.Clock.Deadline(); d.Before(until.Add(left-time.Second)) || d.After(until.Add(left)) {
		t.Errorf("ann's turn, come while she is away, runs out at %v, want %v (the vacation's end, %v, and her %v)",
			d, until.Add(left), until, left)
	}
}

// TestVacationWording: a vacation that would pause nothing (the player's
// only game has a live clock) is refused, saying so, and takes none of
// the days; one that pauses a turn says it as a sentence ("None of your
// 30 days…"), and the board of the paused turn says until when the player
// is away.
func TestVacationWording(t *testing.T) {
	tb := newTestApp(t)
	startClocked(t, tb, "live")
	c := vacationReply(t, tb.command(ann, "/go vacation days:30"))
	if want := "You play no correspondence game and have no correspondence challenge waiting, so a vacation would pause nothing: it pauses correspondence clocks (days a move) only. Live clocks never pause: the clock of your live game keeps running. No days were taken; 30 days of your 30 days for 2026 left."; !c.Message.Ephemeral || c.text() != want {
		t.Errorf("vacation with a live game only = %q, want %q", c.text(), want)
	}
	if c := vacationReply(t, tb.command(ann, "/go vacation")); !strings.Contains(c.text(), "You are not on vacation; 30 days of your 30 days") {
		t.Errorf("after the refusal: %q, want no vacation and no day taken", c.text())
	}

	tb = newTestApp(t)
	startGame(t, tb) // correspondence: ann to move, 3 days
	until := tb.Now().Add(30 * 24 * time.Hour)
	calls := tb.command(ann, "/go vacation days:30")
	c = vacationReply(t, calls)
	// The game's channel is told, after the answer: its board said ann's
	// time ran out in 3 days.
	paused, _ := tb.store.Game(context.Background(), channelID)
	if note := fmt.Sprintf("🏖️ <@%s> is on vacation until <t:%d:f>: their clock in this game is paused until then, unless they come back sooner. Their time then runs out <t:%d:R>.", ann.ID, until.Unix(), paused.Clock.Deadline().Unix()); len(calls) != 2 || calls[1].text() != note || calls[1].Message.Ephemeral {
		t.Errorf("/go vacation's calls %v, want the answer, then the note %q", calls, note)
	}
	if want := fmt.Sprintf("🏖️ Enjoy your vacation, until <t:%d:f>. Your correspondence clocks are paused (now in 1 game, and in any game where your turn comes meanwhile). None of your 30 days for 2026 left.", until.Unix()); c.text() != want {
		t.Errorf("vacation = %q, want %q", c.text(), want)
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	board := tb.command(bob, "/go board")
	want := fmt.Sprintf("⚫ black is on vacation until <t:%d:f>; their time runs out <t:%d:R>", until.Unix(), g.Clock.Deadline().Unix())
	if len(board) == 0 || !strings.Contains(board[len(board)-1].text(), want) {
		t.Errorf("board of a turn paused by a vacation = %v, want %q", board, want)
	}

	// Away while it is the opponent's turn: nothing pauses now, and the
	// answer says when it will.
	tb = newTestApp(t)
	startGame(t, tb)
	only(t, tb.command(ann, "/go play move:E5"))
	if c := vacationReply(t, tb.command(ann, "/go vacation days:5")); !strings.Contains(c.text(), "Your correspondence clocks are paused when your turn comes in your correspondence game (it is not your turn now). 25 days of your 30 days for 2026 left.") {
		t.Errorf("vacation on the opponent's turn = %q", c.text())
	}
}

// TestVacationPendingChallenge: a player with no game but a
// correspondence challenge waiting (made or received) may go on vacation:
// the answer says the game will pause when the challenge is accepted, and
// a game started from it while they are away starts with their turn
// paused until the vacation ends. A live challenge alone pauses nothing
// and is refused, as before.
func TestVacationPendingChallenge(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		challenger, acceptor *discordgo.User
		line                 string
	}{
		{"made", ann, bob, "/go challenge opponent:bob size:9 color:black"},
		{"received", bob, ann, "/go challenge opponent:ann size:9 color:white"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTestApp(t)
			calls := tb.command(tc.challenger, tc.line)
			if len(calls) != 2 || calls[1].Op != "edit" {
				t.Fatalf("challenge: %v", calls)
			}
			accept := calls[1].buttonID(t, "Accept")
			until := tb.Now().Add(5 * 24 * time.Hour)
			c := vacationReply(t, tb.command(ann, "/go vacation days:5"))
			if want := "Your correspondence clocks are paused when your turn comes in the game of your correspondence challenge, once it is accepted (you play no correspondence game now). 25 days of your 30 days for 2026 left."; !strings.Contains(c.text(), want) {
				t.Fatalf("vacation with a challenge %s = %q, want %q", tc.name, c.text(), want)
			}
			tb.clk.Advance(time.Hour) // within the challenge's life
			if calls := tb.press(tc.acceptor, accept); len(calls) != 2 {
				t.Fatalf("accept: %v", calls)
			}
			g, err := tb.store.Game(context.Background(), channelID)
			if err != nil {
				t.Fatal(err)
			}
			if want := until.Add(3 * 24 * time.Hour); g.Clock.ToMove != clock.First || !g.Clock.Deadline().Equal(want) {
				t.Errorf("ann's first turn, begun while she is away, runs out at %v, want %v (3 days after the vacation)", g.Clock.Deadline(), want)
			}
		})
	}

	tb := newTestApp(t)
	tb.command(ann, "/go challenge opponent:bob size:9 color:black clock:live")
	if c := vacationReply(t, tb.command(ann, "/go vacation days:5")); !strings.Contains(c.text(), "You play no correspondence game and have no correspondence challenge waiting, so a vacation would pause nothing") {
		t.Errorf("vacation with a live challenge only = %q, want it refused", c.text())
	}
}

// TestBotStandInSaid: a bot move made by a stand-in (no search slot free
// in the move's time on the clock, an engine late or wrong) says so under
// the move, to the players who chose the level.
func TestBotStandInSaid(t *testing.T) {
	tb := newTestApp(t)
	only(t, tb.command(ann, "/go bot level:standin size:9 color:black clock:simple 10s"))
	calls := tb.command(ann, "/go play move:E5") // deferred, then the board
	c := calls[len(calls)-1]
	if want := "\n⚠️ A quick stand-in chose this move: every bot was busy for longer than this move's time on the clock allows."; !strings.Contains(c.text(), want) {
		t.Errorf("the bot's answer = %q, want it to say %q", c.text(), want)
	}
	g, _ := tb.store.Game(context.Background(), channelID)
	if g == nil || g.State.MoveCount() != 2 {
		t.Fatalf("the bot's move was not played")
	}
}

// TestVacationBotGameStarted: a game against the bot started while its
// player is on vacation starts with their turn paused until the vacation
// ends, as a challenge accepted meanwhile does.
func TestVacationBotGameStarted(t *testing.T) {
	tb := newTestApp(t)
	tb.command(ann, "/go challenge opponent:bob size:9 color:black") // a correspondence challenge: the vacation has something to pause
	until := tb.Now().Add(2 * 24 * time.Hour)
	if c := vacationReply(t, tb.command(ann, "/go vacation days:2")); !strings.Contains(c.text(), "paused") {
		t.Fatalf("vacation = %q", c.text())
	}
	calls := tb.command(ann, "/go bot level:first size:9 color:black rated:false")
	if len(calls) == 0 {
		t.Fatal("/go bot answered nothing")
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	if want := until.Add(3 * 24 * time.Hour); g.Clock.ToMove != clock.First || !g.Clock.Deadline().Equal(want) {
		t.Errorf("ann's first turn against the bot, begun while she is away, runs out at %v, want %v (3 days after the vacation)", g.Clock.Deadline(), want)
	}
}

// vacationReply is the private answer to a /go vacation among calls, and
// the notes it posted in the channels of the games whose clock it paused
// or started again (each its own post): their newest boards still show
// the deadline as it was.
func vacationReply(t *testing.T, calls []call) call {
	t.Helper()
	var reply []call
	for _, c := range calls {
		switch {
		case c.Message != nil && c.Message.Ephemeral:
			reply = append(reply, c)
		case strings.HasPrefix(c.text(), "🏖️ <@"+ann.ID+"> is on vacation until <t:") || strings.HasPrefix(c.text(), "👋 <@"+ann.ID+"> is back from vacation: their clock in this game runs again"):
		default:
			t.Fatalf("/go vacation: unexpected call %s: %q", c.Op, c.text())
		}
	}
	if len(reply) != 1 {
		t.Fatalf("/go vacation: %d private answers, want 1", len(reply))
	}
	return reply[0]
}
