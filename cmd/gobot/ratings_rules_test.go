package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestRatingsRebuildRules: `gobot ratings rebuild` applies the rules the
// bot rates with: a short game and a 9-stone 9×9 game stay unrated, and
// beginner starts from its rank (536.5 ± 23.2), so a database rated by the
// bot rebuilds to exactly its stored values. A database rated before the
// levels had start ratings is corrected.
func TestRatingsRebuildRules(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	chinese := engine.DefaultRules()
	handicap := chinese
	handicap.Komi = 0.5
	type game struct {
		white           storage.Player
		handicap, moves int
		rules           engine.Rules
		result          string
	}
	beginner := storage.Player{Level: "beginner", Name: "beginner"}
	games := []game{
		{beginner, 0, 20, chinese, "B+R"},                    // rated: 1 beats beginner
		{beginner, 0, 9, chinese, "W+R"},                     // short: not rated
		{beginner, 9, 40, handicap, "W+R"},                   // 9 stones on 9×9: not rated
		{beginner, 2, 40, handicap, "W+R"},                   // 2 stones: rated
		{storage.Player{UserID: "2"}, 0, 12, chinese, "W+R"}, // 6 moves each: rated
	}
	seed := func(opts storage.Options) string {
		db := filepath.Join(t.TempDir(), "gobot.db")
		store, err := storage.Open(db, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		for i, gm := range games {
			eg, err := engine.NewGame(engine.Config{Size: 9, Rules: gm.rules, Handicap: gm.handicap})
			if err != nil {
				t.Fatal(err)
			}
			g := &storage.Game{ChannelID: fmt.Sprint("c", i), Sides: storage.Sides(storage.Player{UserID: "1"}, gm.white), State: engine.Own(eg)}
			if err := store.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			a := storage.Archived{Result: gm.result, SGF: []byte("(;GM[1]SZ[9])"), Moves: gm.moves, Rated: true, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
			if err := store.FinishGame(ctx, g, a); err != nil {
				t.Fatal(err)
			}
		}
		pr, err := store.Rating(ctx, storage.GlobalPool, "bot:beginner")
		if err != nil {
			t.Fatal(err)
		}
		if pr.Games != 2 {
			t.Errorf("beginner has %d rated games, want 2 (the short and the 9-stone games unrated)", pr.Games)
		}
		return db
	}
	rebuild := func(db string) string {
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"ratings", "rebuild", "--db", db}, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("gobot ratings rebuild: exit %d, %s", code, errOut.String())
		}
		return out.String()
	}
	live := seed(storage.Options{Kinds: kinds(), StartRatings: startRatings()})
	if got, want := rebuild(live), "rebuilt 3 ratings from 3 rated games: 0 differed from the stored values, 0 were missing or extra\n"; got != want {
		t.Errorf("rebuild of the bot's ratings: %q, want %q", got, want)
	}
	old := seed(storage.Options{Kinds: kinds()})
	if got, want := rebuild(old), "rebuilt 3 ratings from 3 rated games: 3 differed from the stored values, 0 were missing or extra\n"; got != want {
		t.Errorf("rebuild of ratings made before start ratings: %q, want %q", got, want)
	}
	// Both databases now hold the same ratings.
	values := func(db string) string {
		store, err := storage.Open(db, storage.Options{Kinds: kinds()})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		var out []string
		for _, k := range []string{"1", "2", "bot:beginner"} {
			pr, err := store.Rating(ctx, storage.GlobalPool, k)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %v %v %v %d", k, pr.Rating.Rating, pr.RD, pr.Volatility, pr.Games))
		}
		return strings.Join(out, "\n")
	}
	if a, b := values(live), values(old); a != b {
		t.Errorf("rebuilt ratings differ:\n%s\nand\n%s", a, b)
	}
}
