package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	bolt "go.etcd.io/bbolt"
)

var (
	_ storetest.Store = (*storage.Store)(nil)
	_ storetest.Store = (*storage.Postgres)(nil)
)

func TestConformanceBolt(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Store {
		return openBolt(t, filepath.Join(t.TempDir(), "gobot.db"), now)
	})
}

// openBolt opens the bbolt store at path and, when the test ends, checks
// it (bbolt's pages and the store's indexes) and closes it.
func openBolt(t *testing.T, path string, now func() time.Time) *storage.Store {
	t.Helper()
	s, err := storage.Open(path, storage.Options{Kinds: testKinds(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Check(context.Background()); err != nil {
			t.Errorf("Check() = %v", err)
		}
		s.Close()
	})
	return s
}

func TestConformancePostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Store {
		return openPostgres(t, pgtest.Database(t), now)
	})
}

func openPostgres(t *testing.T, url string, now func() time.Time) *storage.Postgres {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := storage.OpenPostgres(ctx, url, storage.Options{Kinds: testKinds(), Now: now})
	if err != nil {
		t.Fatalf("OpenPostgres = %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPostgresSchema: start-up migrations run once even when several
// workers start together, and a database from a newer gobot is refused.
func TestPostgresSchema(t *testing.T) {
	url := pgtest.Database(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			s, err := storage.OpenPostgres(context.Background(), url, storage.Options{Kinds: testKinds()})
			if err == nil {
				err = s.Check(context.Background())
				s.Close()
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatalf("OpenPostgres from three workers at once: %v", err)
		}
	}
	s := openPostgres(t, url, nil)
	if _, err := s.Pool().Exec(context.Background(), `INSERT INTO gobot_schema (version) VALUES ($1)`, storage.PostgresSchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err == nil {
		t.Errorf("Check() = nil on a database with a newer schema")
	}
	_, err := storage.OpenPostgres(context.Background(), url, storage.Options{Kinds: testKinds()})
	if !errors.Is(err, storage.ErrSchemaTooNew) {
		t.Errorf("OpenPostgres on a newer schema = %v, want ErrSchemaTooNew", err)
	}
}

func TestPostgresBadURL(t *testing.T) {
	_, err := storage.OpenPostgres(context.Background(), "postgres://u:secret@[::1", storage.Options{Kinds: testKinds()})
	if !errors.Is(err, storage.ErrInvalid) || strings.Contains(err.Error(), "secret") {
		t.Errorf("OpenPostgres(bad URL) = %v, want ErrInvalid without the password", err)
	}
}

// TestPostgresClaimsAcrossWorkers: three stores on one database (three
// worker processes) claiming at once take every owed move exactly once.
func TestPostgresClaimsAcrossWorkers(t *testing.T) {
	url := pgtest.Database(t)
	var workers []*storage.Postgres
	for range 3 {
		workers = append(workers, openPostgres(t, url, nil))
	}
	const games = 30
	for i := range games {
		g := &storage.Game{ChannelID: fmt.Sprintf("c%02d", i), Sides: storage.Sides(storage.Player{Level: "weak"}, storage.Player{UserID: "1"}), State: engine.Own(newEngine(t, 9))}
		if err := workers[i%3].CreateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	claimed := map[string]string{}
	var wg sync.WaitGroup
	for w := range 3 {
		for k := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("w%d.%d", w, k)
				for {
					m, err := workers[w].ClaimBotMove(context.Background(), name, time.Minute)
					if errors.Is(err, storage.ErrNotFound) {
						return
					}
					if err != nil {
						t.Errorf("ClaimBotMove = %v", err)
						return
					}
					mu.Lock()
					if prev, ok := claimed[m.ChannelID]; ok {
						t.Errorf("%s claimed by %s and %s", m.ChannelID, prev, name)
					}
					claimed[m.ChannelID] = name
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if len(claimed) != games {
		t.Errorf("%d moves claimed, want %d", len(claimed), games)
	}
}

func newEngine(t *testing.T, size int) *engine.Game {
	t.Helper()
	eg, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules(), Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return eg
}

// TestOldGameRecordLoads: a game written before Delivery was split from
// Game (testdata/game-before-delivery.json, as that version wrote it)
// loads in both stores with its messages, follow-up and owed board in
// Delivery and the bot's level in Player.Level, and takes the next write.
func TestOldGameRecordLoads(t *testing.T) {
	old, err := os.ReadFile("testdata/game-before-delivery.json")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	oldGame := func(t *testing.T) *storage.Game {
		eg := newEngine(t, 9)
		for _, s := range []string{"D4", "F6", "E5", "pass", "pass"} {
			m, err := engine.ParseMove(eg.ToPlay(), s, 9)
			if err != nil {
				t.Fatal(err)
			}
			if err := eg.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return &storage.Game{
			ID: "g1", ChannelID: "thread1", GuildID: "42", ParentChannelID: "7", Kind: "go",
			Sides: storage.Sides(storage.Player{UserID: "1", Name: "ann"}, storage.Player{Level: "easy", Name: "gobot easy"}), State: engine.Own(eg),
			CreatedAt: t0, UpdatedAt: t0.Add(3 * time.Minute),
			Clock:   &clock.Clock{Control: clock.Default(), First: clock.Time{Main: time.Hour}, Second: clock.Time{Main: 3 * time.Hour}},
			Version: 4,
			Scoring: &storage.ScoringState{Dead: []string{"F6"},
				Accepted: map[game.Side]bool{0: true, 1: false}, Deadline: t0.Add(24 * time.Hour)},
			Undo:    &storage.UndoRequest{By: 0, MoveCount: 5, RequestedAt: t0.Add(time.Minute), MessageID: "m4"},
			Unrated: true,
			Delivery: storage.Delivery{
				MessageIDs: []string{"m1", "m2"},
				Followup:   &storage.Followup{InteractionID: "i1", AppID: "a1", Token: "tok", At: t0.Add(2 * time.Minute), ChannelPosts: true},
				Unposted:   true,
			},
		}
	}
	// Each store first creates the same game, so that its indexes and
	// columns are the ones the old version wrote, then gets the old record
	// in its place, as the old version left it.
	for _, st := range []struct {
		name string
		open func(t *testing.T) storetest.Store
	}{
		{"bolt", func(t *testing.T) storetest.Store {
			path := filepath.Join(t.TempDir(), "gobot.db")
			s, err := storage.Open(path, storage.Options{Kinds: testKinds()})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CreateGame(context.Background(), oldGame(t)); err != nil {
				t.Fatal(err)
			}
			s.Close()
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("games")).Put([]byte("thread1"), old) })
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			return openBolt(t, path, nil)
		}},
		{"postgres", func(t *testing.T) storetest.Store {
			s := openPostgres(t, pgtest.Database(t), nil)
			if err := s.CreateGame(context.Background(), oldGame(t)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Pool().Exec(context.Background(), `UPDATE games SET record = $2, version = 4 WHERE channel_id = $1`, "thread1", string(old)); err != nil {
				t.Fatal(err)
			}
			return s
		}},
	} {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			s := st.open(t)
			got, err := s.Game(ctx, "thread1")
			if err != nil {
				t.Fatalf("Game(thread1) = %v", err)
			}
			want := oldGame(t)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(storage.Game{}, "State")); diff != "" {
				t.Errorf("old record loaded (-want +got):\n%s", diff)
			}
			if g, w := goOf(got).MoveCount(), goOf(want).MoveCount(); g != w || goOf(got).Board().String() != goOf(want).Board().String() {
				t.Errorf("old record replayed %d moves to\n%v\nwant %d moves to\n%v", g, goOf(got).Board(), w, goOf(want).Board())
			}
			got.Delivery.MessageIDs = append(got.Delivery.MessageIDs, "m3")
			got.Delivery.Unposted = false
			if err := s.UpdateGame(ctx, got); err != nil {
				t.Fatalf("UpdateGame(old game) = %v", err)
			}
			again, err := s.Game(ctx, "thread1")
			if err != nil {
				t.Fatal(err)
			}
			if again.Version != 5 || !slices.Equal(again.Delivery.MessageIDs, []string{"m1", "m2", "m3"}) || again.Delivery.Unposted || again.Delivery.Followup == nil || again.First(1).Level != "easy" {
				t.Errorf("after UpdateGame: version %d, delivery %+v, white %+v; want 5, messages m1 m2 m3, posted, the follow-up kept, level easy",
					again.Version, again.Delivery, again.First(1))
			}
		})
	}
}

// testKinds are the kinds the tests' stores read: Go and draughts.
func testKinds() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}

// goOf is the game of Go that g holds (engine.GameOf).
func goOf(g *storage.Game) *engine.Game { return engine.GameOf(g.State) }
