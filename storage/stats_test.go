package storage_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// TestStatsWithoutKinds: a player's statistics written before each kind's
// games were counted apart are recounted from the archive, on both
// stores: when read, and when the player's next game is counted in.
func TestStatsWithoutKinds(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gobot.db")
		open := func() *storage.Store {
			s, err := storage.Open(path, storage.Options{Kinds: testKinds()})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		s := open()
		statsWithoutKinds(t, s, func(key string) {
			s.Close()
			db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket([]byte("players"))
				return b.Put([]byte(key), withoutKinds(t, b.Get([]byte(key))))
			})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			s = open()
		}, func() storetest.Store { return s })
		s.Close()
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		pg, err := storage.OpenPostgres(ctx, pgtest.Database(t), storage.Options{Kinds: testKinds()})
		if err != nil {
			t.Fatal(err)
		}
		defer pg.Close()
		statsWithoutKinds(t, pg, func(key string) {
			var rec string
			if err := pg.Pool().QueryRow(ctx, `SELECT record FROM players WHERE key = $1`, key).Scan(&rec); err != nil {
				t.Fatal(err)
			}
			if _, err := pg.Pool().Exec(ctx, `UPDATE players SET record = $2 WHERE key = $1`, key, string(withoutKinds(t, []byte(rec)))); err != nil {
				t.Fatal(err)
			}
		}, func() storetest.Store { return pg })
	})
}

// withoutKinds is a statistics record as written before the kinds were
// counted apart.
func withoutKinds(t *testing.T, rec []byte) []byte {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(rec, &fields); err != nil || fields["kinds"] == nil {
		t.Fatalf("statistics record %s (%v), want one with kinds", rec, err)
	}
	delete(fields, "kinds")
	out, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// statsWithoutKinds has player 1 lose a game of draughts and win one of
// Go in the store that store returns, has strip rewrite 1's record as an
// old one, then checks 1's statistics by kind, before and after a third
// game (of Go, lost).
func statsWithoutKinds(t *testing.T, first storetest.Store, strip func(key string), store func() storetest.Store) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p1, p2 := storage.Player{UserID: "1"}, storage.Player{UserID: "2"}
	finish := func(s storetest.Store, i int, kind, result string) {
		t.Helper()
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		var st game.State = engine.Own(eg)
		if kind == "draughts" {
			st, _ = draughts.Kind{}.New(nil, 1)
		}
		g := &storage.Game{ChannelID: fmt.Sprint("c", i), Kind: kind, Sides: storage.Sides(p1, p2), State: st}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		a := storage.Archived{Result: result, SGF: []byte("(;)"), Moves: 40, FinishedAt: at.Add(time.Duration(i) * time.Hour)}
		if err := s.FinishGame(ctx, g, a); err != nil {
			t.Fatal(err)
		}
	}
	describe := func(st *storage.PlayerStats) string {
		if st == nil {
			return "none"
		}
		return fmt.Sprintf("%d games: +%d -%d, streak %d", st.Games, st.Wins, st.Losses, st.Streak)
	}
	check := func(when, want string) {
		t.Helper()
		st, err := store().PlayerStats(ctx, "1")
		if err != nil {
			t.Fatalf("%s: PlayerStats(1) = %v", when, err)
		}
		if got := describe(st) + " | go " + describe(st.Kind("go")) + " | draughts " + describe(st.Kind("draughts")); got != want {
			t.Errorf("%s: PlayerStats(1) = %s, want %s", when, got, want)
		}
	}
	finish(first, 0, "draughts", "B+R") // 1, white, loses
	finish(first, 1, "go", "B+R")       // 1, black, wins
	strip("1")
	check("an old record", "2 games: +1 -1, streak 1 | go 1 games: +1 -0, streak 1 | draughts 1 games: +0 -1, streak -1")
	finish(store(), 2, "go", "W+R")
	check("the next game counted", "3 games: +1 -2, streak -1 | go 2 games: +1 -1, streak -1 | draughts 1 games: +0 -1, streak -1")
}
