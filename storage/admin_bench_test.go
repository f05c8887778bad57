package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage/pgtest"
	bolt "go.etcd.io/bbolt"
)

// Run with: go test -run '^$' -bench 'GuildActiveGames|AnnulGame' -benchtime 5x ./storage

var guildGamesData benchFixture

// guildGames are the games in play on the benchmark's busy server.
const guildGames = 10_000

// BenchmarkGuildActiveGames: /go-admin games' reads on a server with
// 10,000 games in play (and 2,000 on another server): the first and the
// last page of ten, replayed, and the server's open challenges.
func BenchmarkGuildActiveGames(b *testing.B) {
	path := guildGamesData.path(b, "guildgames", func(s *Store) error {
		src := randomGame(b, 19, 60, 7)
		now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := inChunks(s, guildGames+2000, func(tx *bolt.Tx, i int) error {
			guild := "busy"
			if i >= guildGames {
				guild = "other"
			}
			g := &Game{ChannelID: fmt.Sprint("chan", i), GuildID: guild, Sides: Sides(human(fmt.Sprint(i%500)), human(fmt.Sprint(500+i%300))),
				State: engine.Own(src.Clone()), CreatedAt: now.Add(time.Duration(i) * time.Second)}
			c, val, at, err := prepareGame(testKinds, g, now)
			if err != nil {
				return err
			}
			return putNewGame(tx, &c, val, owedOf(&c), at)
		}); err != nil {
			return err
		}
		for i := range 50 {
			c := &Challenge{ID: fmt.Sprint("ch", i), ChannelID: "c", GuildID: []string{"busy", "other"}[i%2], Challenger: human("1"), Opponent: human("2"),
				Size: 19, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
			if err := s.CreateChallenge(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	benchGuildPages(b, s, 25)
}

// BenchmarkAnnulGame annuls, one after another, rated games from early in
// the order of a pool of 100,000 rated games (the rating fixture: 10,000
// players on 20 servers), so that nearly the whole global pool and a
// server's pool are rated again each time. Meanwhile a writer commits a
// game as fast as it can, as moves would be: max-move-ms is the longest
// it waited, which the annulment's write transaction bounds. After the
// loop a rebuild must find nothing to change.
func BenchmarkAnnulGame(b *testing.B) {
	src := ratedFixture(b)
	dst := filepath.Join(b.TempDir(), "annul.db")
	if err := copyFile(src, dst); err != nil {
		b.Fatal(err)
	}
	s, err := Open(dst, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := &Game{ChannelID: "moves", Sides: Sides(human("m1"), human("m2")), State: engine.Own(newEngine(b, 19))}
	if err := s.CreateGame(ctx, g); err != nil {
		b.Fatal(err)
	}
	n := 0
	annul := func(b *testing.B) {
		id := fmt.Sprintf("rated%07d", 1000+997*n)
		n++
		if a, err := s.AnnulGame(ctx, "", id, nil, AuditEntry{GuildID: "x", Action: AuditAnnul, Target: id}); err == nil || a != nil {
			// The fixture's games are on servers; "" is no server.
			b.Fatalf("AnnulGame without the game's server = %v", err)
		}
		arc, err := s.ArchivedGame(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.AnnulGame(ctx, arc.GuildID, id, nil, AuditEntry{GuildID: arc.GuildID, Action: AuditAnnul, Target: id}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("alone", func(b *testing.B) {
		for b.Loop() {
			annul(b)
		}
	})
	b.Run("while-moves-commit", func(b *testing.B) {
		var (
			stop    atomic.Bool
			wg      sync.WaitGroup
			slowest time.Duration
			writes  int
		)
		wg.Go(func() {
			for !stop.Load() {
				start := time.Now()
				if err := s.UpdateGame(ctx, g); err != nil {
					b.Error(err)
					return
				}
				slowest, writes = max(slowest, time.Since(start)), writes+1
			}
		})
		for b.Loop() {
			annul(b)
		}
		stop.Store(true)
		wg.Wait()
		b.ReportMetric(float64(slowest.Microseconds())/1000, "max-move-ms")
		b.ReportMetric(float64(writes), "moves-meanwhile")
	})
	rep, err := s.RebuildRatings(ctx)
	if err != nil || rep.Changed != 0 || rep.Missing != 0 {
		b.Fatalf("RebuildRatings after %d annulments = %+v, %v; want nothing changed", n, rep, err)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BenchmarkGuildActiveGamesPostgres is BenchmarkGuildActiveGames on
// PostgreSQL (10,000 games on one server, none elsewhere).
func BenchmarkGuildActiveGamesPostgres(b *testing.B) {
	s, err := OpenPostgres(ctx, pgtest.Database(b), Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	src := randomGame(b, 19, 60, 7)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	next := make(chan int)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := range next {
				g := &Game{ChannelID: fmt.Sprint("chan", i), GuildID: "busy", Sides: Sides(human(fmt.Sprint(i%500)), human(fmt.Sprint(500+i%300))),
					State: engine.Own(src.Clone()), CreatedAt: now.Add(time.Duration(i) * time.Second)}
				if err := s.CreateGame(ctx, g); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for i := range guildGames {
		next <- i
	}
	close(next)
	wg.Wait()
	benchGuildPages(b, s, -1)
}

// benchGuildPages times /go-admin games' reads of the server "busy" with
// guildGames games in play: its first and last page, and its open
// challenges (challenges of them when not negative).
func benchGuildPages(b *testing.B, s interface {
	GuildActiveGames(ctx context.Context, guildID string, offset, limit int) (*GameList, error)
	GuildChallenges(ctx context.Context, guildID string) ([]*Challenge, error)
}, challenges int) {
	ctx := context.Background()
	for _, bc := range []struct {
		name   string
		offset int
	}{{"first-page", 0}, {"last-page", guildGames - 10}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				l, err := s.GuildActiveGames(ctx, "busy", bc.offset, 10)
				if err != nil || len(l.Games) != 10 || l.Total != guildGames {
					b.Fatalf("GuildActiveGames = %d games of %d, %v", len(l.Games), l.Total, err)
				}
				cs, err := s.GuildChallenges(ctx, "busy")
				if err != nil || (challenges >= 0 && len(cs) != challenges) {
					b.Fatalf("GuildChallenges = %d, %v", len(cs), err)
				}
			}
		})
	}
}
