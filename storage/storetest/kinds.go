package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/storage"
)

// newDraughts is a game of draughts in channel between white and black.
func newDraughts(t *testing.T, channel string, white, black storage.Player) *storage.Game {
	t.Helper()
	st, err := draughts.Kind{}.New(nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	return &storage.Game{ChannelID: channel, GuildID: "guild1", Kind: "draughts", Sides: storage.Sides(white, black), State: st}
}

// playFirstLegal plays n moves on g, each the first legal move of the side
// to move.
func playFirstLegal(t *testing.T, g *storage.Game, n int) {
	t.Helper()
	for range n {
		side := g.State.ToMove()
		next, _, err := g.State.Play(side, g.State.Legal()[0])
		if err != nil {
			t.Fatal(err)
		}
		g.State = next
	}
}

// testSecondKind: a game of another kind than Go (draughts) is stored,
// read back through the kind registered with the store, played on,
// queued for its bot, finished and rated in its kind's own pools, never
// in Go's.
func testSecondKind(t *testing.T, s Store, clk *clocktest.Clock) {
	g := newDraughts(t, "d1", human("1"), human("2"))
	mustCreate(t, s, g)
	next, facts, err := g.State.Play(0, "32-28")
	if err != nil || len(facts) != 0 {
		t.Fatalf("Play(32-28) = %v, %v", facts, err)
	}
	g.State = next
	g.Undo = &storage.UndoRequest{By: 0, MoveCount: 1, RequestedAt: clk.Now()} // a draw offer
	mustUpdate(t, s, g)
	got := mustLoad(t, s, "d1")
	gj, _ := got.State.MarshalJSON()
	wj, _ := g.State.MarshalJSON()
	if got.Kind != "draughts" || string(gj) != string(wj) || got.State.ToMove() != 1 || got.Undo == nil || got.Undo.By != 0 {
		t.Fatalf("loaded %s game, state %s, undo %+v; want draughts, %s, White's offer", got.Kind, gj, got.Undo, wj)
	}
	if _, ok := got.State.(draughts.State); !ok {
		t.Fatalf("loaded state is %T, want draughts.State", got.State)
	}

	// A bot to move is owed its move, whatever the kind.
	b := newDraughts(t, "d2", human("3"), storage.Player{Level: "beginner", Name: "gobot beginner"})
	mustCreate(t, s, b)
	playFirstLegal(t, b, 1)
	mustUpdate(t, s, b)
	m, err := s.ClaimBotMove(ctx, "w1", time.Minute)
	if err != nil || m.ChannelID != "d2" || m.Moves != 1 {
		t.Fatalf("ClaimBotMove = %+v, %v; want the draughts bot's move in d2 after 1 move", m, err)
	}

	// Finished after 10 moves: rated in draughts' pools only.
	playFirstLegal(t, got, 9)
	next, err = got.State.End(game.Result{Winner: 0, Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	got.State = next
	if err := s.FinishGame(ctx, got, storage.Archived{Result: "W+R", SGF: []byte("[Event \"x\"]\n\n1. 32-28 *\n"), Rated: true}); err != nil {
		t.Fatalf("FinishGame = %v", err)
	}
	arc, err := s.ArchivedGame(ctx, got.ID)
	if err != nil || arc.Kind != "draughts" || arc.White.UserID != "1" || arc.Black.UserID != "2" || arc.Moves != 10 || !arc.Rated || arc.Winner.String() != "white" {
		t.Fatalf("archived %+v, %v; want draughts, white 1, black 2, 10 moves, rated, white won", arc, err)
	}
	changes, err := s.GameRatingChanges(ctx, got.ID)
	var pools []string
	for _, c := range changes {
		pools = append(pools, fmt.Sprintf("%s %s %.1f→%.1f", c.Pool, c.Player, c.Before.Rating, c.After.Rating))
	}
	if want := "[draughts:global 2 1500.0→1337.7 draughts:global 1 1500.0→1662.3 draughts:guild:guild1 2 1500.0→1337.7 draughts:guild:guild1 1 1500.0→1662.3]"; err != nil || fmt.Sprint(pools) != want {
		t.Errorf("GameRatingChanges = %v, %v; want %s", pools, err, want)
	}
	if _, err := s.Rating(ctx, storage.GlobalPool, "1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Go's global rating of a draughts player = %v, want ErrNotFound", err)
	}
	// A rebuild gives the same.
	if _, err := s.RebuildRatings(ctx); err != nil {
		t.Fatal(err)
	}
	if pr, err := s.Rating(ctx, storage.KindPool("draughts", storage.GlobalPool), "1"); err != nil || fmt.Sprintf("%.1f", pr.Rating.Rating) != "1662.3" {
		t.Errorf("draughts rating after a rebuild = %+v, %v; want 1662.3", pr, err)
	}
}

// mustUpdate writes g, failing the test on an error.
func mustUpdate(t *testing.T, s Store, g *storage.Game) {
	t.Helper()
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("UpdateGame(%s) = %v", g.ChannelID, err)
	}
}

// testUnknownKind: a game of a kind the store was not given is refused at
// creation (ErrInvalid), not stored to be quarantined at its first read.
func testUnknownKind(t *testing.T, s Store, _ *clocktest.Clock) {
	g := newDraughts(t, "u1", human("1"), human("2"))
	g.Kind = "chess"
	if err := s.CreateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("CreateGame(a game of chess) = %v, want ErrInvalid", err)
	}
	if _, err := s.Game(ctx, "u1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Game(u1) after a refused create = %v, want ErrNotFound", err)
	}
}

// testStatsByKind: a player's statistics count every kind's games
// together and each kind's apart: the record, the draws and the streak of
// draughts are draughts' alone, Go's Go's.
func testStatsByKind(t *testing.T, s Store, clk *clocktest.Clock) {
	finishDraughts := func(channel, result string) {
		t.Helper()
		g := newDraughts(t, channel, human("1"), human("2"))
		mustCreate(t, s, g)
		playFirstLegal(t, g, 10)
		res := game.Result{Winner: 1, Reason: game.ByResignation}
		if result == "0" {
			res = game.Result{Winner: game.NoSide, Reason: game.ByAgreement}
		}
		next, err := g.State.End(res)
		if err != nil {
			t.Fatal(err)
		}
		g.State = next
		if err := s.FinishGame(ctx, g, storage.Archived{Result: result, SGF: []byte("[Event \"x\"]\n\n1. 32-28 *\n")}); err != nil {
			t.Fatalf("FinishGame(%s) = %v", channel, err)
		}
	}
	finishDraughts("d1", "B+R") // 1 (white) loses
	clk.Advance(time.Minute)
	finishDraughts("d2", "0") // a draw
	clk.Advance(time.Minute)
	finish(t, s, clk, "c1", "guild1", "1", "3", "W+R") // 1 (black) loses
	clk.Advance(time.Minute)
	finish(t, s, clk, "c2", "guild1", "1", "3", "B+R") // and wins
	st, err := s.PlayerStats(ctx, "1")
	if err != nil {
		t.Fatalf("PlayerStats(1) = %v", err)
	}
	describe := func(st *storage.PlayerStats) string {
		if st == nil {
			return "none"
		}
		return fmt.Sprintf("%d games: +%d -%d =%d, streak %d, %d sizes", st.Games, st.Wins, st.Losses, st.Ties, st.Streak, len(st.BySize))
	}
	for _, tt := range []struct{ what, got, want string }{
		{"all", describe(st), "4 games: +1 -2 =1, streak 1, 2 sizes"},
		{"go", describe(st.Kind("go")), "2 games: +1 -1 =0, streak 1, 1 sizes"},
		{"draughts", describe(st.Kind("draughts")), "2 games: +0 -1 =1, streak 0, 1 sizes"},
		{"chess", describe(st.Kind("chess")), "none"},
	} {
		if tt.got != tt.want {
			t.Errorf("PlayerStats(1), %s: %s, want %s", tt.what, tt.got, tt.want)
		}
	}
	if st2, err := s.PlayerStats(ctx, "2"); err != nil || describe(st2.Kind("draughts")) != "2 games: +1 -0 =1, streak 0, 1 sizes" || st2.Kind("go") != nil {
		t.Errorf("PlayerStats(2) = %+v, %v; want draughts alone, a win and a draw", st2, err)
	}
}
