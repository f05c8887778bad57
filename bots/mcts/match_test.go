//go:build match

package mcts

// A match against GNU Go for tuning, kept out of the default test run:
//
//	nice -n 10 go test -tags match -run TestMatchGnuGo -v -timeout 10h ./bots/mcts/ \
//	    -games 20 -size 9 -movetime 500ms -threads 1
//
// GNU Go (level 10, Chinese rules, komi 7.5) referees with final_score.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

var (
	matchGames    = flag.Int("games", 10, "games to play")
	matchSize     = flag.Int("size", 9, "board size")
	matchTime     = flag.Duration("movetime", 500*time.Millisecond, "time per move for mcts (0: playouts only)")
	matchPlayouts = flag.Int("playouts", 0, "playouts per move for mcts (0: time only)")
	matchThreads  = flag.Int("threads", 1, "mcts threads")
	matchLevel    = flag.Int("level", 10, "GNU Go level")
	matchGnuGo    = flag.String("gnugo", "/usr/games/gnugo", "GNU Go binary")
	matchSeed     = flag.Int64("seed", 1, "first seed")
	matchLog      = flag.String("matchlog", "", "file to append game records to")
)

// referee is GNU Go, spoken to through engine/gtp's client.
type referee struct{ c *gtp.Client }

func startGTP(t *testing.T, args ...string) *referee {
	t.Helper()
	// GNU Go's genmove at level 10 on 19×19 can take a while.
	c, err := gtp.StartClient(context.Background(), gtp.Spec{Name: "gnugo", Argv: args}, gtp.ClientOptions{Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &referee{c}
}

// send sends one command and returns the answer; a "?" answer is an error.
func (r *referee) send(command string) (string, error) {
	return r.c.Command(context.Background(), 0, command)
}

func TestMatchGnuGo(t *testing.T) {
	if _, err := os.Stat(*matchGnuGo); err != nil {
		t.Skipf("GNU Go not installed at %s", *matchGnuGo)
	}
	size := *matchSize
	gnugo := startGTP(t, *matchGnuGo, "--mode", "gtp", "--level", fmt.Sprint(*matchLevel), "--chinese-rules")
	var logw io.Writer = io.Discard
	if *matchLog != "" {
		f, err := os.OpenFile(*matchLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		logw = f
	}
	wins := 0
	var ourTime time.Duration
	ourMoves, ourPlayouts := 0, 0
	for game := 0; game < *matchGames; game++ {
		ours := engine.Black
		if game%2 == 1 {
			ours = engine.White
		}
		for _, cmd := range []string{fmt.Sprintf("boardsize %d", size), "clear_board", "komi 7.5"} {
			if _, err := gnugo.send(cmd); err != nil {
				t.Fatal(err)
			}
		}
		g, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules()})
		if err != nil {
			t.Fatal(err)
		}
		e := NewSearcher(Options{Seed: *matchSeed + int64(game), Threads: *matchThreads})
		var record []string
		result := ""
		for moves := 0; !g.Over() && moves < 4*size*size; moves++ {
			c := g.ToPlay()
			var m engine.Move
			if c == ours {
				start := time.Now()
				m, err = e.GenMove(context.Background(), g, *matchTime, *matchPlayouts)
				if err != nil {
					t.Fatal(err)
				}
				ourTime += time.Since(start)
				ourMoves++
				ourPlayouts += e.Stats().Playouts
				if m.Kind == engine.Resign {
					result = c.Opponent().Letter() + "+R"
					break
				}
				if _, err := gnugo.send(fmt.Sprintf("play %s %s", c.Letter(), m)); err != nil {
					t.Fatal(err)
				}
			} else {
				resp, err := gnugo.send("genmove " + c.Letter())
				if err != nil {
					t.Fatal(err)
				}
				m, err = engine.ParseMove(c, resp, size)
				if err != nil {
					t.Fatalf("gnugo move %q: %v", resp, err)
				}
				if m.Kind == engine.Resign {
					result = c.Opponent().Letter() + "+R"
					break
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d: %v plays %v: %v\n%v", game, c, m, err, g.Board())
			}
			record = append(record, m.String())
		}
		if result == "" {
			result, err = gnugo.send("final_score")
			if err != nil {
				t.Fatal(err)
			}
		}
		won := strings.HasPrefix(result, ours.Letter()+"+")
		if won {
			wins++
		}
		lo, hi := wilson(wins, game+1)
		t.Logf("game %d: mcts %v, result %s, %s (%d moves) — %d/%d won (95%% CI %.0f–%.0f%%), %.0f playouts/move so far",
			game, ours, result, map[bool]string{true: "won", false: "lost"}[won], len(record), wins, game+1,
			100*lo, 100*hi, float64(ourPlayouts)/float64(max(ourMoves, 1)))
		fmt.Fprintf(logw, "size %d mcts %v result %s moves %s\n", size, ours, result, strings.Join(record, " "))
	}
	lo, hi := wilson(wins, *matchGames)
	t.Logf("mcts vs GNU Go level %d on %d×%d, komi 7.5, %v/move, %d playouts cap, %d threads: %d/%d = %.1f%% (95%% CI %.1f–%.1f%%), mean %.0f playouts/move, %v/move",
		*matchLevel, size, size, *matchTime, *matchPlayouts, *matchThreads, wins, *matchGames,
		100*float64(wins)/float64(*matchGames), 100*lo, 100*hi,
		float64(ourPlayouts)/float64(max(ourMoves, 1)), ourTime/time.Duration(max(ourMoves, 1)))
}

// wilson returns the 95% Wilson score interval of wins out of n.
func wilson(wins, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.96
	p := float64(wins) / float64(n)
	nn := float64(n)
	centre := (p + z*z/(2*nn)) / (1 + z*z/nn)
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / (1 + z*z/nn)
	return centre - half, centre + half
}
