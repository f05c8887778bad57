package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// finishRated finishes a rated game between black and white (user IDs)
// in guild ("" for a DM) with result.
func finishRated(t *testing.T, s Store, clk *Clock, channel, guild, black, white, result string) {
	t.Helper()
	g := newGame(t, channel, black, white)
	g.GuildID = guild
	mustCreate(t, s, g)
	if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[9])"), Rated: true}); err != nil {
		t.Fatalf("FinishGame(%s) = %v", channel, err)
	}
	clk.Add(time.Minute)
}

// ratingOf formats a stored rating exactly.
func ratingOf(t *testing.T, s Store, pool, key string) string {
	t.Helper()
	pr, err := s.Rating(ctx, pool, key)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%v %v %v %d %d", pr.Rating.Rating, pr.RD, pr.Volatility, pr.Games, pr.Last.UnixNano())
}

// testRatings: the first game of two new players, pools, the leaderboard,
// concurrent rated games, and a rebuild reproducing every value.
func testRatings(t *testing.T, s Store, clk *Clock) {
	finishRated(t, s, clk, "c0", "G", "1", "2", "B+R")
	for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
		for key, want := range map[string]string{"1": "1662.3", "2": "1337.7"} {
			pr, err := s.Rating(ctx, pool, key)
			if err != nil || fmt.Sprintf("%.1f", pr.Rating.Rating) != want {
				t.Errorf("Rating(%s, %s) = %+v, %v; want %s", pool, key, pr, err, want)
			}
		}
	}
	if h, err := s.RatingHistory(ctx, "1"); err != nil || len(h) != 2 || h[0].Game == "" || h[0].Pool != storage.GlobalPool {
		t.Errorf("RatingHistory(1) = %+v, %v; want one change per pool, with the game", h, err)
	}
	// Eight games of 1 and 3 in turn, some at once, make both established.
	var wg sync.WaitGroup
	for i := range 8 {
		result := "B+R"
		if i%2 == 1 {
			result = "W+R"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := newGame(t, fmt.Sprintf("d%d", i), "1", "3")
			g.GuildID = "G"
			if err := s.CreateGame(ctx, g); err != nil {
				t.Error(err)
				return
			}
			if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("x"), Rated: true}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	finishRated(t, s, clk, "c1", "", "2", "4", "0")     // a DM jigo: global only
	finishRated(t, s, clk, "c2", "G", "2", "4", "Void") // no result: unrated
	lb, err := s.Leaderboard(ctx, storage.GuildPool("G"), 0, 10, clk.Now(), "3")
	if err != nil {
		t.Fatal(err)
	}
	if lb.Total != 2 || len(lb.Leaders) != 2 || lb.Caller.Place == 0 || lb.Leaders[0].Rating.Rating.Rating < lb.Leaders[1].Rating.Rating.Rating {
		t.Errorf("Leaderboard = %+v, want 1 and 3, highest first, with 3's place", lb)
	}
	if _, err := s.Rating(ctx, storage.GuildPool("G"), "4"); err == nil {
		t.Errorf("4 has a server rating from a DM game and a void one")
	}
	keys := []string{"1", "2", "3", "4"}
	before := map[string]string{}
	for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
		for _, k := range keys {
			before[pool+k] = ratingOf(t, s, pool, k)
		}
	}
	rep, err := s.RebuildRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 10 || rep.Changed != 0 || rep.Missing != 0 || rep.Ratings != 7 {
		t.Errorf("RebuildRatings = %+v, want 10 games, 7 ratings, none changed", rep)
	}
	for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
		for _, k := range keys {
			if got := ratingOf(t, s, pool, k); got != before[pool+k] {
				t.Errorf("%s %s after the rebuild: %s, want %s", pool, k, got, before[pool+k])
			}
		}
	}
}
