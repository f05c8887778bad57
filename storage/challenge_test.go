package storage

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/google/go-cmp/cmp"
)

func newChallenge(id string, expires time.Time) *Challenge {
	return &Challenge{
		ID: id, ChannelID: "c1", GuildID: "g1", MessageID: "m1",
		Challenger: human("1"), Opponent: human("2"),
		Size: 19, Color: "random", Rules: engine.DefaultRules(),
		CreatedAt: t0, ExpiresAt: expires,
	}
}

func TestCreateChallenge(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Challenge)
		want   error
	}{
		{"direct", func(c *Challenge) {}, nil},
		{"open", func(c *Challenge) { c.Opponent = Player{} }, nil},
		{"against a bot in a thread", func(c *Challenge) { c.Opponent = bot("medium"); c.Thread = true }, nil},
		{"ID generated", func(c *Challenge) { c.ID = ""; c.CreatedAt = time.Time{} }, nil},
		{"ID taken", func(c *Challenge) { c.ID = "taken" }, ErrExists},
		{"no channel", func(c *Challenge) { c.ChannelID = "" }, ErrInvalid},
		{"no challenger", func(c *Challenge) { c.Challenger = Player{} }, ErrInvalid},
		{"size 1", func(c *Challenge) { c.Size = 1 }, ErrInvalid},
		{"size 26", func(c *Challenge) { c.Size = 26 }, ErrInvalid},
		{"negative handicap", func(c *Challenge) { c.Handicap = -2 }, ErrInvalid},
		{"no expiry", func(c *Challenge) { c.ExpiresAt = time.Time{} }, ErrInvalid},
		{"ID with a zero byte", func(c *Challenge) { c.ID = "a\x00b" }, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			if err := s.CreateChallenge(ctx, newChallenge("taken", t0)); err != nil {
				t.Fatal(err)
			}
			c := newChallenge("x", t0.Add(time.Hour))
			tt.change(c)
			err := s.CreateChallenge(ctx, c)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("CreateChallenge() = %v, want %v", err, tt.want)
			}
			if err != nil {
				if n := bucketLen(t, s, bucketChallenges); n != 1 {
					t.Errorf("failed CreateChallenge left %d challenges, want 1", n)
				}
				return
			}
			if c.ID == "" || c.CreatedAt.IsZero() {
				t.Errorf("CreateChallenge left ID %q, CreatedAt %v", c.ID, c.CreatedAt)
			}
			got, err := s.Challenge(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("Challenge() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeleteChallenge(t *testing.T) {
	s := openTest(t)
	if err := s.CreateChallenge(ctx, newChallenge("x", t0)); err != nil {
		t.Fatal(err)
	}
	// Racing claims: exactly one wins.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = s.DeleteChallenge(ctx, "x") })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrNotFound):
			t.Errorf("DeleteChallenge() = %v, want nil or ErrNotFound", err)
		}
	}
	if won != 1 {
		t.Errorf("%d racing DeleteChallenge calls won, want 1", won)
	}
	if _, err := s.Challenge(ctx, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Challenge(x) after delete = %v, want ErrNotFound", err)
	}
	if n := bucketLen(t, s, bucketChallengesExp); n != 0 {
		t.Errorf("expiry index keeps %d entries", n)
	}
}

func TestExpiredChallenges(t *testing.T) {
	s := openTest(t)
	for _, c := range []*Challenge{
		newChallenge("late", t0.Add(3*time.Hour)),
		newChallenge("early", t0.Add(time.Hour)),
		newChallenge("now", t0.Add(2*time.Hour)),
		newChallenge("old", t0.Add(-time.Hour)),
	} {
		if err := s.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		now  time.Time
		want []string
	}{
		{t0.Add(-2 * time.Hour), nil},
		{t0, []string{"old"}},
		{t0.Add(2 * time.Hour), []string{"old", "early", "now"}},
		{t0.Add(100 * time.Hour), []string{"old", "early", "now", "late"}},
	}
	for _, tt := range tests {
		got, err := s.ExpiredChallenges(ctx, tt.now)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range got {
			ids = append(ids, c.ID)
			if !c.Expired(tt.now) {
				t.Errorf("challenge %s expiring %v returned as expired at %v", c.ID, c.ExpiresAt, tt.now)
			}
		}
		if diff := cmp.Diff(tt.want, ids); diff != "" {
			t.Errorf("ExpiredChallenges(%v) (-want +got):\n%s", tt.now, diff)
		}
	}
	rawPut(t, s, bucketChallenges, "early", []byte("{"))
	got, err := s.ExpiredChallenges(ctx, t0.Add(100*time.Hour))
	if len(got) != 3 || !errors.Is(err, ErrCorrupt) {
		t.Errorf("ExpiredChallenges beside a corrupt record = %d, %v; want 3 and ErrCorrupt", len(got), err)
	}
	if err := s.DeleteChallenge(ctx, "early"); err != nil {
		t.Errorf("DeleteChallenge(corrupt) = %v", err)
	}
}

func TestAcceptChallenge(t *testing.T) {
	future := time.Now().Add(time.Hour)
	tests := []struct {
		name     string
		id       string
		expires  time.Time
		busy     bool
		want     error
		remains  bool // the challenge is still there afterwards
		hasGames int
	}{
		{"accepted", "x", future, false, nil, false, 1},
		{"no such challenge", "y", future, false, ErrNotFound, true, 0},
		{"expired", "x", time.Now().Add(-time.Minute), false, ErrExpired, true, 0},
		{"channel busy", "x", future, true, ErrExists, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			if err := s.CreateChallenge(ctx, newChallenge("x", tt.expires)); err != nil {
				t.Fatal(err)
			}
			if tt.busy {
				if err := s.CreateGame(ctx, newGame(t, "c1", "3", "4")); err != nil {
					t.Fatal(err)
				}
			}
			g := newGame(t, "c1", "1", "2")
			err := s.AcceptChallenge(ctx, tt.id, g)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("AcceptChallenge() = %v, want %v", err, tt.want)
			}
			_, cerr := s.Challenge(ctx, "x")
			if (cerr == nil) != tt.remains {
				t.Errorf("after AcceptChallenge, Challenge(x) = %v, want it to remain: %v", cerr, tt.remains)
			}
			if games, _ := s.ActiveGames(ctx); len(games) != tt.hasGames {
				t.Errorf("%d active games, want %d", len(games), tt.hasGames)
			}
			if err == nil && g.Version != 1 {
				t.Errorf("accepted game has version %d, want 1", g.Version)
			}
		})
	}
}

func TestAcceptChallengeRace(t *testing.T) {
	// Two accepts on one challenge, each creating its game in its own
	// thread: exactly one game exists afterwards.
	s := openTest(t)
	if err := s.CreateChallenge(ctx, newChallenge("x", time.Now().Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			g := newGame(t, "thread"+string(rune('a'+i)), "1", "2")
			errs[i] = s.AcceptChallenge(ctx, "x", g)
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else if !errors.Is(err, ErrNotFound) {
			t.Errorf("AcceptChallenge() = %v, want nil or ErrNotFound", err)
		}
	}
	games, _ := s.ActiveGames(ctx)
	if won != 1 || len(games) != 1 {
		t.Errorf("%d accepts won, %d games; want 1 and 1", won, len(games))
	}
}

// TestClock: the store's times and AcceptChallenge's expiry check follow
// Options.Now, not the wall clock, so a caller with its own clock agrees
// with the store on what has expired.
func TestClock(t *testing.T) {
	now := time.Date(2021, 5, 6, 7, 8, 9, 0, time.UTC) // long past by the wall clock
	clock := func() time.Time { return now }
	tests := []struct {
		name    string
		expires time.Time
		want    error
	}{
		{"open by the store's clock, expired by the wall clock's", now.Add(time.Minute), nil},
		{"expired by the store's clock", now.Add(-time.Minute), ErrExpired},
		{"expiring at that instant", now, ErrExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(t.TempDir()+"/clock.db", Options{Kinds: testKinds, Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			c := newChallenge("x", tt.expires)
			c.CreatedAt = time.Time{}
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
			if !c.CreatedAt.Equal(now) {
				t.Errorf("challenge CreatedAt = %v, want %v", c.CreatedAt, now)
			}
			g := newGame(t, "c1", "1", "2")
			g.CreatedAt = time.Time{}
			err = s.AcceptChallenge(ctx, "x", g)
			if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("AcceptChallenge() = %v, want %v", err, tt.want)
			}
			if err != nil {
				return
			}
			if !g.CreatedAt.Equal(now) || !g.UpdatedAt.Equal(now) {
				t.Errorf("game CreatedAt, UpdatedAt = %v, %v, want %v", g.CreatedAt, g.UpdatedAt, now)
			}
			if err := s.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if !g.UpdatedAt.Equal(now) {
				t.Errorf("UpdateGame set UpdatedAt = %v, want %v", g.UpdatedAt, now)
			}
			a := Archived{Result: "B+R", SGF: []byte("(;GM[1]SZ[9])")}
			if err := s.FinishGame(ctx, g, a); err != nil {
				t.Fatal(err)
			}
			got, err := s.ArchivedGame(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !got.FinishedAt.Equal(now) {
				t.Errorf("archived FinishedAt = %v, want %v", got.FinishedAt, now)
			}
		})
	}
}
