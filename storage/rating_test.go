package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// finishRated finishes a game between black and white (player keys: user
// IDs, or "bot:level") in guild ("" for a DM) with result, rated or not.
func finishRated(t *testing.T, s *Store, n int, guild, black, white, result string, rated bool, at time.Time) *Archived {
	t.Helper()
	player := func(k string) Player {
		if len(k) > 4 && k[:4] == "bot:" {
			return bot(k[4:])
		}
		return human(k)
	}
	g := newGame(t, fmt.Sprintf("c%d", n), "x", "y")
	g.ID, g.Sides, g.GuildID = fmt.Sprintf("g%d", n), Sides(player(black), player(white)), guild
	return finishWith(t, s, g, Archived{Result: result, Rated: rated, FinishedAt: at, Moves: 40})
}

func TestRatings(t *testing.T) {
	s := openTest(t)
	a := finishRated(t, s, 0, "G", "1", "2", "B+R", true, t0)
	if !a.Rated || a.RatingSeq != 1 {
		t.Fatalf("archived Rated %v, RatingSeq %d; want true, 1", a.Rated, a.RatingSeq)
	}
	for _, pool := range []string{GlobalPool, GuildPool("G")} {
		for _, tt := range []struct {
			player string
			want   string
		}{{"1", "1662.3"}, {"2", "1337.7"}} {
			pr, err := s.Rating(ctx, pool, tt.player)
			if err != nil {
				t.Fatalf("Rating(%s, %s) = %v", pool, tt.player, err)
			}
			if got := fmt.Sprintf("%.1f", pr.Rating.Rating); got != tt.want || pr.Games != 1 || !pr.Last.Equal(t0) {
				t.Errorf("Rating(%s, %s) = %s (%d games, last %v), want %s", pool, tt.player, got, pr.Games, pr.Last, tt.want)
			}
		}
	}
	// Unrated, void and self games change nothing; a DM game and a bot
	// game count in the global pool only.
	finishRated(t, s, 1, "G", "1", "2", "W+R", false, t0.Add(time.Hour))
	finishRated(t, s, 2, "G", "1", "2", "Void", true, t0.Add(time.Hour))
	if a := finishRated(t, s, 3, "G", "1", "1", "B+R", true, t0.Add(time.Hour)); a.Rated {
		t.Errorf("a game against oneself was rated")
	}
	finishRated(t, s, 4, "", "2", "1", "B+3.5", true, t0.Add(2*time.Hour))
	finishRated(t, s, 5, "G", "bot:strong", "2", "B+R", true, t0.Add(3*time.Hour))
	h, err := s.RatingHistory(ctx, "2")
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, c := range h {
		games = append(games, c.Pool+":"+c.Game)
	}
	if fmt.Sprint(games) != "[global:g0 global:g4 global:g5 guild:G:g0]" {
		t.Errorf("rating history of 2 = %v", games)
	}
	if pr, _ := s.Rating(ctx, GuildPool("G"), "2"); pr.Games != 1 {
		t.Errorf("2 has %d games in the server pool, want 1 (DM and bot games count globally only)", pr.Games)
	}
	if _, err := s.Rating(ctx, GuildPool("G"), "bot:strong"); err == nil {
		t.Errorf("the bot has a server rating")
	}
	for i, c := range h[:3] {
		if i > 0 && c.Before.Rating != h[i-1].After.Rating {
			t.Errorf("change %d starts from %v, the previous ended at %v", i, c.Before.Rating, h[i-1].After.Rating)
		}
	}

	// Rebuilding reproduces everything, bit for bit.
	before := dumpBuckets(t, s, bucketRatings, bucketRatingsByValue, bucketRatingHistory)
	rep, err := s.RebuildRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 3 || rep.Changed != 0 || rep.Missing != 0 || rep.Ratings != 5 {
		t.Errorf("RebuildRatings = %+v, want 3 games, 5 ratings, nothing changed", rep)
	}
	if after := dumpBuckets(t, s, bucketRatings, bucketRatingsByValue, bucketRatingHistory); after != before {
		t.Errorf("the rebuild changed the stored ratings:\n%s\n---\n%s", before, after)
	}
	// A damaged rating is repaired and reported.
	rawPut(t, s, bucketRatings, GlobalPool+"\x001", []byte(`{"pool":"global","player":{"user":"1"},"rating":9,"rd":9,"volatility":0.06,"games":1}`))
	if err := s.Check(ctx); err == nil || !strings.Contains(err.Error(), "ratings_by_value") {
		t.Errorf("Check() with a damaged rating = %v, want a complaint about ratings_by_value", err)
	}
	if rep, _ := s.RebuildRatings(ctx); rep.Changed != 1 {
		t.Errorf("RebuildRatings after damage = %+v, want 1 changed", rep)
	}
	if after := dumpBuckets(t, s, bucketRatings, bucketRatingsByValue, bucketRatingHistory); after != before {
		t.Errorf("the rebuild did not repair the damaged rating")
	}
	if err := s.Check(ctx); err != nil {
		t.Errorf("Check() after the rebuild = %v", err)
	}
	if a := finishRated(t, s, 6, "G", "1", "2", "B+R", true, t0.Add(4*time.Hour)); a.RatingSeq != 4 {
		t.Errorf("RatingSeq after a rebuild = %d, want 4", a.RatingSeq)
	}
}

// dumpBuckets prints the contents of buckets.
func dumpBuckets(t *testing.T, s *Store, names ...[]byte) string {
	t.Helper()
	var out string
	for _, name := range names {
		out += fmt.Sprintf("%s: %d\n", name, bucketLen(t, s, name))
		for _, kv := range bucketItems(t, s, name) {
			out += fmt.Sprintf("  %q = %q\n", kv[0], kv[1])
		}
	}
	return out
}

func TestLeaderboard(t *testing.T) {
	s := openTest(t)
	// 1 and 2 play eight games, winning in turn, 1 the last: both are
	// established (deviation 145). 3 has one game, a win over 2:
	// provisional.
	at := t0
	for n := range 8 {
		result := "W+R" // 1, White, wins the odd games, the last one among them
		if n%2 == 0 {
			result = "B+R"
		}
		finishRated(t, s, n, "G", "2", "1", result, true, at)
		at = at.Add(time.Hour)
	}
	finishRated(t, s, 8, "G", "3", "2", "B+R", true, at)
	lb, err := s.Leaderboard(ctx, GuildPool("G"), 0, 10, at, "2", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lb.Leaders {
		got = append(got, fmt.Sprintf("%d:%s", l.Place, l.Rating.Player.Key()))
		if l.Rating.Provisional() {
			t.Errorf("provisional player on the leaderboard: %+v", l)
		}
	}
	if fmt.Sprint(got) != "[1:1 2:2]" || lb.Total != 2 || lb.Caller.Place != 2 || lb.Caller.Rating.Player.Key() != "2" {
		t.Errorf("Leaderboard = %v, total %d, caller %+v; want [1:1 2:2], 2, place 2", got, lb.Total, lb.Caller)
	}
	// The second page holds the second player; the caller is still found.
	lb, _ = s.Leaderboard(ctx, GuildPool("G"), 1, 1, at, "1", nil)
	if len(lb.Leaders) != 1 || lb.Leaders[0].Place != 2 || lb.Caller.Place != 1 {
		t.Errorf("page 2 of 1 = %+v", lb)
	}
	// The provisional player has no place.
	if lb, _ = s.Leaderboard(ctx, GuildPool("G"), 0, 10, at, "3", nil); lb.Caller.Place != 0 {
		t.Errorf("provisional caller has place %d", lb.Caller.Place)
	}
	// Years later, everybody's deviation has grown: nobody is established.
	lb, _ = s.Leaderboard(ctx, GuildPool("G"), 0, 10, at.Add(5*365*24*time.Hour), "1", nil)
	if lb.Total != 0 || lb.Caller.Place != 0 {
		t.Errorf("leaderboard after years of inactivity: %+v, want empty", lb)
	}
}

// bucketItems returns the keys and values of a bucket.
func bucketItems(t *testing.T, s *Store, name []byte) [][2]string {
	t.Helper()
	var out [][2]string
	s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(name).ForEach(func(k, v []byte) error {
			out = append(out, [2]string{string(k), string(v)})
			return nil
		})
	})
	return out
}
