package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// gtpPeer is one side of a match: a GTP engine spoken to line by line.
type gtpPeer struct {
	name string
	w    io.Writer
	r    *bufio.Reader
}

// send sends a command and returns whether it succeeded and the answer
// without its "= " or "? ".
func (p *gtpPeer) send(cmd string) (bool, string, error) {
	if _, err := io.WriteString(p.w, cmd+"\n"); err != nil {
		return false, "", fmt.Errorf("%s: %s: %w", p.name, cmd, err)
	}
	var lines []string
	for {
		line, err := p.r.ReadString('\n')
		if err != nil {
			return false, "", fmt.Errorf("%s: %s: reading: %w (so far %q)", p.name, cmd, err, lines)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(lines) == 0 {
				continue
			}
			break
		}
		lines = append(lines, line)
	}
	text := strings.Join(lines, "\n")
	return strings.HasPrefix(text, "="), strings.TrimSpace(text[1:]), nil
}

// TestGTPClockMatch plays `gobot gtp` against GNU Go at time_settings 0 1 1
// (one second a move), as issue 11 asks: no genmove may fail. It is opt-in,
// out of CI (a 9×9 game takes about a minute):
//
//	GOBOT_GTP_MATCH=20 nice -n 10 go test ./cmd/gobot -run TestGTPClockMatch -v -timeout 2h
//
// GOBOT_GTP_MATCH is the number of games, GOBOT_GTP_MATCH_SIZE the board
// size (default 9), GOBOT_GTP_MATCH_LEVEL gobot's level (default: the
// strongest built-in). gobot plays Black in even games and White in odd
// ones, and is sent time_left before every genmove: the period's full second
// in byo-yomi. The report gives the failures (the test fails on any), the
// moves over the second, the time genmove took and the results by GNU Go's
// final_score.
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
	gnugo, err := exec.LookPath("/usr/games/gnugo")
	if err != nil {
		if gnugo, err = exec.LookPath("gnugo"); err != nil {
			t.Skip("GNU Go is not installed (Debian package gnugo)")
		}
	}
	var (
		failures, late, moves, wins int
		longest, total             time.Duration
	)
	for game := range games {
		ctx, cancel := context.WithCancel(context.Background())
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		var stderr bytes.Buffer
		var wg sync.WaitGroup
		wg.Add(1)
		args := []string{"gtp"}
		if level != "" {
			args = append(args, "--bot", level)
		}
		go func() {
			defer wg.Done()
			if code := run(ctx, args, inR, outW, &stderr); code != 0 {
				t.Errorf("gobot gtp exited %d: %s", code, stderr.String())
			}
			outW.Close()
		}()
		gb := &gtpPeer{name: "gobot", w: inW, r: bufio.NewReader(outR)}
		cmd := exec.Command(gnugo, "--mode", "gtp", "--chinese-rules")
		gin, _ := cmd.StdinPipe()
		gout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		gg := &gtpPeer{name: "gnugo", w: gin, r: bufio.NewReader(gout)}
		gobotColor := engine.Black
		if game%2 == 1 {
			gobotColor = engine.White
		}
		g, err := engine.NewGame(engine.Config{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*gtpPeer{gb, gg} {
			for _, c := range []string{"boardsize " + strconv.Itoa(size), "clear_board", "komi 7.5", "time_settings 0 1 1"} {
				if ok, ans, err := p.send(c); err != nil || !ok {
					t.Fatalf("%s: %s = %q, %v", p.name, c, ans, err)
				}
			}
		}
		result := ""
		var record []string
		for !g.Over() && g.MoveCount() < 3*size*size {
			c := g.ToPlay()
			mover, other := gg, gb
			if c == gobotColor {
				mover, other = gb, gg
				if _, _, err := gb.send("time_left " + c.Letter() + " 1 1"); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			ok, ans, err := mover.send("genmove " + c.Letter())
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if mover == gb {
				moves++
				total += took
				longest = max(longest, took)
				if took > time.Second {
					late++
				}
				if !ok {
					failures++
					t.Errorf("game %d, move %d: gobot's genmove %v failed: %s", game+1, g.MoveCount()+1, c, ans)
					break
				}
			} else if !ok {
				t.Fatalf("game %d: GNU Go's genmove failed: %s", game+1, ans)
			}
			m, err := engine.ParseMove(c, ans, size)
			if err != nil {
				t.Fatalf("game %d: %s answered %q: %v", game+1, mover.name, ans, err)
			}
			record = append(record, c.Letter()+" "+ans)
			if m.Kind == engine.Resign {
				result = c.Opponent().Letter() + "+R"
				break
			}
			if err := g.Play(m); err != nil {
				failures++
				t.Errorf("game %d: %s played %v, illegal: %v", game+1, mover.name, m, err)
				break
			}
			if ok, ans, err := other.send("play " + c.Letter() + " " + ans); err != nil || !ok {
				t.Fatalf("game %d: %s refused %v: %q %v", game+1, other.name, m, ans, err)
			}
		}
		if result == "" {
			_, result, _ = gg.send("final_score")
		}
		if strings.HasPrefix(result, gobotColor.Letter()+"+") {
			wins++
		}
		t.Logf("game %d: gobot %v, %d moves, %s", game+1, gobotColor, g.MoveCount(), result)
		if games == 1 {
			t.Logf("moves: %s", strings.Join(record, ", "))
			_, board, _ := gg.send("showboard")
			t.Logf("GNU Go's board at the end:\n%s", board)
		}
		if stderr.Len() > 0 {
			t.Logf("gobot's stderr: %s", stderr.String())
		}
		gg.send("quit")
		cmd.Wait()
		gb.send("quit")
		inW.Close()
		cancel()
		wg.Wait()
	}
	mean := time.Duration(0)
	if moves > 0 {
		mean = total / time.Duration(moves)
	}
	t.Logf("%d games on %d×%d at time_settings 0 1 1: %d genmove failures, %d of %d gobot moves over 1 s, genmove took %v on average and %v at most; gobot won %d",
		games, size, size, failures, late, moves, mean.Round(time.Millisecond), longest.Round(time.Millisecond), wins)
}
