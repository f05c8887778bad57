package storage_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestPostgresCrossedColoursFinishTogether: two games between alice and
// bob, alice Black in one and bob Black in the other, ending at the same
// moment on two workers both finish, whether both are unrated, both rated
// or one of each, and both count in each player's statistics. The
// players' rows are locked in one order, whatever the colours: locked
// Black then White, the two transactions deadlocked (about one round in
// five).
func TestPostgresCrossedColoursFinishTogether(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	workers := [2]*storage.Postgres{openPostgres(t, url, nil), openPostgres(t, url, nil)}
	alice, bob := storage.Player{UserID: "1", Name: "alice"}, storage.Player{UserID: "2", Name: "bob"}
	const rounds = 40
	n := 0
	for _, tc := range []struct {
		name  string
		rated [2]bool
	}{
		{"unrated", [2]bool{false, false}},
		{"rated", [2]bool{true, true}},
		{"rated and unrated", [2]bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for round := range rounds {
				var games [2]*storage.Game
				for i := range games {
					black, white := alice, bob
					if i == 1 {
						black, white = bob, alice
					}
					n++
					eg, _ := engine.NewGame(engine.Config{Size: 9})
					games[i] = &storage.Game{ChannelID: fmt.Sprint("c", n), GuildID: "G", Sides: storage.Sides(black, white), State: engine.Own(eg)}
					if err := workers[i].CreateGame(ctx, games[i]); err != nil {
						t.Fatalf("CreateGame(%s) = %v", games[i].ChannelID, err)
					}
				}
				var errs [2]error
				var wg sync.WaitGroup
				for i, g := range games {
					wg.Go(func() {
						errs[i] = workers[i].FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("x"), Moves: 40, Rated: tc.rated[i]})
					})
				}
				wg.Wait()
				for i, err := range errs {
					if err != nil {
						t.Fatalf("round %d: FinishGame(%s, alice %s) = %v", round, games[i].ChannelID, [2]string{"Black", "White"}[i], err)
					}
				}
			}
		})
	}
	for _, p := range []storage.Player{alice, bob} {
		st, err := workers[0].PlayerStats(ctx, p.Key())
		if err != nil || st.Games != n {
			t.Errorf("PlayerStats(%s) = %d games, %v; want %d", p.Name, gamesOf(st), err, n)
		}
	}
}

func gamesOf(st *storage.PlayerStats) int {
	if st == nil {
		return 0
	}
	return st.Games
}
