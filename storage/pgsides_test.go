package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestPostgresSidesMigration: a PostgreSQL database at schema 3 (black and
// white columns) holding a game written by the gobot of that schema is
// migrated by 0004_sides to the players column, and the game loads, is
// found under each of its players, and plays on.
func TestPostgresSidesMigration(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE gobot_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for v, name := range []string{"0001_init.sql", "0002_ratings.sql", "0003_challenge_claims.sql"} {
		sql, err := os.ReadFile(filepath.Join("migrations", "postgres", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, string(sql)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO gobot_schema (version) VALUES ($1)`, v+1); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile("testdata/game-before-delivery.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO games (channel_id, id, version, black, white, due_ns, record) VALUES ('thread1', 'g1', 4, '1', 'bot:easy', 0, $1)`, string(old)); err != nil {
		t.Fatal(err)
	}

	s := openPostgres(t, url, nil)
	g, err := s.Game(ctx, "thread1")
	if err != nil {
		t.Fatalf("Game(thread1) after migration = %v", err)
	}
	if g.Kind != "go" || len(g.Sides) != 2 || g.First(0).UserID != "1" || g.First(1).Level != "easy" {
		t.Fatalf("migrated game: kind %q, sides %+v", g.Kind, g.Sides)
	}
	for _, key := range []string{"1", "bot:easy"} {
		gs, err := s.PlayerActiveGames(ctx, key)
		if err != nil || len(gs) != 1 || gs[0].ID != "g1" {
			t.Errorf("PlayerActiveGames(%s) = %d games, %v; want g1", key, len(gs), err)
		}
	}
	var players []string
	if err := s.Pool().QueryRow(ctx, `SELECT players FROM games WHERE channel_id = 'thread1'`).Scan(&players); err != nil || len(players) != 2 || players[0] != "1" || players[1] != "bot:easy" {
		t.Errorf("players column = %v, %v; want [1 bot:easy]", players, err)
	}
	g.Delivery.MessageIDs = append(g.Delivery.MessageIDs, "m3")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("UpdateGame after migration = %v", err)
	}
	changed := *g
	changed.Sides = storage.Sides(storage.Player{UserID: "9"}, g.First(1))
	if err := s.UpdateGame(ctx, &changed); err == nil {
		t.Error("UpdateGame with another player succeeded")
	}
}
