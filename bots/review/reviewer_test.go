package review

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// reviewerGame reviews testdata/reviewer/name.sgf at the budget and seed of
// /go review.
func reviewerGame(t *testing.T, name string) *Review {
	t.Helper()
	return reviewerGameWith(t, name, MCTS{Seed: 1})
}

// countedEvaluator is the evaluator of the reviews of TestReviewJapaneseCount
// and TestReviewJapaneseDame: /go review's, or under the race detector,
// which slows the playouts about tenfold (the two reviews took about 110 s
// of CPU time there), 300 playouts a position. What they check lies
// between counted positions, which the evaluator does not judge (judge
// counts a settled position whatever the evaluator, and uncountShortRuns
// and the losses between counted positions do not depend on it): at 300
// playouts their counts and the moves they check come out as at the full
// budget, and each test still fails on the bug it guards (counting the
// settled positions by area; adding a point for a dame under territory
// scoring) with the same messages.
func countedEvaluator() Evaluator {
	if raceEnabled {
		return MCTS{Playouts: 300, Seed: 1}
	}
	return MCTS{Seed: 1}
}

// reviewerGameWith reviews testdata/reviewer/name.sgf with ev.
func reviewerGameWith(t *testing.T, name string, ev Evaluator) *Review {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/reviewer", name+".sgf"))
	if err != nil {
		t.Fatal(err)
	}
	g, info, err := engine.ParseSGF(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := engine.ParseResult(info.RE)
	if err != nil {
		t.Fatalf("%s: result %q: %v", name, info.RE, err)
	}
	if err := g.End(res); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := Run(context.Background(), g, ev, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// TestReviewerGames reviews the games of testdata/reviewer, 9×9 games of
// GNU Go against Pachi whose reported mistakes a reviewer judged with GNU
// Go at level 10 (each record's root comment says what it found), and
// checks the moves a user is shown as mistakes: each game's real mistakes
// are named, and the moves GNU Go ranks first are not.
func TestReviewerGames(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reviews four games at the budget of /go review")
	}
	tests := []struct {
		game string
		// named are the moves that must be named, with a better move
		// other than the one played; unnamed those that must not be.
		named, unnamed []int
	}{
		// Black's J4 (41) was the search's own choice and loses about 25
		// points: named, with another better move.
		{"g9g", []int{41}, []int{37}},
		// GNU Go's top moves named with an invasion that loses as the
		// better move; White's pass (52) gives a corner away.
		{"g9c", []int{52}, []int{37, 41, 48, 57}},
		// White's E5 (28) closes the last border: the position after it
		// is counted, and the estimates before it were wrong.
		{"g9d", nil, []int{21, 28}},
		{"g9f", nil, []int{21}},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			r := reviewerGame(t, tt.game)
			got := map[int]Mistake{}
			for _, m := range r.Mistakes {
				got[m.Number] = m
				t.Logf("move %d (%s %s): %.1f points, better %s %v", m.Number, m.Color.Letter(), m.Move, m.Loss, m.Best, m.PV)
			}
			for _, n := range tt.named {
				m, ok := got[n]
				switch {
				case !ok:
					t.Errorf("move %d (%s) is not named a mistake", n, r.Moves[n-1].Move)
				case m.Best == m.Move || m.Best == "":
					t.Errorf("move %d (%s) is named with better move %q", n, m.Move, m.Best)
				}
			}
			for _, n := range tt.unnamed {
				if m, ok := got[n]; ok {
					t.Errorf("move %d (%s) is named a mistake of %.1f points, better %s", n, m.Move, m.Loss, m.Best)
				}
			}
		})
	}
}

// TestReviewerGame19: in testdata/reviewer/g19.sgf, 229 moves of GNU Go
// level 1 against itself on 19×19, the positions after moves 209 and 216
// looked settled between estimated ones, and the jumps of the graph to
// their count (100%) and back (65%, 66%) were the game's biggest swings,
// though GNU Go played 18 more moves. No counted run that play leaves is
// that short now, and those moves are no swings.
func TestReviewerGame19(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reviews a 229-move 19×19 game at the budget of /go review (a minute)")
	}
	r := reviewerGame(t, "g19")
	swings := r.Swings(3)
	for _, m := range swings {
		if m == 210 || m == 217 {
			t.Errorf("swings %v: move %d, from a counted position back to an estimated one", swings, m)
		}
	}
	for i := 1; i < len(r.Positions); i++ {
		if r.Positions[i-1].Counted && !r.Positions[i].Counted {
			run := 0
			for j := i - 1; j >= 0 && r.Positions[j].Counted; j-- {
				run++
			}
			if run < minSettledRun {
				t.Errorf("positions %d to %d are counted between estimated ones", i-run, i-1)
			}
		}
	}
	t.Logf("swings %v", swings)
}

// TestReviewJapaneseCount: a Japanese game is reviewed by its own count.
// In japanese9 (testdata/reviewer, 9×9, komi 6.5, tough as Black against
// a player) White passed ten times at the end while Black filled its own
// territory, each stone a point lost under Japanese rules: W+10.5, as GNU
// Go counts it with --japanese-rules (B+0.5 with --chinese-rules). The
// review counted the settled positions by area: the graph held Black near
// 100% to the last move and dropped to 0 there, and the summary said
// "White won, although the engine saw Black ahead at the end (Black's
// winning chance 100%)". Each position of the closing stretch is now
// counted by territory, a point lower after each of Black's stones.
func TestReviewJapaneseCount(t *testing.T) {
	t.Parallel() // whole reviews, the package's slowest tests, share the cores
	if testing.Short() {
		t.Skip("reviews a game at the budget of /go review (see countedEvaluator)")
	}
	r := reviewerGameWith(t, "japanese9", countedEvaluator())
	var got, want []float64
	for i := 48; i < len(r.Positions); i++ {
		p := r.Positions[i]
		if !p.Counted {
			t.Errorf("the position after move %d (%s) is not counted", i, r.Moves[i-1].Move)
		}
		got = append(got, p.Score)
		// Black's stones at the odd moves 49 to 65 cost a point each;
		// the game ends with two passes (66 and 67).
		want = append(want, -1.5-float64((min(i, 66)-47)/2))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Black's lead after moves 48 to %d = %v, want %v", len(r.Positions)-1, got, want)
	}
	if s := r.Paragraph(); strings.Contains(s, "although") {
		t.Errorf("summary = %q", s)
	}
}

// TestReviewJapaneseDame: between counted positions of a Japanese game a
// dame is worth nothing. In japanese9b (hard as White against a player,
// 9×9, Japanese rules) the review named White's G4 (26) and Black's B6
// (27) "2 points lost", better C4: the count fell by one point at each
// (GNU Go: 0 and 1), and the review added a point for the dame left,
// which only area counting gives.
func TestReviewJapaneseDame(t *testing.T) {
	t.Parallel() // whole reviews, the package's slowest tests, share the cores
	if testing.Short() {
		t.Skip("reviews a game at the budget of /go review (see countedEvaluator)")
	}
	r := reviewerGameWith(t, "japanese9b", countedEvaluator())
	for _, m := range r.Mistakes {
		if m.Number == 26 || m.Number == 27 {
			t.Errorf("move %d (%s %s) is named a mistake of %.1f points, better %s", m.Number, m.Color.Letter(), m.Move, m.Loss, m.Best)
		}
	}
}

// TestCurrentFormat: format 9 changed the graph of games of both
// scorings, so a stored review of an earlier format is made again, also
// the format-7 review of an area-scored game format 8 let stand.
func TestCurrentFormat(t *testing.T) {
	for _, c := range []struct {
		format int
		want   bool
	}{
		{Format, true},
		{8, false},
		{7, false},
		{6, false},
	} {
		if got := Current(c.format); got != c.want {
			t.Errorf("Current(%d) = %v, want %v", c.format, got, c.want)
		}
	}
}
