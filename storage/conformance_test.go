package storage_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/gobot-dev/gobot/engine"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
)

var (
	_ storetest.Store = (*storage.Store)(nil)
	_ storetest.Store = (*storage.Postgres)(nil)
)

func TestConformanceBolt(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Store {
		s, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{Now: now})
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
	})
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
	s, err := storage.OpenPostgres(ctx, url, storage.Options{Now: now})
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
			s, err := storage.OpenPostgres(context.Background(), url, storage.Options{})
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
	_, err := storage.OpenPostgres(context.Background(), url, storage.Options{})
	if !errors.Is(err, storage.ErrSchemaTooNew) {
		t.Errorf("OpenPostgres on a newer schema = %v, want ErrSchemaTooNew", err)
	}
}

func TestPostgresBadURL(t *testing.T) {
	_, err := storage.OpenPostgres(context.Background(), "postgres://u:secret@[::1", storage.Options{})
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
		g := &storage.Game{ChannelID: fmt.Sprintf("c%02d", i), Black: storage.Player{Level: "weak"}, White: storage.Player{UserID: "1"}, Game: newEngine(t, 9)}
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
