package draughts

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLadder plays each level against the one below it and prints the
// results as the rows of docs/draughts-strength.md. It is long (minutes
// to an hour), so it runs only on demand:
//
//	GOBOT_DRAUGHTS_LADDER=1 go test ./bots/draughts -run Ladder -v -timeout 0
//
// GOBOT_DRAUGHTS_LADDER may also name the pairs to play, as
// "hard-medium,max-hard" (stronger first); GOBOT_DRAUGHTS_GAMES sets the
// games a pair (40) and GOBOT_DRAUGHTS_SEED the seed (1).
func TestLadder(t *testing.T) {
	spec := os.Getenv("GOBOT_DRAUGHTS_LADDER")
	if spec == "" {
		t.Skip("the ladder is long: set GOBOT_DRAUGHTS_LADDER=1 (or pairs such as hard-medium) to play it")
	}
	games, seed := 40, int64(1)
	if n, err := strconv.Atoi(os.Getenv("GOBOT_DRAUGHTS_GAMES")); err == nil {
		games = n
	}
	if n, err := strconv.ParseInt(os.Getenv("GOBOT_DRAUGHTS_SEED"), 10, 64); err == nil {
		seed = n
	}
	var pairs [][2]Level
	levels := Builtin()
	if spec == "1" {
		for i := 1; i < len(levels); i++ {
			pairs = append(pairs, [2]Level{levels[i], levels[i-1]})
		}
	} else {
		for _, p := range strings.Split(spec, ",") {
			a, b, _ := strings.Cut(p, "-")
			la, ok1 := Lookup(a)
			lb, ok2 := Lookup(b)
			if !ok1 || !ok2 {
				t.Fatalf("GOBOT_DRAUGHTS_LADDER: %q is not two levels joined by '-'", p)
			}
			pairs = append(pairs, [2]Level{la, lb})
		}
	}
	for _, p := range pairs {
		res, err := Match(context.Background(), p[0], p[1], MatchOptions{Games: games, Seed: seed,
			Progress: func(r GameRecord) {
				t.Logf("game %d: %s (White) vs %s (Black): %s, %s, %d plies", r.Game, r.White, r.Black, r.Result, r.Reason, r.Plies)
			}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("| %s | %s | %d | +%d =%d -%d | %.1f%% | %.1f–%.1f%% | %v | %v |", res.A, res.B, games,
			res.Wins, res.Draws, res.Losses, 100*res.Score, 100*res.Low, 100*res.High,
			res.TimePerMove[0].Round(100_000), res.TimePerMove[1].Round(100_000))
	}
}

// TestMatchQuick plays a short match of the two weakest levels: the
// runner counts every game once, and the interval holds the score.
func TestMatchQuick(t *testing.T) {
	easy, _ := Lookup("easy")
	beginner, _ := Lookup("beginner")
	res, err := Match(context.Background(), easy, beginner, MatchOptions{Games: 4, Seed: 2, MaxPlies: 120})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Wins + res.Draws + res.Losses; n != 4 || len(res.Games) != 4 {
		t.Errorf("Match counted %d games (%d records), want 4", n, len(res.Games))
	}
	if res.Low > res.Score || res.High < res.Score {
		t.Errorf("Match: score %.3f outside its interval %.3f–%.3f", res.Score, res.Low, res.High)
	}
	for i, g := range res.Games {
		if (i%2 == 0) != (g.White == "easy") {
			t.Errorf("game %d: White is %s, want colours alternating from easy", g.Game, g.White)
		}
	}
}
