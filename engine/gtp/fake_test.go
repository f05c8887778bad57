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

// The test binary doubles as a fake GTP program: run with the first argument
// "-fake-gtp", it serves GTP on its standard streams instead of running
// tests. Its behaviour is chosen by the second argument:
//
//	ok          a well-behaved program that plays the first legal point
//	crash-once  exits on the first genmove of the first process (marker file)
//	crash       exits on every genmove
//	hang        never answers genmove
//	garbage     answers genmove with text that is not GTP
//	badid       answers genmove with the wrong id
//	illegal     answers genmove with an occupied point
//	nohandshake exits at once
//	quit-crash  exits with status 3 on quit, without answering
//	quit-fail   answers quit, then exits with status 4
//	exit-idle   exits once it has answered the handshake's list_commands
//
// The third argument is a file the program appends each command to, prefixed
// with its process id, and the fourth a marker file for crash-once.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "-fake-gtp" {
		os.Exit(fakeProgram(os.Args[2:]))
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

// fakeSpec returns a spec that runs the fake program in the given mode.
func fakeSpec(t *testing.T, mode string) (Spec, string) {
	t.Helper()
	dir := t.TempDir()
	log := dir + "/commands.log"
	return Spec{Name: "fake", Argv: []string{os.Args[0], "-fake-gtp", mode, log, dir + "/crashed"}}, log
}

// fakeClient returns a client of the fake program in the given mode,
// closed when the test ends, and the file the program logs its commands to.
func fakeClient(t *testing.T, mode string, opts ClientOptions) (*Client, string) {
	t.Helper()
	spec, log := fakeSpec(t, mode)
	c := NewClient(spec, opts)
	t.Cleanup(func() { c.Close() })
	return c, log
}

// fake is the state of one fake program: the game it holds, as the
// commands gave it.
type fake struct {
	mode   string // how it misbehaves, see TestMain
	marker string // the crash-once marker file
	size   int
	komi   float64
	setup  []engine.Stone
	moves  []engine.Move
	g      *engine.Game // setup and moves played, under simple ko
	known  string       // the names in fakeCommands, for list_commands
}

// fakeReply is the fake program's answer to one command.
type fakeReply struct {
	ok   bool
	text string
	id   string // the id to answer with, when not the command's
	raw  string // written instead of an answer, when not empty
	// exit ends the program after the answer (none when silent) with the
	// exit status.
	exit   bool
	status int
	silent bool
}

// fakeCommands are the commands the fake program knows, in the order
// list_commands gives them, with their handlers. Any other command is
// answered "? unknown command".
var fakeCommands = []struct {
	name string
	run  func(f *fake, args []string) fakeReply
}{
	{"protocol_version", fakeAnswer("2")},
	{"name", fakeAnswer("Fake")},
	{"version", fakeAnswer("1.0")},
	{"list_commands", func(f *fake, _ []string) fakeReply { return fakeReply{ok: true, text: f.known} }},
	{"boardsize", (*fake).boardsize},
	{"clear_board", func(f *fake, _ []string) fakeReply {
		f.setup, f.moves = nil, nil
		f.g = f.newGame()
		return fakeReply{ok: true}
	}},
	{"komi", func(f *fake, args []string) fakeReply {
		fmt.Sscan(fakeArg(args, 0), &f.komi)
		return fakeReply{ok: true}
	}},
	{"play", (*fake).play},
	{"genmove", (*fake).genmove},
	{"set_free_handicap", (*fake).setFreeHandicap},
	{"final_score", fakeAnswer("W+7.5")},
	{"quit", func(*fake, []string) fakeReply { return fakeReply{ok: true, exit: true} }},
}

// fakeEnds are the modes' ways of ending other than an answer to quit and
// a clean exit: the reply, instead of the handler's, to one command.
var fakeEnds = map[string]struct {
	command string
	reply   fakeReply
}{
	"quit-crash": {"quit", fakeReply{silent: true, exit: true, status: 3}},
	"quit-fail":  {"quit", fakeReply{ok: true, exit: true, status: 4}},
	"exit-idle":  {"list_commands", fakeReply{ok: true, exit: true}},
}

// fakeFaults are the modes' misbehaviours in genmove for c: a reply that
// replaces the move, when the second result is true.
var fakeFaults = map[string]func(f *fake, c engine.Color) (fakeReply, bool){
	"crash": func(*fake, engine.Color) (fakeReply, bool) {
		return fakeReply{silent: true, exit: true, status: 2}, true
	},
	"crash-once": func(f *fake, _ engine.Color) (fakeReply, bool) {
		if _, err := os.Stat(f.marker); err == nil {
			return fakeReply{}, false // crashed before: plays
		}
		os.WriteFile(f.marker, nil, 0o600)
		return fakeReply{silent: true, exit: true, status: 2}, true
	},
	"hang": func(*fake, engine.Color) (fakeReply, bool) {
		time.Sleep(time.Hour)
		return fakeReply{silent: true, exit: true}, true
	},
	"garbage": func(*fake, engine.Color) (fakeReply, bool) {
		return fakeReply{raw: "I am thinking very hard\n\n"}, true
	},
	"badid": func(*fake, engine.Color) (fakeReply, bool) { return fakeReply{ok: true, id: "999", text: "pass"}, true },
	// illegal answers the last stone placed, without playing it.
	"illegal": func(f *fake, c engine.Color) (fakeReply, bool) {
		m := engine.PassMove(c)
		for _, s := range f.setup {
			m = engine.PlaceAt(c, s.Point)
		}
		for _, mv := range f.moves {
			if mv.Kind == engine.Place {
				m = engine.PlaceAt(c, mv.Point)
			}
		}
		return fakeReply{ok: true, text: m.String()}, true
	},
}

// fakeAnswer is a handler that always answers text.
func fakeAnswer(text string) func(*fake, []string) fakeReply {
	return func(*fake, []string) fakeReply { return fakeReply{ok: true, text: text} }
}

// fakeFail is a failure answer.
func fakeFail(msg string) fakeReply { return fakeReply{text: msg} }

// fakeArg returns args[i], or "" when there are not that many.
func fakeArg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// fakeProgram serves the fake program on the standard streams (see TestMain)
// and returns its exit status.
func fakeProgram(args []string) int {
	f := &fake{mode: fakeArg(args, 0), marker: fakeArg(args, 2), size: 19}
	logPath := fakeArg(args, 1)
	if f.mode == "nohandshake" {
		return 3
	}
	var logf *os.File
	if logPath != "" {
		if lf, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			logf = lf
			defer lf.Close()
		}
	}
	for _, c := range fakeCommands {
		f.known += c.name + "\n"
	}
	f.known = strings.TrimSuffix(f.known, "\n")
	f.g = f.newGame()
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if logf != nil {
			fmt.Fprintf(logf, "%d %s\n", os.Getpid(), line)
		}
		words := strings.Fields(line)
		id := ""
		if len(words) > 0 && words[0][0] >= '0' && words[0][0] <= '9' {
			id, words = words[0], words[1:]
		}
		if len(words) == 0 {
			continue
		}
		r := fakeFail("unknown command")
		for _, c := range fakeCommands {
			if c.name == words[0] {
				r = c.run(f, words[1:])
				break
			}
		}
		if end, ok := fakeEnds[f.mode]; ok && end.command == words[0] {
			r = end.reply
		}
		if r.id != "" {
			id = r.id
		}
		switch {
		case r.raw != "":
			out.WriteString(r.raw)
		case !r.silent:
			status := "="
			if !r.ok {
				status = "?"
			}
			fmt.Fprintf(out, "%s%s %s\n\n", status, id, r.text)
		}
		out.Flush()
		if r.exit {
			return r.status
		}
	}
	return 0
}

// newGame returns an empty game of the fake's size and komi, or nil when
// the size is not one the rules allow.
func (f *fake) newGame() *engine.Game {
	rules, _ := engine.Preset("simple")
	rules.Komi = f.komi
	g, err := engine.NewGame(engine.Config{Size: f.size, Rules: rules})
	if err != nil {
		return nil
	}
	return g
}

// replay rebuilds the game from the set-up stones and moves, a pass
// standing in for each missing move of the other player, and reports
// whether every move was legal (the game is unchanged when one is not).
func (f *fake) replay(moves []engine.Move) bool {
	ng := f.newGame()
	if ng == nil {
		return false
	}
	if len(f.setup) > 0 {
		if err := ng.SetupStones(f.setup, engine.Black, 0); err != nil {
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
	f.g = ng
	return true
}

func (f *fake) boardsize(args []string) fakeReply {
	fmt.Sscan(fakeArg(args, 0), &f.size)
	f.setup, f.moves = nil, nil
	if f.g = f.newGame(); f.g == nil {
		return fakeFail("unacceptable size")
	}
	return fakeReply{ok: true}
}

func (f *fake) setFreeHandicap(args []string) fakeReply {
	for _, s := range args {
		p, err := engine.ParsePoint(s, f.size)
		if err != nil {
			return fakeFail("bad vertex")
		}
		f.setup = append(f.setup, engine.Stone{Point: p, Color: engine.Black})
	}
	f.replay(f.moves)
	return fakeReply{ok: true}
}

func (f *fake) play(args []string) fakeReply {
	c, err := engine.ParseColor(fakeArg(args, 0))
	if err != nil || len(args) < 2 {
		return fakeFail("syntax error")
	}
	m, err := engine.ParseMove(c, args[1], f.size)
	if err != nil || !f.replay(append(f.moves, m)) {
		f.replay(f.moves)
		return fakeFail("illegal move")
	}
	f.moves = append(f.moves, m)
	return fakeReply{ok: true}
}

// genmove plays the first legal point (the first empty one, when asked for
// the player not to move), or misbehaves as the mode says (fakeFaults).
func (f *fake) genmove(args []string) fakeReply {
	c, _ := engine.ParseColor(fakeArg(args, 0))
	if fault, ok := fakeFaults[f.mode]; ok {
		if r, ok := fault(f, c); ok {
			return r
		}
	}
	m := engine.PassMove(c)
	if legal := f.g.Legal(); len(legal) > 0 {
		m = engine.PlaceAt(c, legal[0])
	}
	if f.g.ToPlay() != c {
		m = engine.PassMove(c)
		b := f.g.Board()
	search:
		for r := 0; r < f.size; r++ {
			for col := 0; col < f.size; col++ {
				if p := (engine.Point{Col: col, Row: r}); b.At(p) == engine.Empty {
					m = engine.PlaceAt(c, p)
					break search
				}
			}
		}
	}
	if f.replay(append(f.moves, m)) {
		f.moves = append(f.moves, m)
	}
	return fakeReply{ok: true, text: m.String()}
}
