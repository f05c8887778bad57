package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/internal/logtest"
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d.GlobalRateLimit(300 * time.Millisecond)
	done := make(chan error, 1)
	go func() {
		_, err := c.SendMessage(ctx, a.ID, &Message{Content: "first"})
		done <- err
	}()
	// The client has read the 429 once its rate limiter makes the other
	// channel's bucket wait too.
	rl := c.Session().Ratelimiter
	d.WaitFor("the client to see the global rate limit", func() bool {
		return rl.GetWaitTime(rl.GetBucket(discordgo.EndpointChannelMessages(b.ID)), 1) > 0
	})
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

// limitedDiscord is an API whose first n answers (all of them when n < 0)
// are 429 with body and header, the later ones an empty message; it
// counts the requests it saw.
func limitedDiscord(t *testing.T, n int, body string, header http.Header) (*REST, *atomic.Int32) {
	t.Helper()
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if i := seen.Add(1); n < 0 || int(i) <= n {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"1","channel_id":"2"}`)
	}))
	t.Cleanup(srv.Close)
	return NewREST(srv.URL, "token", nil), &seen
}

// within runs f and fails t unless it returns within d, which is far
// longer than f needs and far shorter than the wait a rate limit asked.
func within(t *testing.T, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("the call still runs after %v", d)
		return nil
	}
}

// TestRESTLongRateLimitReturns: a 429 asking for a long wait is not sat
// out (discordgo's own retry slept through it, again and again, deaf to
// ctx, holding the clock's scheduler and the shutdown): the call returns
// at once, after one request, an error that says so and that
// announceLater takes as not applied.
func TestRESTLongRateLimitReturns(t *testing.T) {
	c, seen := limitedDiscord(t, -1, `{"message":"You are being rate limited.","retry_after":90,"global":false}`, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := within(t, 20*time.Second, func() error {
		_, err := c.SendMessage(ctx, "2", &Message{Content: "hi"})
		return err
	})
	if !unapplied(err) || !errors.Is(err, ErrDiscord) {
		t.Errorf("SendMessage after a 429 = %v, want an error unapplied accepts", err)
	}
	if want := "commands: discord POST /channels/2/messages: HTTP 429: rate limited: retry after 90s"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if n := seen.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestRESTShortRateLimitRetried: a 429 asking for a short wait is waited
// out and the request (a POST: a 429 applied nothing) sent again, twice
// at most.
func TestRESTShortRateLimitRetried(t *testing.T) {
	const short = `{"message":"You are being rate limited.","retry_after":0.05,"global":false}`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, seen := limitedDiscord(t, 2, short, nil)
	if m, err := c.SendMessage(ctx, "2", &Message{Content: "hi"}); err != nil || m.ID != "1" {
		t.Errorf("SendMessage after two short 429s = %v, %v; want the message", m, err)
	}
	if n := seen.Load(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	c, seen = limitedDiscord(t, -1, short, nil)
	if _, err := c.SendMessage(ctx, "2", &Message{Content: "hi"}); !unapplied(err) {
		t.Errorf("SendMessage after three short 429s = %v, want a 429", err)
	}
	if n := seen.Load(); n != 3 {
		t.Errorf("%d requests, want 3: the first and two more", n)
	}
}

// TestRESTRateLimitWaitEndsWithCtx: a context ended during the wait after
// a 429 ends the call at once (a shutdown does not wait for Discord).
func TestRESTRateLimitWaitEndsWithCtx(t *testing.T) {
	c, seen := limitedDiscord(t, -1, `{"message":"You are being rate limited.","retry_after":5,"global":false}`, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for seen.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	err := within(t, 4*time.Second, func() error {
		_, err := c.SendMessage(ctx, "2", &Message{Content: "hi"})
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("SendMessage cancelled during the wait = %v, want context.Canceled", err)
	}
	if n := seen.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestRESTRateLimitNotJSON: a 429 whose body is not Discord's JSON (a
// Cloudflare ban says "error code: 1015") is a rate limit of the
// Retry-After header's seconds, 60 without one; discordgo, which reads the
// wait from the body, failed to decode it and logged that in plain text.
func TestRESTRateLimitNotJSON(t *testing.T) {
	// discordgo's package logger prints to the standard logger by default.
	var logged logtest.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		header http.Header
		want   string
	}{
		{http.Header{"Retry-After": {"30"}}, "retry after 30s"},
		{nil, "retry after 60s"},
		{http.Header{"Retry-After": {"Wed, 21 Oct 2015 07:28:00 GMT"}}, "retry after 60s"},
	} {
		c, seen := limitedDiscord(t, -1, "error code: 1015", tc.header)
		err := within(t, 20*time.Second, func() error {
			_, err := c.SendMessage(ctx, "2", &Message{Content: "hi"})
			return err
		})
		if !unapplied(err) || err == nil || !strings.HasSuffix(err.Error(), "HTTP 429: rate limited: "+tc.want) {
			t.Errorf("Retry-After %q: SendMessage = %v, want a 429 saying %q", tc.header.Get("Retry-After"), err, tc.want)
		}
		if n := seen.Load(); n != 1 {
			t.Errorf("Retry-After %q: %d requests, want 1", tc.header.Get("Retry-After"), n)
		}
	}
	if out := logged.String(); strings.Contains(out, "rate limit") {
		t.Errorf("discordgo logged:\n%s", out)
	}
}
