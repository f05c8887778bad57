package storage

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// TestShortGame: the table of MinRatedMoves, and the 9×9 game resigned
// after six moves each that must be rated.
func TestShortGame(t *testing.T) {
	if got := fmt.Sprint(MinRatedMoves(9), MinRatedMoves(13), MinRatedMoves(19)); got != "5 7 10" {
		t.Errorf("MinRatedMoves(9, 13, 19) = %s, want 5 7 10", got)
	}
	for _, tt := range []struct {
		size, moves int
		short       bool
	}{
		{9, 0, true}, {9, 9, true}, {9, 10, false}, {9, 12, false},
		{13, 13, true}, {13, 14, false}, {19, 19, true}, {19, 20, false},
	} {
		if got := ShortGame(tt.size, tt.moves); got != tt.short {
			t.Errorf("ShortGame(%d, %d) = %v, want %v", tt.size, tt.moves, got, tt.short)
		}
	}
}

// TestUnratedGames: a short game and a game with more handicap than the
// ratings take are archived (and counted in the statistics) but not
// rated, on a 9×9 board.
func TestUnratedGames(t *testing.T) {
	s := openTest(t)
	japanese, _ := engine.Preset("japanese")
	japanese.Komi = 0.5
	for i, tt := range []struct {
		name     string
		moves    int
		handicap int
		rated    bool
	}{
		{"resigned at once", 0, 0, false},
		{"resigned after 5 moves by Black, 4 by White", 9, 0, false},
		{"resigned after 6 moves each", 12, 0, true},
		{"9 stones", 40, 9, false},
		{"2 stones", 40, 2, true},
	} {
		g := newGame(t, fmt.Sprintf("u%d", i), "1", "2")
		a := finishWith(t, s, g, Archived{Result: "W+R", Rated: true, Moves: tt.moves, Handicap: tt.handicap, Rules: japanese})
		if a.Rated != tt.rated {
			t.Errorf("%s: archived Rated %v, want %v", tt.name, a.Rated, tt.rated)
		}
		changes, err := s.GameRatingChanges(ctx, a.ID)
		if err != nil || (len(changes) > 0) != tt.rated {
			t.Errorf("%s: GameRatingChanges = %v, %v; want changes %v", tt.name, changes, err, tt.rated)
		}
	}
	st, err := s.PlayerStats(ctx, "2")
	if err != nil || st.Games != 5 || st.Wins != 5 {
		t.Errorf("PlayerStats(2) = %+v, %v; want 5 games won: unrated games still count", st, err)
	}
}

// TestStartRatings: a bot level starts at its start rating, a person and
// a level without one at 1500 ± 350; a rebuild with the same start
// ratings reproduces every value, and one of a database rated before the
// levels had start ratings moves the levels to theirs.
func TestStartRatings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	starts := StartRatings{"go": {"beginner": glicko.AtRank(30, 1)}}
	open := func(starts StartRatings) *Store {
		s, err := Open(path, Options{Kinds: testKinds, StartRatings: starts})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open(nil)
	g := newGame(t, "b0", "1", "x")
	g.Sides = Sides(human("1"), bot("beginner"))
	finishWith(t, s, g, Archived{Result: "B+R", Rated: true, Moves: 20, FinishedAt: t0})
	if pr, err := s.Rating(ctx, GlobalPool, "bot:beginner"); err != nil || fmt.Sprintf("%.1f", pr.Rating.Rating) != "1337.7" {
		t.Fatalf("beginner without a start rating: %v, %v; want 1337.7, as a new player", pr, err)
	}
	s.Close()

	s = open(starts)
	defer s.Close()
	rep, err := s.RebuildRatings(ctx)
	if err != nil || rep.Games != 1 || rep.Changed != 2 {
		t.Errorf("RebuildRatings with start ratings = %+v, %v; want the 1 game, both global ratings changed", rep, err)
	}
	for i, level := range []string{"beginner", "tester"} {
		p := fmt.Sprint(i + 2)
		g := newGame(t, fmt.Sprintf("b%d", i+1), p, "x")
		g.Sides = Sides(human(p), bot(level))
		a := finishWith(t, s, g, Archived{Result: "B+R", Rated: true, Moves: 20, FinishedAt: t0.Add(time.Hour)})
		changes, err := s.GameRatingChanges(ctx, a.ID)
		if err != nil || len(changes) != 2 {
			t.Fatalf("GameRatingChanges(%s) = %v, %v", a.ID, changes, err)
		}
		var got []string
		for _, c := range changes {
			got = append(got, fmt.Sprintf("%s %.2f±%.1f → %.2f", c.Player, c.Before.Rating, c.Before.RD, c.After.Rating))
		}
		want := map[string]string{
			// beginner lost its game against 1 (536.5 ± 23.2 → 536.4 ±
			// 25.4), and gives away almost nothing more.
			"beginner": "[2 1500.00±350.0 → 1502.74 bot:beginner 536.40±25.4 → 536.33]",
			"tester":   "[3 1500.00±350.0 → 1662.31 bot:tester 1500.00±350.0 → 1337.69]",
		}[level]
		if fmt.Sprint(got) != want {
			t.Errorf("a new player beats %s: %v, want %s", level, got, want)
		}
	}
	before := map[string]string{}
	for _, k := range []string{"1", "2", "3", "bot:beginner", "bot:tester"} {
		pr, err := s.Rating(ctx, GlobalPool, k)
		if err != nil {
			t.Fatal(err)
		}
		before[k] = fmt.Sprint(*pr)
	}
	rep, err = s.RebuildRatings(ctx)
	if err != nil || rep.Games != 3 || rep.Ratings != 5 || rep.Changed != 0 || rep.Missing != 0 {
		t.Errorf("RebuildRatings = %+v, %v; want 3 games, nothing changed", rep, err)
	}
	for k, want := range before {
		if pr, _ := s.Rating(ctx, GlobalPool, k); fmt.Sprint(*pr) != want {
			t.Errorf("%s after the rebuild: %v, want %s", k, *pr, want)
		}
	}
}
