package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestOwedMoveHandover: a worker's outcome reaches the handler of its
// channel however the two interleave: sent to a handler waiting, kept for
// a handler in flight that waits later, posted by the last handler to
// leave when none waited; a failure is never posted.
func TestOwedMoveHandover(t *testing.T) {
	eg, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	g := &storage.Game{ID: "g1", ChannelID: "c1", State: engine.Own(eg)}
	made := botOutcome{gameID: "g1", moves: 0, game: g, note: "played"}
	failed := botOutcome{gameID: "g1", moves: 0, err: errors.New("the engine fell over")}

	o := newOwedMoves()
	if o.deliver("c1", made) {
		t.Errorf("deliver with no handler in the channel = true, want false (the worker posts)")
	}

	// Waiting first: the outcome is sent.
	leave := o.attend("c1")
	mw, early := o.await(g)
	if early != nil || !o.deliver("c1", made) {
		t.Fatalf("a waiting handler was not handed the outcome")
	}
	if out := <-mw.done; out.note != "played" {
		t.Errorf("waiter got %+v", out)
	}
	if p := leave(); p != nil {
		t.Errorf("leave after the outcome was taken = %+v, want nil", p)
	}

	// Made before the handler waits: await returns it at once.
	leave = o.attend("c1")
	if !o.deliver("c1", failed) {
		t.Fatalf("an outcome for a handler in flight was not kept")
	}
	if _, early := o.await(g); early == nil || early.err == nil {
		t.Errorf("await after a failure = %+v, want the failure", early)
	}
	if p := leave(); p != nil {
		t.Errorf("leave = %+v, want nil", p)
	}

	// Made while a handler of the channel was in flight and never waited:
	// the last to leave posts it; a failure is dropped.
	leave1, leave2 := o.attend("c1"), o.attend("c1")
	o.deliver("c1", made)
	if p := leave1(); p != nil {
		t.Errorf("first leave = %+v, want nil (another handler is in flight)", p)
	}
	if p := leave2(); p == nil || p.note != "played" {
		t.Errorf("last leave = %+v, want the move to post", p)
	}
	leave = o.attend("c1")
	o.deliver("c1", failed)
	if p := leave(); p != nil {
		t.Errorf("leave after a failure nobody waited for = %+v, want nil", p)
	}
	if len(o.watch) != 0 {
		t.Errorf("%d channels still watched after every handler left", len(o.watch))
	}
}

// TestGameLabel: a finished game's suggestion names the opponent of the
// user asking, as a mention only when the opponent is a user.
func TestGameLabel(t *testing.T) {
	now := time.Date(2026, 5, 3, 12, 0, 0, 0, time.UTC)
	alice := storage.Player{UserID: "1", Name: "alice"}
	bob := storage.Player{UserID: "2", Name: "bob"}
	hard := storage.Player{Level: "hard"}
	for _, tt := range []struct {
		black, white storage.Player
		user, want   string
	}{
		{alice, bob, "1", "vs @bob · 9×9 · B+3.5 · 2 d ago"},
		{alice, bob, "2", "vs @alice · 9×9 · B+3.5 · 2 d ago"},
		{alice, bob, "3", "alice vs bob · 9×9 · B+3.5 · 2 d ago"},
		{hard, alice, "1", "vs gobot hard · 9×9 · B+3.5 · 2 d ago"},
		{alice, hard, "1", "vs gobot hard · 9×9 · B+3.5 · 2 d ago"},
		{alice, hard, "2", "alice vs gobot hard · 9×9 · B+3.5 · 2 d ago"},
	} {
		a := &storage.Archived{Black: tt.black, White: tt.white, Size: 9, Result: "B+3.5", FinishedAt: now.Add(-50 * time.Hour)}
		if got := gameLabel(a, "9×9", a.Result, tt.user, now); got != tt.want {
			t.Errorf("gameLabel(%v vs %v) for %s = %q, want %q", tt.black, tt.white, tt.user, got, tt.want)
		}
	}
}

// TestConsoleUserIDs: a console user's ID (the same name, in any case, is
// the same person) could never be a Discord user's: read as a snowflake it
// dates from before Discord's first user.
func TestConsoleUserIDs(t *testing.T) {
	seen := map[string]string{}
	for _, name := range []string{"ann", "bob", "cat", "Ann Lee", "x", strings.Repeat("z", 32)} {
		id := ConsoleDiscordUser(name).ID
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil || n == 0 || n >= 1<<48 {
			t.Errorf("ConsoleDiscordUser(%q).ID = %s, want a number from 1 to 2^48 (a snowflake of 2015-01-01)", name, id)
		}
		if other, ok := seen[id]; ok {
			t.Errorf("%q and %q have the same ID %s", name, other, id)
		}
		seen[id] = name
	}
	if ConsoleDiscordUser("ANN").ID != ConsoleDiscordUser("ann").ID {
		t.Errorf("ANN and ann are different people")
	}
}

// TestConsoleQuietEdits: an edit that only takes a message's buttons
// away (an old board's, once a game resigned on the board page ends)
// prints nothing in the console, not an empty "(edited message)" block;
// an edit with words still shows.
func TestConsoleQuietEdits(t *testing.T) {
	var out strings.Builder
	cd := &consoleDiscord{out: &out, names: map[string]string{}, now: time.Now}
	if err := cd.EditMessage(t.Context(), consoleChannel, "1", &Message{ClearComponents: true}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("an edit clearing the buttons printed %q", out.String())
	}
	if err := cd.EditMessage(t.Context(), consoleChannel, "1", &Message{Content: "ann resigned."}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(edited message)") || !strings.Contains(out.String(), "ann resigned.") {
		t.Errorf("an edit with words printed %q", out.String())
	}
}

func TestConsoleMarkup(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.Local)
	cd := &consoleDiscord{names: map[string]string{"42": "ann"}, now: func() time.Time { return now }}
	at := now.Add(90 * time.Minute).Unix()
	for in, want := range map[string]string{
		"<@42> and <@!42>, <@7>":                                     "@ann and @ann, @user",
		"<@&5> in <#" + consoleChannel + ">":                         "@role in #console",
		fmt.Sprintf("ends <t:%d:R>", at):                             "ends in 2 hours",
		fmt.Sprintf("<t:%d:R>", now.Add(71*time.Hour).Unix()):        "in 3 days",
		fmt.Sprintf("<t:%d:R>", now.Add(50*time.Minute).Unix()):      "in 1 hour",
		fmt.Sprintf("<t:%d:R>", now.Add(20*time.Second).Unix()):      "in 20 seconds",
		fmt.Sprintf("<t:%d:R>", now.Unix()):                          "just now",
		fmt.Sprintf("<t:%d:R>", now.Add(-29*time.Minute).Unix()):     "29 minutes ago",
		fmt.Sprintf("<t:%d:R>", now.Add(-40*24*time.Hour).Unix()):    "1 month ago",
		fmt.Sprintf("was <t:%d:R>", now.Add(-3*24*time.Hour).Unix()): "was 3 days ago",
		fmt.Sprintf("<t:%d:t> <t:%d:d>", at, at):                     now.Add(90*time.Minute).Format("15:04") + " " + now.Format("2006-01-02"),
		fmt.Sprintf("<t:%d>", at):                                    now.Add(90 * time.Minute).Format("2 January 2006 15:04"),
		"**bold** -# small":                                          "bold small",
	} {
		if got := cd.plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}
