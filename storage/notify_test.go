package storage

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestListenGames: a second worker on the same PostgreSQL database hears
// of every game write the first commits (create, update, finish, abort),
// and of none it does not commit.
func TestListenGames(t *testing.T) {
	url := pgtest.Database(t)
	w1, err := OpenPostgres(ctx, url, Options{Kinds: testKinds})
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Close()
	w2, err := OpenPostgres(ctx, url, Options{Kinds: testKinds})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	heard := make(chan string, 16)
	lctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w2.ListenGames(lctx, func(ch string) { heard <- ch }) }()
	defer func() {
		stop()
		if err := <-done; err != context.Canceled {
			t.Errorf("ListenGames = %v, want context.Canceled", err)
		}
	}()
	expect := func(what, want string) {
		t.Helper()
		select {
		case got := <-heard:
			if got != want {
				t.Errorf("%s: heard %q, want %q", what, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: nothing heard in 5 s", what)
		}
	}
	// LISTEN takes effect once the listener's connection has run it: wait
	// for a first write to come through.
	g := newGame(t, "listen-1", "1", "2")
	deadline := time.Now().Add(5 * time.Second)
	if err := w1.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case ch := <-heard:
			if ch != "listen-1" {
				t.Fatalf("heard %q", ch)
			}
		case <-time.After(50 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("the create was never heard")
			}
			// The listener was not yet listening: write again.
			play(t, goOf(g), "D4")
			if err := w1.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			continue
		}
		break
	}
	for len(heard) > 0 {
		<-heard
	}
	play(t, goOf(g), "G7")
	if err := w1.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	expect("update", "listen-1")
	stale := *g
	stale.Version--
	if err := w1.UpdateGame(ctx, &stale); err == nil {
		t.Fatal("a stale write succeeded")
	}
	if err := w1.AbortGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	expect("abort (the stale write is never heard)", "listen-1")
}
