package gtptest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// flag is the first argument that makes a test binary run a program
// instead of its tests; the second names the program.
const flag = "-gtptest-program"

// Main runs the test binary: as the program that Argv named, exiting with
// its status, or else the tests (m.Run). Call it from TestMain.
func Main(m *testing.M, programs map[string]func(args []string) int) {
	if len(os.Args) > 2 && os.Args[1] == flag {
		run, ok := programs[os.Args[2]]
		if !ok {
			fmt.Fprintf(os.Stderr, "gtptest: no program %q\n", os.Args[2])
			os.Exit(2)
		}
		os.Exit(run(os.Args[3:]))
	}
	os.Exit(m.Run())
}

// Argv returns the command line that runs this test binary as the program
// name of Main's table, given args.
func Argv(name string, args ...string) []string {
	return append([]string{os.Args[0], flag, name}, args...)
}

// Command is one command a Program knows, with its handler, which is given
// the command's arguments.
type Command struct {
	Name string
	Run  func(args []string) Reply
}

// Reply is a Program's answer to one command. The zero Reply is a failure
// with no text.
type Reply struct {
	OK   bool   // "=" rather than "?"
	Text string // the answer's text
	ID   string // the id to answer with, when not the command's
	Raw  string // written instead of an answer, when not empty
	// Stream, when not empty, is written as the answer's first line and
	// then again every Program.Every, until the next command arrives
	// (which then ends the answer and is served) or the input ends.
	Stream string
	Silent bool // no answer at all
	// Exit ends the program after the answer, with the exit status.
	Exit   bool
	Status int
}

// Answer is a handler that always answers text.
func Answer(text string) func([]string) Reply {
	return func([]string) Reply { return Reply{OK: true, Text: text} }
}

// Fail is a failure answer with the message msg.
func Fail(msg string) Reply { return Reply{Text: msg} }

// Arg returns args[i], or "" when there are not that many.
func Arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// Program is a fake GTP program: the commands it knows, in the order
// List gives them.
type Program struct {
	Commands []Command
	// Unknown answers a command not in Commands; nil answers
	// "? unknown command".
	Unknown func(name string, args []string) Reply
	// Log, when not empty, is a file the program appends each command
	// line to, prefixed with its process id and a space.
	Log string
	// Every is the interval of a Stream reply's lines; 0 means 20ms.
	Every time.Duration
}

// List returns the names of the commands, one a line, as list_commands
// answers them.
func (p *Program) List() string {
	names := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		names[i] = c.Name
	}
	return strings.Join(names, "\n")
}

// Serve reads commands from in (an optional numeric id, the name, the
// arguments; blank lines are skipped), answers each on out, and returns
// the exit status: a Reply's when it exits, 0 when in ends.
func (p *Program) Serve(in io.Reader, out io.Writer) int {
	var logf *os.File
	if p.Log != "" {
		if f, err := os.OpenFile(p.Log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			logf = f
			defer f.Close()
		}
	}
	every := p.Every
	if every <= 0 {
		every = 20 * time.Millisecond
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	w := bufio.NewWriter(out)
	pending, havePending := "", false
	for {
		line := pending
		if !havePending {
			l, ok := <-lines
			if !ok {
				return 0
			}
			line = l
		}
		havePending = false
		line = strings.TrimSpace(line)
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
		r := p.reply(words[0], words[1:])
		if r.ID != "" {
			id = r.ID
		}
		switch {
		case r.Raw != "":
			w.WriteString(r.Raw)
		case r.Stream != "":
			fmt.Fprintf(w, "=%s\n%s\n", id, r.Stream)
			w.Flush()
			tick := time.NewTicker(every)
		stream:
			for {
				select {
				case <-tick.C:
					fmt.Fprintln(w, r.Stream)
					w.Flush()
				case l, ok := <-lines:
					if !ok {
						tick.Stop()
						return 0
					}
					pending, havePending = l, true
					break stream
				}
			}
			tick.Stop()
			w.WriteString("\n")
		case !r.Silent:
			status := "="
			if !r.OK {
				status = "?"
			}
			fmt.Fprintf(w, "%s%s %s\n\n", status, id, r.Text)
		}
		w.Flush()
		if r.Exit {
			return r.Status
		}
	}
}

// reply runs the handler of the command name.
func (p *Program) reply(name string, args []string) Reply {
	for _, c := range p.Commands {
		if c.Name == name {
			return c.Run(args)
		}
	}
	if p.Unknown != nil {
		return p.Unknown(name, args)
	}
	return Fail("unknown command")
}
