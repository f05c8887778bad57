package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// Store is the method set the suite checks: what commands uses, the
// history, lookup and review methods of the archive, and the queue of owed
// bot moves.
type Store interface {
	CreateGame(ctx context.Context, g *storage.Game) error
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	FinishGame(ctx context.Context, g *storage.Game, a storage.Archived) error
	AbortGame(ctx context.Context, g *storage.Game) error
	ActiveGames(ctx context.Context) ([]*storage.Game, error)
	PlayerActiveGames(ctx context.Context, playerKey string) ([]*storage.Game, error)
	PlayerStats(ctx context.Context, playerKey string) (*storage.PlayerStats, error)
	PlayerGames(ctx context.Context, playerKey string, limit int) ([]*storage.Archived, error)
	PlayerGamesBefore(ctx context.Context, playerKey string, t time.Time, limit int) ([]*storage.Archived, error)
	GuildGames(ctx context.Context, guildID string, limit int) ([]*storage.Archived, error)
	GuildGamesBefore(ctx context.Context, guildID string, t time.Time, limit int) ([]*storage.Archived, error)
	ArchivedGame(ctx context.Context, id string) (*storage.Archived, error)
	ChannelGames(ctx context.Context, channelID string, limit int) ([]*storage.Archived, error)
	PlayerGamesPage(ctx context.Context, playerKey string, offset, limit int, keep func(*storage.Archived) bool) ([]*storage.Archived, int, error)
	GameReview(ctx context.Context, id string) ([]byte, error)
	PutGameReview(ctx context.Context, id string, review []byte) error

	NextDue(ctx context.Context) (time.Time, error)
	DueGames(ctx context.Context, now time.Time, limit int) ([]storage.DueGame, error)
	Heartbeat(ctx context.Context, now time.Time) error
	LastHeartbeat(ctx context.Context) (time.Time, error)
	CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error)
	Vacation(ctx context.Context, playerKey string) (storage.Vacation, error)
	PutVacation(ctx context.Context, playerKey string, v storage.Vacation) error
	AddMessageID(ctx context.Context, channelID, gameID, messageID string) error
	SetUndoMessage(ctx context.Context, channelID, gameID string, u storage.UndoRequest, messageID string) error
	SetVoteBoard(ctx context.Context, channelID, gameID string, moves int, messageID string) error
	AddTeamVoteMessage(ctx context.Context, channelID, gameID string, abort bool, v storage.ResignVote, messageID string) error

	ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error)
	ReleaseBotMove(ctx context.Context, m *storage.BotMove, retryAt time.Time) error
	ExtendBotMove(ctx context.Context, m *storage.BotMove, lease time.Duration) error
	BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error)
	BotQueue(ctx context.Context) ([]storage.BotMove, error)

	CreateChallenge(ctx context.Context, c *storage.Challenge) error
	Challenge(ctx context.Context, id string) (*storage.Challenge, error)
	DeleteChallenge(ctx context.Context, id string) error
	UpdateChallenge(ctx context.Context, id string, change func(*storage.Challenge) error) (*storage.Challenge, error)
	AcceptChallenge(ctx context.Context, id string, g *storage.Game) error
	ExpiredChallenges(ctx context.Context, now time.Time) ([]*storage.Challenge, error)
	ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error
	ReleaseChallenge(ctx context.Context, id, holder string) error

	Rating(ctx context.Context, pool, playerKey string) (*storage.PlayerRating, error)
	RatingHistory(ctx context.Context, playerKey string) ([]storage.RatingChange, error)
	GameRatingChanges(ctx context.Context, gameID string) ([]storage.RatingChange, error)
	Leaderboard(ctx context.Context, pool string, offset, limit int, now time.Time, callerKey string, omit []string) (*storage.Leaderboard, error)
	RebuildRatings(ctx context.Context) (*storage.RebuildReport, error)
}

// Opener opens a new, empty store whose clock is now; the store is closed
// when t ends.
type Opener func(t *testing.T, now func() time.Time) Store

// newClock returns a clock at a fixed instant with a sub-microsecond part,
// so that stores must keep times exactly.
func newClock() *clocktest.Clock {
	return clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC))
}

// Run runs the conformance suite against stores that open makes.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store, clk *clocktest.Clock)
	}{
		{"GameRoundTrip", testGameRoundTrip},
		{"Versions", testVersions},
		{"RacingWriters", testRacingWriters},
		{"Abort", testAbort},
		{"ActiveGames", testActiveGames},
		{"Finish", testFinish},
		{"FinishConcurrentStats", testFinishConcurrentStats},
		{"History", testHistory},
		{"Challenges", testChallenges},
		{"AcceptChallenge", testAcceptChallenge},
		{"AcceptRace", testAcceptRace},
		{"ClaimChallenge", testClaimChallenge},
		{"TeamChallenge", testTeamChallenge},
		{"TeamHistory", testTeamHistory},
		{"ReviewsAndPages", testReviewsAndPages},
		{"Deadlines", testDeadlines},
		{"Vacation", testVacation},
		{"AddMessageID", testAddMessageID},
		{"SetUndoMessage", testSetUndoMessage},
		{"SetVoteBoard", testSetVoteBoard},
		{"AddTeamVoteMessage", testAddTeamVoteMessage},
		{"OwedBoard", testOwedBoard},
		{"BotQueueFollowsTheGames", testBotQueueFollowsTheGames},
		{"ClaimBotMove", testClaimBotMove},
		{"BotMoveOnce", testBotMoveOnce},
		{"ExtendBotMove", testExtendBotMove},
		{"Ratings", testRatings},
		{"BotsOffLeaderboards", testBotsOffLeaderboards},
		{"SecondKind", testSecondKind},
		{"StatsByKind", testStatsByKind},
		{"UnknownKind", testUnknownKind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			tt.fn(t, open(t, clk.Now), clk)
		})
	}
}

var ctx = context.Background()

func human(id string) storage.Player { return storage.Player{UserID: id, Name: "user" + id} }

func newEngine(t *testing.T, size int) *engine.Game {
	t.Helper()
	eg, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules(), Seed: 7})
	if err != nil {
		t.Fatalf("NewGame(%d) = %v", size, err)
	}
	return eg
}

func newGame(t *testing.T, channel, black, white string) *storage.Game {
	return &storage.Game{ChannelID: channel, GuildID: "guild1", Sides: storage.Sides(human(black), human(white)), State: engine.Own(newEngine(t, 9))}
}

// play plays the given moves ("D4", "pass") alternately from the colour to
// move.
func play(t *testing.T, eg *engine.Game, moves ...string) {
	t.Helper()
	enginetest.Play(t, eg, moves...)
}

func mustCreate(t *testing.T, s Store, g *storage.Game) {
	t.Helper()
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatalf("CreateGame(%s) = %v", g.ChannelID, err)
	}
}

func mustLoad(t *testing.T, s Store, channel string) *storage.Game {
	t.Helper()
	g, err := s.Game(ctx, channel)
	if err != nil {
		t.Fatalf("Game(%s) = %v", channel, err)
	}
	return g
}

func moves(g *storage.Game) []string {
	var out []string
	for _, m := range goOf(g).Moves() {
		out = append(out, m.String())
	}
	return out
}

func testGameRoundTrip(t *testing.T, s Store, clk *clocktest.Clock) {
	if _, err := s.Game(ctx, "nowhere"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Game(nowhere) = %v, want ErrNotFound", err)
	}
	g := newGame(t, "c1", "1", "2")
	g.ParentChannelID = "p1"
	g.Delivery.MessageIDs = []string{"m1", "m2"}
	g.Undo = &storage.UndoRequest{By: 0, MoveCount: 0, RequestedAt: clk.Now()}
	g.Delivery.Followup = &storage.Followup{InteractionID: "i1", AppID: "a1", Token: "tok", At: clk.Now(), ChannelPosts: true}
	g.Delivery.Unposted = true
	play(t, goOf(g), "D4", "E5", "pass")
	mustCreate(t, s, g)
	if g.Version != 1 || g.ID == "" || !g.CreatedAt.Equal(clk.Now()) {
		t.Errorf("after CreateGame: version %d, ID %q, created %v", g.Version, g.ID, g.CreatedAt)
	}
	if err := s.CreateGame(ctx, newGame(t, "c1", "3", "4")); !errors.Is(err, storage.ErrExists) {
		t.Errorf("second CreateGame(c1) = %v, want ErrExists", err)
	}
	got := mustLoad(t, s, "c1")
	if got.ID != g.ID || got.Version != 1 || got.GuildID != "guild1" || got.ParentChannelID != "p1" ||
		got.First(0) != g.First(0) || got.First(1) != g.First(1) || !slices.Equal(got.Delivery.MessageIDs, g.Delivery.MessageIDs) ||
		!got.CreatedAt.Equal(g.CreatedAt) {
		t.Errorf("Game(c1) = %+v, want %+v", got, g)
	}
	if !slices.Equal(moves(got), []string{"D4", "E5", "pass"}) {
		t.Errorf("moves %v, want D4 E5 pass", moves(got))
	}
	if got.Undo == nil || *got.Undo != *g.Undo {
		t.Errorf("Undo = %+v, want %+v", got.Undo, g.Undo)
	}
	if got.Delivery.Followup == nil || *got.Delivery.Followup != *g.Delivery.Followup {
		t.Errorf("Followup = %+v, want %+v", got.Delivery.Followup, g.Delivery.Followup)
	}
	if !got.Delivery.Unposted {
		t.Errorf("Unposted = false, want true")
	}
	// The scoring state round-trips too, and so do a team's votes on
	// resigning and on aborting, and a vote game's vote.
	got.Scoring = &storage.ScoringState{Dead: []string{"D4"}, Accepted: map[game.Side]bool{0: true}, Deadline: clk.Now()}
	got.ResignVote = &storage.ResignVote{Side: 1, Voters: []string{"2"}, MoveCount: 3}
	got.AbortVote = &storage.ResignVote{Side: 0, Voters: []string{"1", "5"}, MoveCount: 3}
	got.Vote = &storage.Vote{Ballots: []storage.Ballot{{UserID: "7", Name: "user7", Move: "C3", At: clk.Now()}}, Deadline: clk.Now(), Note: "gobot played D4."}
	if err := s.UpdateGame(ctx, got); err != nil {
		t.Fatalf("UpdateGame = %v", err)
	}
	again := mustLoad(t, s, "c1")
	if sc := again.Scoring; sc == nil || len(sc.Dead) != 1 || sc.Dead[0] != "D4" || !sc.Accepted[0] || sc.Accepted[1] || !sc.Deadline.Equal(clk.Now()) {
		t.Errorf("Scoring = %+v", again.Scoring)
	}
	for _, v := range []struct {
		what      string
		got, want *storage.ResignVote
	}{{"ResignVote", again.ResignVote, got.ResignVote}, {"AbortVote", again.AbortVote, got.AbortVote}} {
		if v.got == nil || v.got.Side != v.want.Side || v.got.MoveCount != v.want.MoveCount || !slices.Equal(v.got.Voters, v.want.Voters) {
			t.Errorf("%s = %+v, want %+v", v.what, v.got, v.want)
		}
	}
	if v := again.Vote; v == nil || v.Note != got.Vote.Note || len(v.Ballots) != 1 || v.Ballots[0].Move != "C3" || !v.Deadline.Equal(clk.Now()) {
		t.Errorf("Vote = %+v, want %+v", again.Vote, got.Vote)
	}
	if err := s.CreateGame(ctx, &storage.Game{ChannelID: "", Sides: storage.Sides(human("1"), human("2")), State: engine.Own(newEngine(t, 9))}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("CreateGame without channel = %v, want ErrInvalid", err)
	}
}

func testVersions(t *testing.T, s Store, clk *clocktest.Clock) {
	g := newGame(t, "c1", "1", "2")
	mustCreate(t, s, g)
	a, b := mustLoad(t, s, "c1"), mustLoad(t, s, "c1")
	play(t, goOf(a), "D4")
	clk.Advance(time.Second)
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatalf("UpdateGame(a) = %v", err)
	}
	if a.Version != 2 || !a.UpdatedAt.Equal(clk.Now()) {
		t.Errorf("after UpdateGame: version %d, updated %v; want 2, %v", a.Version, a.UpdatedAt, clk.Now())
	}
	play(t, goOf(b), "E5")
	if err := s.UpdateGame(ctx, b); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("stale UpdateGame = %v, want ErrConflict", err)
	}
	if got := mustLoad(t, s, "c1"); got.Version != 2 || !slices.Equal(moves(got), []string{"D4"}) {
		t.Errorf("after the stale write: version %d, moves %v; want 2, [D4]", got.Version, moves(got))
	}
	c := mustLoad(t, s, "c1")
	c.Sides[1].Players[0] = human("9")
	if err := s.UpdateGame(ctx, c); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("UpdateGame changing a player = %v, want ErrInvalid", err)
	}
	// A write for a game that was replaced in its channel is ErrNotFound,
	// even at a matching version.
	old := mustLoad(t, s, "c1")
	if err := s.AbortGame(ctx, old); err != nil {
		t.Fatalf("AbortGame = %v", err)
	}
	if err := s.UpdateGame(ctx, old); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("UpdateGame after abort = %v, want ErrNotFound", err)
	}
	fresh := newGame(t, "c1", "1", "2")
	mustCreate(t, s, fresh)
	old.Version = 1
	if err := s.UpdateGame(ctx, old); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("UpdateGame of the old game over a new one = %v, want ErrNotFound", err)
	}
}

// race makes n calls of do (do(0) to do(n-1)) at once and waits for them:
// exactly one must succeed and each of the others fail with lose; any other
// error fails the test. what names the call in failures.
func race(t *testing.T, what string, n int, lose error, do func(i int) error) {
	t.Helper()
	var wins, lost atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch err := do(i); {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, lose):
				lost.Add(1)
			default:
				t.Errorf("racing %s = %v, want nil or %v", what, err, lose)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || lost.Load() != int32(n-1) {
		t.Errorf("%d racing %s calls won, %d lost with %v; want 1 and %d", wins.Load(), what, lost.Load(), lose, n-1)
	}
}

// testRacingWriters: many writers read the same version and write at once;
// exactly one wins, the others get ErrConflict.
func testRacingWriters(t *testing.T, s Store, _ *clocktest.Clock) {
	mustCreate(t, s, newGame(t, "c1", "1", "2"))
	const n = 8
	points := []string{"A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"}
	var read []*storage.Game
	for i := range n {
		g := mustLoad(t, s, "c1")
		play(t, goOf(g), points[i])
		read = append(read, g)
	}
	race(t, "UpdateGame", n, storage.ErrConflict, func(i int) error { return s.UpdateGame(ctx, read[i]) })
	if g := mustLoad(t, s, "c1"); g.Version != 2 || len(moves(g)) != 1 {
		t.Errorf("stored version %d with moves %v, want version 2 and one move", g.Version, moves(g))
	}
}

func testAbort(t *testing.T, s Store, _ *clocktest.Clock) {
	g := newGame(t, "c1", "1", "2")
	mustCreate(t, s, g)
	stale := mustLoad(t, s, "c1")
	cur := mustLoad(t, s, "c1")
	play(t, goOf(cur), "D4")
	if err := s.UpdateGame(ctx, cur); err != nil {
		t.Fatal(err)
	}
	if err := s.AbortGame(ctx, stale); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("stale AbortGame = %v, want ErrConflict", err)
	}
	if err := s.AbortGame(ctx, cur); err != nil {
		t.Fatalf("AbortGame = %v", err)
	}
	if _, err := s.Game(ctx, "c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Game after abort = %v, want ErrNotFound", err)
	}
	if err := s.AbortGame(ctx, cur); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("second AbortGame = %v, want ErrNotFound", err)
	}
	if act, err := s.PlayerActiveGames(ctx, "1"); err != nil || len(act) != 0 {
		t.Errorf("PlayerActiveGames(1) after abort = %d games, %v; want none", len(act), err)
	}
	if _, err := s.PlayerStats(ctx, "1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("PlayerStats after an abort = %v, want ErrNotFound (aborted games do not count)", err)
	}
}

func testActiveGames(t *testing.T, s Store, _ *clocktest.Clock) {
	mustCreate(t, s, newGame(t, "c2", "1", "2"))
	mustCreate(t, s, newGame(t, "c1", "3", "1"))
	mustCreate(t, s, newGame(t, "c3", "3", "4"))
	bg := &storage.Game{ChannelID: "c4", Sides: storage.Sides(human("5"), storage.Player{Level: "easy", Name: "easy bot"}), State: engine.Own(newEngine(t, 13))}
	mustCreate(t, s, bg)
	all, err := s.ActiveGames(ctx)
	if err != nil || len(all) != 4 {
		t.Fatalf("ActiveGames = %d games, %v; want 4", len(all), err)
	}
	var chans []string
	for _, g := range all {
		chans = append(chans, g.ChannelID)
	}
	slices.Sort(chans)
	if !slices.Equal(chans, []string{"c1", "c2", "c3", "c4"}) {
		t.Errorf("ActiveGames channels %v", chans)
	}
	for key, want := range map[string][]string{"1": {"c1", "c2"}, "3": {"c1", "c3"}, "bot:easy": {"c4"}, "9": nil} {
		gs, err := s.PlayerActiveGames(ctx, key)
		if err != nil {
			t.Fatalf("PlayerActiveGames(%s) = %v", key, err)
		}
		var got []string
		for _, g := range gs {
			got = append(got, g.ChannelID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("PlayerActiveGames(%s) = %v, want %v", key, got, want)
		}
	}
}

// finish plays a short game in channel between black and white, resigned by
// loser (or a tie when loser is Empty), and archives it at the clock's time.
func finish(t *testing.T, s Store, clk *clocktest.Clock, channel, guild, black, white string, result string) *storage.Game {
	t.Helper()
	g := newGame(t, channel, black, white)
	g.GuildID = guild
	mustCreate(t, s, g)
	play(t, goOf(g), "D4", "E5")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("(;GM[1]SZ[9];B[dd];W[ee])")}); err != nil {
		t.Fatalf("FinishGame(%s) = %v", channel, err)
	}
	return g
}

func testFinish(t *testing.T, s Store, clk *clocktest.Clock) {
	g := newGame(t, "c1", "1", "2")
	mustCreate(t, s, g)
	stale := mustLoad(t, s, "c1")
	play(t, goOf(g), "D4")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, stale, storage.Archived{Result: "B+R", SGF: []byte("x")}); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("stale FinishGame = %v, want ErrConflict", err)
	}
	if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R"}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("FinishGame without SGF = %v, want ErrInvalid", err)
	}
	clk.Advance(time.Minute)
	sgf := []byte("(;GM[1]SZ[9];B[dd])")
	if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: sgf}); err != nil {
		t.Fatalf("FinishGame = %v", err)
	}
	if _, err := s.Game(ctx, "c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Game after finish = %v, want ErrNotFound", err)
	}
	if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: sgf}); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("second FinishGame = %v, want ErrNotFound", err)
	}
	a, err := s.ArchivedGame(ctx, g.ID)
	if err != nil {
		t.Fatalf("ArchivedGame = %v", err)
	}
	if a.Result != "B+R" || a.Winner != engine.Black || a.Moves != 1 || a.Size != 9 || a.GuildID != "guild1" ||
		a.Black != g.First(0) || a.White != g.First(1) || string(a.SGF) != string(sgf) || !a.FinishedAt.Equal(clk.Now()) || !a.StartedAt.Equal(g.CreatedAt) {
		t.Errorf("ArchivedGame = %+v", a)
	}
	if _, err := s.ArchivedGame(ctx, "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("ArchivedGame(nope) = %v, want ErrNotFound", err)
	}
	// An archived game's ID cannot be reused by a new active game.
	reuse := newGame(t, "c9", "1", "2")
	reuse.ID = g.ID
	if err := s.CreateGame(ctx, reuse); !errors.Is(err, storage.ErrExists) {
		t.Errorf("CreateGame with an archived ID = %v, want ErrExists", err)
	}
	clk.Advance(time.Minute)
	finish(t, s, clk, "c2", "guild1", "2", "1", "0")
	clk.Advance(time.Minute)
	finish(t, s, clk, "c3", "", "1", "1", "W+R") // against oneself
	clk.Advance(time.Minute)
	finish(t, s, clk, "c4", "guild1", "3", "1", "Void")
	last := clk.Now()
	// An annulled game (aborted, or annulled by an admin) is recorded in
	// the players' history and not counted.
	clk.Advance(time.Minute)
	aborted := newGame(t, "c5", "1", "2")
	aborted.GuildID = "guild1"
	mustCreate(t, s, aborted)
	if err := s.FinishGame(ctx, aborted, storage.Archived{Result: "Void", Annulled: true, SGF: []byte("(;GM[1]SZ[9])")}); err != nil {
		t.Fatalf("FinishGame(an aborted game) = %v", err)
	}
	if h, err := s.PlayerGames(ctx, "1", 10); err != nil || len(h) != 5 || h[0].ID != aborted.ID {
		t.Errorf("PlayerGames(1) = %d games (%v), want 5, the aborted one first", len(h), err)
	}
	want := storage.PlayerStats{Player: human("1"), Games: 4, Wins: 1, Ties: 1, NoResult: 2}
	st, err := s.PlayerStats(ctx, "1")
	if err != nil {
		t.Fatalf("PlayerStats(1) = %v", err)
	}
	first := a.FinishedAt
	if st.Player != want.Player || st.Games != want.Games || st.Wins != want.Wins || st.Losses != 0 || st.Ties != want.Ties || st.NoResult != want.NoResult ||
		!st.First.Equal(first) || !st.Last.Equal(last) {
		t.Errorf("PlayerStats(1) = %+v, want %+v first %v last %v", st, want, first, last)
	}
	st2, err := s.PlayerStats(ctx, "2")
	if err != nil || st2.Games != 2 || st2.Losses != 1 || st2.Ties != 1 {
		t.Errorf("PlayerStats(2) = %+v, %v; want 2 games, 1 loss, 1 tie", st2, err)
	}
}

// testFinishConcurrentStats: games of one player finishing at once all count.
func testFinishConcurrentStats(t *testing.T, s Store, clk *clocktest.Clock) {
	const n = 6
	var gs []*storage.Game
	for i := range n {
		g := newGame(t, fmt.Sprintf("c%d", i), "1", fmt.Sprint(10+i))
		mustCreate(t, s, g)
		gs = append(gs, g)
	}
	var wg sync.WaitGroup
	for _, g := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("x")}); err != nil {
				t.Errorf("FinishGame(%s) = %v", g.ChannelID, err)
			}
		}()
	}
	wg.Wait()
	if st, err := s.PlayerStats(ctx, "1"); err != nil || st.Games != n || st.Wins != n {
		t.Errorf("PlayerStats(1) = %+v, %v; want %d games, all won", st, err, n)
	}
}

func testHistory(t *testing.T, s Store, clk *clocktest.Clock) {
	var ids []string // oldest first
	for i := range 5 {
		clk.Advance(time.Minute)
		g := finish(t, s, clk, fmt.Sprintf("c%d", i), "guild1", "1", fmt.Sprint(2+i%2), "B+R")
		ids = append(ids, g.ID)
	}
	clk.Advance(time.Minute)
	dm := finish(t, s, clk, "dm", "", "1", "2", "W+R")
	ids = append(ids, dm.ID)
	// Two games finishing at the same instant are both listed, in a stable order.
	same := finish(t, s, clk, "same", "guild1", "1", "3", "B+R")
	ids = append(ids, same.ID)

	idsOf := func(as []*storage.Archived) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.ID)
			if a.SGF != nil {
				t.Errorf("listing carries the SGF of %s", a.ID)
			}
		}
		return out
	}
	all, err := s.PlayerGames(ctx, "1", 0)
	if err != nil || len(all) != 7 {
		t.Fatalf("PlayerGames(1, all) = %d games, %v; want 7", len(all), err)
	}
	got := idsOf(all)
	if got[len(got)-1] != ids[0] || !slices.Contains(got[:2], dm.ID) || !slices.Contains(got[:2], same.ID) {
		t.Errorf("PlayerGames(1) order %v, want newest first (from %v)", got, ids)
	}
	// Pages: each page continues strictly before the oldest of the last.
	page1, err := s.PlayerGames(ctx, "1", 3)
	if err != nil || len(page1) != 3 || !slices.Equal(idsOf(page1), got[:3]) {
		t.Errorf("PlayerGames(1, 3) = %v, %v; want %v", idsOf(page1), err, got[:3])
	}
	page2, err := s.PlayerGamesBefore(ctx, "1", page1[2].FinishedAt, 3)
	if err != nil || !slices.Equal(idsOf(page2), got[3:6]) {
		t.Errorf("PlayerGamesBefore(1, page 1's last, 3) = %v, %v; want %v", idsOf(page2), err, got[3:6])
	}
	two, _ := s.PlayerGames(ctx, "3", 0)
	if len(two) != 3 {
		t.Errorf("PlayerGames(3) = %d games, want 3", len(two))
	}
	guild, err := s.GuildGames(ctx, "guild1", 0)
	if err != nil || len(guild) != 6 || slices.Contains(idsOf(guild), dm.ID) {
		t.Errorf("GuildGames(guild1) = %v, %v; want the 6 games outside the DM", idsOf(guild), err)
	}
	older, err := s.GuildGamesBefore(ctx, "guild1", guild[1].FinishedAt, 2)
	if err != nil || len(older) != 2 || !older[0].FinishedAt.Before(guild[1].FinishedAt) {
		t.Errorf("GuildGamesBefore = %v, %v", idsOf(older), err)
	}
	if none, err := s.PlayerGames(ctx, "nobody", 5); err != nil || len(none) != 0 {
		t.Errorf("PlayerGames(nobody) = %v, %v; want none", idsOf(none), err)
	}
	// A key that is a prefix of another player's key matches only itself.
	if p, _ := s.PlayerGames(ctx, "", 5); len(p) != 0 {
		t.Errorf("PlayerGames(\"\") listed %d games", len(p))
	}
}

func newChallenge(id string, clk *clocktest.Clock, ttl time.Duration) *storage.Challenge {
	return &storage.Challenge{
		ID: id, ChannelID: "c1", GuildID: "guild1", MessageID: "m" + id,
		Challenger: human("1"), Opponent: human("2"),
		Size: 9, Color: "black", Rules: engine.DefaultRules(), Handicap: 2,
		ExpiresAt: clk.Now().Add(ttl),
	}
}

func testChallenges(t *testing.T, s Store, clk *clocktest.Clock) {
	c := newChallenge("", clk, time.Hour)
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatalf("CreateChallenge = %v", err)
	}
	if c.ID == "" || !c.CreatedAt.Equal(clk.Now()) {
		t.Errorf("after CreateChallenge: ID %q, created %v", c.ID, c.CreatedAt)
	}
	got, err := s.Challenge(ctx, c.ID)
	if err != nil || got.ChannelID != "c1" || got.Opponent != c.Opponent || got.Handicap != 2 || got.Color != "black" || !got.ExpiresAt.Equal(c.ExpiresAt) || got.Rules != c.Rules {
		t.Errorf("Challenge = %+v, %v; want %+v", got, err, c)
	}
	dup := newChallenge(c.ID, clk, time.Hour)
	if err := s.CreateChallenge(ctx, dup); !errors.Is(err, storage.ErrExists) {
		t.Errorf("CreateChallenge with a taken ID = %v, want ErrExists", err)
	}
	open := newChallenge("open", clk, 30*time.Minute)
	open.Opponent = storage.Player{}
	if err := s.CreateChallenge(ctx, open); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.Challenge(ctx, "open"); o == nil || !o.Open() {
		t.Errorf("open challenge read back as %+v", o)
	}
	late := newChallenge("late", clk, 2*time.Hour)
	if err := s.CreateChallenge(ctx, late); err != nil {
		t.Fatal(err)
	}
	if exp, err := s.ExpiredChallenges(ctx, clk.Now()); err != nil || len(exp) != 0 {
		t.Errorf("ExpiredChallenges(now) = %d, %v; want none", len(exp), err)
	}
	// Expiry is inclusive: a challenge expiring exactly now is expired.
	exp, err := s.ExpiredChallenges(ctx, c.ExpiresAt)
	if err != nil || len(exp) != 2 || exp[0].ID != "open" || exp[1].ID != c.ID {
		var got []string
		for _, e := range exp {
			got = append(got, e.ID)
		}
		t.Errorf("ExpiredChallenges(+1h) = %v, %v; want [open %s] soonest first", got, err, c.ID)
	}
	if err := s.DeleteChallenge(ctx, "open"); err != nil {
		t.Errorf("DeleteChallenge = %v", err)
	}
	if err := s.DeleteChallenge(ctx, "open"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("second DeleteChallenge = %v, want ErrNotFound", err)
	}
	if _, err := s.Challenge(ctx, "open"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Challenge after delete = %v, want ErrNotFound", err)
	}
	if exp, _ := s.ExpiredChallenges(ctx, c.ExpiresAt.Add(time.Minute)); len(exp) != 1 {
		t.Errorf("ExpiredChallenges after the delete = %d, want 1", len(exp))
	}
	// Racing deletes: exactly one claims the challenge.
	race(t, "DeleteChallenge", 5, storage.ErrNotFound, func(int) error { return s.DeleteChallenge(ctx, "late") })
}

func testAcceptChallenge(t *testing.T, s Store, clk *clocktest.Clock) {
	c := newChallenge("ch", clk, time.Hour)
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	busy := newGame(t, "c1", "7", "8")
	mustCreate(t, s, busy)
	g := newGame(t, "c1", "1", "2")
	if err := s.AcceptChallenge(ctx, "ch", g); !errors.Is(err, storage.ErrExists) {
		t.Errorf("AcceptChallenge into a busy channel = %v, want ErrExists", err)
	}
	if _, err := s.Challenge(ctx, "ch"); err != nil {
		t.Errorf("the challenge is gone after a failed accept: %v", err)
	}
	if err := s.AbortGame(ctx, busy); err != nil {
		t.Fatal(err)
	}
	if err := s.AcceptChallenge(ctx, "ch", g); err != nil {
		t.Fatalf("AcceptChallenge = %v", err)
	}
	if g.Version != 1 || g.ID == "" {
		t.Errorf("after AcceptChallenge: version %d, ID %q", g.Version, g.ID)
	}
	if _, err := s.Challenge(ctx, "ch"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Challenge after accept = %v, want ErrNotFound", err)
	}
	if got := mustLoad(t, s, "c1"); got.ID != g.ID {
		t.Errorf("the accepted game is %s, want %s", got.ID, g.ID)
	}
	if err := s.AcceptChallenge(ctx, "ch", newGame(t, "c2", "1", "2")); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("second AcceptChallenge = %v, want ErrNotFound", err)
	}
	// An expired challenge (by the store's clock) cannot be accepted.
	old := newChallenge("old", clk, time.Minute)
	old.ChannelID = "c3"
	if err := s.CreateChallenge(ctx, old); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	if err := s.AcceptChallenge(ctx, "old", newGame(t, "c3", "1", "2")); !errors.Is(err, storage.ErrExpired) {
		t.Errorf("AcceptChallenge after expiry = %v, want ErrExpired", err)
	}
	if _, err := s.Game(ctx, "c3"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("an expired accept started a game: %v", err)
	}
}

func testAcceptRace(t *testing.T, s Store, clk *clocktest.Clock) {
	c := newChallenge("ch", clk, time.Hour)
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	// Different channels: only the challenge can make them lose.
	race(t, "AcceptChallenge", 6, storage.ErrNotFound, func(i int) error {
		return s.AcceptChallenge(ctx, "ch", newGame(t, fmt.Sprintf("c%d", i), "1", "2"))
	})
	if all, _ := s.ActiveGames(ctx); len(all) != 1 {
		t.Errorf("%d games started, want 1", len(all))
	}
}

// testClaimChallenge: while one Accept holds a challenge's claim another is
// refused, told who holds it; the claim can be taken again by its holder, after a release, or
// once it lapses; a challenge that is gone cannot be claimed.
func testClaimChallenge(t *testing.T, s Store, clk *clocktest.Clock) {
	if err := s.CreateChallenge(ctx, newChallenge("ch", clk, time.Hour)); err != nil {
		t.Fatal(err)
	}
	const lease = 30 * time.Second
	if err := s.ClaimChallenge(ctx, "ch", "first", lease); err != nil {
		t.Fatalf("ClaimChallenge = %v", err)
	}
	err := s.ClaimChallenge(ctx, "ch", "second", lease)
	var claimed *storage.ClaimedError
	if !errors.Is(err, storage.ErrConflict) || !errors.As(err, &claimed) || claimed.Holder != "first" {
		t.Errorf("a second claim = %v, want ErrConflict, a *ClaimedError naming the holder \"first\"", err)
	}
	if err := s.ClaimChallenge(ctx, "ch", "first", lease); err != nil {
		t.Errorf("the holder's claim again = %v", err)
	}
	if err := s.ReleaseChallenge(ctx, "ch", "second"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimChallenge(ctx, "ch", "second", lease); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("a claim after another holder's release = %v, want ErrConflict", err)
	}
	if err := s.ReleaseChallenge(ctx, "ch", "first"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimChallenge(ctx, "ch", "second", lease); err != nil {
		t.Errorf("a claim after the release = %v", err)
	}
	clk.Advance(lease)
	if err := s.ClaimChallenge(ctx, "ch", "third", lease); err != nil {
		t.Errorf("a claim after the lease lapsed = %v", err)
	}
	if err := s.DeleteChallenge(ctx, "ch"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimChallenge(ctx, "ch", "fourth", lease); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a claim on a challenge that is gone = %v, want ErrNotFound", err)
	}
}

// goOf is the game of Go that g holds (engine.GameOf): changing it
// changes g, as the tests' moves do before writing g back.
func goOf(g *storage.Game) *engine.Game { return engine.GameOf(g.State) }
