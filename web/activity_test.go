package web

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/goroom"
)

// TestOpenBoardButton: with the Activity set up, every board message has
// an Open board button, which answers with the callback that launches the
// Activity; the global commands include the Entry Point command, launched
// by Discord.
func TestOpenBoardButton(t *testing.T) {
	e := newEnv(t, Options{})
	e.challenge("ann", "bob", 9)
	board := e.slash("ann", "board")
	msgs := e.d.Public(e.ch.ID)
	var found bool
	for i := len(msgs) - 1; i >= 0 && !found; i-- {
		for _, b := range msgs[i].Buttons() {
			if b.Label != "Open board" {
				continue
			}
			found = true
			r := e.d.Do(e.d.Click(user("cat"), msgs[i], b.CustomID))
			if r.Type != discordtest.CallbackLaunchActivity {
				t.Errorf("Open board answered type %d (%s), want 12 (LAUNCH_ACTIVITY)", r.Type, r.Body)
			}
		}
	}
	if !found {
		t.Fatalf("no Open board button on the board: %q", board)
	}
	app, err := commands.New(commands.Options{AppID: e.d.AppID, Discord: commands.NewREST(e.d.URL, e.d.Token, nil), Store: e.store,
		Rooms: []commands.NewRoom{goroom.New(firstPoint{}, nil)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Shutdown(context.Background())
	if err := app.Register(context.Background()); err != nil {
		t.Fatal(err)
	}
	var entry map[string]any
	for _, c := range e.d.Commands("") {
		if m, _ := c.(map[string]any); m["type"] == float64(4) {
			entry = m
		}
	}
	if entry == nil || entry["handler"] != float64(2) || entry["name"] != "launch" {
		t.Errorf("the global commands' Entry Point is %v, want type 4, handler 2 (Discord launches the Activity)", entry)
	}
	if p := e.d.Problems(); len(p) > 0 {
		t.Errorf("the fake Discord saw problems: %v", p)
	}
}
