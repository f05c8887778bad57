package storage_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
)

// TestFarmingRulesBothStores: bbolt and PostgreSQL apply the same rating
// rules (a short game and a 9-stone 9×9 game unrated, a two-stone loss
// capped, beginner starting at its rank) to the same games, end with the
// same ratings, and rebuild them unchanged.
func TestFarmingRulesBothStores(t *testing.T) {
	starts := storage.StartRatings{"go": {"beginner": glicko.AtRank(30, 1)}}
	bolt, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{Kinds: testKinds(), StartRatings: starts})
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	want := farmingRatings(t, bolt)
	// 1 loses with two stones as an even loss would cost (−162.3); 2 beats
	// beginner (+2.7).
	if want != "1 1337.7 ± 315.6 | 3 1662.3 ± 329.7 | 2 1502.7 ± 347.4 | bot:beginner 536.4 ± 25.4 | unrated [true false true false true]" {
		t.Errorf("bbolt: %s", want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := storage.OpenPostgres(ctx, pgtest.Database(t), storage.Options{Kinds: testKinds(), StartRatings: starts})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if got := farmingRatings(t, pg); got != want {
		t.Errorf("PostgreSQL: %s, bbolt: %s", got, want)
	}
}

// farmingRatings plays the games of TestFarmingRulesBothStores into s,
// rebuilds its ratings (which must change nothing), and describes them:
// each player's rating, and which games were left unrated.
func farmingRatings(t *testing.T, s storetest.Store) string {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	chinese := engine.DefaultRules()
	handicap := chinese
	handicap.Komi = 0.5
	beginner := storage.Player{Level: "beginner", Name: "beginner"}
	p1, p2, p3 := storage.Player{UserID: "1"}, storage.Player{UserID: "2"}, storage.Player{UserID: "3"}
	var unrated []bool
	for i, gm := range []struct {
		black, white    storage.Player
		handicap, moves int
		rules           engine.Rules
		result          string
	}{
		{p1, p3, 0, 0, chinese, "W+R"},   // resigned at once
		{p1, p3, 2, 40, handicap, "W+R"}, // two stones, lost: capped
		{p1, p3, 9, 40, handicap, "W+R"}, // nine stones: unrated
		{p2, beginner, 0, 20, chinese, "B+R"},
		{p2, beginner, 0, 9, chinese, "W+R"}, // short
	} {
		eg, err := engine.NewGame(engine.Config{Size: 9, Rules: gm.rules, Handicap: gm.handicap})
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{ChannelID: fmt.Sprint("c", i), GuildID: "G", Sides: storage.Sides(gm.black, gm.white), State: engine.Own(eg)}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		a := storage.Archived{Result: gm.result, SGF: []byte("(;GM[1]SZ[9])"), Moves: gm.moves, Rated: true, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
		if err := s.FinishGame(ctx, g, a); err != nil {
			t.Fatal(err)
		}
		arc, err := s.ArchivedGame(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		unrated = append(unrated, !arc.Rated)
	}
	rep, err := s.RebuildRatings(ctx)
	if err != nil || rep.Games != 2 || rep.Changed != 0 || rep.Missing != 0 {
		t.Errorf("RebuildRatings = %+v, %v; want 2 games, nothing changed", rep, err)
	}
	var out string
	for _, k := range []string{"1", "3", "2", "bot:beginner"} {
		pr, err := s.Rating(ctx, storage.GlobalPool, k)
		if err != nil {
			t.Fatalf("Rating(%s) = %v", k, err)
		}
		out += fmt.Sprintf("%s %.1f ± %.1f | ", k, pr.Rating.Rating, pr.RD)
	}
	return out + fmt.Sprint("unrated ", unrated)
}

// TestStartRatingsByKind: a level's start rating is its kind's. "max" is
// a level of Go and of draughts: a person beating Go's max meets it at
// Go's start in Go's pool, beating draughts' max at draughts' start in
// draughts' pool, on both stores, and a rebuild keeps them.
func TestStartRatingsByKind(t *testing.T) {
	starts := storage.StartRatings{
		"go":       {"max": glicko.AtRank(3, 3)},
		"draughts": {"max": glicko.Around(2012.3, 2)},
	}
	bolt, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{Kinds: testKinds(), StartRatings: starts})
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	want := "go: bot:max 1722.1 ± 223.2 | draughts: bot:max 2012.3 ± 173.8"
	if got := kindStarts(t, bolt); got != want {
		t.Errorf("bbolt: %s, want %s", got, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := storage.OpenPostgres(ctx, pgtest.Database(t), storage.Options{Kinds: testKinds(), StartRatings: starts})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if got := kindStarts(t, pg); got != want {
		t.Errorf("PostgreSQL: %s, want %s", got, want)
	}
}

// kindStarts has player 1 beat max at Go and at draughts in s, rebuilds
// the ratings (which must change nothing) and says the rating max started
// from in each kind's global pool.
func kindStarts(t *testing.T, s storetest.Store) string {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p1, maxLevel := storage.Player{UserID: "1"}, storage.Player{Level: "max", Name: "gobot max"}
	var out []string
	for i, kind := range []string{"go", "draughts"} {
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		var st game.State = engine.Own(eg)
		if kind == "draughts" {
			st, _ = draughts.Kind{}.New(nil, 1)
		}
		g := &storage.Game{ChannelID: fmt.Sprint("c", i), Kind: kind, Sides: storage.Sides(p1, maxLevel), State: st}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		a := storage.Archived{Result: "B+R", SGF: []byte("(;)"), Moves: 40, Rated: true, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
		if err := s.FinishGame(ctx, g, a); err != nil {
			t.Fatal(err)
		}
		changes, err := s.GameRatingChanges(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Player == maxLevel.Key() && c.Pool == storage.KindPool(kind, storage.GlobalPool) {
				out = append(out, fmt.Sprintf("%s: %s %.1f ± %.1f", kind, c.Player, c.Before.Rating, c.Before.RD))
			}
		}
	}
	if rep, err := s.RebuildRatings(ctx); err != nil || rep.Games != 2 || rep.Changed != 0 || rep.Missing != 0 {
		t.Errorf("RebuildRatings = %+v, %v; want 2 games, nothing changed", rep, err)
	}
	return strings.Join(out, " | ")
}
