package storetest

import (
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// testOwedBoard: a move's owed board is a deadline of its game, earlier
// than its own; a board message older than the move leaves it owed, and
// the first one recorded after it settles it without a new version, the
// game's due time going back to its own deadline.
func testOwedBoard(t *testing.T, s Store, clk *clocktest.Clock) {
	t0 := clk.Now()
	g := newGame(t, "c", "1", "2")
	mustCreate(t, s, g)
	g.Scoring = &storage.ScoringState{Deadline: t0.Add(time.Hour)}
	g.Delivery.MessageIDs = []string{"1200000000000000003"}
	g.Delivery.Owed = &storage.OwedBoard{Moves: 2, After: "1200000000000000003", Due: t0.Add(time.Minute)}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	got := mustLoad(t, s, "c")
	if o := got.Delivery.Owed; o == nil || *o != *g.Delivery.Owed {
		t.Errorf("owed board read back = %+v, want %+v", o, g.Delivery.Owed)
	}
	if next, err := s.NextDue(ctx); err != nil || !next.Equal(t0.Add(time.Minute)) {
		t.Errorf("NextDue with an owed board = %v, %v; want %v", next, err, t0.Add(time.Minute))
	}
	if err := s.AddMessageID(ctx, "c", g.ID, "1200000000000000002"); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "c"); got.Delivery.Owed == nil {
		t.Errorf("a board older than the move settled its owed board")
	}
	if err := s.AddMessageID(ctx, "c", g.ID, "1200000000000000004"); err != nil {
		t.Fatal(err)
	}
	got = mustLoad(t, s, "c")
	if got.Delivery.Owed != nil || got.Version != g.Version {
		t.Errorf("after the move's board: owed %+v, version %d; want none, %d", got.Delivery.Owed, got.Version, g.Version)
	}
	if next, err := s.NextDue(ctx); err != nil || !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("NextDue once the board is shown = %v, %v; want the game's own %v", next, err, t0.Add(time.Hour))
	}
	if due, _ := s.DueGames(ctx, t0.Add(30*time.Minute), 0); len(due) != 0 {
		t.Errorf("DueGames(+30m) once the board is shown = %+v, want none", due)
	}
}
