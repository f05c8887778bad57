package storetest

import (
	"fmt"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// finishRated finishes a rated game between black and white (user IDs)
// in guild ("" for a DM) with result.
func finishRated(t *testing.T, s Store, clk *clocktest.Clock, channel, guild, black, white, result string) {
	t.Helper()
	g := newGame(t, channel, black, white)
	g.GuildID = guild
	mustCreate(t, s, g)
	if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[9])"), Moves: 40, Rated: true}); err != nil {
		t.Fatalf("FinishGame(%s) = %v", channel, err)
	}
	clk.Advance(time.Minute)
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
func testRatings(t *testing.T, s Store, clk *clocktest.Clock) {
	finishRated(t, s, clk, "c0", "G", "1", "2", "B+R")
	for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
		for key, want := range map[string]string{"1": "1662.3", "2": "1337.7"} {
			pr, err := s.Rating(ctx, pool, key)
			if err != nil || fmt.Sprintf("%.1f", pr.Rating.Rating) != want {
				t.Errorf("Rating(%s, %s) = %+v, %v; want %s", pool, key, pr, err, want)
			}
		}
	}
	h, err := s.RatingHistory(ctx, "1")
	if err != nil || len(h) != 2 || h[0].Game == "" || h[0].Pool != storage.GlobalPool {
		t.Fatalf("RatingHistory(1) = %+v, %v; want one change per pool, with the game", h, err)
	}
	changes, err := s.GameRatingChanges(ctx, h[0].Game)
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%s %s %.1f→%.1f", c.Pool, c.Player, c.Before.Rating, c.After.Rating))
	}
	if want := "[global 1 1500.0→1662.3 global 2 1500.0→1337.7 guild:G 1 1500.0→1662.3 guild:G 2 1500.0→1337.7]"; err != nil || fmt.Sprint(got) != want {
		t.Errorf("GameRatingChanges = %v, %v; want %s", got, err, want)
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
			if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("x"), Moves: 40, Rated: true}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	finishRated(t, s, clk, "c1", "", "2", "4", "0")     // a DM jigo: global only
	finishRated(t, s, clk, "c2", "G", "2", "4", "Void") // no result: unrated
	if _, err := s.Rating(ctx, storage.GuildPool("G"), "4"); err == nil {
		t.Errorf("4 has a server rating from a DM game and a void one")
	}
	// 5 and 6 play eight games in turn, one after the other: both are
	// established (deviation 145). (The concurrent games above may have
	// come out in any order, so 1 and 3 may or may not be established.)
	for i := range 8 {
		result := "B+R"
		if i%2 == 1 {
			result = "W+R"
		}
		finishRated(t, s, clk, fmt.Sprint("e", i), "G", "5", "6", result)
	}
	lb, err := s.Leaderboard(ctx, storage.GuildPool("G"), 0, 10, clk.Now(), "5", nil)
	if err != nil {
		t.Fatal(err)
	}
	established := map[string]bool{}
	for _, k := range []string{"1", "2", "3", "5", "6"} {
		if pr, err := s.Rating(ctx, storage.GuildPool("G"), k); err == nil && !pr.Current(clk.Now()).Provisional() {
			established[k] = true
		}
	}
	var order []string
	for i, l := range lb.Leaders {
		order = append(order, l.Rating.Player.Key())
		if (i > 0 && l.Rating.Rating.Rating > lb.Leaders[i-1].Rating.Rating.Rating) || l.Place != i+1 || !established[l.Rating.Player.Key()] {
			t.Errorf("place %d: %+v (established %v)", i+1, l, established)
		}
	}
	if !established["5"] || !established["6"] || lb.Total != len(established) || len(lb.Leaders) != lb.Total ||
		lb.Caller.Place == 0 || lb.Caller.Rating.Player.Key() != "5" || order[lb.Caller.Place-1] != "5" {
		t.Errorf("Leaderboard %v (total %d, caller %+v), want the %d established players %v with 5's place", order, lb.Total, lb.Caller, len(established), established)
	}
	// A player omitted (banned on the server) is left off: the others
	// move up, and the total and the caller's place count without them.
	if without, err := s.Leaderboard(ctx, storage.GuildPool("G"), 0, 10, clk.Now(), "5", []string{"5"}); err != nil {
		t.Fatal(err)
	} else {
		var got []string
		for i, l := range without.Leaders {
			got = append(got, l.Rating.Player.Key())
			if l.Place != i+1 {
				t.Errorf("without 5, place %d: %+v", i+1, l)
			}
		}
		want := slices.DeleteFunc(slices.Clone(order), func(k string) bool { return k == "5" })
		if !slices.Equal(got, want) || without.Total != lb.Total-1 || without.Caller.Place != 0 {
			t.Errorf("Leaderboard without 5 = %v (total %d, caller %+v), want %v (total %d) and no place for 5", got, without.Total, without.Caller, want, lb.Total-1)
		}
	}
	keys := []string{"1", "2", "3", "4", "5", "6"}
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
	if rep.Games != 18 || rep.Changed != 0 || rep.Missing != 0 || rep.Ratings != 11 {
		t.Errorf("RebuildRatings = %+v, want 18 games, 11 ratings, none changed", rep)
	}
	for _, pool := range []string{storage.GlobalPool, storage.GuildPool("G")} {
		for _, k := range keys {
			if got := ratingOf(t, s, pool, k); got != before[pool+k] {
				t.Errorf("%s %s after the rebuild: %s, want %s", pool, k, got, before[pool+k])
			}
		}
	}
}

// testBotsOffLeaderboards: a bot level that played enough rated games to
// be established keeps its rating, but a leaderboard ranks people only.
func testBotsOffLeaderboards(t *testing.T, s Store, clk *clocktest.Clock) {
	beginner := storage.Player{Level: "beginner", Name: "beginner"}
	for i := range 8 {
		result := "B+R"
		if i%2 == 1 {
			result = "W+R"
		}
		g := newGame(t, fmt.Sprint("b", i), "5", "5")
		g.GuildID, g.Sides = "", storage.Sides(human("5"), beginner)
		mustCreate(t, s, g)
		if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("x"), Moves: 40, Rated: true}); err != nil {
			t.Fatalf("FinishGame(b%d) = %v", i, err)
		}
		clk.Advance(time.Minute)
	}
	pr, err := s.Rating(ctx, storage.GlobalPool, beginner.Key())
	if err != nil || pr.Games != 8 || pr.Current(clk.Now()).Provisional() {
		t.Fatalf("Rating(global, bot:beginner) = %+v, %v; want 8 games, established", pr, err)
	}
	lb, err := s.Leaderboard(ctx, storage.GlobalPool, 0, 10, clk.Now(), beginner.Key(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lb.Leaders {
		got = append(got, fmt.Sprintf("%d:%s", l.Place, l.Rating.Player.Key()))
	}
	if fmt.Sprint(got) != "[1:5]" || lb.Total != 1 || lb.Caller.Place != 0 {
		t.Errorf("global Leaderboard = %v, total %d, bot's place %d; want [1:5], 1, none", got, lb.Total, lb.Caller.Place)
	}
}
