package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/engine/gtp/gtptest"
)

// The test binary doubles as a fake analysis engine (gtptest.Main): the
// program "analyze", given a mode ("kata", "lz", or "plain" for an engine
// without analysis). Its analysis is a fixed function of the position:
// the player to move wins 0.3 + 0.1 × (its stones - the opponent's), its
// best move is the first empty point from A1 and the variation that point
// and the next empty one; KataGo's also has a score lead of 2 × that
// stone difference and an ownership of +0.5 for the player to move on the
// left half, -0.5 on the right. It prints one line of analysis at once and
// another each time its interval passes, until any input arrives.
func TestMain(m *testing.M) {
	gtptest.Main(m, map[string]func([]string) int{"analyze": fakeAnalyzer})
}

func fakeAnalyzer(args []string) int {
	mode := gtptest.Arg(args, 0)
	size := 19
	var g *engine.Game
	newGame := func() {
		g, _ = engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules()})
	}
	newGame()
	analysis := "lz-analyze"
	switch mode {
	case "kata":
		analysis = "kata-analyze"
	case "plain":
		analysis = "genmove" // no analysis command at all
	}
	ok := gtptest.Reply{OK: true}
	p := &gtptest.Program{Commands: []gtptest.Command{
		{Name: "protocol_version", Run: gtptest.Answer("2")},
		{Name: "name", Run: gtptest.Answer("FakeAnalyzer")},
		{Name: "version", Run: gtptest.Answer("")},
		{Name: "list_commands"}, // Run set below: the names of these commands
		{Name: "boardsize", Run: func(args []string) gtptest.Reply {
			fmt.Sscan(gtptest.Arg(args, 0), &size)
			newGame()
			return ok
		}},
		{Name: "clear_board", Run: func([]string) gtptest.Reply { newGame(); return ok }},
		{Name: "komi", Run: gtptest.Answer("")},
		{Name: "play", Run: func(args []string) gtptest.Reply {
			c := engine.Black
			if strings.EqualFold(gtptest.Arg(args, 0), "w") {
				c = engine.White
			}
			m, err := engine.ParseMove(c, gtptest.Arg(args, 1), size)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				return gtptest.Fail("illegal move")
			}
			return ok
		}},
		{Name: analysis, Run: func([]string) gtptest.Reply {
			return gtptest.Reply{OK: true, Stream: fakeInfo(g, mode == "kata")}
		}},
		{Name: "quit", Run: func([]string) gtptest.Reply { return gtptest.Reply{OK: true, Exit: true} }},
	}}
	p.Commands[3].Run = gtptest.Answer(p.List())
	return p.Serve(os.Stdin, os.Stdout)
}

// fakeInfo is the fake engine's analysis of g, for the player to move.
func fakeInfo(g *engine.Game, kata bool) string {
	b := g.Board()
	n := g.Size()
	c := g.ToPlay()
	diff := 0
	var empty []string
	for r := 0; r < n; r++ {
		for col := 0; col < n; col++ {
			p := engine.Point{Col: col, Row: r}
			switch b.At(p) {
			case c:
				diff++
			case c.Opponent():
				diff--
			default:
				empty = append(empty, p.String())
			}
		}
	}
	wr := 0.3 + 0.1*float64(diff)
	pv := strings.Join(empty[:2], " ")
	if !kata {
		return fmt.Sprintf("info move %s visits 10 winrate %d prior 100 lcb 100 order 0 pv %s info move %s visits 2 winrate 100 order 1 pv %s",
			empty[0], int(math.Round(wr*10000)), pv, empty[1], empty[1])
	}
	var own []string
	for r := n - 1; r >= 0; r-- { // top row first, as KataGo writes it
		for col := 0; col < n; col++ {
			v := "0.5"
			if col >= n/2 {
				v = "-0.5"
			}
			own = append(own, v)
		}
	}
	return fmt.Sprintf("info move %s visits 2 utility 0 winrate 0.01 scoreLead -9 order 1 pv %s info move %s visits 10 utility 0.1 winrate %g scoreMean 1 scoreStdev 20 scoreLead %g order 0 pv %s ownership %s",
		empty[1], empty[1], empty[0], wr, 2*float64(diff), pv, strings.Join(own, " "))
}

func fakeClient(t *testing.T, mode string) *gtp.Client {
	t.Helper()
	// The fake is this test binary run again: built with -race, on a
	// loaded machine, it has taken more than 5 s to say its first word.
	c := gtp.NewClient(gtp.Spec{Name: "fake", Argv: gtptest.Argv("analyze", mode)}, gtp.ClientOptions{Timeout: 5 * time.Second, StartTimeout: time.Minute})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestGTPEvaluator reviews a short game with the fake engine, speaking
// kata-analyze and lz-analyze, and checks that every number is turned to
// Black's side.
func TestGTPEvaluator(t *testing.T) {
	g := playGame(t, 9, "E5", "C3", "G7", "pass", "resign")
	for _, mode := range []string{"kata", "lz"} {
		t.Run(mode, func(t *testing.T) {
			ev := &GTP{Client: fakeClient(t, mode), Time: 30 * time.Millisecond}
			r, err := Run(context.Background(), g, ev, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Engine != "gtp:fake" || len(r.Positions) != 5 {
				t.Fatalf("engine %q, %d positions", r.Engine, len(r.Positions))
			}
			// After odd moves White is to move, a stone behind: White's
			// chance 0.2, Black's 0.8. After the pass, Black to move a
			// stone ahead: 0.4.
			want := []float64{0.3, 0.8, 0.3, 0.8, 0.4}
			for i, p := range r.Positions {
				if d := p.Winrate - want[i]; d > 1e-6 || d < -1e-6 {
					t.Errorf("position %d: Black's chance %.3f, want %.3f", i, p.Winrate, want[i])
				}
			}
			if p := r.Positions[3]; p.Best != "A1" || strings.Join(p.PV, " ") != "A1 B1" {
				t.Errorf("after move 3: best %s, PV %v, want A1 and A1 B1", p.Best, p.PV)
			}
			if mode == "kata" {
				if s := r.Positions[3].Score; s != 2 {
					t.Errorf("after move 3: Black's lead %.1f, want 2 (White's lead is 2 × -1 stone)", s)
				}
			}
		})
	}
}

func TestParseAnalysisOwnership(t *testing.T) {
	g := playGame(t, 9, "E5")
	line := fakeInfo(g, true)
	ev, hasScore, err := ParseAnalysis(line, 9, engine.White, true)
	if err != nil || !hasScore {
		t.Fatalf("ParseAnalysis = %v, score %v", err, hasScore)
	}
	// +0.5 for White (to move) on the left is -0.5 for Black.
	if a1, j1 := ev.Ownership[0], ev.Ownership[8]; a1 != -0.5 || j1 != 0.5 {
		t.Errorf("ownership A1 %v J1 %v, want -0.5 and 0.5", a1, j1)
	}
	for _, bad := range []string{"", "info move Z99 winrate 0.5", "info move A1 winrate x", "info move A1 winrate 0.5 ownership 0.1 0.2"} {
		if _, _, err := ParseAnalysis(bad, 9, engine.Black, true); err == nil {
			t.Errorf("ParseAnalysis(%q) accepted it", bad)
		}
	}
}

// TestGTPEvaluatorWithoutAnalysis: an engine that speaks neither analysis
// command is refused with ErrNoAnalysis, and Run returns it.
func TestGTPEvaluatorWithoutAnalysis(t *testing.T) {
	g := playGame(t, 9, "E5")
	_, err := Run(context.Background(), g, &GTP{Client: fakeClient(t, "plain"), Time: 10 * time.Millisecond}, nil)
	if !errors.Is(err, ErrNoAnalysis) {
		t.Errorf("Run with an engine without analysis = %v, want ErrNoAnalysis", err)
	}
}

// TestGTPCheck: Check accepts a program that lists kata-analyze or
// lz-analyze and refuses one that lists neither with ErrNoAnalysis.
func TestGTPCheck(t *testing.T) {
	for mode, want := range map[string]error{"kata": nil, "lz": nil, "plain": ErrNoAnalysis} {
		err := (&GTP{Client: fakeClient(t, mode)}).Check(context.Background())
		if !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("Check of a %s engine = %v, want %v", mode, err, want)
		}
	}
}
