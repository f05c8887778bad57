package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// jsonRecords decodes out as one JSON record a line, failing t on a line
// that is not one.
func jsonRecords(t *testing.T, out string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a line of the JSON log is no JSON record: %q (%v); all of it:\n%s", line, err, out)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestJSONLogStops: with GOBOT_LOG_FORMAT=json every line gobot writes is
// a JSON record: the error that stops it (a bad configuration, a gateway
// that cannot be reached, named by the URL of DISCORD_API_URL it was
// looked up at) is the last, at level ERROR, and the invite
// links are records too; nothing goes to stdout. A configuration whose
// GOBOT_LOG_FORMAT is itself wrong is said in plain text.
func TestJSONLogStops(t *testing.T) {
	t.Run("configuration", func(t *testing.T) {
		t.Setenv("DISCORD_TOKEN", "")
		t.Setenv("DISCORD_TOKEN_FILE", "")
		t.Setenv("GOBOT_LOG_FORMAT", "JSON")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr)
		recs := jsonRecords(t, stderr.String())
		if code != 1 || stdout.Len() != 0 || len(recs) != 1 || recs[0]["level"] != "ERROR" || recs[0]["msg"] != "gobot stopped" ||
			recs[0]["err"] != "config: DISCORD_TOKEN: not set (set DISCORD_TOKEN or DISCORD_TOKEN_FILE to the bot token)" {
			t.Errorf("gobot without a token, JSON log = %d, stdout %q, stderr %q; want 1 and one ERROR record naming DISCORD_TOKEN", code, stdout.String(), stderr.String())
		}
	})
	t.Run("log format wrong", func(t *testing.T) {
		t.Setenv("DISCORD_TOKEN", leakToken)
		t.Setenv("GOBOT_LOG_FORMAT", "xml")
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr)
		if want := "gobot: config: GOBOT_LOG_FORMAT: \"xml\" is not text or json\n"; code != 1 || stderr.String() != want {
			t.Errorf("gobot with GOBOT_LOG_FORMAT=xml = %d, %q; want 1 and %q", code, stderr.String(), want)
		}
	})
	t.Run("gateway", func(t *testing.T) {
		for k, v := range map[string]string{
			"DISCORD_TOKEN": leakToken, "DISCORD_APP_ID": "1087469857499172832", "DISCORD_API_URL": "http://127.0.0.1:1/api",
			"GOBOT_MODE": "gateway", "GOBOT_HTTP_ADDR": "", "GOBOT_SHARD_COUNT": "1", "GOBOT_DATABASE_URL": "", "GOBOT_GUILD_ID": "",
			"GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"), "GOBOT_LOG_FORMAT": "json", "GOBOT_LOG_LEVEL": "info",
		} {
			t.Setenv(k, v)
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr)
		recs := jsonRecords(t, stderr.String())
		last := recs[len(recs)-1]
		if code != 1 || stdout.Len() != 0 || last["level"] != "ERROR" || last["msg"] != "gobot stopped" ||
			last["err"] != `connect to the Discord gateway: Get "http://127.0.0.1:1/api/gateway": dial tcp 127.0.0.1:1: connect: connection refused` {
			t.Errorf("gobot without a gateway, JSON log = %d, stdout %q, last record %v; want 1, nothing and an ERROR record", code, stdout.String(), last)
		}
		links := map[string]string{}
		for _, r := range recs {
			if u, ok := r["url"].(string); ok {
				links[r["msg"].(string)] = u
			}
		}
		if links["invite gobot to a server"] != inviteURL("1087469857499172832") || links["or add it to your own account, to play in DMs and group chats"] != userInstallURL("1087469857499172832") {
			t.Errorf("the invite links in the JSON log = %v", links)
		}
		if strings.Contains(stderr.String(), leakToken) {
			t.Errorf("the JSON log quotes the token:\n%s", stderr.String())
		}
	})
}

// TestDiscordgoLogsJSON: discordgo's package logger, which printed plain
// text to the standard logger even with GOBOT_LOG_FORMAT=json (its "rate
// limit unmarshal error"), writes records of gobot's log, at the level of
// discordgo's, until restored.
func TestDiscordgoLogsJSON(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	restore := logDiscordgo(log)
	for _, level := range []int{discordgo.LogError, discordgo.LogWarning, discordgo.LogInformational, discordgo.LogDebug} {
		discordgo.Logger(level, 2, "rate limit unmarshal error, %s", "error code: 1015")
	}
	restore()
	recs := jsonRecords(t, out.String())
	want := []string{"ERROR", "WARN", "INFO", "DEBUG"}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), out.String())
	}
	for i, r := range recs {
		if r["level"] != want[i] || r["msg"] != "discordgo: rate limit unmarshal error, error code: 1015" {
			t.Errorf("record %d = %v, want level %s and the message prefixed", i, r, want[i])
		}
	}
	if discordgo.Logger != nil {
		t.Error("discordgo's logger was not restored")
	}
}
