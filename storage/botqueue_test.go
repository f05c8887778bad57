package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	bolt "go.etcd.io/bbolt"
)

// testClock is a store clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// openClocked opens a store at path on a clock the test moves; the store
// is checked and closed when the test ends.
func openClocked(t *testing.T, path string, c *testClock) *Store {
	t.Helper()
	s, err := Open(path, Options{Now: c.Now})
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	t.Cleanup(func() {
		if s.closed.Load() {
			return
		}
		if err := s.Check(ctx); err != nil {
			t.Errorf("Check() = %v", err)
		}
		s.Close()
	})
	return s
}

// botGame creates a 9×9 game in channel where the bot plays black, so its
// move is owed from the start.
func botGame(t *testing.T, s *Store, channel string) *Game {
	t.Helper()
	g := &Game{ChannelID: channel, Black: bot("weak"), White: human("1"), Game: newEngine(t, 9)}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatalf("CreateGame(%s) = %v", channel, err)
	}
	return g
}

// queue returns the channels of the owed moves in queue order.
func queue(t *testing.T, s *Store) []string {
	t.Helper()
	q, err := s.BotQueue(ctx)
	if err != nil {
		t.Fatalf("BotQueue() = %v", err)
	}
	var out []string
	for _, m := range q {
		out = append(out, m.ChannelID)
	}
	return out
}

func wantQueue(t *testing.T, s *Store, want ...string) {
	t.Helper()
	if got := queue(t, s); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bot queue = %v, want %v", got, want)
	}
}

func TestBotQueueFollowsTheGames(t *testing.T) {
	s := openTest(t)
	a := botGame(t, s, "a")
	b := botGame(t, s, "b")
	h := newGame(t, "h", "2", "3") // two humans: never queued
	if err := s.CreateGame(ctx, h); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "a", "b")

	// A write that leaves the same move owed keeps its place.
	a.MessageIDs = append(a.MessageIDs, "m1")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "a", "b")

	// The bot's move leaves the queue in the transaction that stores it;
	// the human's answer owes the next one, at the back.
	play(t, a.Game, "E5")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b")
	play(t, a.Game, "D4")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b", "a")

	// A scoring phase owes nothing; resuming play owes the move again.
	a.Scoring = &ScoringState{Accepted: map[engine.Color]bool{}}
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b")
	a.Scoring = nil
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b", "a")

	// Ending a game one way or another removes its owed move.
	if err := s.AbortGame(ctx, b); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "a")
	if err := a.Game.Play(engine.ResignMove(engine.White)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, a, Archived{SGF: []byte("(;RE[B+R])")}); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s)

	c := botGame(t, s, "c")
	if err := s.DeleteGame(ctx, "c", c.Version); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s)
}

// TestBotQueueQuarantine: a corrupt record set aside takes its owed move
// with it.
func TestBotQueueQuarantine(t *testing.T) {
	s := openTest(t)
	botGame(t, s, "a")
	botGame(t, s, "b")
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).Put([]byte("a"), []byte(`{"id":"x","chan`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.QuarantineGame(ctx, "a"); err != nil {
		t.Fatalf("QuarantineGame() = %v", err)
	}
	wantQueue(t, s, "b")
}

// TestClaimBotMove: workers take owed moves oldest first, never the same
// one twice while a claim holds, and a claim lapses after its lease.
func TestClaimBotMove(t *testing.T) {
	clock := &testClock{now: t0}
	s := openClocked(t, filepath.Join(t.TempDir(), "q.db"), clock)
	for _, ch := range []string{"a", "b", "c"} {
		botGame(t, s, ch)
		clock.Advance(time.Second)
	}
	claim := func(worker string) string {
		t.Helper()
		m, err := s.ClaimBotMove(ctx, worker, time.Minute)
		if errors.Is(err, ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatalf("ClaimBotMove(%s) = %v", worker, err)
		}
		if m.Worker != worker || !m.Until.Equal(clock.Now().Add(time.Minute)) {
			t.Errorf("ClaimBotMove(%s) = %+v: wrong claim", worker, m)
		}
		return m.ChannelID
	}
	position := func(ch string) int {
		t.Helper()
		p, err := s.BotQueuePosition(ctx, ch)
		if err != nil {
			t.Fatalf("BotQueuePosition(%s) = %v", ch, err)
		}
		return p
	}
	if got := [3]int{position("a"), position("b"), position("c")}; got != [3]int{1, 2, 3} {
		t.Errorf("positions before any claim = %v, want [1 2 3]", got)
	}
	if got := [2]string{claim("w1"), claim("w2")}; got != [2]string{"a", "b"} {
		t.Fatalf("two workers claimed %v, want [a b]", got)
	}
	if got := [3]int{position("a"), position("b"), position("c")}; got != [3]int{0, 0, 1} {
		t.Errorf("positions while a and b are being made = %v, want [0 0 1]", got)
	}
	if got := claim("w3"); got != "c" {
		t.Fatalf("third claim = %q, want c", got)
	}
	if got := claim("w4"); got != "" {
		t.Fatalf("a claim with every move taken = %q, want ErrNotFound", got)
	}
	if _, err := s.BotQueuePosition(ctx, "nowhere"); !errors.Is(err, ErrNotFound) {
		t.Errorf("BotQueuePosition(nowhere) = %v, want ErrNotFound", err)
	}

	// w1 dies: its claim lapses and a takes its place again, first.
	clock.Advance(time.Minute)
	if got := claim("w5"); got != "a" {
		t.Fatalf("claim after the leases lapsed = %q, want a", got)
	}
	if got := claim("w6"); got != "b" {
		t.Fatalf("next claim = %q, want b", got)
	}
	q, _ := s.BotQueue(ctx)
	a, b := q[0], q[1]

	// A release for a search slot keeps the place; one after a failure
	// waits until the retry time and counts the attempt.
	if err := s.ReleaseBotMove(ctx, &a, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseBotMove(ctx, &b, clock.Now().Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := position("b"); got != 2 {
		t.Errorf("position of b waiting to retry = %d, want 2 (still queued behind a)", got)
	}
	if got := claim("w7"); got != "a" {
		t.Fatalf("claim after releases = %q, want a", got)
	}
	if got := claim("w8"); got != "c" {
		t.Fatalf("claim with b waiting to retry = %q, want c (the lapsed claim)", got)
	}
	clock.Advance(10 * time.Second)
	m, err := s.ClaimBotMove(ctx, "w9", time.Minute)
	if err != nil || m.ChannelID != "b" || m.Attempts != 1 {
		t.Fatalf("claim after the retry time = %+v, %v; want b after 1 attempt", m, err)
	}
	// A stale release (w6's claim on b was released already) changes nothing.
	if err := s.ReleaseBotMove(ctx, &b, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := position("b"); got != 0 {
		t.Errorf("position of b after a stale release = %d, want 0 (w9 holds it)", got)
	}
}

// TestBotMoveOnce: two workers that both make the same owed move (the
// first one's lease lapsed while it thought) cannot both store it: the
// version check lets one win.
func TestBotMoveOnce(t *testing.T) {
	clock := &testClock{now: t0}
	s := openClocked(t, filepath.Join(t.TempDir(), "q.db"), clock)
	botGame(t, s, "a")
	if _, err := s.ClaimBotMove(ctx, "slow", time.Minute); err != nil {
		t.Fatal(err)
	}
	g1, _ := s.Game(ctx, "a")
	clock.Advance(2 * time.Minute)
	if _, err := s.ClaimBotMove(ctx, "fast", time.Minute); err != nil {
		t.Fatal(err)
	}
	g2, _ := s.Game(ctx, "a")
	play(t, g2.Game, "E5")
	if err := s.UpdateGame(ctx, g2); err != nil {
		t.Fatalf("the first stored bot move: %v", err)
	}
	play(t, g1.Game, "D4")
	if err := s.UpdateGame(ctx, g1); !errors.Is(err, ErrConflict) {
		t.Fatalf("the second bot move = %v, want ErrConflict", err)
	}
	wantQueue(t, s)
}

// TestBotQueueSurvivesRestart: owed moves outlive the process; claims do
// not (only one process opens the file, so a claim found at start-up
// would belong to a process that is gone).
func TestBotQueueSurvivesRestart(t *testing.T) {
	clock := &testClock{now: t0}
	path := filepath.Join(t.TempDir(), "q.db")
	s := openClocked(t, path, clock)
	for _, ch := range []string{"a", "b", "c"} {
		botGame(t, s, ch)
	}
	if _, err := s.ClaimBotMove(ctx, "gone", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openClocked(t, path, clock)
	wantQueue(t, s, "a", "b", "c")
	m, err := s.ClaimBotMove(ctx, "new", time.Minute)
	if err != nil || m.ChannelID != "a" {
		t.Fatalf("first claim after a restart = %+v, %v; want a", m, err)
	}
}
