package storage_test

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
	"github.com/gobot-dev/gobot/storage/storetest"
)

// TestPairLimitHoldsUnderRaces: the limit of rated games between the same
// two people holds in the transaction that rates a game. Of six games
// between alice and bob ending at the same moment, on two workers, three
// are rated and the others are recorded unrated, saying when a rated game
// between them counts again; the count does not stop at alice's newest
// hundred games (a hundred games against a bot later, a seventh with bob
// is still held back), bots are not limited, and after the window the
// pair is rated again.
func TestPairLimitHoldsUnderRaces(t *testing.T) {
	t.Run("bolt", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		s := openBolt(t, filepath.Join(t.TempDir(), "gobot.db"), func() time.Time { return now })
		testPairLimit(t, [2]storetest.Store{s, s}, &now)
	})
	t.Run("postgres", func(t *testing.T) {
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		url := pgtest.Database(t)
		clock := func() time.Time { return now }
		testPairLimit(t, [2]storetest.Store{openPostgres(t, url, clock), openPostgres(t, url, clock)}, &now)
	})
}

// testPairLimit is TestPairLimitHoldsUnderRaces on two workers of one
// store (the same bbolt store twice).
func testPairLimit(t *testing.T, workers [2]storetest.Store, now *time.Time) {
	ctx := context.Background()
	alice, bob, easy := storage.Player{UserID: "1", Name: "alice"}, storage.Player{UserID: "2", Name: "bob"}, storage.Player{Level: "easy"}
	limit := storage.PairLimit{Games: 3, Window: 24 * time.Hour}
	n := 0
	// start starts a game of black and white on worker w, and finish
	// ends it there with Black's win, asking for it to be rated within
	// limit, and returns its record.
	start := func(w int, black, white storage.Player) *storage.Game {
		t.Helper()
		n++
		eg, _ := engine.NewGame(engine.Config{Size: 9})
		g := &storage.Game{ChannelID: fmt.Sprint("c", n), GuildID: "G", Sides: storage.Sides(black, white), State: engine.Own(eg)}
		if err := workers[w].CreateGame(ctx, g); err != nil {
			t.Fatalf("CreateGame(%s) = %v", g.ChannelID, err)
		}
		return g
	}
	finish := func(w int, g *storage.Game) *storage.Archived {
		if err := workers[w].FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("x"), Moves: 40, Rated: true, PairLimit: limit}); err != nil {
			t.Errorf("FinishGame(%s) = %v", g.ChannelID, err)
			return nil
		}
		a, err := workers[w].ArchivedGame(ctx, g.ID)
		if err != nil {
			t.Errorf("ArchivedGame(%s) = %v", g.ID, err)
			return nil
		}
		return a
	}

	// Six games between alice and bob, in both colours, end at once.
	first := *now
	var games [6]*storage.Game
	for i := range games {
		black, white := alice, bob
		if i%2 == 1 {
			black, white = bob, alice
		}
		games[i] = start(i%2, black, white)
	}
	var arcs [6]*storage.Archived
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Go(func() { arcs[i] = finish(i%2, g) })
	}
	wg.Wait()
	rated := 0
	for _, a := range arcs {
		switch {
		case a == nil:
		case a.Rated:
			rated++
			if !a.PairLimitedUntil.IsZero() {
				t.Errorf("rated game %s held back until %v", a.ID, a.PairLimitedUntil)
			}
		case !a.PairLimitedUntil.Equal(first.Add(limit.Window)):
			t.Errorf("game %s unrated, held back until %v, want %v", a.ID, a.PairLimitedUntil, first.Add(limit.Window))
		}
	}
	if rated != 3 {
		t.Errorf("%d of six games between alice and bob ending at once rated, want 3", rated)
	}
	if pr, err := workers[0].Rating(ctx, storage.GlobalPool, alice.Key()); err != nil || pr.Games != 3 {
		t.Errorf("alice's rating = %+v, %v; want 3 games", pr, err)
	}

	// A hundred and one rated games against a bot (never limited) later,
	// bob is still one of alice's three opponents of the day.
	*now = now.Add(time.Hour)
	for range 101 {
		if a := finish(0, start(0, alice, easy)); a != nil && !a.Rated {
			t.Fatalf("game against a bot %s unrated", a.ID)
		}
		*now = now.Add(time.Second)
	}
	if a := finish(1, start(1, bob, alice)); a != nil && (a.Rated || !a.PairLimitedUntil.Equal(first.Add(limit.Window))) {
		t.Errorf("alice and bob after 101 other games: rated %v, held back until %v; want unrated until %v", a.Rated, a.PairLimitedUntil, first.Add(limit.Window))
	}

	// Once the day is over, a game between them is rated again.
	*now = first.Add(limit.Window + time.Second)
	if a := finish(0, start(0, alice, bob)); a != nil && (!a.Rated || !a.PairLimitedUntil.IsZero()) {
		t.Errorf("alice and bob a day later: rated %v, held back until %v; want rated", a.Rated, a.PairLimitedUntil)
	}
}

// TestPairLimitUnderRepeatableReadDefault: the pair limit's count after
// its lock needs to see the games committed while it waited (READ
// COMMITTED); the store asks for that isolation itself, so the limit
// holds on a server whose default is REPEATABLE READ.
func TestPairLimitUnderRepeatableReadDefault(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	u, err := url.Parse(pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("default_transaction_isolation", "repeatable read")
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20") // pgx reads no '+' as a space
	clock := func() time.Time { return now }
	testPairLimit(t, [2]storetest.Store{openPostgres(t, u.String(), clock), openPostgres(t, u.String(), clock)}, &now)
}
