package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// TestGTPMatchChild is `gobot gtp` in a child process for the match: the
// test binary runs it when its arguments after "--" start with "gtp".
func TestGTPMatchChild(t *testing.T) {
	args := flag.Args()
	if len(args) == 0 || args[0] != "gtp" {
		t.Skip("the gobot side of TestGTPClockMatch")
	}
	os.Exit(run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
}

// send sends a command to a program of the match.
func send(c *gtp.Client, cmd string) (string, error) {
	return c.Command(context.Background(), 0, cmd)
}

// TestGTPClockMatch plays `gobot gtp` against GNU Go at time_settings 0 1 1
// (one second a move), as issue 11 asks: no genmove may fail. It is opt-in,
// out of CI (a 9×9 game takes about 25 s, a 19×19 one about 3 minutes):
//
//	GOBOT_GTP_MATCH=20 nice -n 10 go test ./cmd/gobot -run TestGTPClockMatch -v -timeout 2h
//
// GOBOT_GTP_MATCH is the number of games, GOBOT_GTP_MATCH_SIZE the board
// size (default 9), GOBOT_GTP_MATCH_LEVEL gobot's level (default: the
// strongest built-in), GOBOT_GTP_MATCH_MOVES the moves after which a game
// stops (default three times the board's points). gobot plays Black in
// even games and White in odd ones, and is sent time_left before every
// genmove: the period's full second in byo-yomi. The report gives the
// failures (the test fails on any), the moves over the second, gobot's
// passes while GNU Go had not passed, the time genmove took and the
// results by GNU Go's final_score.
func TestGTPClockMatch(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("GOBOT_GTP_MATCH"))
	if games <= 0 || testing.Short() {
		t.Skip("opt-in: GOBOT_GTP_MATCH=20 go test ./cmd/gobot -run TestGTPClockMatch -v")
	}
	size := 9
	if s, err := strconv.Atoi(os.Getenv("GOBOT_GTP_MATCH_SIZE")); err == nil {
		size = s
	}
	level := os.Getenv("GOBOT_GTP_MATCH_LEVEL")
	maxMoves := 3 * size * size
	if n, err := strconv.Atoi(os.Getenv("GOBOT_GTP_MATCH_MOVES")); err == nil && n > 0 {
		maxMoves = n
	}
	gnugo, err := exec.LookPath("/usr/games/gnugo")
	if err != nil {
		if gnugo, err = exec.LookPath("gnugo"); err != nil {
			t.Skip("GNU Go is not installed (Debian package gnugo)")
		}
	}
	var (
		failures, late, moves, wins int
		midPasses                   int // gobot's passes while GNU Go had not passed
		longest, total              time.Duration
	)
	for game := range games {
		argv := []string{os.Args[0], "-test.run=^TestGTPMatchChild$", "--", "gtp"}
		if level != "" {
			argv = append(argv, "--bot", level)
		}
		var stderr bytes.Buffer
		gb, err := gtp.StartClient(context.Background(), gtp.Spec{Name: "gobot", Argv: argv}, gtp.ClientOptions{Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		gg, err := gtp.StartClient(context.Background(), gtp.Spec{Name: "gnugo", Argv: []string{gnugo, "--mode", "gtp", "--chinese-rules"}}, gtp.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gobotColor := engine.Black
		if game%2 == 1 {
			gobotColor = engine.White
		}
		// Simple ko, as both programs play by default.
		rules := engine.DefaultRules()
		rules.Ko, rules.Komi = engine.SimpleKo, 7.5
		g, err := engine.NewGame(engine.Config{Size: size, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*gtp.Client{gb, gg} {
			for _, c := range []string{"boardsize " + strconv.Itoa(size), "clear_board", "komi 7.5", "time_settings 0 1 1"} {
				if ans, err := send(p, c); err != nil {
					t.Fatalf("%s: %s = %q, %v", p.Spec().Name, c, ans, err)
				}
			}
		}
		result := ""
		var record []string
		for !g.Over() && g.MoveCount() < maxMoves {
			c := g.ToPlay()
			mover, other := gg, gb
			if c == gobotColor {
				mover, other = gb, gg
				if _, err := send(gb, "time_left "+c.Letter()+" 1 1"); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			ans, err := send(mover, "genmove "+c.Letter())
			took := time.Since(start)
			if mover == gb {
				moves++
				total += took
				longest = max(longest, took)
				if took > time.Second {
					late++
				}
			}
			if err != nil {
				if mover == gb {
					failures++
				}
				t.Errorf("game %d, move %d: %s's genmove %v failed: %v", game+1, g.MoveCount()+1, mover.Spec().Name, c, err)
				break
			}
			m, err := engine.ParseMove(c, ans, size)
			if err != nil {
				t.Fatalf("game %d: %s answered %q: %v", game+1, mover.Spec().Name, ans, err)
			}
			record = append(record, c.Letter()+" "+ans)
			if m.Kind == engine.Resign {
				result = c.Opponent().Letter() + "+R"
				break
			}
			if last, ok := g.LastMove(); mover == gb && m.Kind == engine.Pass && (!ok || last.Kind != engine.Pass) {
				midPasses++
				t.Logf("game %d, move %d: gobot passed while GNU Go had not", game+1, g.MoveCount()+1)
			}
			if err := g.Play(m); err != nil {
				failures++
				t.Errorf("game %d: %s played %v, illegal: %v", game+1, mover.Spec().Name, m, err)
				break
			}
			if ans, err := send(other, "play "+c.Letter()+" "+ans); err != nil {
				t.Fatalf("game %d: %s refused %v: %q %v", game+1, other.Spec().Name, m, ans, err)
			}
		}
		if result == "" {
			result, _ = send(gg, "final_score")
		}
		if strings.HasPrefix(result, gobotColor.Letter()+"+") {
			wins++
		}
		t.Logf("game %d: gobot %v, %d moves, %s", game+1, gobotColor, g.MoveCount(), result)
		if games == 1 {
			t.Logf("moves: %s", strings.Join(record, ", "))
			board, _ := send(gg, "showboard")
			t.Logf("GNU Go's board at the end:\n%s", board)
		}
		gg.Close()
		gb.Close()
		if stderr.Len() > 0 {
			t.Logf("gobot's stderr: %s", stderr.String())
		}
	}
	mean := time.Duration(0)
	if moves > 0 {
		mean = total / time.Duration(moves)
	}
	t.Logf("%d games on %d×%d at time_settings 0 1 1: %d genmove failures, %d of %d gobot moves over 1 s, genmove took %v on average and %v at most, %d passes while GNU Go had not passed; gobot won %d",
		games, size, size, failures, late, moves, mean.Round(time.Millisecond), longest.Round(time.Millisecond), midPasses, wins)
}
