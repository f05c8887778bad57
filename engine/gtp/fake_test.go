package gtp

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp/gtptest"
)

// The test binary doubles as two GTP programs (gtptest.Main): "serve" is
// Serve itself, for the referee tests (serveChild), and "fake" a fake GTP
// program (fakeProgram) whose behaviour is chosen by its first argument:
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
//	slow-start  reads its first command after half a second, as a program
//	            loading a large network does
//
// The second argument is a file the program appends each command to, prefixed
// with its process id, and the third a marker file for crash-once.
func TestMain(m *testing.M) {
	gtptest.Main(m, map[string]func([]string) int{"fake": fakeProgram, "serve": serveChild})
}

// serveChild runs Serve on the standard streams with the ko rule and the
// seed given as numbers (args), for the referee tests (startServer);
// warnings go to standard error, one a line. It returns the exit status: 1
// when Serve fails.
func serveChild(args []string) int {
	k, err1 := strconv.Atoi(gtptest.Arg(args, 0))
	s, err2 := strconv.ParseUint(gtptest.Arg(args, 1), 10, 64)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "serve KO SEED: want two numbers")
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
	return Spec{Name: "fake", Argv: gtptest.Argv("fake", mode, log, dir+"/crashed")}, log
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

// fakeCommands are the commands the fake program knows, in the order
// list_commands gives them, with their handlers. Any other command is
// answered "? unknown command".
var fakeCommands = []struct {
	name string
	run  func(f *fake, args []string) gtptest.Reply
}{
	{"protocol_version", answer("2")},
	{"name", answer("Fake")},
	{"version", answer("1.0")},
	{"list_commands", func(f *fake, _ []string) gtptest.Reply { return gtptest.Reply{OK: true, Text: f.known} }},
	{"boardsize", (*fake).boardsize},
	{"clear_board", func(f *fake, _ []string) gtptest.Reply {
		f.setup, f.moves = nil, nil
		f.g = f.newGame()
		return gtptest.Reply{OK: true}
	}},
	{"komi", func(f *fake, args []string) gtptest.Reply {
		fmt.Sscan(gtptest.Arg(args, 0), &f.komi)
		return gtptest.Reply{OK: true}
	}},
	{"play", (*fake).play},
	{"genmove", (*fake).genmove},
	{"set_free_handicap", (*fake).setFreeHandicap},
	{"final_score", answer("W+7.5")},
	{"time_settings", answer("")},
	{"quit", func(*fake, []string) gtptest.Reply { return gtptest.Reply{OK: true, Exit: true} }},
}

// fakeEnds are the modes' ways of ending other than an answer to quit and
// a clean exit: the reply, instead of the handler's, to one command.
var fakeEnds = map[string]struct {
	command string
	reply   gtptest.Reply
}{
	"quit-crash": {"quit", gtptest.Reply{Silent: true, Exit: true, Status: 3}},
	"quit-fail":  {"quit", gtptest.Reply{OK: true, Exit: true, Status: 4}},
	"exit-idle":  {"list_commands", gtptest.Reply{OK: true, Exit: true}},
}

// fakeFaults are the modes' misbehaviours in genmove for c: a reply that
// replaces the move, when the second result is true.
var fakeFaults = map[string]func(f *fake, c engine.Color) (gtptest.Reply, bool){
	"crash": func(*fake, engine.Color) (gtptest.Reply, bool) {
		return gtptest.Reply{Silent: true, Exit: true, Status: 2}, true
	},
	"crash-once": func(f *fake, _ engine.Color) (gtptest.Reply, bool) {
		if _, err := os.Stat(f.marker); err == nil {
			return gtptest.Reply{}, false // crashed before: plays
		}
		os.WriteFile(f.marker, nil, 0o600)
		return gtptest.Reply{Silent: true, Exit: true, Status: 2}, true
	},
	"hang": func(*fake, engine.Color) (gtptest.Reply, bool) {
		time.Sleep(time.Hour)
		return gtptest.Reply{Silent: true, Exit: true}, true
	},
	"garbage": func(*fake, engine.Color) (gtptest.Reply, bool) {
		return gtptest.Reply{Raw: "I am thinking very hard\n\n"}, true
	},
	"badid": func(*fake, engine.Color) (gtptest.Reply, bool) {
		return gtptest.Reply{OK: true, ID: "999", Text: "pass"}, true
	},
	// illegal answers the last stone placed, without playing it.
	"illegal": func(f *fake, c engine.Color) (gtptest.Reply, bool) {
		m := engine.PassMove(c)
		for _, s := range f.setup {
			m = engine.PlaceAt(c, s.Point)
		}
		for _, mv := range f.moves {
			if mv.Kind == engine.Place {
				m = engine.PlaceAt(c, mv.Point)
			}
		}
		return gtptest.Reply{OK: true, Text: m.String()}, true
	},
}

// answer is a handler that always answers text.
func answer(text string) func(*fake, []string) gtptest.Reply {
	return func(*fake, []string) gtptest.Reply { return gtptest.Reply{OK: true, Text: text} }
}

// fakeProgram serves the fake program on the standard streams (see TestMain)
// and returns its exit status.
func fakeProgram(args []string) int {
	f := &fake{mode: gtptest.Arg(args, 0), marker: gtptest.Arg(args, 2), size: 19}
	if f.mode == "nohandshake" {
		return 3
	}
	p := &gtptest.Program{Log: gtptest.Arg(args, 1)}
	for _, c := range fakeCommands {
		p.Commands = append(p.Commands, gtptest.Command{Name: c.name, Run: func(args []string) gtptest.Reply {
			r := c.run(f, args)
			if end, ok := fakeEnds[f.mode]; ok && end.command == c.name {
				r = end.reply
			}
			return r
		}})
	}
	f.known = p.List()
	f.g = f.newGame()
	if f.mode == "slow-start" {
		time.Sleep(500 * time.Millisecond)
	}
	return p.Serve(os.Stdin, os.Stdout)
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

func (f *fake) boardsize(args []string) gtptest.Reply {
	fmt.Sscan(gtptest.Arg(args, 0), &f.size)
	f.setup, f.moves = nil, nil
	if f.g = f.newGame(); f.g == nil {
		return gtptest.Fail("unacceptable size")
	}
	return gtptest.Reply{OK: true}
}

func (f *fake) setFreeHandicap(args []string) gtptest.Reply {
	for _, s := range args {
		p, err := engine.ParsePoint(s, f.size)
		if err != nil {
			return gtptest.Fail("bad vertex")
		}
		f.setup = append(f.setup, engine.Stone{Point: p, Color: engine.Black})
	}
	f.replay(f.moves)
	return gtptest.Reply{OK: true}
}

func (f *fake) play(args []string) gtptest.Reply {
	c, err := engine.ParseColor(gtptest.Arg(args, 0))
	if err != nil || len(args) < 2 {
		return gtptest.Fail("syntax error")
	}
	m, err := engine.ParseMove(c, args[1], f.size)
	if err != nil || !f.replay(append(f.moves, m)) {
		f.replay(f.moves)
		return gtptest.Fail("illegal move")
	}
	f.moves = append(f.moves, m)
	return gtptest.Reply{OK: true}
}

// genmove plays the first legal point (the first empty one, when asked for
// the player not to move), or misbehaves as the mode says (fakeFaults).
func (f *fake) genmove(args []string) gtptest.Reply {
	c, _ := engine.ParseColor(gtptest.Arg(args, 0))
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
	return gtptest.Reply{OK: true, Text: m.String()}
}
