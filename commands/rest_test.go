package commands

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestRESTWaitsPerBucket sends bursts into two channels whose message route
// allows 2 calls per window per channel. The fake answers with Discord's
// X-RateLimit-* headers and reports any call beyond the limit as a problem
// (failing the test): the client must wait for each bucket's reset, and
// only for its own bucket, so the second channel is not held up by the
// first.
func TestRESTWaitsPerBucket(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	busy, quiet := d.GuildChannel("busy"), d.GuildChannel("quiet")
	const window = 400 * time.Millisecond
	d.Bucket(http.MethodPost, "/channels/{channel_id}/messages", 2, window)
	c := NewREST(d.URL, d.Token, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	var wg sync.WaitGroup
	send := func(ch *discordtest.Channel, i int) {
		defer wg.Done()
		if _, err := c.SendMessage(ctx, ch.ID, &Message{Content: fmt.Sprintf("%s %d", ch.Name, i)}); err != nil {
			t.Errorf("SendMessage(%s, %d): %v", ch.Name, i, err)
		}
	}
	for i := range 6 {
		wg.Add(1)
		go send(busy, i)
	}
	// The busy channel's bucket is exhausted before the quiet one is used.
	d.WaitFor("two messages in the busy channel", func() bool { return len(d.Public(busy.ID)) >= 2 })
	for i := range 2 {
		wg.Add(1)
		go send(quiet, i)
	}
	wg.Wait()

	if n := len(d.Public(busy.ID)); n != 6 {
		t.Errorf("%d messages in the busy channel, want 6", n)
	}
	if n := len(d.Public(quiet.ID)); n != 2 {
		t.Errorf("%d messages in the quiet channel, want 2", n)
	}
	var busyAt []time.Time
	var quietDone time.Time
	for _, call := range d.Calls() {
		if call.Status == http.StatusTooManyRequests {
			t.Errorf("%v: the client hammered a limited bucket", call)
		}
		switch call.Path {
		case "/channels/" + busy.ID + "/messages":
			busyAt = append(busyAt, call.At)
		case "/channels/" + quiet.ID + "/messages":
			quietDone = call.At
		}
	}
	// Six calls at two per window need three windows: the fifth call
	// cannot come before the second window has passed. The quiet channel
	// has its own bucket and is not queued behind them.
	if len(busyAt) == 6 && !quietDone.Before(busyAt[4]) {
		t.Errorf("the quiet channel's messages went after the busy channel's fifth (%v >= %v): buckets are not separate", quietDone, busyAt[4])
	}
}

// TestRESTWaitsForGlobalLimit: after a 429 with X-RateLimit-Global, no call
// on any route may reach Discord before the wait it names has passed (the
// fake reports an early one as a problem), and the limited call is retried.
func TestRESTWaitsForGlobalLimit(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	a, b := d.GuildChannel("a"), d.GuildChannel("b")
	c := NewREST(d.URL, d.Token, nil)
	limited := make(chan struct{}, 1)
	c.Session().AddHandler(func(_ *discordgo.Session, _ *discordgo.RateLimit) {
		select {
		case limited <- struct{}{}:
		default:
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d.GlobalRateLimit(300 * time.Millisecond)
	done := make(chan error, 1)
	go func() {
		_, err := c.SendMessage(ctx, a.ID, &Message{Content: "first"})
		done <- err
	}()
	select {
	case <-limited:
	case <-ctx.Done():
		t.Fatal("the client never saw the global rate limit")
	}
	// Another route, another bucket: it must still wait for the global limit.
	if _, err := c.SendMessage(ctx, b.ID, &Message{Content: "second"}); err != nil {
		t.Errorf("SendMessage(b): %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("SendMessage(a) after the global limit: %v", err)
	}
	if len(d.Public(a.ID)) != 1 || len(d.Public(b.ID)) != 1 {
		t.Errorf("messages: %d in a, %d in b; want 1 and 1", len(d.Public(a.ID)), len(d.Public(b.ID)))
	}
	var n429 int
	for _, call := range d.Calls() {
		if call.Status == http.StatusTooManyRequests {
			n429++
		}
	}
	if n429 != 1 {
		t.Errorf("%d calls answered 429, want 1 (the one that met the global limit)", n429)
	}
}

// TestDiscordErrorScrubsEchoedToken: an error body that echoes the
// Authorization header (a proxy's, say) never keeps any of the token, even
// where the body is cut to 300 characters in the middle of it.
func TestDiscordErrorScrubsEchoedToken(t *testing.T) {
	const token = "MTAxNTk5OTk5OTk5OTk5OTk5OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
	for _, pad := range []int{0, 250, 280, 295} {
		body := strings.Repeat("x", pad) + `{"headers":{"Authorization":"Bot ` + token + `"}}`
		err := discordError("GET", "/applications/@me", &discordgo.RESTError{Response: &http.Response{StatusCode: 401}, ResponseBody: []byte(body)})
		msg := err.Error()
		for n := 6; n <= len(token); n++ {
			if strings.Contains(msg, token[:n]) {
				t.Errorf("with %d characters before it, the error keeps %q of the token: %s", pad, token[:n], msg)
				break
			}
		}
		if pad == 0 && !strings.Contains(msg, "Bot [redacted]") {
			t.Errorf("error %q, want the header's value redacted", msg)
		}
	}
}

// TestOverwriteKeepsDiscordsEntryPoint: an application whose Activities
// were enabled in the Developer Portal has Discord's Entry Point command,
// and Discord refuses a global overwrite that drops it (error 50240, as
// the fake does). Without its own Entry Point, gobot's global overwrite
// reads the existing commands and keeps that one as it is (its ID and
// handler); with its own, it sends that; a guild's overwrite reads nothing.
func TestOverwriteKeepsDiscordsEntryPoint(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	existing := d.AddEntryPoint()
	c := NewREST(d.URL, d.Token, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	goCmd := &discordgo.ApplicationCommand{Name: "go", Description: "Play Go"}
	entryPoints := func(guildID string) []map[string]any {
		var eps []map[string]any
		for _, cmd := range d.Commands(guildID) {
			if m, _ := cmd.(map[string]any); m["type"] == float64(4) {
				eps = append(eps, m)
			}
		}
		return eps
	}

	if err := c.OverwriteCommands(ctx, d.AppID, "", []*discordgo.ApplicationCommand{goCmd}); err != nil {
		t.Fatalf("global overwrite without an Entry Point: %v", err)
	}
	if eps := entryPoints(""); len(eps) != 1 || eps[0]["id"] != existing["id"] || eps[0]["handler"] != float64(2) || eps[0]["name"] != "launch" {
		t.Errorf("Entry Points after the overwrite = %v, want Discord's %v kept", eps, existing)
	}
	if n := len(d.Commands("")); n != 2 {
		t.Errorf("%d global commands, want /go and the Entry Point", n)
	}

	if err := c.OverwriteCommands(ctx, d.AppID, "", []*discordgo.ApplicationCommand{goCmd, entryPoint()}); err != nil {
		t.Fatalf("global overwrite with gobot's Entry Point: %v", err)
	}
	if eps := entryPoints(""); len(eps) != 1 || eps[0]["description"] != entryPoint().Description || eps[0]["handler"] != float64(discordLaunchActivity) {
		t.Errorf("Entry Points after gobot's = %v, want gobot's", eps)
	}

	before := len(d.Calls())
	if err := c.OverwriteCommands(ctx, d.AppID, d.GuildID, []*discordgo.ApplicationCommand{goCmd}); err != nil {
		t.Fatalf("guild overwrite: %v", err)
	}
	if calls := d.Calls()[before:]; len(calls) != 1 || calls[0].Method != http.MethodPut {
		t.Errorf("a guild's overwrite made %d calls (%v), want one PUT", len(calls), calls)
	}
}
