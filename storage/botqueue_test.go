package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/clocktest"
	bolt "go.etcd.io/bbolt"
)

// openClocked opens a store at path on a clock the test moves; the store
// is checked and closed when the test ends.
func openClocked(t *testing.T, path string, c *clocktest.Clock) *Store {
	t.Helper()
	s, err := Open(path, Options{Kinds: testKinds, Now: c.Now})
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
	g := &Game{ChannelID: channel, Sides: Sides(bot("weak"), human("1")), State: engine.Own(newEngine(t, 9))}
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

// The queue's behaviour common to both stores (it follows the game
// writes, claims, leases, releases, a move made once) is tested by the
// conformance suite, storage/storetest, on bbolt in TestConformanceBolt.
// The tests here are the bbolt store's own.

// TestBotQueueDeleteGame: DeleteGame takes the game's owed move with it.
func TestBotQueueDeleteGame(t *testing.T) {
	s := openTest(t)
	botGame(t, s, "a")
	c := botGame(t, s, "c")
	wantQueue(t, s, "a", "c")
	if err := s.DeleteGame(ctx, "c", c.Version); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "a")
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

// TestBotQueueSurvivesRestart: owed moves outlive the process; claims do
// not (only one process opens the file, so a claim found at start-up
// would belong to a process that is gone).
func TestBotQueueSurvivesRestart(t *testing.T) {
	clock := clocktest.New(t0)
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
