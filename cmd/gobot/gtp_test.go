package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine"
)

// TestGTPGenMoveUnderClock is issue 11's reproduction through `gobot gtp`:
// at time_settings 0 1 1, genmove with 0.2 s, 0.05 s and nothing left on
// the clock answers a legal move at every built-in level, the Monte Carlo
// ones included (they answered "? genmove: mcts: search cancelled"). The
// budgets themselves are engine/gtp's TestServeMoveTime; the times are logged,
// never asserted.
func TestGTPGenMoveUnderClock(t *testing.T) {
	for _, l := range bots.Builtin() {
		level := l.Name
		t.Run(level, func(t *testing.T) {
			script := "time_settings 0 1 1\n" +
				"time_left b 0.2 1\ngenmove b\n" +
				"time_left w 0.05 1\ngenmove w\n" +
				"time_left b 0 1\ngenmove b\n" +
				"kgs-time_settings byoyomi 0 0.1 1\ngenmove w\n"
			var out, errOut bytes.Buffer
			start := time.Now()
			if code := run(context.Background(), []string{"gtp", "--bot", level}, strings.NewReader(script), &out, &errOut); code != 0 {
				t.Fatalf("gobot gtp exited %d: %s", code, errOut.String())
			}
			t.Logf("%s: four genmoves in %v", level, time.Since(start))
			if errOut.Len() > 0 {
				t.Errorf("stderr: %s", errOut.String())
			}
			resp := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
			if len(resp) != 9 {
				t.Fatalf("responses = %q", resp)
			}
			g, err := engine.NewGame(engine.Config{Size: 19})
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []int{2, 4, 6, 8} {
				c := g.ToPlay()
				m, err := engine.ParseMove(c, strings.TrimPrefix(resp[i], "= "), 19)
				if !strings.HasPrefix(resp[i], "= ") || err != nil || m.Kind != engine.Place {
					t.Fatalf("genmove %v = %q, want a point", c, resp[i])
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("genmove %v = %q: %v", c, resp[i], err)
				}
			}
		})
	}
}

// TestGTPEndsWhileReading: SIGTERM (the context main cancels) ends `gobot
// gtp` while it waits for input that never comes, quietly and with exit
// status 0; before, the read blocked and the signal was ignored.
func TestGTPEndsWhileReading(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"gtp", "--bot", "beginner"}, pr, &out, &errOut) }()
	if _, err := io.WriteString(pw, "name\n"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if code := <-done; code != 0 || errOut.Len() > 0 {
		t.Errorf("gobot gtp cancelled while reading: exit %d, stderr %q", code, errOut.String())
	}
}

// TestGTPPlayouts: `gobot gtp --playouts N` plays the level at N playouts
// a move instead of its time (the level keeps its name and its bot), the
// default keeps the level's own budget, and a bad count or level is
// refused with a message naming the flag, before any GTP is spoken.
func TestGTPPlayouts(t *testing.T) {
	reg, err := offlineRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	hard, _ := reg.Lookup("hard")
	for _, tc := range []struct {
		name     string
		playouts int
		want     bots.Budget
		level    string
	}{
		{"hard", 5000, bots.Budget{Playouts: 5000}, "hard"},
		{"hard", 0, hard.Budget, "hard"},
		{"", 200, bots.Budget{Playouts: 200}, "max"},
	} {
		l, err := gtpLevel(reg, tc.name, tc.playouts)
		if err != nil || l.Budget != tc.want || l.Name != tc.level || l.New == nil {
			t.Errorf("gtpLevel(%q, %d) = %s %+v, %v; want %s %+v", tc.name, tc.playouts, l.Name, l.Budget, err, tc.level, tc.want)
		}
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gtp", "--playouts", "-5"}, "--playouts: -5 is negative; give a count of playouts, or 0 for the level's own budget"},
		{[]string{"gtp", "--bot", "grandmaster", "--playouts", "10"}, `--bot: unknown level "grandmaster"`},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), tc.args, strings.NewReader("genmove b\n"), &out, &errOut); code == 0 || out.Len() > 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a failure saying %q", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}

	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"gtp", "--bot", "strong", "--playouts", "64"}, strings.NewReader("boardsize 9\ngenmove b\n"), &out, &errOut); code != 0 || !strings.HasPrefix(strings.Split(out.String(), "\n\n")[1], "= ") {
		t.Errorf("gobot gtp --playouts 64: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// budgetBot records the budget of its last move and passes.
type budgetBot struct{ got *bots.Budget }

func (b budgetBot) Name() string { return "budget" }

func (b budgetBot) GenMove(_ context.Context, g *engine.Game, budget bots.Budget) (engine.Move, error) {
	*b.got = budget
	return engine.PassMove(g.ToPlay()), nil
}

// TestGTPGenMoveBudget: under the controller's clock a level that searches
// for a time gets the clock's target as its time and the deadline as its
// most (hard and max then spend the clock, not their own 1 s and 3 s); a
// level of fixed playouts keeps its budget; without a clock every level
// keeps its own.
func TestGTPGenMoveBudget(t *testing.T) {
	var got bots.Budget
	newBot := func(int64) bots.Bot { return budgetBot{&got} }
	timed := bots.Level{Name: "timed", Budget: bots.Budget{Time: time.Second}, New: newBot}
	counted := bots.Level{Name: "counted", Budget: bots.Budget{Playouts: 4000, Time: time.Second}, New: newBot}
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	if _, err := gtpGenMove(timed, nil)(ctx, g, engine.Black, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if got.Time != 2*time.Second || got.Max <= 2*time.Second || got.Max > 5*time.Second || got.Playouts != 0 {
		t.Errorf("timed level under a clock: budget %+v, want Time 2s and Max up to the deadline 5s away", got)
	}
	if _, err := gtpGenMove(counted, nil)(ctx, g, engine.Black, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if got != counted.Budget {
		t.Errorf("fixed-playout level under a clock: budget %+v, want its own %+v", got, counted.Budget)
	}
	if _, err := gtpGenMove(timed, nil)(context.Background(), g, engine.Black, 0); err != nil {
		t.Fatal(err)
	}
	if got != timed.Budget {
		t.Errorf("timed level without a clock: budget %+v, want its own %+v", got, timed.Budget)
	}
}

// TestGTPGenMoveOutOfTurn: GTP lets a controller ask either colour for a
// move; the pass the server records for the other player first must not
// read as a real pass in the opening, where a level winning by the komi
// passed back (GNU Go answers a stone). Three genmoves for one colour give
// three stones.
func TestGTPGenMoveOutOfTurn(t *testing.T) {
	for _, level := range []string{"easy", "medium", "strong"} {
		t.Run(level, func(t *testing.T) {
			script := "boardsize 9\nclear_board\ngenmove w\ngenmove b\ngenmove b\ngenmove b\n"
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"gtp", "--bot", level, "--playouts", "500"}, strings.NewReader(script), &out, &errOut); code != 0 {
				t.Fatalf("gobot gtp exited %d: %s", code, errOut.String())
			}
			resp := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
			if len(resp) != 6 {
				t.Fatalf("responses = %q", resp)
			}
			for i, r := range resp[2:] {
				if !strings.HasPrefix(r, "= ") || strings.EqualFold(r, "= pass") || r == "= resign" {
					t.Errorf("genmove %d = %q, want a stone", i+1, r)
				}
			}
		})
	}
}

// TestGTPLogMoves: `gobot gtp --log` writes a line to stderr for every
// genmove: a search's move with its statistics, and a move answered
// without a search as such; the protocol's own output is unchanged.
func TestGTPLogMoves(t *testing.T) {
	script := "boardsize 9\nclear_board\nkomi 7.5\ngenmove b\nplay w pass\ngenmove b\nquit\n"
	var out, errOut bytes.Buffer
	if err := serveGTP(context.Background(), []string{"--bot", "hard", "--playouts", "500", "--log"}, strings.NewReader(script), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("stderr has %d lines, want 2 (one a genmove):\n%s", len(lines), errOut.String())
	}
	var moves []string // the genmove answers
	for _, f := range strings.Fields(out.String()) {
		if f != "=" {
			moves = append(moves, f)
		}
	}
	if len(moves) != 2 || moves[1] != "pass" {
		t.Fatalf("answers %q, want a move and a pass", moves)
	}
	// The search may run a playout past the budget per thread, or stop
	// before it once no other move can catch up (settled).
	if want := "gobot: move 1, black: " + moves[0] + " in "; !strings.HasPrefix(lines[0], want) ||
		!strings.Contains(lines[0], "; search: move "+moves[0]+" winrate ") ||
		!strings.Contains(lines[0], " playouts 50") && !strings.Contains(lines[0], " threads, settled)") {
		t.Errorf("first line = %q, want %q…; search: move %s winrate …, playouts 50… or settled", lines[0], want, moves[0])
	}
	if !strings.HasPrefix(lines[1], "gobot: move 3, black: pass in ") || !strings.HasSuffix(lines[1], ", without a search") {
		t.Errorf("second line = %q, want the pass back without a search", lines[1])
	}

	// A genmove out of turn (the server puts in White's pass) and one
	// after a loaded record are numbered as the record numbers them, as
	// showboard does, not from the position alone.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "r.sgf"), []byte("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];B[cc];W[gg])"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ script, want string }{
		{"boardsize 9\nclear_board\nplay b E5\ngenmove b\nquit\n", "gobot: move 2, black: "},
		{"loadsgf " + filepath.Join(dir, "r.sgf") + "\ngenmove b\nquit\n", "gobot: move 4, black: "},
	} {
		errOut.Reset()
		out.Reset()
		if err := serveGTP(context.Background(), []string{"--bot", "hard", "--playouts", "100", "--log"}, strings.NewReader(tt.script), &out, &errOut); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(errOut.String(), tt.want) {
			t.Errorf("%q: stderr = %q, want it to begin %q", tt.script, errOut.String(), tt.want)
		}
	}

	// kgs-genmove_cleanup answers the bot's pass with a move that
	// captures a dead stone (White's E5, in Black's wall): the line says
	// so, not that the move sent was a pass.
	dead := filepath.Join(dir, "dead.sgf")
	if err := os.WriteFile(dead, []byte("(;GM[1]FF[4]SZ[9]KM[7.5]AB[cc][cd][ce][cf][cg][dc][dg][ec][eg][fc][fg][gc][gd][ge][gf][gg]AW[ee];W[tt])"), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	out.Reset()
	if err := serveGTP(context.Background(), []string{"--bot", "hard", "--playouts", "100", "--log"}, strings.NewReader("loadsgf "+dead+"\nkgs-genmove_cleanup b\nquit\n"), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	answer := strings.Fields(out.String())
	line := strings.TrimSpace(errOut.String())
	if len(answer) != 5 || answer[3] == "pass" || !strings.HasPrefix(line, "gobot: move 2, black: pass in ") ||
		!strings.HasSuffix(line, "; kgs-genmove_cleanup sends a move that captures a dead stone instead, where there is one") {
		t.Errorf("kgs-genmove_cleanup b answered %q, logging %q; want a move next to E5, the log saying the bot's pass was replaced", answer, line)
	}

	// Without --log nothing is written.
	errOut.Reset()
	out.Reset()
	if err := serveGTP(context.Background(), []string{"--bot", "hard", "--playouts", "200"}, strings.NewReader(script), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if errOut.Len() != 0 {
		t.Errorf("without --log, stderr = %q, want nothing", errOut.String())
	}
}
