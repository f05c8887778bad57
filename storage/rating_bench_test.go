package storage

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	bolt "go.etcd.io/bbolt"
)

// Run with: go test -run '^$' -bench 'Leaderboard|HistoryPage' ./storage
//
// The fixture is 100,000 rated archived games between 10,000 players on 20
// servers, rated through rateGame as FinishGame rates them (built in
// 10,000-game transactions without fsync, then synced once).

const (
	ratedGames   = 100_000
	ratedPlayers = 10_000
)

var (
	ratedData benchFixture
	ratedEnd  time.Time // when the last game finished
)

func ratedFixture(b *testing.B) string {
	return ratedData.path(b, "rated", func(s *Store) error {
		r := rand.New(rand.NewPCG(3, 4))
		sgf := []byte("(;GM[1]FF[4]SZ[19]KM[7.5]RE[B+R]" + strings.Repeat(";B[pd];W[dp]", 60) + ")")
		start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		return inChunks(s, ratedGames, func(tx *bolt.Tx, i int) error {
			bp := r.IntN(ratedPlayers)
			wp := (bp + 1 + r.IntN(ratedPlayers-1)) % ratedPlayers
			black, white := fmt.Sprint(200000+bp), fmt.Sprint(200000+wp)
			if i%10 == 0 {
				black = "heavy"
			}
			result, winner := "B+R", engine.Black
			if r.IntN(2) == 0 {
				result, winner = "W+R", engine.White
			}
			a := &Archived{
				ID: fmt.Sprintf("rated%07d", i), GuildID: fmt.Sprint("guild", bp%20), ChannelID: fmt.Sprint("c", i%500),
				Black: human(black), White: human(white), Size: 19, Rules: engine.DefaultRules(),
				Result: result, Winner: winner, Moves: 120, Rated: true, RatingSeq: uint64(i + 1),
				StartedAt:  start.Add(time.Duration(i) * 5 * time.Minute),
				FinishedAt: start.Add(time.Duration(i)*5*time.Minute + time.Hour),
			}
			val, err := json.Marshal(a)
			if err != nil {
				return err
			}
			if err := putArchive(tx, a, val, sgf, false); err != nil {
				return err
			}
			score := 1.0
			if winner == engine.White {
				score = 0
			}
			if err := rateGame(ctx, boltRatings{tx}, nil, a, score); err != nil {
				return err
			}
			ratedEnd = a.FinishedAt
			return tx.Bucket(bucketRatings).SetSequence(uint64(i + 1))
		})
	})
}

func openRated(b *testing.B) *Store {
	path := ratedFixture(b)
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkLeaderboard(b *testing.B) {
	s := openRated(b)
	now := ratedEnd
	lb, err := s.Leaderboard(ctx, GlobalPool, 0, 10, now, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("fixture: %d rated games, %d players; %d established globally", ratedGames, ratedPlayers, lb.Total)
	// A player from the middle of the global board, as the caller.
	mid, _ := s.Leaderboard(ctx, GlobalPool, lb.Total/2, 1, now, "", nil)
	caller := mid.Leaders[0].Rating.Player.Key()
	for _, bc := range []struct {
		name, pool, caller string
		offset             int
	}{
		{"global-page-1", GlobalPool, "", 0},
		{"global-page-1-with-caller-place", GlobalPool, caller, 0},
		{"global-last-page", GlobalPool, caller, lb.Total - 10},
		{"server-page-1-with-caller-place", GuildPool("guild7"), caller, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var got *Leaderboard
			for range b.N {
				got, err = s.Leaderboard(ctx, bc.pool, bc.offset, 10, now, bc.caller, nil)
				if err != nil || len(got.Leaders) == 0 {
					b.Fatalf("Leaderboard = %+v, %v", got, err)
				}
			}
			b.ReportMetric(float64(got.Total), "players")
		})
	}
}

func BenchmarkHistoryPage(b *testing.B) {
	s := openRated(b)
	// As /go history: ten games a page; another player's history filtered
	// by what the caller may see (games of one server).
	visible := func(a *Archived) bool { return a.GuildID == "guild3" }
	for _, bc := range []struct {
		name, player string
		offset       int
		keep         func(*Archived) bool
	}{
		{"typical-player-page-1", "200123", 0, nil},
		{"typical-player-page-2", "200123", 10, nil},
		{"typical-player-filtered", "200123", 0, visible},
		{"heavy-player-page-1", "heavy", 0, nil},
		{"heavy-player-page-500", "heavy", 4990, nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var total int
			for range b.N {
				var err error
				_, total, err = s.PlayerGamesPage(ctx, bc.player, bc.offset, 10, bc.keep)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total), "games")
		})
	}
}
