package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestHelp: --help, -h and help print the usage and exit 0, without
// starting the bot (which would fail here: no token).
func TestHelp(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	for _, arg := range []string{"--help", "-h", "-help", "help"} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{arg}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "usage:") {
			t.Errorf("gobot %s: exit %d, stdout %q, stderr %q; want 0 and the usage", arg, code, out.String(), errOut.String())
		}
	}
}

// TestRatingsRebuild: `gobot ratings rebuild` recomputes the ratings of a
// database and finds them equal to the stored ones.
func TestRatingsRebuild(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	store, err := storage.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, result := range []string{"B+R", "W+3.5", "B+0.5", "0"} {
		eg, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{ChannelID: "c", GuildID: "G", Black: storage.Player{UserID: "1"}, White: storage.Player{UserID: "2"}, Game: eg}
		if err := store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		a := storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[9])"), Rated: true, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
		if err := store.FinishGame(ctx, g, a); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := store.Rating(ctx, storage.GlobalPool, "1")
	store.Close()
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"ratings", "--db", db, "rebuild"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("gobot ratings rebuild: exit %d, %s", code, errOut.String())
	}
	if want := "rebuilt 4 ratings from 4 rated games: 0 differed from the stored values, 0 were missing or extra\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	store, err = storage.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	after, _ := store.Rating(ctx, storage.GlobalPool, "1")
	if *after != *before {
		t.Errorf("rating after the rebuild %+v, before %+v", after, before)
	}
	if code := run(ctx, []string{"ratings", "redo"}, strings.NewReader(""), &out, &errOut); code != 1 {
		t.Errorf("gobot ratings redo: exit %d, want 1", code)
	}
}
