package review

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// The closed set, testdata/closed9/*.sgf, is 9×9 games of GNU Go against
// itself (level 1 to 10 by turns, after two or three random opening moves)
// played out to two passes, kept only when they end in a closed position
// (every region settled by the review's own analysis) whose count agrees
// with GNU Go's final_score, which is the record's result. Nobody is
// expected to lose points in such a game once the last region is settled;
// TestClosedNoFalseAlarms checks that the review says so. The set is made
// again with
//
//	go test ./bots/review/ -run TestClosedSet -closed9 -timeout 1h
var makeClosed = flag.Bool("closed9", false, "regenerate testdata/closed9 with GNU Go self-play")

const (
	closedDir   = "testdata/closed9"
	closedGames = 20
)

func TestClosedSet(t *testing.T) {
	if !*makeClosed {
		t.Skip("regenerates the closed set only with -closed9")
	}
	gnugo, err := exec.LookPath("/usr/games/gnugo")
	if err != nil {
		t.Skip("GNU Go is not installed")
	}
	if err := os.MkdirAll(closedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	made := 0
	for seed := int64(1); made < closedGames && seed < 200; seed++ {
		level := fmt.Sprint(1 + seed%10)
		c := gtp.NewClient(gtp.Spec{Name: "gnugo", Argv: []string{gnugo, "--mode", "gtp", "--chinese-rules",
			"--positional-superko", "--level", level}}, gtp.ClientOptions{})
		g, err := closedGame(ctx, c, seed)
		if err != nil {
			c.Close()
			t.Fatal(err)
		}
		winner, margin, err := c.FinalScore(ctx, g)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		terr := analyse(ctx, g)
		want := margin
		if winner == engine.White {
			want = -margin
		}
		if !terr.settled || terr.count != want {
			t.Logf("seed %d: not closed (settled %v, count %.1f, GNU Go %.1f): skipped", seed, terr.settled, terr.count, want)
			continue
		}
		if err := g.End(engine.Result{Winner: winner, Reason: engine.ByScore, Margin: margin}); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		note := fmt.Sprintf("GNU Go level %s against itself from seed %d; result by GNU Go's final_score", level, seed)
		if err := engine.WriteSGF(&buf, g, engine.SGFInfo{PB: "GNU Go", PW: "GNU Go", C: note}); err != nil {
			t.Fatal(err)
		}
		made++
		name := filepath.Join(closedDir, fmt.Sprintf("%02d.sgf", made))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: seed %d, level %s, %d moves, %s", name, seed, level, g.MoveCount(), ScoreText(want))
	}
	if made < closedGames {
		t.Fatalf("only %d closed games", made)
	}
}

// closedGame plays GNU Go against itself on 9×9 from two or three random
// opening moves to two passes.
func closedGame(ctx context.Context, c *gtp.Client, seed int64) (*engine.Game, error) {
	rng := rand.New(rand.NewSource(seed))
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err != nil {
		return nil, err
	}
	for i := 0; i < 2+rng.Intn(2); i++ {
		legal := g.Legal()
		if err := g.Play(engine.PlaceAt(g.ToPlay(), legal[rng.Intn(len(legal))])); err != nil {
			return nil, err
		}
	}
	for !g.Over() && g.MoveCount() < 200 {
		m, err := c.GenMove(ctx, g, 0)
		if err != nil {
			return nil, err
		}
		if m.Kind == engine.Resign {
			m = engine.PassMove(g.ToPlay())
		}
		if err := g.Play(m); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// TestClosedNoFalseAlarms reviews the closed set: once the last region of
// a game is settled, no move is a mistake, and from the settling move on
// nothing inside a sealed area is preferred; also with two idle moves
// added before the passes (see withIdleMoves), except with -short. The
// default run judges the open part of each game with a small budget (the
// settled part is counted whatever the budget); GOBOT_REVIEW_CLOSED=full
// reviews at the budget of /go review. Under the race detector, which
// slows the playouts about fifteenfold, every eighth game is judged
// (about 80 s there, against 48 s for the whole set without it).
func TestClosedNoFalseAlarms(t *testing.T) {
	t.Parallel() // whole reviews, the package's slowest tests, share the cores
	files, err := filepath.Glob(filepath.Join(closedDir, "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no closed set in %s: %v", closedDir, err)
	}
	if raceEnabled {
		var some []string
		for i := 0; i < len(files); i += 8 {
			some = append(some, files[i])
		}
		files = some
	}
	ev := MCTS{Playouts: 300, Seed: 1}
	if os.Getenv("GOBOT_REVIEW_CLOSED") == "full" {
		ev = MCTS{Seed: 1}
	}
	counted, variants := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, info, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		res, err := engine.ParseResult(info.RE)
		if err != nil {
			t.Fatalf("%s: result %q: %v", f, info.RE, err)
		}
		games := map[string]*engine.Game{filepath.Base(f): g}
		// The same game with two moves that change nothing before the
		// passes, as in the wall game of issue 34: the player to move drops
		// a stone into the other's sealed area, the other answers inside
		// his own.
		if v := withIdleMoves(t, g); v != nil && !testing.Short() {
			games[filepath.Base(f)+" with idle moves"] = v
			variants++
		}
		for name, g := range games {
			if err := g.End(res); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			counted += checkClosed(t, name, g, ev)
		}
	}
	t.Logf("%d games and %d of them with idle moves, %d moves played after the last region was settled", len(files), variants, counted)
}

// checkClosed reviews a closed game and reports the mistakes named after
// its last region was settled, and the moves preferred inside a sealed
// area; it returns the number of moves played after the settling.
func checkClosed(t *testing.T, f string, g *engine.Game, ev Evaluator) int {
	t.Helper()
	{
		r, err := Run(context.Background(), g, ev, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// settled is the first position from which every position is
		// counted.
		settled := len(r.Positions)
		for settled > 0 && r.Positions[settled-1].Counted {
			settled--
		}
		if settled > r.closing() {
			t.Errorf("%s: the game never settles before its closing passes (last estimated position %d of %d)", f, settled-1, len(r.Positions)-1)
			return 0
		}
		for _, m := range r.Mistakes {
			if m.Number-1 >= settled {
				t.Errorf("%s: move %d (%s %s) loses %.1f points, after every region was settled at move %d",
					f, m.Number, m.Color.Letter(), m.Move, m.Loss, settled)
			}
		}
		positions, err := Positions(g)
		if err != nil {
			t.Fatal(err)
		}
		// From the move that settles the game on, no move inside a
		// sealed area is preferred. (Earlier, an area the estimate calls
		// sealed may still be where a fight is: see territory.calm.)
		for i, p := range r.Positions {
			if i < settled-1 || p.Best == "" || p.Best == "pass" {
				continue
			}
			best, err := engine.ParsePoint(p.Best, g.Size())
			if err != nil {
				t.Fatalf("%s: best %q: %v", f, p.Best, err)
			}
			a := analyse(context.Background(), positions[i])
			b := positions[i].Board()
			for _, reg := range a.regions {
				// Small regions are eyes, where a stone may be a
				// nakade; regions with stones or a fight at their edge
				// may still change hands.
				quiet := reg.sealed && reg.calm && reg.stones == 0 && len(reg.points) >= minFill
				if quiet && reg.owner != positions[i].ToPlay() && containsInt(reg.points, b.Vertex(best)) {
					t.Errorf("%s: after move %d the review prefers %s, inside %s's sealed area", f, i, p.Best, reg.owner)
				}
			}
		}
		return r.closing() - settled
	}
}

// withIdleMoves returns g (a closed game that ended with two passes)
// replayed with two more moves before the passes: the player to move
// drops a stone into the middle of the opponent's biggest sealed area, the
// opponent answers in the middle of his own; nil when there is no room.
func withIdleMoves(t *testing.T, g *engine.Game) *engine.Game {
	t.Helper()
	moves := g.Moves()
	if len(moves) < 2 {
		return nil
	}
	out, err := engine.NewGame(g.Config())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves[:len(moves)-2] {
		if err := out.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 2; k++ {
		a := analyse(context.Background(), out)
		c := out.ToPlay()
		owner := c.Opponent()
		if k == 1 {
			owner = c
		}
		p, ok := middleOfArea(out.Board(), a, owner)
		if !ok || out.Play(engine.PlaceAt(c, p)) != nil {
			return nil
		}
	}
	for k := 0; k < 2; k++ {
		if err := out.Play(engine.PassMove(out.ToPlay())); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// middleOfArea returns an empty point of owner's biggest sealed region
// whose neighbours, and theirs, are empty points of the region, as far as
// can be from its edge and from any stone in it.
func middleOfArea(b *engine.Board, a *territory, owner engine.Color) (engine.Point, bool) {
	var best *region
	for i := range a.regions {
		r := &a.regions[i]
		if r.sealed && r.owner == owner && (best == nil || len(r.points) > len(best.points)) {
			best = r
		}
	}
	if best == nil {
		return engine.Point{}, false
	}
	in := map[int]bool{} // the region's empty points
	for _, v := range best.points {
		in[v] = b.ColorAt(v) == engine.Empty
	}
	depth := func(v int) int {
		d := 0
		for _, n := range b.Neighbours(v) {
			if in[n] {
				d++
			}
			for _, m := range b.Neighbours(n) {
				if in[m] {
					d++
				}
			}
		}
		return d
	}
	bv, bd := 0, -1
	for _, v := range best.points {
		if d := depth(v); in[v] && d > bd {
			bv, bd = v, d
		}
	}
	if bd < 12 {
		return engine.Point{}, false
	}
	return b.Point(bv), true
}
