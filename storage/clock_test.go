package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// clocked returns an unsaved game in channel with a running absolute clock
// of d for each player, Black to move since t0.
func clocked(t testing.TB, channel string, d time.Duration) *Game {
	g := newGame(t, channel, "1", "2")
	g.Clock = clock.New(clock.Control{System: clock.Absolute, Main: d})
	g.Clock.Start(clock.First, t0)
	return g
}

func dueChannels(t *testing.T, s *Store, now time.Time) []string {
	t.Helper()
	due, err := s.DueGames(ctx, now, 0)
	if err != nil {
		t.Fatalf("DueGames(%v) = %v", now, err)
	}
	var chs []string
	for _, d := range due {
		chs = append(chs, d.ChannelID)
	}
	return chs
}

func TestDueIndexFollowsWrites(t *testing.T) {
	s := openTest(t) // Check at the end verifies games_by_due against the records
	a, b, c := clocked(t, "a", time.Hour), clocked(t, "b", 2*time.Hour), newGame(t, "c", "3", "4")
	for _, g := range []*Game{a, b, c} {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if next, _ := s.NextDue(ctx); !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("NextDue() = %v, want a's deadline t0+1h", next)
	}
	if got := fmt.Sprint(dueChannels(t, s, t0.Add(90*time.Minute))); got != "[a]" {
		t.Errorf("due at t0+90m = %s, want [a]", got)
	}
	if got := fmt.Sprint(dueChannels(t, s, t0.Add(2*time.Hour))); got != "[a b]" {
		t.Errorf("due at t0+2h = %s, want [a b] (a deadline is due at its instant)", got)
	}

	// Black moves in a after 10 min: White's hour runs, a is due at 1h10m.
	play(t, goOf(a), "E5")
	if err := a.Clock.Play(t0.Add(10 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	if next, _ := s.NextDue(ctx); !next.Equal(t0.Add(70 * time.Minute)) {
		t.Errorf("NextDue() after a move = %v, want t0+70m", next)
	}
	// The scoring phase: the clock stops, the phase's deadline is due.
	a.Clock.Stop(t0.Add(11 * time.Minute))
	a.Scoring = &ScoringState{Accepted: map[game.Side]bool{}, Deadline: t0.Add(24 * time.Hour)}
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(dueChannels(t, s, t0.Add(23*time.Hour))); got != "[b]" {
		t.Errorf("due at t0+23h = %s, want [b]", got)
	}
	// Finishing and aborting take games out of the index.
	goOf(a).End(engine.Result{Winner: engine.White, Reason: engine.ByTime})
	if err := s.FinishGame(ctx, a, Archived{SGF: []byte("(;GM[1])")}); err != nil {
		t.Fatal(err)
	}
	if err := s.AbortGame(ctx, b); err != nil {
		t.Fatal(err)
	}
	if next, _ := s.NextDue(ctx); !next.IsZero() {
		t.Errorf("NextDue() with no clock running = %v, want zero", next)
	}
}

func TestQuarantineClearsDue(t *testing.T) {
	s := openTest(t)
	for _, ch := range []string{"a", "b"} {
		if err := s.CreateGame(ctx, clocked(t, ch, time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	s.db.Update(func(tx *bolt.Tx) error {
		// a: the moves damaged, the header readable; b: nothing readable.
		tx.Bucket(bucketGames).Put([]byte("a"), []byte(`{"id":"x","channel":"a","black":{"user":"1"},"white":{"user":"2"},"due":"2026-03-01T13:00:00Z","version":3,"game":{"size":99}}`))
		return tx.Bucket(bucketGames).Put([]byte("b"), []byte(`{"id":`))
	})
	for _, ch := range []string{"a", "b"} {
		if err := s.QuarantineGame(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
	if next, _ := s.NextDue(ctx); !next.IsZero() {
		t.Errorf("NextDue() after quarantine = %v, want zero", next)
	}
}

// TestTimeoutRacesMove: a move at the last second and the scheduler ending
// the game on time both start from the same version; exactly one wins and
// the other changes nothing.
func TestTimeoutRacesMove(t *testing.T) {
	s := openTest(t)
	for i := range 40 {
		ch := fmt.Sprint("race", i)
		if err := s.CreateGame(ctx, clocked(t, ch, time.Minute)); err != nil {
			t.Fatal(err)
		}
		mover, _ := s.Game(ctx, ch)
		timer, _ := s.Game(ctx, ch)
		var moveErr, timeoutErr error
		var wg sync.WaitGroup
		wg.Go(func() {
			play(t, goOf(mover), "E5")
			mover.Clock.Play(t0.Add(59 * time.Second))
			moveErr = s.UpdateGame(ctx, mover)
		})
		wg.Go(func() {
			goOf(timer).End(engine.Result{Winner: engine.White, Reason: engine.ByTime})
			timeoutErr = s.FinishGame(ctx, timer, Archived{SGF: []byte("(;GM[1]RE[W+T])")})
		})
		wg.Wait()
		if (moveErr == nil) == (timeoutErr == nil) {
			t.Fatalf("race %d: move = %v, timeout = %v; want exactly one to win", i, moveErr, timeoutErr)
		}
		_, archived := s.ArchivedGame(ctx, timer.ID)
		g, active := s.Game(ctx, ch)
		switch {
		case moveErr == nil:
			if !errors.Is(timeoutErr, ErrConflict) || archived == nil || active != nil || goOf(g).MoveCount() != 1 {
				t.Fatalf("race %d: the move won but timeout = %v, archived = %v, active = %v", i, timeoutErr, archived, active)
			}
		default:
			if !errors.Is(moveErr, ErrConflict) && !errors.Is(moveErr, ErrNotFound) || archived != nil || active == nil {
				t.Fatalf("race %d: the timeout won but move = %v, archived = %v, active = %v", i, moveErr, archived, active)
			}
		}
	}
}

func TestCreditOutage(t *testing.T) {
	s := openTest(t)
	a := clocked(t, "a", time.Hour)
	sc := newGame(t, "s", "5", "6")
	sc.Scoring = &ScoringState{Accepted: map[game.Side]bool{}, Deadline: t0.Add(24 * time.Hour)}
	for _, g := range []*Game{a, sc, newGame(t, "c", "3", "4")} {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	// No heartbeat yet: nothing to measure an outage from.
	if credit, n, err := s.CreditOutage(ctx, t0.Add(time.Minute), time.Minute); err != nil || credit != 0 || n != 0 {
		t.Fatalf("first CreditOutage = %v, %d, %v; want nothing", credit, n, err)
	}
	if err := s.Heartbeat(ctx, t0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A restart within min credits nothing.
	if credit, n, _ := s.CreditOutage(ctx, t0.Add(10*time.Minute+30*time.Second), time.Minute); credit != 0 || n != 0 {
		t.Errorf("quick restart credited %v to %d games", credit, n)
	}
	// Down from t0+10m30s to t0+2h: a's hour is charged up to the last
	// heartbeat, then runs again from now.
	now := t0.Add(2 * time.Hour)
	credit, n, err := s.CreditOutage(ctx, now, time.Minute)
	if err != nil || n != 2 || credit != now.Sub(t0.Add(10*time.Minute+30*time.Second)) {
		t.Fatalf("CreditOutage = %v, %d, %v; want the outage credited to the running clock and the scoring phase", credit, n, err)
	}
	got, _ := s.Game(ctx, "a")
	if want := now.Add(time.Hour - 10*time.Minute - 30*time.Second); !got.Clock.Deadline().Equal(want) || got.Version != 2 {
		t.Errorf("a's deadline = %v (version %d), want %v (version 2)", got.Clock.Deadline(), got.Version, want)
	}
	scored, _ := s.Game(ctx, "s")
	if want := t0.Add(24*time.Hour + credit); !scored.Scoring.Deadline.Equal(want) || scored.Version != 2 {
		t.Errorf("scoring deadline = %v (version %d), want %v (version 2): moved on by the outage", scored.Scoring.Deadline, scored.Version, want)
	}
	if next, _ := s.NextDue(ctx); !next.Equal(got.Clock.Deadline()) {
		t.Errorf("NextDue() = %v, want a's new deadline", next)
	}
	// A write prepared before the credit is stale.
	if err := s.UpdateGame(ctx, a); !errors.Is(err, ErrConflict) {
		t.Errorf("UpdateGame with the pre-credit version = %v, want ErrConflict", err)
	}
	if last, _ := s.LastHeartbeat(ctx); !last.Equal(now) {
		t.Errorf("LastHeartbeat() = %v, want %v", last, now)
	}
}

func TestVacationRecord(t *testing.T) {
	s := openTest(t)
	if v, err := s.Vacation(ctx, "1"); err != nil || v != (Vacation{}) {
		t.Fatalf("Vacation(1) = %+v, %v; want none", v, err)
	}
	want := Vacation{Year: 2026, Used: 48 * time.Hour, Start: t0, Until: t0.Add(48 * time.Hour)}
	if err := s.PutVacation(ctx, "1", want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Vacation(ctx, "1")
	if err != nil || got.Year != want.Year || got.Used != want.Used || !got.Start.Equal(want.Start) || !got.Until.Equal(want.Until) {
		t.Errorf("Vacation(1) = %+v, %v; want %+v", got, err, want)
	}
	if !got.On(t0.Add(time.Hour)) || got.On(t0.Add(48*time.Hour)) {
		t.Errorf("On() is wrong")
	}
	if err := s.PutVacation(ctx, "1", Vacation{Start: t0, Until: t0.Add(-time.Hour)}); !errors.Is(err, ErrInvalid) {
		t.Errorf("PutVacation(ends before it starts) = %v, want ErrInvalid", err)
	}
}

// loadClocked writes n active games with running clocks, due one second
// apart from t0, straight into the file (a few thousand per transaction,
// not n commits).
func loadClocked(b *testing.B, path string, n int) {
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := clocked(b, "x", time.Hour)
	const chunk = 2000
	for from := 0; from < n; from += chunk {
		err = s.db.Update(func(tx *bolt.Tx) error {
			for i := from; i < min(from+chunk, n); i++ {
				g.ChannelID, g.ID = fmt.Sprint("c", i), fmt.Sprint("g", i)
				g.Sides = Sides(human(fmt.Sprint(2*i)), human(fmt.Sprint(2*i+1)))
				g.Clock.Since = t0.Add(time.Duration(i) * time.Second)
				val, err := g.encode(1, t0)
				if err != nil {
					return err
				}
				if err := putNewGame(tx, g, val, owedOf(g), t0); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// Run with: go test -run '^$' -bench Due -benchmem ./storage
// The scheduler's work at 1,000 and at 100,000 active games: the next
// deadline, the games due now (ten), the heap it holds, and re-arming
// after a restart (open the file, read the next deadline). The costs and
// B/op are the same at both sizes: one index, read from its start.
func BenchmarkDue(b *testing.B) {
	for _, games := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(games), func(b *testing.B) { benchmarkDue(b, games) })
	}
}

func benchmarkDue(b *testing.B, games int) {
	path := filepath.Join(b.TempDir(), "due.db")
	loadClocked(b, path, games)
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	first := t0.Add(time.Hour)
	b.Run("NextDue", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if next, err := s.NextDue(ctx); err != nil || !next.Equal(first) {
				b.Fatalf("NextDue() = %v, %v", next, err)
			}
		}
	})
	b.Run("DueGames-10", func(b *testing.B) {
		b.ReportAllocs()
		now := first.Add(9 * time.Second)
		for range b.N {
			if due, err := s.DueGames(ctx, now, 100); err != nil || len(due) != 10 {
				b.Fatalf("DueGames() = %d, %v", len(due), err)
			}
		}
	})
	b.Run("heap", func(b *testing.B) {
		// Memory held while the scheduler works: the index is read
		// through the mmap, nothing is loaded.
		var after runtime.MemStats
		for range b.N {
			s.NextDue(ctx)
			s.DueGames(ctx, first.Add(9*time.Second), 100)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MiB-heap")
	})
	s.Close()
	b.Run("rearm", func(b *testing.B) {
		for range b.N {
			s, err := Open(path, Options{Kinds: testKinds})
			if err != nil {
				b.Fatal(err)
			}
			if next, err := s.NextDue(ctx); err != nil || !next.Equal(first) {
				b.Fatalf("NextDue() = %v, %v", next, err)
			}
			s.Close()
		}
	})
}

// BenchmarkCreditOutage extends every running clock of 100,000 games after
// an outage: the one start-up cost that grows with the games.
const creditGames = 100_000

func BenchmarkCreditOutage(b *testing.B) {
	path := filepath.Join(b.TempDir(), "credit.db")
	loadClocked(b, path, creditGames)
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := t0
	b.ResetTimer()
	for range b.N {
		if err := s.Heartbeat(ctx, now); err != nil {
			b.Fatal(err)
		}
		now = now.Add(time.Hour)
		if _, n, err := s.CreditOutage(ctx, now, time.Minute); err != nil || n != creditGames {
			b.Fatalf("CreditOutage = %d games, %v", n, err)
		}
	}
}
