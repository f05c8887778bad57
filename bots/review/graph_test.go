package review

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// graphMeasure measures how a win-rate graph moves where the game does
// not: in the stretches of at least quietStretch moves where the count
// (Black's expected lead, scores, with what alternates from move to move
// filtered out as unbias filters the graph) moves by less than 2 points a
// move. It returns the mean change of the graph per move there, the share
// of those changes whose sign is the opposite of the one before, and the
// number of moves measured. Counted positions (the end of the game) are
// left out: their graph is exact.
func graphMeasure(winrates, scores []float64, counted []bool) (change, alternation float64, moves int) {
	n := len(scores)
	ref := make([]float64, n)
	copy(ref, scores)
	for i := 1; i+1 < n; i++ {
		ref[i] = (scores[i-1] + 2*scores[i] + scores[i+1]) / 4
	}
	var stretch []int
	var sum float64
	alt, pairs := 0, 0
	flush := func() {
		if len(stretch) >= quietStretch {
			for k, i := range stretch {
				d := winrates[i] - winrates[i-1]
				sum += math.Abs(d)
				moves++
				if k > 0 {
					prev := winrates[stretch[k-1]] - winrates[stretch[k-1]-1]
					if d != 0 && prev != 0 {
						pairs++
						if (d > 0) != (prev > 0) {
							alt++
						}
					}
				}
			}
		}
		stretch = stretch[:0]
	}
	for i := 1; i < n; i++ {
		if counted[i] || math.Abs(ref[i]-ref[i-1]) >= 2 {
			flush()
			continue
		}
		stretch = append(stretch, i)
	}
	flush()
	if moves > 0 {
		change = sum / float64(moves)
	}
	if pairs > 0 {
		alternation = float64(alt) / float64(pairs)
	}
	return change, alternation, moves
}

// quietStretch is the shortest stretch graphMeasure measures.
const quietStretch = 10

// sideBias returns the side-to-move bias of a series of win rates judged
// with Black and White to move in turn: the mean, over the estimated
// positions between two others, of Black's chance there less the mean of
// its neighbours', counted from the side of the player to move (Black
// after White's moves). A judgement that favours the player to move by b
// gives about 2b.
func sideBias(winrates []float64, counted []bool, blackFirst bool) float64 {
	sum, n := 0.0, 0
	for i := 1; i+1 < len(winrates); i++ {
		if counted[i-1] || counted[i] || counted[i+1] {
			continue
		}
		d := winrates[i] - (winrates[i-1]+winrates[i+1])/2
		if (i%2 == 0) != blackFirst {
			d = -d
		}
		sum += d
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func TestGraphMeasure(t *testing.T) {
	zig := []float64{0.5}
	scores := []float64{0}
	for i := 1; i <= 30; i++ {
		zig = append(zig, 0.5+0.1*float64(i%2))
		scores = append(scores, 3*float64(i%2)) // alternating, steady once filtered
	}
	counted := make([]bool, len(zig))
	change, alt, moves := graphMeasure(zig, scores, counted)
	if moves != 30 || math.Abs(change-0.1) > 1e-9 || alt != 1 {
		t.Errorf("zigzag: change %v, alternation %v over %d moves; want 0.1, 1 over 30", change, alt, moves)
	}
	if b := sideBias(zig, counted, true); math.Abs(b+0.1) > 1e-9 {
		t.Errorf("zigzag against the player to move: bias %v, want -0.1", b)
	}
	flat := make([]float64, len(zig))
	for i := range flat {
		flat[i] = 0.6 + 0.001*float64(i)
	}
	if change, alt, _ := graphMeasure(flat, scores, counted); change > 0.0011 || alt != 0 {
		t.Errorf("steady rise: change %v, alternation %v", change, alt)
	}
	// A game that moves by 5 points a move is not measured.
	for i := range scores {
		scores[i] = 5 * float64(i)
	}
	if _, _, moves := graphMeasure(zig, scores, counted); moves != 0 {
		t.Errorf("%d moves measured in a game whose count moves", moves)
	}
}

// TestGraphHard19 reviews a fixed game of the 19×19 graph set (testdata/
// hard19, see TestHard19Set) and measures its graph: where the count
// moves by less than 2 points a move, the graph must change by at most 3%
// a move on average and alternate in sign at most 60% of the time. It
// takes minutes: set GOBOT_REVIEW_GRAPH=1 (=all for every game of the
// set, =FILE.sgf for another game, testdata/pro19.sgf for instance).
func TestGraphHard19(t *testing.T) {
	which := os.Getenv("GOBOT_REVIEW_GRAPH")
	if which == "" || testing.Short() {
		t.Skip("set GOBOT_REVIEW_GRAPH=1 (or all) to measure the 19×19 graph")
	}
	files := []string{filepath.Join(hard19Dir, "01.sgf")}
	switch {
	case which == "all":
		files, _ = filepath.Glob(filepath.Join(hard19Dir, "*.sgf"))
	case filepath.Ext(which) == ".sgf":
		files = []string{which}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if res, err := engine.ParseResult(info.RE); err == nil {
			if err := g.End(res); err != nil {
				t.Fatal(err)
			}
		}
		r, err := Run(context.Background(), g, MCTS{Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		shown, judged, scores := r.Winrates(), make([]float64, len(r.Positions)), make([]float64, len(r.Positions))
		counted := make([]bool, len(r.Positions))
		for i, p := range r.Positions {
			judged[i], scores[i], counted[i] = p.Judged, p.Score, p.Counted
			if p.Counted {
				judged[i] = p.Winrate
			}
		}
		c0, a0, n := graphMeasure(judged, scores, counted)
		c1, a1, _ := graphMeasure(shown, scores, counted)
		t.Logf("%s: %d moves measured; judged: %.1f%% a move, %.0f%% alternating, side-to-move bias %.1f%%; shown: %.1f%% a move, %.0f%% alternating, bias %.1f%%",
			filepath.Base(f), n, 100*c0, 100*a0, 100*sideBias(judged, counted, true), 100*c1, 100*a1, 100*sideBias(shown, counted, true))
		if n == 0 {
			t.Errorf("%s: no quiet stretch to measure", f)
		}
		if c1 > 0.03 || a1 > 0.6 {
			t.Errorf("%s: the graph changes %.1f%% a move, %.0f%% of the changes alternating; want at most 3%% and 60%%", f, 100*c1, 100*a1)
		}
	}
}
