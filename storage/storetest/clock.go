package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// testDeadlines: the deadline index follows the writes (here through the
// scoring phase's deadline), and an outage is credited once, to running
// clocks only.
func testDeadlines(t *testing.T, s Store, clk *clocktest.Clock) {
	if next, err := s.NextDue(ctx); err != nil || !next.IsZero() {
		t.Errorf("NextDue on an empty store = %v, %v; want zero", next, err)
	}
	t0 := clk.Now()
	scoring := func(ch string, in time.Duration) *storage.Game {
		g := newGame(t, ch, "1", "2")
		mustCreate(t, s, g)
		g.Scoring = &storage.ScoringState{Accepted: map[game.Side]bool{}, Deadline: t0.Add(in)}
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := scoring("a", 2*time.Hour)
	scoring("b", time.Hour)
	mustCreate(t, s, newGame(t, "c", "1", "2")) // no deadline
	if next, err := s.NextDue(ctx); err != nil || !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("NextDue = %v, %v; want %v", next, err, t0.Add(time.Hour))
	}
	due, err := s.DueGames(ctx, t0.Add(2*time.Hour), 0)
	if err != nil || len(due) != 2 || due[0].ChannelID != "b" || due[1].ChannelID != "a" || !due[1].Due.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("DueGames(+2h) = %+v, %v; want b then a", due, err)
	}
	if due, _ := s.DueGames(ctx, t0.Add(90*time.Minute), 0); len(due) != 1 {
		t.Errorf("DueGames(+90m) = %+v, want b only", due)
	}
	if due, _ := s.DueGames(ctx, t0.Add(3*time.Hour), 1); len(due) != 1 || due[0].ChannelID != "b" {
		t.Errorf("DueGames(+3h, 1) = %+v, want b", due)
	}
	// Ending the scoring phase takes the game off the index.
	a.Scoring = nil
	if err := s.UpdateGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueGames(ctx, t0.Add(3*time.Hour), 0); len(due) != 1 || due[0].ChannelID != "b" {
		t.Errorf("DueGames after a's scoring ended = %+v, want b", due)
	}

	// Heartbeats and the outage credit.
	if hb, err := s.LastHeartbeat(ctx); err != nil || !hb.IsZero() {
		t.Errorf("LastHeartbeat before any = %v, %v", hb, err)
	}
	if err := s.Heartbeat(ctx, t0); err != nil {
		t.Fatal(err)
	}
	if hb, err := s.LastHeartbeat(ctx); err != nil || !hb.Equal(t0) {
		t.Errorf("LastHeartbeat = %v, %v; want %v", hb, err, t0)
	}
	// A running clock is credited, and so is a scoring phase's deadline
	// (no clock runs then): the players keep the time they had to agree.
	d := newGame(t, "d", "3", "4")
	d.Clock = clock.New(clock.Control{System: clock.Absolute, Main: 3 * time.Hour})
	d.Clock.Start(clock.First, t0)
	mustCreate(t, s, d)
	b := mustLoad(t, s, "b")
	back := t0.Add(10 * time.Minute)
	credit, n, err := s.CreditOutage(ctx, back, time.Minute)
	if err != nil || credit != 10*time.Minute || n != 2 {
		t.Fatalf("CreditOutage = %v, %d, %v; want 10m to 2 games", credit, n, err)
	}
	if got := mustLoad(t, s, "b"); !got.Scoring.Deadline.Equal(t0.Add(70*time.Minute)) || got.Version != b.Version+1 {
		t.Errorf("after the credit the scoring phase has deadline %v, version %d; want %v, %d", got.Scoring.Deadline, got.Version, t0.Add(70*time.Minute), b.Version+1)
	}
	got := mustLoad(t, s, "d")
	if !got.Clock.Deadline().Equal(t0.Add(3*time.Hour+10*time.Minute)) || got.Version != d.Version+1 {
		t.Errorf("after the credit d's clock runs out at %v, version %d; want %v, %d", got.Clock.Deadline(), got.Version, t0.Add(190*time.Minute), d.Version+1)
	}
	if due, _ := s.DueGames(ctx, t0.Add(3*time.Hour), 0); len(due) != 1 || due[0].ChannelID != "b" {
		t.Errorf("DueGames(+3h) after the credit = %+v, want b only (d moved to +3h10m)", due)
	}
	if err := s.UpdateGame(ctx, d); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("a write prepared before the credit = %v, want ErrConflict", err)
	}
	// A second worker starting at once finds a fresh heartbeat.
	if credit, n, err := s.CreditOutage(ctx, back.Add(time.Second), time.Minute); err != nil || credit != 0 || n != 0 {
		t.Errorf("second CreditOutage = %v, %d, %v; want nothing", credit, n, err)
	}
}

func testVacation(t *testing.T, s Store, clk *clocktest.Clock) {
	if v, err := s.Vacation(ctx, "1"); err != nil || v != (storage.Vacation{}) {
		t.Errorf("Vacation of a player who took none = %+v, %v", v, err)
	}
	v := storage.Vacation{Year: 2026, Used: 48 * time.Hour, Start: clk.Now(), Until: clk.Now().Add(24 * time.Hour)}
	if err := s.PutVacation(ctx, "1", v); err != nil {
		t.Fatal(err)
	}
	got, err := s.Vacation(ctx, "1")
	if err != nil || got.Year != v.Year || got.Used != v.Used || !got.Start.Equal(v.Start) || !got.Until.Equal(v.Until) || !got.On(clk.Now()) {
		t.Errorf("Vacation = %+v, %v; want %+v", got, err, v)
	}
	bad := storage.Vacation{Used: -time.Hour}
	if err := s.PutVacation(ctx, "1", bad); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("PutVacation(negative) = %v, want ErrInvalid", err)
	}
}

// testAddMessageID: a board's message is recorded with the game without a
// new version, so a move made at the same moment is not refused, once and
// in the order of the IDs; a game that is gone (or replaced) is
// ErrNotFound.
func testAddMessageID(t *testing.T, s Store, _ *clocktest.Clock) {
	g := newGame(t, "c", "1", "2")
	mustCreate(t, s, g)
	if err := s.AddMessageID(ctx, "c", g.ID, "m1"); err != nil {
		t.Fatal(err)
	}
	got := mustLoad(t, s, "c")
	if len(got.Delivery.MessageIDs) != 1 || got.Delivery.MessageIDs[0] != "m1" || got.Version != g.Version {
		t.Errorf("after AddMessageID: messages %v, version %d; want [m1], %d", got.Delivery.MessageIDs, got.Version, g.Version)
	}
	// g was read before the message was added: same version, and its
	// write keeps the message (a board posted while a move was made).
	g.Delivery.MessageIDs = append(g.Delivery.MessageIDs, "1200000000000000005")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Errorf("UpdateGame after AddMessageID = %v, want nil", err)
	}
	if got := mustLoad(t, s, "c").Delivery.MessageIDs; fmt.Sprint(got) != "[m1 1200000000000000005]" || fmt.Sprint(g.Delivery.MessageIDs) != fmt.Sprint(got) {
		t.Errorf("after a write read before AddMessageID: stored messages %v, the writer's %v; want [m1 1200000000000000005] in both", got, g.Delivery.MessageIDs)
	}
	// A message recorded twice (a board kept as it was posted and again
	// by the room) is kept once; an older one added late goes in its
	// place by ID, so the newest board stays last.
	for _, id := range []string{"1200000000000000005", "1200000000000000003"} {
		if err := s.AddMessageID(ctx, "c", g.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustLoad(t, s, "c").Delivery.MessageIDs; fmt.Sprint(got) != "[m1 1200000000000000003 1200000000000000005]" {
		t.Errorf("after adding a message kept already and an older one: %v, want [m1 1200000000000000003 1200000000000000005]", got)
	}
	if err := s.AddMessageID(ctx, "c", "another", "m2"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AddMessageID for another game = %v, want ErrNotFound", err)
	}
	// A finish, and an abort, of a game read before a board was added
	// give the writer every board, whose buttons it removes.
	for _, end := range []struct {
		name string
		do   func(g *storage.Game) error
	}{
		{"FinishGame", func(g *storage.Game) error {
			return s.FinishGame(ctx, g, storage.Archived{Result: "B+R", SGF: []byte("(;GM[1]SZ[9])")})
		}},
		{"AbortGame", func(g *storage.Game) error { return s.AbortGame(ctx, g) }},
	} {
		ch := "end-" + end.name
		g := newGame(t, ch, "1", "2")
		mustCreate(t, s, g)
		g.Delivery.MessageIDs = []string{"1200000000000000001"}
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.AddMessageID(ctx, ch, g.ID, "1200000000000000007"); err != nil {
			t.Fatal(err)
		}
		if err := end.do(g); err != nil {
			t.Fatalf("%s: %v", end.name, err)
		}
		if fmt.Sprint(g.Delivery.MessageIDs) != "[1200000000000000001 1200000000000000007]" {
			t.Errorf("%s of a game read before a board was added: the writer knows the boards %v, want both", end.name, g.Delivery.MessageIDs)
		}
	}
	if err := s.AddMessageID(ctx, "nowhere", g.ID, "m2"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("AddMessageID in an empty channel = %v, want ErrNotFound", err)
	}
}

// testSetUndoMessage: the message asking a game's request (an undo
// question, a draw offer) is recorded with the request without a new
// version, so an answer or a move made meanwhile is not refused; a write
// read before it keeps it and gives it back to the writer, as do a
// finish and an abort, which remove the record (whoever lapses the
// request closes its question); a game that no longer holds the request,
// or is gone, is ErrNotFound.
func testSetUndoMessage(t *testing.T, s Store, clk *clocktest.Clock) {
	g := newGame(t, "c", "1", "2")
	play(t, goOf(g), "D4")
	g.Undo = &storage.UndoRequest{By: 0, MoveCount: 1, RequestedAt: clk.Now()}
	mustCreate(t, s, g)
	u := *g.Undo
	if err := s.SetUndoMessage(ctx, "c", g.ID, u, "q1"); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "c"); got.Undo == nil || got.Undo.MessageID != "q1" || got.Version != g.Version {
		t.Errorf("after SetUndoMessage: request %+v, version %d; want message q1, version %d", got.Undo, got.Version, g.Version)
	}
	// g was read before: its write (the request lapses with a move and
	// stays, closed) keeps the message and gives it back.
	play(t, goOf(g), "E5")
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("UpdateGame after SetUndoMessage = %v, want nil", err)
	}
	if g.Undo.MessageID != "q1" {
		t.Errorf("the writer's request after its write has message %q, want q1", g.Undo.MessageID)
	}
	if got := mustLoad(t, s, "c"); got.Undo == nil || got.Undo.MessageID != "q1" {
		t.Errorf("stored request after a write read before SetUndoMessage: %+v, want message q1", got.Undo)
	}
	// Another request (or none) is not the one the message asks.
	other := u
	other.MoveCount = 2
	if err := s.SetUndoMessage(ctx, "c", g.ID, other, "q2"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetUndoMessage of a request the game does not hold = %v, want ErrNotFound", err)
	}
	g.Undo = &storage.UndoRequest{By: 1, MoveCount: 2, RequestedAt: clk.Now()}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if g.Undo.MessageID != "" {
		t.Errorf("a new request took the old one's message %q", g.Undo.MessageID)
	}
	if err := s.SetUndoMessage(ctx, "c", g.ID, u, "q1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetUndoMessage of a replaced request = %v, want ErrNotFound", err)
	}
	// A finish read before the message was recorded gives it back.
	read := mustLoad(t, s, "c")
	if err := s.SetUndoMessage(ctx, "c", g.ID, *g.Undo, "q3"); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishGame(ctx, read, storage.Archived{Result: "B+R", SGF: []byte("(;GM[1]SZ[9];B[dd];W[ee])")}); err != nil {
		t.Fatal(err)
	}
	if read.Undo == nil || read.Undo.MessageID != "q3" {
		t.Errorf("the finisher's request after FinishGame: %+v, want message q3", read.Undo)
	}
	if err := s.SetUndoMessage(ctx, "c", g.ID, *g.Undo, "q4"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetUndoMessage of a finished game = %v, want ErrNotFound", err)
	}
	// So does an abort.
	a := newGame(t, "d", "1", "2")
	play(t, goOf(a), "D4")
	a.Undo = &storage.UndoRequest{By: 0, MoveCount: 1, RequestedAt: clk.Now()}
	mustCreate(t, s, a)
	if err := s.SetUndoMessage(ctx, "d", a.ID, *a.Undo, "q5"); err != nil {
		t.Fatal(err)
	}
	if err := s.AbortGame(ctx, a); err != nil {
		t.Fatal(err)
	}
	if a.Undo.MessageID != "q5" {
		t.Errorf("the aborter's request after AbortGame has message %q, want q5", a.Undo.MessageID)
	}
}

// testSetVoteBoard: the board a vote game's open vote is shown on is
// recorded with the vote without a new version, so a vote cast meanwhile
// is not refused; a newer board replaces it, an older one does not; a
// write of the same vote read before keeps it and gives it back to the
// writer; a board of another move, or of a game that is gone, is
// ErrNotFound.
func testSetVoteBoard(t *testing.T, s Store, clk *clocktest.Clock) {
	g := newGame(t, "c", "1", "2")
	play(t, goOf(g), "D4")
	g.Vote = &storage.Vote{Deadline: clk.Now().Add(time.Hour), Moves: 1}
	mustCreate(t, s, g)
	if err := s.SetVoteBoard(ctx, "c", g.ID, 1, "1200000000000000005"); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "c"); got.Vote == nil || got.Vote.Board != "1200000000000000005" || got.Version != g.Version {
		t.Errorf("after SetVoteBoard: vote %+v, version %d; want board 1200000000000000005, version %d", got.Vote, got.Version, g.Version)
	}
	// g was read before: its write (a vote cast) keeps the board and
	// gives it back.
	g.Vote.Ballots = append(g.Vote.Ballots, storage.Ballot{UserID: "3", Move: "E5", At: clk.Now()})
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("UpdateGame after SetVoteBoard = %v, want nil", err)
	}
	if g.Vote.Board != "1200000000000000005" {
		t.Errorf("the writer's vote after its write has board %q, want 1200000000000000005", g.Vote.Board)
	}
	if got := mustLoad(t, s, "c"); got.Vote == nil || got.Vote.Board != "1200000000000000005" || len(got.Vote.Ballots) != 1 {
		t.Errorf("stored vote after a write read before SetVoteBoard: %+v, want the board and the ballot", got.Vote)
	}
	// An older board recorded late does not replace the newer one; a
	// newer one does.
	for _, id := range []string{"1200000000000000003", "1200000000000000007"} {
		if err := s.SetVoteBoard(ctx, "c", g.ID, 1, id); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustLoad(t, s, "c"); got.Vote.Board != "1200000000000000007" {
		t.Errorf("vote's board after an older and a newer one = %q, want 1200000000000000007", got.Vote.Board)
	}
	// A board drawn on another move is not the vote's.
	if err := s.SetVoteBoard(ctx, "c", g.ID, 0, "1200000000000000009"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetVoteBoard of a board of another move = %v, want ErrNotFound", err)
	}
	// A vote on the next move starts without a board, even from a write
	// read before the old vote's board was recorded.
	read := mustLoad(t, s, "c")
	if err := s.SetVoteBoard(ctx, "c", g.ID, 1, "1200000000000000011"); err != nil {
		t.Fatal(err)
	}
	play(t, goOf(read), "E5", "F5")
	read.Vote = &storage.Vote{Deadline: clk.Now().Add(time.Hour), Moves: 3}
	if err := s.UpdateGame(ctx, read); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "c"); read.Vote.Board != "" || got.Vote == nil || got.Vote.Board != "" {
		t.Errorf("a new vote took the old one's board: the writer's %q, stored %+v", read.Vote.Board, got.Vote)
	}
	if err := s.SetVoteBoard(ctx, "c", "another", 3, "1200000000000000013"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetVoteBoard for another game = %v, want ErrNotFound", err)
	}
	if err := s.SetVoteBoard(ctx, "nowhere", g.ID, 3, "1200000000000000013"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetVoteBoard in an empty channel = %v, want ErrNotFound", err)
	}
}
