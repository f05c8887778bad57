package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestPlayLimitHoldsUnderRaces: a server's limit of games at once holds
// in the transaction that creates the game. Of games started for one
// person at the same moment (a /go bot in several channels, challenges
// accepted together) exactly as many as the limit start, and the others
// are refused with a *LimitError naming the person, their games and the
// limit; games elsewhere (another server, a DM) and bots do not count.
func TestPlayLimitHoldsUnderRaces(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		alice, bob := storage.Player{UserID: "1", Name: "alice"}, storage.Player{UserID: "2", Name: "bob"}
		st, err := s.Settings(ctx, "G")
		if err != nil {
			t.Fatal(err)
		}
		st.MaxGames = 1
		if err := s.PutSettings(ctx, st, storage.AuditEntry{GuildID: "G", By: bob, Action: storage.AuditSettings, Target: "max_games"}); err != nil {
			t.Fatal(err)
		}
		newGame := func(channel, guild string, sides []storage.Side) *storage.Game {
			eg, _ := engine.NewGame(engine.Config{Size: 9})
			return &storage.Game{ChannelID: channel, GuildID: guild, Sides: sides, State: engine.Own(eg)}
		}
		// Elsewhere: another server and a DM, which the limit does not see.
		for _, g := range []*storage.Game{
			newGame("h1", "H", storage.Sides(alice, bob)),
			newGame("dm1", "", storage.Sides(alice, storage.Player{Level: "easy"})),
		} {
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatalf("CreateGame(%s) = %v", g.ChannelID, err)
			}
		}

		// Alice's /go bot in four channels at once.
		errs := make([]error, 4)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				errs[i] = s.CreateGame(ctx, newGame(fmt.Sprint("bot", i), "G", storage.Sides(alice, storage.Player{Level: "easy"})))
			})
		}
		wg.Wait()
		started := 0
		for _, err := range errs {
			var le *storage.LimitError
			switch {
			case err == nil:
				started++
			case errors.As(err, &le) && errors.Is(err, storage.ErrLimit):
				if le.Player.UserID != alice.UserID || le.Games != 1 || le.Max != 1 || le.GuildID != "G" {
					t.Errorf("refusal = %+v, want alice, 1 game, limit 1, server G", *le)
				}
			default:
				t.Errorf("CreateGame = %v, want nil or a *LimitError", err)
			}
		}
		if started != 1 {
			t.Errorf("%d of alice's bot games started at once, want 1 (the limit)", started)
		}

		// Two challenges to bob accepted at the same moment: one game.
		for _, id := range []string{"x1", "x2"} {
			c := &storage.Challenge{ID: id, ChannelID: "ch" + id, GuildID: "G", Challenger: storage.Player{UserID: "3" + id[1:]}, Opponent: bob,
				Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)}
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		errs = make([]error, 2)
		for i, id := range []string{"x1", "x2"} {
			wg.Go(func() {
				errs[i] = s.AcceptChallenge(ctx, id, newGame("ch"+id, "G", storage.Sides(storage.Player{UserID: "3" + id[1:]}, bob)))
			})
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Errorf("two challenges to bob accepted at once = %v, %v; want one game and one ErrLimit", errs[0], errs[1])
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, storage.ErrLimit) {
				t.Errorf("AcceptChallenge = %v, want ErrLimit", err)
			}
		}
		if games, err := s.GuildActiveGames(ctx, "G", 0, 10); err != nil || games.Total != 2 {
			t.Errorf("server G has %v games in play (%v), want 2: alice's and bob's", games.Total, err)
		}
	})
}
