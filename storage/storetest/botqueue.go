package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// botGame creates a 9×9 game in channel where the bot plays black, so its
// move is owed from the start.
func botGame(t *testing.T, s Store, channel string) *storage.Game {
	t.Helper()
	g := &storage.Game{ChannelID: channel, Sides: storage.Sides(storage.Player{Level: "weak", Name: "weak bot"}, human("1")), State: engine.Own(newEngine(t, 9))}
	mustCreate(t, s, g)
	return g
}

func wantQueue(t *testing.T, s Store, want ...string) {
	t.Helper()
	q, err := s.BotQueue(ctx)
	if err != nil {
		t.Fatalf("BotQueue() = %v", err)
	}
	var got []string
	for _, m := range q {
		got = append(got, m.ChannelID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bot queue = %v, want %v", got, want)
	}
}

// testBotQueueFollowsTheGames: the queue of owed bot moves changes in the
// same writes as the games.
func testBotQueueFollowsTheGames(t *testing.T, s Store, clk *clocktest.Clock) {
	a := botGame(t, s, "a")
	clk.Advance(time.Second)
	b := botGame(t, s, "b")
	mustCreate(t, s, newGame(t, "h", "2", "3")) // two humans: never queued
	wantQueue(t, s, "a", "b")

	// A write that leaves the same move owed keeps its place.
	a.Delivery.MessageIDs = append(a.Delivery.MessageIDs, "m1")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "a", "b")
	// The bot's move leaves the queue; the human's answer owes the next.
	play(t, goOf(a), "E5")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b")
	play(t, goOf(a), "D4")
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "b", "a")
	// A scoring phase owes nothing; resuming play owes the move again.
	a.Scoring = &storage.ScoringState{Accepted: map[game.Side]bool{}}
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
	if err := goOf(a).Play(engine.ResignMove(engine.White)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, a, storage.Archived{SGF: []byte("(;RE[B+R])")}); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s)
	// A challenge accepted into a bot game queues its move too.
	c := newChallenge("ch", clk, time.Hour)
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptChallenge(ctx, "ch", &storage.Game{ChannelID: "c1", Sides: storage.Sides(storage.Player{Level: "weak"}, human("1")), State: engine.Own(newEngine(t, 9))}); err != nil {
		t.Fatal(err)
	}
	wantQueue(t, s, "c1")
}

// testClaimBotMove: workers take owed moves oldest first, never the same
// one twice while a claim holds; a claim lapses after its lease; releases
// keep the place or wait for a retry time.
func testClaimBotMove(t *testing.T, s Store, clk *clocktest.Clock) {
	games := map[string]*storage.Game{}
	for _, ch := range []string{"a", "b", "c"} {
		games[ch] = botGame(t, s, ch)
		clk.Advance(time.Second)
	}
	claim := func(worker string) string {
		t.Helper()
		m, err := s.ClaimBotMove(ctx, worker, time.Minute)
		if errors.Is(err, storage.ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatalf("ClaimBotMove(%s) = %v", worker, err)
		}
		if m.Worker != worker || !m.Until.Equal(clk.Now().Add(time.Minute)) {
			t.Errorf("ClaimBotMove(%s) = %+v: wrong claim", worker, m)
		}
		return m.ChannelID
	}
	position := func(ch string) int {
		t.Helper()
		p, err := s.BotQueuePosition(ctx, ch, games[ch].ID, 0)
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
	if _, err := s.BotQueuePosition(ctx, "nowhere", games["a"].ID, 0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("BotQueuePosition(nowhere) = %v, want ErrNotFound", err)
	}
	// A move the game does not owe (another move count, another game in
	// the channel) has no place, though the channel owes one.
	if _, err := s.BotQueuePosition(ctx, "c", games["c"].ID, 2); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("BotQueuePosition(c at move 2) = %v, want ErrNotFound: c owes its move at 0", err)
	}
	if _, err := s.BotQueuePosition(ctx, "c", games["a"].ID, 0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("BotQueuePosition(c, game of a) = %v, want ErrNotFound", err)
	}
	// The workers die: their claims lapse and the moves are taken over.
	clk.Advance(time.Minute)
	if got := claim("w5"); got != "a" {
		t.Fatalf("claim after the leases lapsed = %q, want a", got)
	}
	if got := claim("w6"); got != "b" {
		t.Fatalf("next claim = %q, want b", got)
	}
	q, _ := s.BotQueue(ctx)
	a, b := q[0], q[1]
	if a.Worker != "w5" || b.Worker != "w6" {
		t.Errorf("BotQueue claims: %+v, %+v", a, b)
	}
	if err := s.ReleaseBotMove(ctx, &a, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseBotMove(ctx, &b, clk.Now().Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got := position("b"); got != 2 {
		t.Errorf("position of b waiting to retry = %d, want 2", got)
	}
	if got := claim("w7"); got != "a" {
		t.Fatalf("claim after releases = %q, want a", got)
	}
	if got := claim("w8"); got != "c" {
		t.Fatalf("claim with b waiting to retry = %q, want c", got)
	}
	clk.Advance(10 * time.Second)
	m, err := s.ClaimBotMove(ctx, "w9", time.Minute)
	if err != nil || m.ChannelID != "b" || m.Attempts != 1 {
		t.Fatalf("claim after the retry time = %+v, %v; want b after 1 attempt", m, err)
	}
	// A stale release changes nothing.
	if err := s.ReleaseBotMove(ctx, &b, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := position("b"); got != 0 {
		t.Errorf("position of b after a stale release = %d, want 0 (w9 holds it)", got)
	}
}

// testBotMoveOnce: two workers that both make the same owed move (the
// first one's lease lapsed while it thought) cannot both store it.
func testBotMoveOnce(t *testing.T, s Store, clk *clocktest.Clock) {
	botGame(t, s, "a")
	if _, err := s.ClaimBotMove(ctx, "slow", time.Minute); err != nil {
		t.Fatal(err)
	}
	g1 := mustLoad(t, s, "a")
	clk.Advance(2 * time.Minute)
	if _, err := s.ClaimBotMove(ctx, "fast", time.Minute); err != nil {
		t.Fatal(err)
	}
	g2 := mustLoad(t, s, "a")
	play(t, goOf(g2), "E5")
	if err := s.UpdateGame(ctx, g2); err != nil {
		t.Fatalf("the first stored bot move: %v", err)
	}
	play(t, goOf(g1), "D4")
	if err := s.UpdateGame(ctx, g1); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("the second bot move = %v, want ErrConflict", err)
	}
	wantQueue(t, s)
}

// testReviewsAndPages: reviews of archived games, a channel's finished
// games and pages of a player's history.
func testReviewsAndPages(t *testing.T, s Store, clk *clocktest.Clock) {
	var ids []string // newest first
	for i := range 5 {
		clk.Advance(time.Minute)
		ch := "c1"
		if i%2 == 1 {
			ch = "c2"
		}
		result := "B+R"
		if i == 2 {
			result = "W+R"
		}
		g := finish(t, s, clk, ch, "guild1", "1", "2", result)
		ids = append([]string{g.ID}, ids...)
	}
	if _, err := s.GameReview(ctx, ids[0]); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("GameReview before any = %v, want ErrNotFound", err)
	}
	if err := s.PutGameReview(ctx, "nope", []byte("r")); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("PutGameReview(unknown game) = %v, want ErrNotFound", err)
	}
	if err := s.PutGameReview(ctx, ids[0], nil); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("PutGameReview(empty) = %v, want ErrInvalid", err)
	}
	for _, r := range []string{"first", "second"} {
		if err := s.PutGameReview(ctx, ids[0], []byte(r)); err != nil {
			t.Fatalf("PutGameReview = %v", err)
		}
	}
	if r, err := s.GameReview(ctx, ids[0]); err != nil || string(r) != "second" {
		t.Errorf("GameReview = %q, %v; want the second review", r, err)
	}
	chans, err := s.ChannelGames(ctx, "c1", 0)
	if err != nil || len(chans) != 3 || chans[0].ID != ids[0] || chans[2].ID != ids[4] {
		t.Errorf("ChannelGames(c1) = %d games, %v; want 3, newest first", len(chans), err)
	}
	if two, _ := s.ChannelGames(ctx, "c2", 1); len(two) != 1 || two[0].ID != ids[1] {
		t.Errorf("ChannelGames(c2, 1) = %v", two)
	}
	page, total, err := s.PlayerGamesPage(ctx, "1", 1, 2, nil)
	if err != nil || total != 5 || len(page) != 2 || page[0].ID != ids[1] || page[1].ID != ids[2] {
		t.Errorf("PlayerGamesPage(1, offset 1, 2) = %d games, total %d, %v; want games 2 and 3 of 5", len(page), total, err)
	}
	wins := func(a *storage.Archived) bool { return a.Winner == engine.Black }
	page, total, err = s.PlayerGamesPage(ctx, "1", 1, 10, wins)
	if err != nil || total != 4 || len(page) != 3 || page[0].ID != ids[1] || page[1].ID != ids[3] {
		t.Errorf("PlayerGamesPage(1, won, offset 1) = %d games, total %d, %v; want 3 of 4", len(page), total, err)
	}
}

// testExtendBotMove: a worker renewing a short lease keeps its move; one
// that stops renewing (it died) loses it after one lease, and can no
// longer renew it.
func testExtendBotMove(t *testing.T, s Store, clk *clocktest.Clock) {
	botGame(t, s, "a")
	const lease = 5 * time.Second
	m, err := s.ClaimBotMove(ctx, "thinker", lease)
	if err != nil {
		t.Fatal(err)
	}
	for range 4 { // 12 s of thinking on a 5 s lease
		clk.Advance(3 * time.Second)
		if err := s.ExtendBotMove(ctx, m, lease); err != nil {
			t.Fatalf("ExtendBotMove = %v", err)
		}
		if !m.Until.Equal(clk.Now().Add(lease)) {
			t.Errorf("claim until %v, want %v", m.Until, clk.Now().Add(lease))
		}
		if _, err := s.ClaimBotMove(ctx, "other", lease); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("another worker claimed a renewed move: %v", err)
		}
	}
	clk.Advance(lease)
	other, err := s.ClaimBotMove(ctx, "other", lease)
	if err != nil || other.ChannelID != "a" {
		t.Fatalf("claim after the lease lapsed = %+v, %v; want a", other, err)
	}
	if err := s.ExtendBotMove(ctx, m, lease); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("ExtendBotMove of a claim taken over = %v, want ErrNotFound", err)
	}
	if q, _ := s.BotQueue(ctx); len(q) != 1 || q[0].Worker != "other" {
		t.Errorf("queue after the takeover = %+v", q)
	}
}
