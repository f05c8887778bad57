package gtp

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/internal/runtimetest"
)

func TestParsePrograms(t *testing.T) {
	tests := []struct {
		in   string
		want []Spec
		err  bool
	}{
		{"", nil, false},
		{"gnugo=/usr/games/gnugo --mode gtp --level 10", []Spec{{"gnugo", []string{"/usr/games/gnugo", "--mode", "gtp", "--level", "10"}}}, false},
		{" GnuGo = gnugo --mode gtp ; katago=/opt/kata/katago gtp -config '/etc/kata go.cfg'\n# comment\n\npachi=\"/opt/my pachi\" -t =2000",
			[]Spec{
				{"gnugo", []string{"gnugo", "--mode", "gtp"}},
				{"katago", []string{"/opt/kata/katago", "gtp", "-config", "/etc/kata go.cfg"}},
				{"pachi", []string{"/opt/my pachi", "-t", "=2000"}},
			}, false},
		{"x=a 'b c'd \"\"", []Spec{{"x", []string{"a", "b cd", ""}}}, false},
		{"gnugo", nil, true},                      // no command
		{"gnugo=", nil, true},                     // empty command
		{"=gnugo --mode gtp", nil, true},          // no name
		{"gnu go=gnugo", nil, true},               // space in name
		{"a=x; A=y", nil, true},                   // duplicate
		{"a=x 'unclosed", nil, true},              // quote
		{"gtp:gnugo=/usr/games/gnugo", nil, true}, // colon in name
	}
	for _, tt := range tests {
		got, err := ParsePrograms(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParsePrograms(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err != nil {
			var se *SpecError
			if !errors.Is(err, ErrInvalidSpec) || !errors.As(err, &se) {
				t.Errorf("ParsePrograms(%q) error = %v, want a *SpecError (ErrInvalidSpec)", tt.in, err)
			}
			continue
		}
		if !slices.EqualFunc(got, tt.want, func(a, b Spec) bool { return a.Name == b.Name && slices.Equal(a.Argv, b.Argv) }) {
			t.Errorf("ParsePrograms(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// String writes what ParsePrograms reads back.
		for _, s := range got {
			back, err := ParsePrograms(s.String())
			if err != nil || len(back) != 1 || !slices.Equal(back[0].Argv, s.Argv) {
				t.Errorf("ParsePrograms(%q) = %q, %v; want %q", s.String(), back, err, s)
			}
		}
	}
}

// logLines returns the commands the fake program logged, by process.
func logLines(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read log: %v", err)
	}
	byPid := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		pid, cmd, _ := strings.Cut(line, " ")
		// Drop the command id.
		if _, rest, ok := strings.Cut(cmd, " "); ok && cmd[0] >= '0' && cmd[0] <= '9' {
			cmd = rest
		}
		byPid[pid] = append(byPid[pid], cmd)
	}
	return byPid
}

// newGameWith plays moves (GTP vertices, alternating from Black) on a new
// game.
func newGameWith(t *testing.T, size, handicap int, moves ...string) *engine.Game {
	t.Helper()
	return enginetest.NewGame(t, engine.Config{Size: size, Handicap: handicap}, moves...)
}

func TestGenMoveSyncs(t *testing.T) {
	c, log := fakeClient(t, "ok", ClientOptions{})
	ctx := context.Background()
	g := newGameWith(t, 9, 2, "E5", "C7")
	m, err := c.GenMove(ctx, g, 0)
	if err != nil {
		t.Fatalf("GenMove: %v", err)
	}
	if err := g.Play(m); err != nil {
		t.Fatalf("Play(%v): %v", m, err)
	}
	if err := g.Play(engine.PassMove(g.ToPlay())); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GenMove(ctx, g, 0); err != nil {
		t.Fatalf("second GenMove: %v", err)
	}
	lines := logLines(t, log)
	if len(lines) != 1 {
		t.Fatalf("%d processes, want 1", len(lines))
	}
	var got []string
	for _, cmds := range lines {
		got = cmds
	}
	want := []string{"protocol_version", "name", "version", "list_commands",
		"boardsize 9", "clear_board", "komi 7.5", "set_free_handicap C3 G7",
		"play W E5", "play B C7", "genmove W",
		// Only the new move is sent the second time.
		"play B pass", "genmove W"}
	if !slices.Equal(got, want) {
		t.Errorf("engine received\n%q\nwant\n%q", got, want)
	}
}

// TestTimeSettingsEveryGame: the time for a move goes to the program with
// time_settings before its first genmove, again only when it changes, and
// again after every clear_board: Pachi, for one, forgets its time settings
// there and would play the next game at its own default.
func TestTimeSettingsEveryGame(t *testing.T) {
	c, log := fakeClient(t, "ok", ClientOptions{})
	ctx := context.Background()
	g := newGameWith(t, 9, 0)
	for _, moveTime := range []time.Duration{2 * time.Second, 2 * time.Second, 3 * time.Second} {
		m, err := c.GenMove(ctx, g, moveTime)
		if err != nil {
			t.Fatalf("GenMove: %v", err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.GenMove(ctx, newGameWith(t, 9, 0), 3*time.Second); err != nil {
		t.Fatalf("GenMove in a new game: %v", err)
	}
	var got []string
	for _, cmds := range logLines(t, log) {
		got = cmds[4:]
	}
	want := []string{"boardsize 9", "clear_board", "komi 7.5", "time_settings 0 2 1", "genmove B",
		"genmove W", "time_settings 0 3 1", "genmove B",
		"boardsize 9", "clear_board", "komi 7.5", "time_settings 0 3 1", "genmove B"}
	if !slices.Equal(got, want) {
		t.Errorf("engine received\n%q\nwant\n%q", got, want)
	}
}

func TestResyncAfterUndo(t *testing.T) {
	c, log := fakeClient(t, "ok", ClientOptions{})
	ctx := context.Background()
	g := newGameWith(t, 5, 0, "C3", "B2")
	if err := c.Sync(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(ctx, g); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cmds := range logLines(t, log) {
		got = cmds[4:]
	}
	want := []string{"boardsize 5", "clear_board", "komi 7.5", "play B C3", "play W B2",
		"boardsize 5", "clear_board", "komi 7.5", "play B C3"}
	if !slices.Equal(got, want) {
		t.Errorf("engine received\n%q\nwant\n%q", got, want)
	}
}

func TestCrashReplays(t *testing.T) {
	c, log := fakeClient(t, "crash-once", ClientOptions{})
	g := newGameWith(t, 9, 0, "E5", "D4", "pass")
	m, err := c.GenMove(context.Background(), g, 0)
	if err != nil {
		t.Fatalf("GenMove: %v", err)
	}
	if err := g.Check(m); err != nil {
		t.Errorf("GenMove = %v, illegal: %v", m, err)
	}
	if n := c.Starts(); n != 2 {
		t.Errorf("Starts() = %d, want 2 (one crash, one restart)", n)
	}
	lines := logLines(t, log)
	if len(lines) != 2 {
		t.Fatalf("%d processes logged, want 2", len(lines))
	}
	replayed := false
	for _, cmds := range lines {
		if len(cmds) > 4 && cmds[len(cmds)-1] == "genmove W" {
			want := []string{"boardsize 9", "clear_board", "komi 7.5", "play B E5", "play W D4", "play B pass", "genmove W"}
			replayed = slices.Equal(cmds[4:], want)
			if !replayed {
				t.Errorf("fresh process received %q, want %q", cmds[4:], want)
			}
		}
	}
	if !replayed {
		t.Errorf("no process received the replayed game: %q", lines)
	}
}

func TestProgramFailures(t *testing.T) {
	tests := []struct {
		mode   string
		opts   ClientOptions
		want   error
		starts int
	}{
		{"crash", ClientOptions{}, ErrExited, 2},
		{"hang", ClientOptions{MoveTimeout: 300 * time.Millisecond}, ErrTimeout, 1},
		{"garbage", ClientOptions{}, ErrProtocol, 2},
		{"badid", ClientOptions{}, ErrProtocol, 2},
		{"illegal", ClientOptions{}, ErrIllegal, 1},
		{"nohandshake", ClientOptions{}, ErrStart, 2},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			c, _ := fakeClient(t, tt.mode, tt.opts)
			g := newGameWith(t, 9, 0, "E5")
			_, err := c.GenMove(context.Background(), g, 0)
			if !errors.Is(err, tt.want) {
				t.Fatalf("GenMove = %v, want %v", err, tt.want)
			}
			if n := c.Starts(); n != tt.starts {
				t.Errorf("Starts() = %d, want %d", n, tt.starts)
			}
			// The client recovers: the next command starts a fresh
			// process when the last one was killed.
			if tt.mode == "hang" {
				if _, err := c.Command(context.Background(), 0, "name"); err != nil {
					t.Errorf("Command after timeout: %v", err)
				}
				if n := c.Starts(); n != 2 {
					t.Errorf("Starts() after recovery = %d, want 2", n)
				}
			}
		})
	}
}

// TestSlowStart: a program that reads its first command late (a large
// network loading) fails the handshake under Timeout, and starts under a
// longer StartTimeout, which bounds only that first answer.
func TestSlowStart(t *testing.T) {
	c, _ := fakeClient(t, "slow-start", ClientOptions{Timeout: 100 * time.Millisecond})
	if _, err := c.Command(context.Background(), 0, "name"); !errors.Is(err, ErrStart) || !errors.Is(err, ErrTimeout) {
		t.Errorf("Command with Timeout 100ms = %v, want ErrStart and ErrTimeout", err)
	}
	c, _ = fakeClient(t, "slow-start", ClientOptions{Timeout: 100 * time.Millisecond, StartTimeout: 10 * time.Second})
	if _, err := c.Command(context.Background(), 0, "name"); err != nil {
		t.Errorf("Command with StartTimeout 10s = %v, want the name", err)
	}
}

func TestCancel(t *testing.T) {
	c, _ := fakeClient(t, "hang", ClientOptions{})
	g := newGameWith(t, 9, 0)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.GenMove(ctx, g, 0)
		errc <- err
	}()
	// Cancel while the program is (most likely) thinking; either way the
	// call must end with the context's error.
	time.Sleep(300 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("GenMove(cancelled) = %v, want context.Canceled", err)
	}
}

func TestCloseDuringCommand(t *testing.T) {
	spec, _ := fakeSpec(t, "hang")
	c := NewClient(spec, ClientOptions{})
	g := newGameWith(t, 9, 0)
	errc := make(chan error, 1)
	go func() {
		_, err := c.GenMove(context.Background(), g, 0)
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Errorf("GenMove interrupted by Close = %v, want ErrClosed", err)
	}
}

func TestCloseKillsAndLeavesNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	spec, _ := fakeSpec(t, "ok")
	c, err := StartClient(context.Background(), spec, ClientOptions{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if name, version := c.Identity(); name != "Fake" || version != "1.0" {
		t.Errorf("Identity() = %q, %q, want Fake, 1.0", name, version)
	}
	c.mu.Lock()
	proc := c.p.cmd
	c.mu.Unlock()
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if proc.ProcessState == nil {
		t.Errorf("the engine process was not reaped after Close")
	}
	if _, err := c.Command(context.Background(), 0, "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("Command after Close = %v, want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	runtimetest.NoGoroutineLeft(t, before, "after Close")
}

func TestParseScore(t *testing.T) {
	tests := []struct {
		in     string
		winner engine.Color
		margin float64
		err    bool
	}{
		{"B+3.5", engine.Black, 3.5, false},
		{"W+12", engine.White, 12, false},
		{"0", engine.Empty, 0, false},
		{"W+R", engine.White, 0, false},
		{"X+3", engine.Empty, 0, true},
		{"B3", engine.Empty, 0, true},
		{"B+-2", engine.Empty, 0, true},
	}
	for _, tt := range tests {
		w, m, err := ParseScore(tt.in)
		if (err != nil) != tt.err || w != tt.winner || m != tt.margin {
			t.Errorf("ParseScore(%q) = %v, %v, %v; want %v, %v, error %v", tt.in, w, m, err, tt.winner, tt.margin, tt.err)
		}
	}
}

func TestGNUGo(t *testing.T) {
	c := NewClient(gnugoSpec(t, "--level", "1"), ClientOptions{})
	defer c.Close()
	ctx := context.Background()
	g := newGameWith(t, 9, 3, "E5", "E3")
	for i := 0; i < 4; i++ {
		m, err := c.GenMove(ctx, g, 0)
		if err != nil {
			t.Fatalf("GenMove: %v", err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("GNU Go played %v: %v", m, err)
		}
	}
	if name, _ := c.Identity(); name != "GNU Go" {
		t.Errorf("Identity() name = %q, want GNU Go", name)
	}
	// A small finished position: Black owns three columns, White two.
	g = newGameWith(t, 5, 0, "C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5", "pass", "pass")
	winner, margin, err := c.FinalScore(ctx, g)
	if err != nil {
		t.Fatalf("FinalScore: %v", err)
	}
	// Black 15 points, White 10 and komi 7.5.
	if winner != engine.White || margin != 2.5 {
		t.Errorf("FinalScore = %v+%v, want white+2.5", winner, margin)
	}
}

// TestCloseExitStatus: Close reports a program that answers quit and then
// exits with a failure status, and returns nil, without stopping the
// process twice, when it quits cleanly, dies without answering quit or
// died before Close (then quit cannot even be sent).
func TestCloseExitStatus(t *testing.T) {
	for _, tt := range []struct {
		mode string
		code int // the exit status Close reports; 0 for none
	}{{"ok", 0}, {"quit-fail", 4}, {"quit-crash", 0}, {"exit-idle", 0}} {
		t.Run(tt.mode, func(t *testing.T) {
			spec, _ := fakeSpec(t, tt.mode)
			c, err := StartClient(context.Background(), spec, ClientOptions{})
			if err != nil {
				t.Fatalf("StartClient: %v", err)
			}
			if tt.mode == "exit-idle" {
				// Let it end, so that Close finds its input closed.
				time.Sleep(200 * time.Millisecond)
			}
			err = c.Close()
			var exit *exec.ExitError
			switch {
			case tt.code == 0 && err != nil:
				t.Errorf("Close = %v, want nil", err)
			case tt.code != 0 && (!errors.As(err, &exit) || exit.ExitCode() != tt.code):
				t.Errorf("Close = %v, want exit status %d", err, tt.code)
			}
			if err := c.Close(); err != nil {
				t.Errorf("second Close = %v, want nil", err)
			}
		})
	}
}
