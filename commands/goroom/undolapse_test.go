package goroom

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
)

// pressOn presses the button labelled label on the message that c sent,
// as u: the interaction carries the message as Discord sends it, with its
// ID (id) and text.
func (tb *testApp) pressOn(u *discordgo.User, c call, id, label string) []call {
	tb.t.Helper()
	t := tb.t.(*testing.T)
	it := tb.interaction(u, channelID)
	it.Type = discordgo.InteractionMessageComponent
	it.Data = discordgo.MessageComponentInteractionData{CustomID: c.buttonID(t, label), ComponentType: discordgo.ButtonComponent}
	it.Message = &discordgo.Message{ID: id, ChannelID: channelID, Content: c.Message.Content}
	tb.Handle(context.Background(), it)
	return tb.rec.take()
}

// askUndo starts a game between ann and bob, ann plays E5 and asks to
// take it back: the question, and the ID of its message as the store
// keeps it with the request.
func askUndo(t *testing.T, tb *testApp) (call, string) {
	t.Helper()
	return askUndoAfter(t, tb, "play move:E5")
}

// askUndoAfter is askUndo after moves (/go subcommands, ann's first, then
// in turn), ann's last one taken back.
func askUndoAfter(t *testing.T, tb *testApp, moves ...string) (call, string) {
	t.Helper()
	startGame(t, tb)
	for i, m := range moves {
		only(t, tb.command([]*discordgo.User{ann, bob}[i%2], "/go "+m))
	}
	ask := only(t, tb.command(ann, "/go undo"))
	if want := commands.Mention(commands.UserPlayer(bob)) + ", " + commands.Mention(commands.UserPlayer(ann)) + " asks to take back 1 move. Do you allow it? [Allow undo] [Refuse]"; ask.text() != want {
		t.Fatalf("undo request = %q, want %q", ask.text(), want)
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	u := openRequest(g)
	if u == nil || u.MessageID == "" {
		t.Fatalf("the question's message was not stored with the request: %+v", g.Undo)
	}
	return ask, u.MessageID
}

// wantClosed checks that m is ann's question closed with outcome: its
// text, and both its buttons disabled.
func wantClosed(t *testing.T, what string, m *commands.Message, outcome string) {
	t.Helper()
	if m == nil {
		t.Fatalf("%s: no message", what)
	}
	if want := commands.Mention(commands.UserPlayer(ann)) + " asked to take back 1 move. " + outcome; m.Content != want {
		t.Errorf("%s: the question says %q, want %q", what, m.Content, want)
	}
	n := 0
	for _, row := range m.Components {
		for _, comp := range row.(discordgo.ActionsRow).Components {
			if b := comp.(discordgo.Button); !b.Disabled {
				t.Errorf("%s: the question's %q button is live", what, b.Label)
			}
			n++
		}
	}
	if n != 2 {
		t.Errorf("%s: the question has %d buttons, want Allow undo and Refuse, disabled", what, n)
	}
	if m.AllowedMentions == nil || len(m.AllowedMentions.Parse) > 0 || len(m.AllowedMentions.Users) > 0 {
		t.Errorf("%s: the closed question notifies someone: %+v", what, m.AllowedMentions)
	}
}

// texts are calls as the test's failures show them.
func texts(calls []call) string {
	var s []string
	for _, c := range calls {
		s = append(s, c.Op+" "+c.Edited+": "+c.text())
	}
	return strings.Join(s, "\n")
}

// editOf is the one edit of message id among calls.
func editOf(t *testing.T, calls []call, id string) *commands.Message {
	t.Helper()
	var got *commands.Message
	for _, c := range calls {
		if c.Op == "editmsg" && c.Edited == id {
			if got != nil {
				t.Errorf("message %s was edited twice", id)
			}
			got = c.Message
		}
	}
	if got == nil {
		t.Fatalf("message %s was not edited; calls %s", id, texts(calls))
	}
	return got
}

// TestUndoQuestionClosedByMove: bob plays instead of answering ann's undo
// request; the question is edited closed at once (as OGS and KGS close
// it), saying why, its buttons disabled: with the commit, before the
// move's answer, so that a process dying before it answers has closed it.
func TestUndoQuestionClosedByMove(t *testing.T) {
	tb := newTestApp(t)
	_, id := askUndo(t, tb)
	calls := tb.command(bob, "/go play move:C3")
	if len(calls) != 2 || calls[0].Op != "editmsg" || calls[1].Op != "callback" {
		t.Fatalf("bob's move: %s", texts(calls))
	}
	wantClosed(t, "after bob's move", editOf(t, calls, id), "⌛ A move was played since; play on.")
	// Closed once: the next moves leave it alone.
	only(t, tb.command(ann, "/go play move:D4"))
}

// TestUndoQuestionClosedByEnding: a resignation, a pass into the scoring
// phase, an abort and a loss on time (the scheduler's) close the
// question of an undo request left open.
func TestUndoQuestionClosedByEnding(t *testing.T) {
	for _, tc := range []struct {
		name, outcome string
		moves         []string
		end           func(tb *testApp) []call
	}{
		{"resignation", "⌛ The game has ended.", nil, func(tb *testApp) []call { return tb.command(bob, "/go resign") }},
		// ann passed and asks to take her pass back; bob passes too.
		{"passes", "⌛ Play has ended since: the dead stones are being agreed.", []string{"play move:E5", "play move:C3", "pass"}, func(tb *testApp) []call {
			return tb.command(bob, "/go pass")
		}},
		{"abort", "⌛ The game has ended.", nil, func(tb *testApp) []call {
			calls := tb.command(bob, "/go abort")
			var yes string
			for _, c := range calls {
				if c.Message != nil && len(c.Message.Components) > 0 {
					yes = c.buttonID(t, "Yes, abort")
				}
			}
			if yes == "" {
				t.Fatalf("/go abort: %v", calls)
			}
			return tb.press(bob, yes)
		}},
		{"time", "⌛ The game has ended.", nil, func(tb *testApp) []call {
			tb.clk.Advance(30 * 24 * time.Hour)
			tb.HandleDueGames(context.Background())
			return tb.rec.take()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTestApp(t)
			moves := tc.moves
			if moves == nil {
				moves = []string{"play move:E5"}
			}
			_, id := askUndoAfter(t, tb, moves...)
			wantClosed(t, "after the "+tc.name, editOf(t, tc.end(tb), id), tc.outcome)
		})
	}
}

// TestUndoStalePressClosesQuestion: a request stored without the message
// asking it (by a gobot before messages were stored with requests)
// cannot have its question closed by the move or the ending; the first
// press does, in place, and the presser is told why privately.
func TestUndoStalePressClosesQuestion(t *testing.T) {
	forget := func(tb *testApp) {
		g, err := tb.store.Game(context.Background(), channelID)
		if err != nil {
			t.Fatal(err)
		}
		// The same request as an older gobot stored it: a write keeps
		// the message of the same request, so this one is told apart by
		// its time.
		u := *g.Undo
		u.MessageID, u.RequestedAt = "", u.RequestedAt.Add(time.Nanosecond)
		g.Undo = &u
		if err := tb.store.UpdateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name          string
		end           func(tb *testApp)
		presser       *discordgo.User
		outcome, told string
	}{
		{"move", func(tb *testApp) { only(t, tb.command(bob, "/go play move:C3")) }, bob,
			"⌛ A move was played since; play on.", "This undo request is no longer open: it was answered or withdrawn, or a move was played since."},
		{"spectator", func(tb *testApp) { only(t, tb.command(bob, "/go play move:C3")) }, cat,
			"⌛ A move was played since; play on.", "This undo request is no longer open: it was answered or withdrawn, or a move was played since."},
		{"resignation", func(tb *testApp) { tb.command(bob, "/go resign") }, bob,
			"⌛ The game has ended.", "That game has ended; this button no longer does anything."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTestApp(t)
			ask, id := askUndo(t, tb)
			forget(tb)
			tc.end(tb)
			calls := tb.pressOn(tc.presser, ask, id, "Allow undo")
			if len(calls) != 2 || calls[0].Op != "callback" || calls[0].Type != discordgo.InteractionResponseUpdateMessage {
				t.Fatalf("the stale press: %s", texts(calls))
			}
			wantClosed(t, "the pressed question", calls[0].Message, tc.outcome)
			if c := calls[1]; c.Op != "followup" || c.Message == nil || !c.Message.Ephemeral || c.Message.Content != tc.told {
				t.Errorf("the presser was told %s %q, want privately %q", c.Op, c.text(), tc.told)
			}
			if g, err := tb.store.Game(context.Background(), channelID); tc.name != "resignation" && (err != nil || g.State.MoveCount() != 2) {
				t.Errorf("the stale press changed the game: %v", err)
			}
		})
	}
}

// TestUndoPressOnClosedQuestion: a press on a question answered already
// (closed, or pressed in a race with the answer) leaves it as the answer
// made it.
func TestUndoPressOnClosedQuestion(t *testing.T) {
	tb := newTestApp(t)
	ask, id := askUndo(t, tb)
	closed := tb.pressOn(bob, ask, id, "Refuse")
	c := only(t, closed)
	if c.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("refuse: %v", closed)
	}
	c.Message.Components = ask.Message.Components // as a second press raced the first
	wantEphemeral(t, tb.pressOn(bob, c, id, "Refuse"), "This undo request is no longer open")
	// A second press that raced the first, with the question still open:
	// the request was answered, not lapsed, and the answer's edit stands.
	wantEphemeral(t, tb.pressOn(bob, ask, id, "Allow undo"), "This undo request is no longer open")
}
