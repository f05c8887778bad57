package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSubcommandHelp: every subcommand's --help prints its usage and exits
// 0, as gobot help describes it: unregister's (it refused --help as an
// argument), doctor's with export N, ratings' with the rebuild it needs;
// gtp's --bot names the GTP programs, and arena names the levels when one
// is unknown.
func TestSubcommandHelp(t *testing.T) {
	t.Setenv("GOBOT_GTP_ENGINES", "")
	for _, c := range []struct {
		args         []string
		code         int
		stdout, errs string
	}{
		{[]string{"unregister", "--help"}, 0, "usage: gobot unregister\n\nremoves gobot's slash commands from the server GOBOT_GUILD_ID names, or\n" +
			"without it the global ones (gobot registers them again when it starts);\nconfigured by the environment (DISCORD_TOKEN), it takes no arguments\n", ""},
		{[]string{"doctor", "--help"}, 0, "", "usage: gobot doctor [--db FILE]            list the game records set aside as damaged\n" +
			"       gobot doctor export N [--db FILE]   write record N as SGF, with the moves that still replay\n\n" +
			"reads PostgreSQL when GOBOT_DATABASE_URL is set, else GOBOT_DB\n\n  -db string\n    \tdatabase file (default: GOBOT_DB)\n"},
		{[]string{"ratings", "--help"}, 0, "", "usage: gobot ratings rebuild [--db FILE]\n\n" +
			"recomputes every rating from the archive (GOBOT_DATABASE_URL, else GOBOT_DB; stop the bot first on bbolt)\n\n" +
			"  -db string\n    \tdatabase file (default: GOBOT_DB, or gobot.db)\n"},
		{[]string{"ratings", "--db", "x.db"}, 2, "", "gobot: usage: gobot ratings rebuild [--db FILE]\n"},
		{[]string{"arena", "-a", "nope", "-b", "easy"}, 2, "", "gobot: -a: unknown level \"nope\" (levels: beginner, easy, casual, steady, keen, medium, strong, tough, hard, max)\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || stdout.String() != c.stdout || stderr.String() != c.errs {
			t.Errorf("gobot %s = %d\nstdout %q\nstderr %q\nwant %d\nstdout %q\nstderr %q", strings.Join(c.args, " "), code, stdout.String(), stderr.String(), c.code, c.stdout, c.errs)
		}
	}
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"gtp", "--help"}, strings.NewReader(""), &stdout, &stderr)
	if want := "bot level that generates moves (beginner, easy, casual, steady, keen, medium, strong, tough, hard, max, or gtp:NAME for a program of GOBOT_GTP_ENGINES; default: the strongest built-in level)"; !strings.Contains(stderr.String(), want) {
		t.Errorf("gobot gtp --help =\n%s\nwant %q", stderr.String(), want)
	}
}

// TestCommandList: the start-up line names every command registered, with
// the Activity's launch command when it is registered too.
func TestCommandList(t *testing.T) {
	defs := []*discordgo.ApplicationCommand{{Name: "go"}, {Name: "draughts"}, {Name: "go-admin"}}
	if got, want := commandList(defs, false), "/go, /draughts and /go-admin"; got != want {
		t.Errorf("commandList = %q, want %q", got, want)
	}
	if got, want := commandList(defs, true), "/go, /draughts, /go-admin and the Activity's launch"; got != want {
		t.Errorf("commandList with the Activity = %q, want %q", got, want)
	}
}
