package goroom

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/storage"
	bolt "go.etcd.io/bbolt"
)

// syncLog is a log buffer the bot and the test share.
type syncLog struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func newSyncLog() *syncLog { l := &syncLog{mu: make(chan struct{}, 1)}; return l }

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.buf.String()
}

// waiter returns a function that waits, up to 5 s, until ok holds for
// what the log holds, and fails the test naming what was awaited.
func (l *syncLog) waiter(t *testing.T) func(what string, ok func(string) bool) {
	return func(what string, ok func(string) bool) {
		t.Helper()
		for range 500 {
			if ok(l.String()) {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no %s in the console output:\n%s", what, l.String())
	}
}

// damage stops tb's bot, rewrites the stored record of the game in channel
// with mutate, and starts a new bot on the same file (without Run, so that
// the first read of the record is the next interaction's). It returns the
// new bot's log.
func damage(t *testing.T, tb *testApp, channel string, mutate func([]byte) []byte) *syncLog {
	t.Helper()
	tb.Shutdown(context.Background())
	path := tb.store.Path()
	if err := tb.store.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		return b.Put([]byte(channel), mutate(bytes.Clone(b.Get([]byte(channel)))))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	store, err := storage.Open(path, storage.Options{Kinds: testKinds(), Now: tb.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	log := newSyncLog()
	app, err := commands.New(commands.Options{AppID: "1", Discord: tb.rec, Store: store, Rooms: []commands.NewRoom{New(testPlayers{}, nil)},
		Logger: slog.New(slog.NewTextHandler(log, nil)), Now: tb.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Shutdown(context.Background()) })
	tb.App, tb.store = app, store
	return log
}

func halfRecord(v []byte) []byte { return v[:len(v)/2] }

// occupied replaces white's first move with a move on black's first point.
func occupied(t *testing.T) func([]byte) []byte {
	return func(v []byte) []byte {
		i := bytes.Index(v, []byte(`"moves":["B `))
		if i < 0 {
			t.Fatalf("no moves in %s", v)
		}
		first := v[i+len(`"moves":["B `):]
		first = first[:bytes.IndexByte(first, '"')]
		j := bytes.Index(v, []byte(`","W `))
		k := bytes.IndexByte(v[j+5:], '"')
		return append(append(bytes.Clone(v[:j+5]), first...), v[j+5+k:]...)
	}
}

// TestCorruptGameQuarantined: a game whose record is half its JSON, or holds
// a move on an occupied point, is set aside the first time it is read,
// logged once with its channel, the players are told in the channel, and
// the channel is free again; /go abort gets the same answer instead of a
// refusal.
func TestCorruptGameQuarantined(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mutate func(t *testing.T) func([]byte) []byte
		first  string // the interaction that first reads the record
	}{
		{"half record, abort", func(*testing.T) func([]byte) []byte { return halfRecord }, "/go abort"},
		{"occupied point, play", occupied, "/go play move:E5"},
		{"half record, board", func(*testing.T) func([]byte) []byte { return halfRecord }, "/go board"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTestApp(t)
			tb.command(ann, "/go bot level:first size:9")
			tb.command(ann, "/go play move:D4")
			tb.command(ann, "/go play move:G7")
			log := damage(t, tb, channelID, tt.mutate(t))

			c := only(t, tb.command(ann, tt.first))
			if c.Message == nil || c.Message.Ephemeral || c.text() != commands.QuarantineNotice {
				t.Fatalf("%s on a damaged game = %q (ephemeral %v), want the public notice %q", tt.first, c.text(), c.Message != nil && c.Message.Ephemeral, commands.QuarantineNotice)
			}
			wantEphemeral(t, tb.command(ann, "/go play move:E5"), "There is no game in this channel")
			tb.command(ann, "/go abort")
			if n := strings.Count(log.String(), "quarantined"); n != 1 || !strings.Contains(log.String(), "channel="+channelID) {
				t.Errorf("log mentions the quarantine %d times, want once with channel=%s:\n%s", n, channelID, log.String())
			}
			qs, err := tb.store.QuarantinedGames(context.Background())
			if err != nil || len(qs) != 1 || qs[0].ChannelID != channelID {
				t.Fatalf("QuarantinedGames() = %+v, %v; want the record, kept", qs, err)
			}
			if c := only(t, tb.command(ann, "/go bot level:first size:9")); c.Message == nil || c.Message.Ephemeral {
				t.Fatalf("/go bot in the freed channel = %q, want a new game", c.text())
			}
		})
	}
}

// TestCorruptGameQuarantinedAtStart: Run's first look at the active games
// sets a damaged record aside and tells the channel.
func TestCorruptGameQuarantinedAtStart(t *testing.T) {
	tb := newTestApp(t)
	tb.command(ann, "/go bot level:first size:9")
	tb.command(ann, "/go play move:D4")
	log := damage(t, tb, channelID, halfRecord)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { tb.Run(ctx); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	var posted []call
	for time.Now().Before(deadline) && len(posted) == 0 {
		time.Sleep(10 * time.Millisecond)
		for _, c := range tb.rec.take() {
			if c.Op == "send" && c.Channel == channelID {
				posted = append(posted, c)
			}
		}
	}
	cancel()
	<-done
	if len(posted) != 1 || posted[0].text() != commands.QuarantineNotice {
		t.Fatalf("Run posted %+v to the channel, want the notice %q", posted, commands.QuarantineNotice)
	}
	if n := strings.Count(log.String(), "quarantined"); n != 1 {
		t.Errorf("log mentions the quarantine %d times, want once:\n%s", n, log.String())
	}
	wantEphemeral(t, tb.command(ann, "/go board"), "There is no game in this channel")
}

var _ = io.Discard

// TestCorruptGameQuarantinedWhenDue: the clock's scheduler reading a
// damaged record (its deadline came) sets it aside and tells the channel,
// instead of failing on it at every pass.
func TestCorruptGameQuarantinedWhenDue(t *testing.T) {
	tb := newTestApp(t)
	tb.command(ann, "/go bot level:first size:9")
	tb.command(ann, "/go play move:D4")
	damage(t, tb, channelID, halfRecord)
	if err := tb.HandleDue(context.Background(), channelID); err != nil {
		t.Fatalf("handleDue(damaged game) = %v, want nil", err)
	}
	calls := tb.rec.take()
	if len(calls) != 1 || calls[0].Op != "send" || calls[0].text() != commands.QuarantineNotice {
		t.Fatalf("handleDue(damaged game) sent %+v, want the notice in the channel", calls)
	}
	if qs, err := tb.store.QuarantinedGames(context.Background()); err != nil || len(qs) != 1 {
		t.Errorf("QuarantinedGames() = %d, %v; want the record set aside", len(qs), err)
	}
}
