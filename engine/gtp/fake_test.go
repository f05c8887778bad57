package gtp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// The test binary doubles as a fake GTP engine: run with the first argument
// "-fake-gtp", it serves GTP on its standard streams instead of running
// tests. Its behaviour is chosen by the second argument:
//
//	ok          a well-behaved engine that plays the first legal point
//	crash-once  exits on the first genmove of the first process (marker file)
//	crash       exits on every genmove
//	hang        never answers genmove
//	garbage     answers genmove with text that is not GTP
//	badid       answers genmove with the wrong id
//	illegal     answers genmove with an occupied point
//	nohandshake exits at once
//
// The third argument is a file the engine appends each command to, prefixed
// with its process id, and the fourth a marker file for crash-once.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "-fake-gtp" {
		os.Exit(fakeEngine(os.Args[2:]))
	}
	if len(os.Args) > 3 && os.Args[1] == "-serve-gtp" {
		os.Exit(serveChild(os.Args[2], os.Args[3]))
	}
	os.Exit(m.Run())
}

// serveChild runs Serve on the standard streams with the ko rule and the
// seed given as numbers, for the referee tests (startServer); warnings go
// to standard error, one a line. It returns the exit status: 1 when Serve
// fails.
func serveChild(ko, seed string) int {
	k, err1 := strconv.Atoi(ko)
	s, err2 := strconv.ParseUint(seed, 10, 64)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "-serve-gtp KO SEED: want two numbers")
		return 2
	}
	opts := ServerOptions{Ko: engine.KoRule(k), Seed: s, Warn: func(msg string) { fmt.Fprintln(os.Stderr, msg) }}
	if err := Serve(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// fakeSpec returns a spec that runs the fake engine in the given mode.
func fakeSpec(t *testing.T, mode string) (Spec, string) {
	t.Helper()
	dir := t.TempDir()
	log := dir + "/commands.log"
	return Spec{Name: "fake", Argv: []string{os.Args[0], "-fake-gtp", mode, log, dir + "/crashed"}}, log
}

func fakeEngine(args []string) int {
	mode, logPath, marker := args[0], "", ""
	if len(args) > 1 {
		logPath = args[1]
	}
	if len(args) > 2 {
		marker = args[2]
	}
	if mode == "nohandshake" {
		return 3
	}
	var logf *os.File
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			logf = f
			defer f.Close()
		}
	}
	pid := os.Getpid()
	newGame := func(size int, komi float64) *engine.Game {
		rules, _ := engine.Preset("simple")
		rules.Komi = komi
		g, err := engine.NewGame(engine.Config{Size: size, Rules: rules})
		if err != nil {
			return nil
		}
		return g
	}
	size, komi := 19, 0.0
	g := newGame(size, komi)
	var setup []engine.Stone
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	reply := func(id string, ok bool, text string) {
		c := "="
		if !ok {
			c = "?"
		}
		fmt.Fprintf(out, "%s%s %s\n\n", c, id, text)
		out.Flush()
	}
	// replay rebuilds the game from the set-up stones and the moves.
	replay := func(moves []engine.Move) bool {
		ng := newGame(size, komi)
		if ng == nil {
			return false
		}
		if len(setup) > 0 {
			if err := ng.SetupStones(setup, engine.Black, 0); err != nil {
				return false
			}
		}
		for _, m := range moves {
			for m.Color != ng.ToPlay() {
				if err := ng.Play(engine.PassMove(ng.ToPlay())); err != nil {
					return false
				}
			}
			if err := ng.Play(m); err != nil {
				return false
			}
		}
		g = ng
		return true
	}
	var moves []engine.Move
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if logf != nil {
			fmt.Fprintf(logf, "%d %s\n", pid, line)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		id := ""
		if f[0][0] >= '0' && f[0][0] <= '9' {
			id, f = f[0], f[1:]
		}
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "protocol_version":
			reply(id, true, "2")
		case "name":
			reply(id, true, "Fake")
		case "version":
			reply(id, true, "1.0")
		case "list_commands":
			reply(id, true, "protocol_version\nname\nversion\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\nset_free_handicap\nfinal_score\nquit")
		case "boardsize":
			fmt.Sscan(f[1], &size)
			setup, moves = nil, nil
			if g = newGame(size, komi); g == nil {
				reply(id, false, "unacceptable size")
				continue
			}
			reply(id, true, "")
		case "clear_board":
			setup, moves = nil, nil
			g = newGame(size, komi)
			reply(id, true, "")
		case "komi":
			fmt.Sscan(f[1], &komi)
			reply(id, true, "")
		case "set_free_handicap":
			for _, s := range f[1:] {
				p, err := engine.ParsePoint(s, size)
				if err != nil {
					reply(id, false, "bad vertex")
					continue
				}
				setup = append(setup, engine.Stone{Point: p, Color: engine.Black})
			}
			replay(moves)
			reply(id, true, "")
		case "play":
			c, err := engine.ParseColor(f[1])
			if err != nil || len(f) < 3 {
				reply(id, false, "syntax error")
				continue
			}
			m, err := engine.ParseMove(c, f[2], size)
			if err != nil {
				reply(id, false, "illegal move")
				continue
			}
			if !replay(append(moves, m)) {
				reply(id, false, "illegal move")
				replay(moves)
				continue
			}
			moves = append(moves, m)
			reply(id, true, "")
		case "genmove":
			switch mode {
			case "crash":
				return 2
			case "crash-once":
				if _, err := os.Stat(marker); err != nil {
					os.WriteFile(marker, nil, 0o600)
					return 2
				}
			case "hang":
				time.Sleep(time.Hour)
				return 0
			case "garbage":
				fmt.Fprintf(out, "I am thinking very hard\n\n")
				out.Flush()
				continue
			case "badid":
				reply("999", true, "pass")
				continue
			}
			c, _ := engine.ParseColor(f[1])
			m := engine.PassMove(c)
			if mode == "illegal" {
				for _, s := range setup {
					m = engine.PlaceAt(c, s.Point)
				}
				for _, mv := range moves {
					if mv.Kind == engine.Place {
						m = mv
						m.Color = c
					}
				}
			} else {
				for _, p := range g.Legal() {
					m = engine.PlaceAt(c, p)
					break
				}
				if g.ToPlay() != c {
					m = engine.PassMove(c)
					for r := 0; r < size && m.Kind == engine.Pass; r++ {
						for col := 0; col < size; col++ {
							p := engine.Point{Col: col, Row: r}
							if g.Board().At(p) == engine.Empty {
								m = engine.PlaceAt(c, p)
								break
							}
						}
					}
				}
				if replay(append(moves, m)) {
					moves = append(moves, m)
				}
			}
			reply(id, true, m.String())
		case "final_score":
			reply(id, true, "W+7.5")
		case "quit":
			reply(id, true, "")
			return 0
		default:
			reply(id, false, "unknown command")
		}
	}
	return 0
}
