package storage

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage/pgtest"
	bolt "go.etcd.io/bbolt"
)

// Run with: go test -run '^$' -bench . -benchtime 2s ./storage
// Every commit is a real bbolt commit with fsync (fdatasync) on the disk
// under t.TempDir().

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	historyData.remove()
	ratedData.remove()
	os.Exit(code)
}

// benchFixture is a large store that benchmarks share: built on first use, once
// per test binary, in a temporary directory that TestMain removes.
type benchFixture struct {
	once sync.Once
	dir  string
	err  error
}

// path returns the fixture's file, name.db, building it first with fill
// if need be; fill writes without fsync (it is set-up, not what is
// measured), and the file is synced once at the end.
func (f *benchFixture) path(b *testing.B, name string, fill func(s *Store) error) string {
	f.once.Do(func() {
		f.dir, f.err = os.MkdirTemp("", "gobot-"+name+"-bench-")
		if f.err != nil {
			return
		}
		s, err := Open(filepath.Join(f.dir, name+".db"), Options{Kinds: testKinds})
		if err != nil {
			f.err = err
			return
		}
		defer s.Close()
		s.db.NoSync = true
		if f.err = fill(s); f.err == nil {
			s.db.NoSync = false
			f.err = s.db.Sync()
		}
	})
	if f.err != nil {
		b.Fatal(f.err)
	}
	return filepath.Join(f.dir, name+".db")
}

func (f *benchFixture) remove() {
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}

// inChunks calls put for i from 0 to n-1 in bbolt transactions of 10,000
// calls each.
func inChunks(s *Store, n int, put func(tx *bolt.Tx, i int) error) error {
	const chunk = 10_000
	for base := 0; base < n; base += chunk {
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i := base; i < min(base+chunk, n); i++ {
				if err := put(tx, i); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// moveSource hands out the moves of a prepared random 19×19 game, and a new
// game each time the previous one is used up.
type moveSource struct {
	moves []engine.Move
	next  int
}

func newMoveSource(b *testing.B, seed uint64) *moveSource {
	return &moveSource{moves: randomGame(b, 19, 120, seed).Moves()}
}

// commitOne plays the next move into g and commits it; when the prepared
// game is used up it starts a new game in a new channel (one more commit
// in 120, counted in the time).
func (ms *moveSource) commitOne(b *testing.B, s *Store, g **Game, channel func() string) {
	if *g == nil || ms.next == len(ms.moves) {
		ng := &Game{ChannelID: channel(), Sides: Sides(human("1"), human("2")), State: engine.Own(newEngine(b, 19))}
		if err := s.CreateGame(ctx, ng); err != nil {
			b.Fatal(err)
		}
		*g, ms.next = ng, 0
	}
	if err := goOf((*g)).Play(ms.moves[ms.next]); err != nil {
		b.Fatal(err)
	}
	ms.next++
	if err := s.UpdateGame(ctx, *g); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkCommitMove(b *testing.B) {
	b.Run("sequential", func(b *testing.B) {
		s := openTest(b)
		ms := newMoveSource(b, 1)
		var g *Game
		n := 0
		ch := func() string { n++; return fmt.Sprint("c", n) }
		b.ResetTimer()
		for range b.N {
			ms.commitOne(b, s, &g, ch)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
	})
	for _, bc := range []struct {
		name     string
		maxBatch int
	}{
		{"64-games", 0},
		{"64-games-no-batching", 1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "gobot.db"), Options{Kinds: testKinds, MaxBatch: bc.maxBatch})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var channels atomic.Int64
			ch := func() string { return fmt.Sprint("c", channels.Add(1)) }
			par := (64 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)
			sources := make([]*moveSource, par*runtime.GOMAXPROCS(0))
			for i := range sources {
				sources[i] = newMoveSource(b, uint64(i))
			}
			var next atomic.Int64
			b.SetParallelism(par)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ms := sources[next.Add(1)-1]
				var g *Game
				for pb.Next() {
					ms.commitOne(b, s, &g, ch)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}

func BenchmarkLoadGame300(b *testing.B) {
	s := openTest(b)
	eg := randomGame(b, 19, 300, 5)
	if eg.MoveCount() != 300 {
		b.Fatalf("prepared game has %d moves", eg.MoveCount())
	}
	if err := s.CreateGame(ctx, &Game{ChannelID: "c1", Sides: Sides(human("1"), human("2")), State: engine.Own(eg)}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		g, err := s.Game(ctx, "c1")
		if err != nil || goOf(g).MoveCount() != 300 {
			b.Fatal(err)
		}
	}
}

// The history fixture: 100,000 archived games between 1,000 players, in
// 50 guilds, over two years; player "heavy" plays one game in ten. Built
// once per process, in large transactions without fsync (it is set-up,
// not what is measured).
const (
	historyGames   = 100_000
	historyPlayers = 1000
)

var historyData benchFixture

func historyFixture(b *testing.B) string {
	return historyData.path(b, "history", func(s *Store) error {
		r := rand.New(rand.NewPCG(1, 2))
		sgf := []byte("(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[7.5]RU[Chinese]PB[someone]PW[someone else]RE[B+R]" +
			strings.Repeat(";B[pd];W[dp]", 60) + ")") // about 1 kB, a short game
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		return inChunks(s, historyGames, func(tx *bolt.Tx, i int) error {
			black := fmt.Sprint(100000 + r.IntN(historyPlayers))
			white := fmt.Sprint(100000 + r.IntN(historyPlayers))
			if i%10 == 0 {
				black = "heavy"
			}
			a := &Archived{
				ID: fmt.Sprintf("game%07d", i), GuildID: fmt.Sprint("guild", r.IntN(50)), ChannelID: "c",
				Black: human(black), White: human(white), Size: 19, Rules: engine.DefaultRules(),
				Result: "B+R", Winner: engine.Black, Moves: 120,
				StartedAt:  start.Add(time.Duration(i) * 10 * time.Minute),
				FinishedAt: start.Add(time.Duration(i)*10*time.Minute + time.Hour),
			}
			val, err := json.Marshal(a)
			if err != nil {
				return err
			}
			return putArchive(tx, a, val, sgf, false)
		})
	})
}

func BenchmarkPlayerHistory(b *testing.B) {
	path := historyFixture(b)
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if fi, err := os.Stat(path); err == nil {
		b.Logf("fixture: %d archived games, file %d MB", historyGames, fi.Size()>>20)
	}
	for _, bc := range []struct {
		name  string
		query func() ([]*Archived, error)
		want  int
	}{
		{"typical-player-newest-20", func() ([]*Archived, error) { return s.PlayerGames(ctx, "100500", 20) }, 20},
		{"heavy-player-newest-20", func() ([]*Archived, error) { return s.PlayerGames(ctx, "heavy", 20) }, 20},
		{"heavy-player-page-deep", func() ([]*Archived, error) {
			return s.PlayerGamesBefore(ctx, "heavy", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), 20)
		}, 20},
		{"typical-player-all", func() ([]*Archived, error) { return s.PlayerGames(ctx, "100500", 0) }, -1},
		{"guild-newest-20", func() ([]*Archived, error) { return s.GuildGames(ctx, "guild7", 20) }, 20},
		{"player-stats", func() ([]*Archived, error) { _, err := s.PlayerStats(ctx, "heavy"); return nil, err }, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			n := 0
			for range b.N {
				got, err := bc.query()
				if err != nil || (bc.want >= 0 && len(got) != bc.want) {
					b.Fatalf("got %d games, %v; want %d", len(got), err, bc.want)
				}
				n = len(got)
			}
			b.ReportMetric(float64(n), "games/op")
		})
	}
}
