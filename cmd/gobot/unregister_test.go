package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestUnregister: an operator who tried gobot in a test server and then
// registered it globally has each command twice there; `gobot unregister`
// with GOBOT_GUILD_ID removes the server's copy and leaves the global one,
// and without it removes the global commands but the Entry Point, which
// Discord keeps.
func TestUnregister(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rest := commands.NewREST(d.URL, d.Token, nil)
	launch := d.AddEntryPoint()
	cmds := []*discordgo.ApplicationCommand{{Name: "go", Description: "Play Go"}}
	for _, guild := range []string{d.GuildID, ""} {
		if err := rest.OverwriteCommands(ctx, d.AppID, guild, cmds); err != nil {
			t.Fatal(err)
		}
	}
	unregister := func(guild string) (code int, out, errs string) {
		t.Helper()
		for k, v := range map[string]string{
			"DISCORD_TOKEN": d.Token, "DISCORD_API_URL": d.URL, "DISCORD_APP_ID": "", "GOBOT_GUILD_ID": guild,
			"GOBOT_MODE": "gateway", "GOBOT_DATABASE_URL": "", "GOBOT_GTP_ENGINES": "",
		} {
			t.Setenv(k, v)
		}
		var stdout, stderr strings.Builder
		code = run(ctx, []string{"unregister"}, strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	names := func(guild string) []string {
		var out []string
		for _, c := range d.Commands(guild) {
			out = append(out, c.(map[string]any)["name"].(string))
		}
		return out
	}

	code, out, errs := unregister(d.GuildID)
	if want := "Removed gobot's commands from the server " + d.GuildID + ". Global commands, if registered, still show there.\n"; code != 0 || out != want {
		t.Fatalf("gobot unregister in the test server: %d, %q, stderr %q; want 0, %q", code, out, errs, want)
	}
	if got := names(d.GuildID); len(got) != 0 {
		t.Errorf("the test server still has %v", got)
	}
	if got := names(""); len(got) != 2 {
		t.Errorf("global commands after removing the server's: %v, want go and launch", got)
	}

	code, out, errs = unregister("")
	if code != 0 || !strings.HasPrefix(out, "Removed gobot's global commands (Discord keeps the Activity's Launch command") {
		t.Fatalf("gobot unregister: %d, %q, stderr %q", code, out, errs)
	}
	if got := names(""); len(got) != 1 || got[0] != launch["name"] {
		t.Errorf("global commands left: %v, want only launch", got)
	}
	for _, p := range d.Problems() {
		t.Errorf("fake Discord: %s", p)
	}
}
