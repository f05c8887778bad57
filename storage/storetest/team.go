package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// testTeamChallenge: a team game's challenge gathers its players through
// UpdateChallenge; eight players joining at once all get a seat (none is
// lost to a concurrent write), a change that fails or breaks the rules
// writes nothing, a start from teams read before a change is refused, and
// the teams as they stand become a game's sides.
func testTeamChallenge(t *testing.T, s Store, clk *clocktest.Clock) {
	c := &storage.Challenge{
		ID: "r1", ChannelID: "c1", GuildID: "g1", Challenger: human("1"), Size: 9, Rules: engine.DefaultRules(),
		Teams: []storage.Side{{Players: []storage.Player{human("1")}}, {}}, TeamClock: storage.TeamClockStrict,
		ExpiresAt: clk.Now().Add(time.Hour),
	}
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatalf("CreateChallenge(team) = %v", err)
	}
	var wg sync.WaitGroup
	for i := 2; i <= 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
				team := (i + 1) % 2
				c.Teams[team].Players = append(c.Teams[team].Players, human(fmt.Sprint(i)))
				return nil
			})
			if err != nil {
				t.Errorf("join %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Challenge(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if n0, n1 := len(got.Teams[0].Players), len(got.Teams[1].Players); n0 != 4 || n1 != 4 {
		t.Fatalf("after 7 concurrent joins the teams have %d and %d players, want 4 and 4", n0, n1)
	}
	stop := errors.New("stop")
	if _, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
		c.Teams[0].Players = nil
		return stop
	}); !errors.Is(err, stop) {
		t.Errorf("UpdateChallenge(failing change) = %v, want its error", err)
	}
	if _, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
		c.Teams[1].Players = append(c.Teams[1].Players, human("9"))
		return nil
	}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("UpdateChallenge(a fifth player) = %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
		c.Teams[1].Players[0] = human("1")
		return nil
	}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("UpdateChallenge(a player on both teams) = %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
		c.ExpiresAt = c.ExpiresAt.Add(time.Hour)
		return nil
	}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("UpdateChallenge(another expiry) = %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateChallenge(ctx, "nope", func(*storage.Challenge) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("UpdateChallenge(unknown) = %v, want ErrNotFound", err)
	}
	got, _ = s.Challenge(ctx, "r1")
	if len(got.Teams[0].Players) != 4 || len(got.Teams[1].Players) != 4 || got.Teams[1].Players[0].UserID == "1" {
		t.Errorf("refused changes were written: %+v", got.Teams)
	}
	// A start from a copy read before a player left is refused: the
	// player who left is not put in the game, and the lobby stays.
	stale, err := s.Challenge(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateChallenge(ctx, "r1", func(c *storage.Challenge) error {
		c.Teams[1].Players = c.Teams[1].Players[:3]
		return nil
	}); err != nil {
		t.Fatalf("leave: %v", err)
	}
	old := &storage.Game{ID: "r1", ChannelID: "c1", GuildID: "g1", Sides: stale.Teams, State: engine.Own(newEngine(t, 9)), Unrated: true}
	if err := s.AcceptChallenge(ctx, "r1", old); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("AcceptChallenge(teams before a player left) = %v, want ErrConflict", err)
	}
	if _, err := s.Game(ctx, "c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a refused start left a game: %v", err)
	}
	got, err = s.Challenge(ctx, "r1")
	if err != nil || len(got.Teams[1].Players) != 3 {
		t.Fatalf("after the refused start the lobby is %+v, %v; want it with 4 and 3 players", got, err)
	}
	g := &storage.Game{ID: "r1", ChannelID: "c1", GuildID: "g1", Sides: got.Teams, State: engine.Own(newEngine(t, 9)), Unrated: true}
	if err := s.AcceptChallenge(ctx, "r1", g); err != nil {
		t.Fatalf("AcceptChallenge(team) = %v", err)
	}
	loaded, err := s.Game(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Players()) != 7 {
		t.Errorf("the team game has %d players, want 7", len(loaded.Players()))
	}
	for _, p := range loaded.Players() {
		if gs, err := s.PlayerActiveGames(ctx, p.Key()); err != nil || len(gs) != 1 {
			t.Errorf("PlayerActiveGames(%s) = %d games, %v; want the team game", p.Key(), len(gs), err)
		}
	}
}

// testTeamHistory: a finished team game is in every player's history with
// both teams, while the statistics count the first player of each side
// only, as before.
func testTeamHistory(t *testing.T, s Store, clk *clocktest.Clock) {
	teams := []storage.Side{
		{Players: []storage.Player{human("1"), human("3"), human("5")}},
		{Players: []storage.Player{human("2"), human("4")}},
	}
	g := &storage.Game{ID: "t1", ChannelID: "c1", GuildID: "g1", Sides: teams, State: engine.Own(newEngine(t, 9)), Unrated: true, CreatedAt: clk.Now()}
	mustCreate(t, s, g)
	clk.Advance(time.Minute)
	if err := s.FinishGame(ctx, g, storage.Archived{Result: "W+R", SGF: []byte("(;GM[1]SZ[9]RE[W+R])")}); err != nil {
		t.Fatalf("FinishGame(team game) = %v", err)
	}
	a, err := s.ArchivedGame(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if a.Black.UserID != "1" || a.White.UserID != "2" || len(a.BlackTeam) != 3 || a.BlackTeam[2].UserID != "5" || len(a.WhiteTeam) != 2 || a.WhiteTeam[1].UserID != "4" {
		t.Errorf("archived team game: black %v white %v, teams %v and %v; want 1, 3, 5 against 2, 4", a.Black, a.White, a.BlackTeam, a.WhiteTeam)
	}
	for _, key := range []string{"1", "2", "3", "4", "5"} {
		h, err := s.PlayerGames(ctx, key, 10)
		if err != nil || len(h) != 1 || h[0].ID != "t1" {
			t.Errorf("PlayerGames(%s) = %d games, %v; want the team game", key, len(h), err)
		}
		if page, total, err := s.PlayerGamesPage(ctx, key, 0, 10, nil); err != nil || total != 1 || len(page) != 1 {
			t.Errorf("PlayerGamesPage(%s) = %d of %d, %v; want the team game", key, len(page), total, err)
		}
	}
	if side, ok := a.SideOf("4"); !ok || side != 1 {
		t.Errorf("SideOf(4) = %v, %v; want White", side, ok)
	}
	if st, err := s.PlayerStats(ctx, "2"); err != nil || st.Games != 1 || st.Wins != 1 {
		t.Errorf("PlayerStats(2) = %+v, %v; want the game won", st, err)
	}
	if st, err := s.PlayerStats(ctx, "3"); err == nil && st.Games != 0 {
		t.Errorf("PlayerStats(3) = %+v: a teammate's statistics counted the game", st)
	}
}

// testAddTeamVoteMessage: the messages announcing the ballots of a team's
// vote (to resign, to abort) are recorded with the vote without a new
// version, so that a move or a ballot made meanwhile is not refused; a
// write of the same vote read before keeps them and gives them back; a
// write that drops the vote (the next move) gives back the vote with its
// messages, those recorded after it was read included, as lapsed; a vote
// the game no longer holds, or a game that is gone, is ErrNotFound.
func testAddTeamVoteMessage(t *testing.T, s Store, clk *clocktest.Clock) {
	teams := []storage.Side{
		{Players: []storage.Player{human("1"), human("3")}},
		{Players: []storage.Player{human("2"), human("4")}},
	}
	g := &storage.Game{ID: "t1", ChannelID: "c", GuildID: "g1", Sides: teams, State: engine.Own(newEngine(t, 9)), Unrated: true, CreatedAt: clk.Now()}
	play(t, goOf(g), "D4")
	g.Movers = []string{human("1").Key()}
	g.ResignVote = &storage.ResignVote{Side: 0, Voters: []string{"3"}, MoveCount: 1}
	mustCreate(t, s, g)
	v := *g.ResignVote
	if err := s.AddTeamVoteMessage(ctx, "c", g.ID, false, v, "m1"); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "c"); got.ResignVote == nil || fmt.Sprint(got.ResignVote.Messages) != "[m1]" || got.Version != g.Version {
		t.Errorf("after AddTeamVoteMessage: vote %+v, version %d; want messages [m1], version %d", got.ResignVote, got.Version, g.Version)
	}
	// No vote to abort is open.
	if err := s.AddTeamVoteMessage(ctx, "c", g.ID, true, v, "m2"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AddTeamVoteMessage to a vote to abort that is not open = %v, want ErrNotFound", err)
	}
	// g was read before: its write (a second ballot, a vote to abort
	// opened) keeps the message and gives it back.
	g.ResignVote = &storage.ResignVote{Side: 0, Voters: []string{"3", "1"}, MoveCount: 1}
	g.AbortVote = &storage.ResignVote{Side: 1, Voters: []string{"4"}, MoveCount: 1}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("UpdateGame after AddTeamVoteMessage = %v, want nil", err)
	}
	if fmt.Sprint(g.ResignVote.Messages) != "[m1]" || len(g.LapsedVotes) != 0 {
		t.Errorf("the writer's vote after its write: messages %v, lapsed %+v; want [m1], none", g.ResignVote.Messages, g.LapsedVotes)
	}
	if got := mustLoad(t, s, "c"); fmt.Sprint(got.ResignVote.Messages) != "[m1]" || len(got.ResignVote.Voters) != 2 {
		t.Errorf("stored vote after a write read before AddTeamVoteMessage: %+v, want two voters and [m1]", got.ResignVote)
	}
	// Messages recorded after the move was read lapse with it: the
	// move's write gives them back, with the vote.
	read := mustLoad(t, s, "c")
	for _, m := range []struct {
		abort bool
		vote  storage.ResignVote
		id    string
	}{{false, *g.ResignVote, "m3"}, {true, *g.AbortVote, "m4"}} {
		if err := s.AddTeamVoteMessage(ctx, "c", g.ID, m.abort, m.vote, m.id); err != nil {
			t.Fatal(err)
		}
	}
	play(t, goOf(read), "E5")
	read.Movers = append(read.Movers, human("2").Key())
	read.ResignVote, read.AbortVote = nil, nil
	if err := s.UpdateGame(ctx, read); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%+v", read.LapsedVotes); got != "[{Abort:false Vote:{Side:0 Voters:[3 1] MoveCount:1 Messages:[m1 m3]}} {Abort:true Vote:{Side:1 Voters:[4] MoveCount:1 Messages:[m4]}}]" {
		t.Errorf("the move's lapsed votes = %s, want both votes with all their messages", got)
	}
	if got := mustLoad(t, s, "c"); got.ResignVote != nil || got.AbortVote != nil || got.LapsedVotes != nil {
		t.Errorf("stored after the move: resign vote %+v, abort vote %+v, lapsed %+v; want none", got.ResignVote, got.AbortVote, got.LapsedVotes)
	}
	if err := s.AddTeamVoteMessage(ctx, "c", g.ID, false, *g.ResignVote, "m5"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AddTeamVoteMessage to a lapsed vote = %v, want ErrNotFound", err)
	}
	// A finish that drops a vote gives it back too.
	read.ResignVote = &storage.ResignVote{Side: 0, Voters: []string{"1"}, MoveCount: 2}
	if err := s.UpdateGame(ctx, read); err != nil {
		t.Fatal(err)
	}
	fin := mustLoad(t, s, "c")
	if err := s.AddTeamVoteMessage(ctx, "c", g.ID, false, *read.ResignVote, "m6"); err != nil {
		t.Fatal(err)
	}
	fin.ResignVote = nil
	if err := s.FinishGame(ctx, fin, storage.Archived{Result: "W+R", SGF: []byte("(;GM[1]SZ[9];B[dd];W[ee])")}); err != nil {
		t.Fatal(err)
	}
	if len(fin.LapsedVotes) != 1 || fmt.Sprint(fin.LapsedVotes[0].Vote.Messages) != "[m6]" {
		t.Errorf("the finisher's lapsed votes = %+v, want the vote to resign with [m6]", fin.LapsedVotes)
	}
	if err := s.AddTeamVoteMessage(ctx, "nowhere", g.ID, false, *read.ResignVote, "m7"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AddTeamVoteMessage in an empty channel = %v, want ErrNotFound", err)
	}
}
