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

// TestBanHoldsInGameTransaction: a ban is checked by the transaction that
// creates a game, not only by the caller beforehand. A game (a bot game,
// the Accept of an open challenge by someone banned since the caller's
// check) of a person banned on its server is refused with a *BanError
// holding the ban, and the open challenge stays; a lifted or lapsed ban,
// or a ban on another server, refuses nothing. A ban stored while an
// Accept starts the game is either stored first, and the Accept refused,
// or stored after it, and the game is there when PutBan returns: the
// ban's answer lists it.
func TestBanHoldsInGameTransaction(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, s adminStore, now *time.Time) {
		ctx := context.Background()
		ann, alice := storage.Player{UserID: "9", Name: "ann"}, storage.Player{UserID: "1", Name: "alice"}
		newGame := func(channel, guild string, sides []storage.Side) *storage.Game {
			eg, _ := engine.NewGame(engine.Config{Size: 9})
			return &storage.Game{ChannelID: channel, GuildID: guild, Sides: sides, State: engine.Own(eg)}
		}
		ban := func(user storage.Player, until time.Time) {
			t.Helper()
			b := storage.Ban{GuildID: "G", User: user, Until: until, Reason: "race", By: ann}
			if err := s.PutBan(ctx, b, nil, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditBan, Target: user.UserID}); err != nil {
				t.Fatal(err)
			}
		}
		openChallenge := func(id string) {
			t.Helper()
			c := &storage.Challenge{ID: id, ChannelID: "ch" + id, GuildID: "G", Challenger: alice, Size: 9, CreatedAt: *now, ExpiresAt: now.Add(time.Hour)}
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		wantBan := func(what string, err error, user string) {
			t.Helper()
			var be *storage.BanError
			if !errors.As(err, &be) || !errors.Is(err, storage.ErrBanned) || be.Ban.User.UserID != user || be.Ban.Reason != "race" {
				t.Errorf("%s = %v, want a *BanError for %s", what, err, user)
			}
		}

		bob := storage.Player{UserID: "2", Name: "bob"}
		ban(bob, time.Time{})
		wantBan("CreateGame of banned bob's bot game", s.CreateGame(ctx, newGame("bot", "G", storage.Sides(bob, storage.Player{Level: "easy"}))), bob.UserID)
		openChallenge("10")
		wantBan("AcceptChallenge of an open challenge by banned bob", s.AcceptChallenge(ctx, "10", newGame("ch10", "G", storage.Sides(alice, bob))), bob.UserID)
		if _, err := s.Challenge(ctx, "10"); err != nil {
			t.Errorf("the open challenge after a banned taker's Accept: %v, want it still open", err)
		}
		if err := s.CreateGame(ctx, newGame("h", "H", storage.Sides(bob, alice))); err != nil {
			t.Errorf("CreateGame on another server = %v, want nil", err)
		}
		if _, err := s.LiftBan(ctx, "G", bob.UserID, ann, storage.AuditEntry{GuildID: "G", By: ann, Action: storage.AuditUnban, Target: bob.UserID}); err != nil {
			t.Fatal(err)
		}
		if err := s.AcceptChallenge(ctx, "10", newGame("ch10", "G", storage.Sides(alice, bob))); err != nil {
			t.Errorf("AcceptChallenge once bob's ban is lifted = %v, want nil", err)
		}
		carol := storage.Player{UserID: "3", Name: "carol"}
		ban(carol, now.Add(time.Hour))
		*now = now.Add(2 * time.Hour)
		if err := s.CreateGame(ctx, newGame("bot3", "G", storage.Sides(carol, storage.Player{Level: "easy"}))); err != nil {
			t.Errorf("CreateGame once carol's ban lapsed = %v, want nil", err)
		}

		// Bans racing Accepts of open challenges.
		for i := range 20 {
			id, taker := fmt.Sprint(100+i), storage.Player{UserID: fmt.Sprint(200 + i)}
			openChallenge(id)
			var accepted error
			var wg sync.WaitGroup
			wg.Go(func() { accepted = s.AcceptChallenge(ctx, id, newGame("ch"+id, "G", storage.Sides(alice, taker))) })
			ban(taker, time.Time{})
			games, err := s.PlayerActiveGames(ctx, taker.UserID)
			if err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			switch {
			case accepted == nil && len(games) == 0:
				t.Errorf("round %d: the Accept started a game after the ban was stored", i)
			case accepted != nil:
				wantBan(fmt.Sprintf("round %d: AcceptChallenge", i), accepted, taker.UserID)
			}
		}
	})
}
