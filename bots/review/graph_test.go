package review

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// writeGraphCache makes TestGraphHard19 write, next to each game it
// reviews, the series its graph is made from (see readGraphCache), which
// TestGraphCached then measures without judging the game again.
var writeGraphCache = flag.Bool("graph-cache", false, "TestGraphHard19 writes testdata/hard19/NN.graph")

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
// set, =FILE.sgf for another game, testdata/pro19.sgf for instance; about
// 80 s a game). With -graph-cache it writes each game's judged series
// next to it (NN.graph), for TestGraphCached: write them again when the
// search changes,
//
//	GOBOT_REVIEW_GRAPH=all go test ./bots/review/ -run TestGraphHard19 -graph-cache -v -timeout 60m
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
		if *writeGraphCache {
			if err := os.WriteFile(strings.TrimSuffix(f, ".sgf")+".graph", graphCache(r, filepath.Base(f)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		shown, judged, scores, counted := series(r)
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

// graphCache writes what the graph of r is made from, one line for each
// position: Black's chance as the search judged it (before unbias; the
// exact value of a counted position), Black's expected lead, and
// "counted" for a counted position. Win rates are rounded to 0.01%, leads
// to 0.01 point: the measure of the cached series then measures the same
// moves as that of the review, but for a move whose lead changes by 2
// points within rounding.
func graphCache(r *Review, game string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s judged by %s: Black's chance before unbias, Black's lead, counted (see TestGraphCached)\n", game, r.Engine)
	for _, p := range r.Positions {
		wr := p.Judged
		if p.Counted {
			wr = p.Winrate
		}
		fmt.Fprintf(&b, "%.4f %.2f", wr, p.Score)
		if p.Counted {
			b.WriteString(" counted")
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// readGraphCache reads a series written by graphCache as a review whose
// positions have the win rates the search judged, before unbias.
func readGraphCache(t *testing.T, name string) *Review {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	r := &Review{Size: 19}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 2 || len(f) > 3 || len(f) == 3 && f[2] != "counted" {
			t.Fatalf("%s:%d: %q", name, line, sc.Text())
		}
		wr, err1 := strconv.ParseFloat(f[0], 64)
		score, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: %q", name, line, sc.Text())
		}
		r.Positions = append(r.Positions, Position{Winrate: wr, Score: score, Counted: len(f) == 3})
	}
	if len(r.Positions) < 3 {
		t.Fatalf("%s: %d positions", name, len(r.Positions))
	}
	return r
}

// series returns the shown and judged win rates, the leads and the
// counted flags of r's positions.
func series(r *Review) (shown, judged, scores []float64, counted []bool) {
	n := len(r.Positions)
	shown, judged, scores, counted = r.Winrates(), make([]float64, n), make([]float64, n), make([]bool, n)
	for i, p := range r.Positions {
		judged[i], scores[i], counted[i] = p.Judged, p.Score, p.Counted
		if p.Counted {
			judged[i] = p.Winrate
		}
	}
	return shown, judged, scores, counted
}

// TestGraphCached measures the graph of every game of the 19×19 set from
// the series the search judged for it (testdata/hard19/NN.graph, written
// by TestGraphHard19 -graph-cache), filtered as a review filters it: the
// targets of TestGraphHard19 without judging the games again. The judged
// series must show the bias (their changes alternate in sign most of the
// time), or the test proves nothing.
func TestGraphCached(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(hard19Dir, "*.graph"))
	if len(files) == 0 {
		t.Fatal("no cached series in " + hard19Dir)
	}
	var judgedAlt, judgedPairs float64
	for _, f := range files {
		r := readGraphCache(t, f)
		r.unbias()
		shown, judged, scores, counted := series(r)
		c0, a0, n := graphMeasure(judged, scores, counted)
		c1, a1, _ := graphMeasure(shown, scores, counted)
		t.Logf("%s: %d moves measured; judged: %.1f%% a move, %.0f%% alternating, side-to-move bias %.1f%%; shown: %.1f%% a move, %.0f%% alternating, bias %.1f%%",
			filepath.Base(f), n, 100*c0, 100*a0, 100*sideBias(judged, counted, true), 100*c1, 100*a1, 100*sideBias(shown, counted, true))
		if n < quietStretch {
			t.Errorf("%s: %d moves measured", f, n)
		}
		if c1 > 0.03 || a1 > 0.6 {
			t.Errorf("%s: the graph changes %.1f%% a move, %.0f%% of the changes alternating; want at most 3%% and 60%%", f, 100*c1, 100*a1)
		}
		judgedAlt += a0 * float64(n)
		judgedPairs += float64(n)
	}
	if a := judgedAlt / judgedPairs; a < 0.75 {
		t.Errorf("the judged series alternate %.0f%% of the time: they no longer carry the side-to-move bias the graph filters", 100*a)
	}
}

// TestGraphKeepsSwings checks that the filter keeps a real turn of the
// game: into each cached game, at a balanced position of the middle game,
// a group taken is inserted (from there on to the end, counted positions
// included, Black's chance is 30% higher, at most 1, and the lead 30
// points). The graph must rise by most of those 30% within the move
// before and the move after, and the move must be the game's biggest
// swing: a filter that flattens the graph fails it.
func TestGraphKeepsSwings(t *testing.T) {
	const rise = 0.3
	files, _ := filepath.Glob(filepath.Join(hard19Dir, "*.graph"))
	if len(files) == 0 {
		t.Fatal("no cached series in " + hard19Dir)
	}
	for _, f := range files {
		r := readGraphCache(t, f)
		n := len(r.Positions)
		var mid []int
		for i := 40; i+40 < n; i++ {
			quiet := true
			for j := i - 3; j <= i+3; j++ {
				quiet = quiet && !r.Positions[j].Counted
			}
			if wr := r.Positions[i].Winrate; quiet && wr >= 0.3 && wr <= 0.6 {
				mid = append(mid, i)
			}
		}
		if len(mid) == 0 {
			t.Errorf("%s: no balanced position", f)
			continue
		}
		k := mid[len(mid)/2]
		for i := k; i < n; i++ {
			p := &r.Positions[i]
			p.Winrate, p.Score = clamp01(p.Winrate+rise), p.Score+30
		}
		r.unbias()
		wr := r.Winrates()
		sw := Swings(wr, 3)
		t.Logf("%s: a rise of %.0f%% at move %d shows as %.1f%% from move %d to %d; swings %v", filepath.Base(f), 100*rise, k, 100*(wr[k+1]-wr[k-2]), k-2, k+1, sw)
		if got := wr[k+1] - wr[k-2]; got < 0.8*rise {
			t.Errorf("%s: a rise of %.0f%% at move %d shows as %.0f%% from move %d to %d", f, 100*rise, k, 100*got, k-2, k+1)
		}
		if sw[0] != k {
			t.Errorf("%s: the biggest swing is move %d (%.0f%%), not %d (%.0f%%) where a group was taken", f, sw[0], 100*(wr[sw[0]]-wr[sw[0]-1]), k, 100*(wr[k]-wr[k-1]))
		}
		if slices.Contains(sw, k-1) || slices.Contains(sw, k+1) {
			t.Errorf("%s: the three biggest swings %v name the turn at move %d twice", f, sw, k)
		}
	}
}

// TestUnbias filters a synthetic series: a game worth 40% to Black, then
// 70% from move 6 on (a group taken), judged 5% too high for the player to
// move, its last position counted (Black wins). The graph shows 40% and
// 70% at every estimated position, the first and the last ones included,
// and the turn over the move before, the move and the move after, the
// move itself its biggest swing.
func TestUnbias(t *testing.T) {
	r := &Review{}
	for i := 0; i <= 12; i++ {
		wr := 0.4
		if i >= 6 {
			wr = 0.7
		}
		if i%2 == 0 { // Black to move
			wr += 0.05
		} else {
			wr -= 0.05
		}
		r.Positions = append(r.Positions, Position{Winrate: wr})
	}
	r.Positions[12] = Position{Winrate: 1, Counted: true}
	r.unbias()
	// The last estimate, next to the count, is filtered with the estimate
	// before it only: a quarter of the count's 100% would lift it by
	// what the count, not the search, says.
	want := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.475, 0.625, 0.7, 0.7, 0.7, 0.7, 0.7, 1}
	for i, p := range r.Positions {
		if math.Abs(p.Winrate-want[i]) > 1e-9 {
			t.Errorf("position %d: graph %.4f, want %.4f (judged %.2f)", i, p.Winrate, want[i], p.Judged)
		}
	}
	// The same series, resigned before the count: its last position is
	// filtered too.
	r.Positions = r.Positions[:12]
	for i := range r.Positions {
		r.Positions[i].Winrate = r.Positions[i].Judged
	}
	r.unbias()
	if got := r.Positions[11].Winrate; math.Abs(got-0.7) > 1e-9 {
		t.Errorf("last position of a resigned game: graph %.4f, want 0.7", got)
	}
	if sw := Swings(r.Winrates(), 3); sw[0] != 6 || slices.Contains(sw, 5) || slices.Contains(sw, 7) {
		t.Errorf("swings %v, want 6 first, and neither 5 nor 7 (the same turn)", sw)
	}
}

// TestUnbiasBesideCount: the pass that gives a game away is the turn of
// the game and its swing. A reviewer's 9×9 game ended W pass, B pass, with
// Black ahead before the passes and White winning the count (W+6.5): the
// estimate after White's pass, filtered with a quarter of the count's 0%,
// showed 46%, so the graph put the turn on White's pass (move 12), and
// Black's pass (60% → 0%) was no swing. A counted neighbour is left out
// of the filter.
func TestUnbiasBesideCount(t *testing.T) {
	r := reviewOf([]float64{0.50, 0.55, 0.52, 0.56, 0.53, 0.57, 0.54, 0.58, 0.55, 0.59, 0.56, 0.60, 0.62, 0}, 13)
	r.Moves[11].Move, r.Moves[12].Move = "pass", "pass"
	r.unbias()
	wr := r.Winrates()
	if got := wr[12]; math.Abs(got-0.61) > 1e-9 {
		t.Errorf("the position after White's pass: graph %.4f, want 0.61 (its own and the estimate before)", got)
	}
	if turn := TurningPoint(wr, engine.White); turn != 13 {
		t.Errorf("TurningPoint = %d, want 13 (Black's pass)", turn)
	}
	if sw := r.Swings(3); !slices.Contains(sw, 13) {
		t.Errorf("Swings = %v, want Black's pass, move 13, among them", sw)
	}
}
