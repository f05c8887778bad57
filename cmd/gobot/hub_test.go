package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/draughts/hub"
)

// hubSession runs `gobot hub` in-process over pipes.
type hubSession struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	outR *io.PipeReader
	code chan int
}

func startHub(t *testing.T, args ...string) *hubSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &hubSession{in: inW, out: bufio.NewScanner(outR), outR: outR, code: make(chan int, 1)}
	go func() {
		var stderr strings.Builder
		code := run(context.Background(), append([]string{"hub"}, args...), inR, outW, &stderr)
		if stderr.Len() > 0 {
			t.Logf("gobot hub stderr: %s", stderr.String())
		}
		outW.Close()
		s.code <- code
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *hubSession) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(s.in, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
}

// until returns the lines read up to the first with the command, and it.
func (s *hubSession) until(t *testing.T, command string) ([]string, hub.Line) {
	t.Helper()
	var before []string
	for s.out.Scan() {
		l, err := hub.ParseLine(s.out.Text())
		if err == nil && l.Command == command {
			return before, l
		}
		before = append(before, s.out.Text())
	}
	t.Fatalf("gobot hub ended before %q: %v", command, s.out.Err())
	return nil, hub.Line{}
}

// TestHubSession drives `gobot hub` as the Hub GUI and Scan's protocol
// do: the handshake, a level set by set-param, a timed search with its
// info lines, an analysis stopped by stop, ping during it, and quit.
func TestHubSession(t *testing.T) {
	s := startHub(t, "--bot", "keen", "--seed", "1")
	s.send(t, "hub")
	before, wait := s.until(t, "wait")
	if wait.Command != "wait" || len(before) != 2 || !strings.HasPrefix(before[0], "id name=gobot version=") ||
		!strings.HasPrefix(before[1], "param name=level value=keen type=enum values=\"beginner novice") {
		t.Errorf("hub answered %q then %v", before, wait)
	}
	s.send(t, "set-param name=level value=hard", "set-param name=book value=false", "init")
	if before, _ := s.until(t, "ready"); len(before) != 0 {
		t.Errorf("before ready: %q (set-param of another engine's parameter is ignored)", before)
	}

	start := draughts.Start()
	s.send(t, "new-game", "pos pos="+start.Hub()+` moves="32-28 19-23"`, "level move-time=0.2", "go think")
	infos, done := s.until(t, "done")
	p := start
	for _, mt := range []string{"32-28", "19-23"} {
		m, _ := hub.ParseMove(&p, mt)
		p.Play(m)
	}
	mt, _ := done.Get("move")
	if _, err := hub.ParseMove(&p, mt); err != nil {
		t.Errorf("done move=%s: %v", mt, err)
	}
	if mt != "28x19x23" {
		t.Errorf("done move=%s, want 28x19x23, the only capture", mt)
	}
	// One legal move is answered at once, unsearched.
	if len(infos) != 0 {
		t.Logf("info before a forced move: %q", infos)
	}

	s.send(t, "pos", "level move-time=0.3", "go think")
	infos, done = s.until(t, "done")
	if len(infos) == 0 || !strings.HasPrefix(infos[0], "info depth=1 score=") {
		t.Errorf("a search of 0.3 s wrote no info line: %q", infos)
	}
	for _, l := range infos {
		info, err := hub.ParseLine(l)
		if err != nil || info.Command != "info" || !info.Has("nodes") || !info.Has("pv") {
			t.Errorf("info line %q does not read: %v", l, err)
		}
	}
	if _, ok := done.Get("ponder"); !ok {
		t.Errorf("done %v without ponder", done)
	}

	s.send(t, "pos", "level infinite", "go analyze")
	time.Sleep(200 * time.Millisecond)
	s.send(t, "ping")
	if _, l := s.until(t, "pong"); l.Command != "pong" {
		t.Fatal("no pong during the analysis")
	}
	s.send(t, "stop")
	_, done = s.until(t, "done")
	mt, _ = done.Get("move")
	if _, err := hub.ParseMove(&start, mt); err != nil {
		t.Errorf("after stop: done move=%s: %v", mt, err)
	}
	s.send(t, "quit")
	if code := <-s.code; code != 0 {
		t.Errorf("gobot hub exited %d after quit", code)
	}
}

func TestHubBadLevel(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"hub", "--bot", "grandmaster"}, strings.NewReader(""), &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `unknown level "grandmaster"`) {
		t.Errorf("gobot hub --bot grandmaster: exit %d, stderr %q", code, errOut.String())
	}
}

// TestHubAgainstScan plays `gobot hub` (in-process, through the Hub
// client as any GUI would) against Scan 3.1 and checks every move of both
// with the rules. Skipped unless GOBOT_SCAN names Scan's binary.
func TestHubAgainstScan(t *testing.T) {
	bin := os.Getenv("GOBOT_SCAN")
	if bin == "" {
		t.Skip("GOBOT_SCAN is not set: point it at Scan 3.1's binary (bash /work/shared/tools/build-scan.sh /tmp builds /tmp/scan-3.1/scan) to play gobot hub against Scan")
	}
	games := 2
	if n, err := strconv.Atoi(os.Getenv("GOBOT_SCAN_GAMES")); err == nil {
		games = n
	}
	ctx := context.Background()
	scan, err := hub.NewClient(ctx, hub.Spec{Name: "scan", Argv: []string{bin, "hub"}},
		hub.ClientOptions{Params: map[string]string{"book": "false", "tt-size": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	defer scan.Close()
	s := startHub(t, "--bot", "strong", "--seed", "3")
	gobot, err := hub.NewClientIO(ctx, "gobot", s.outR, s.in, hub.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("playing %v against %v", gobot.ID(), scan.ID())
	for i := 0; i < games; i++ {
		players := [2]*hub.Client{gobot, scan}
		if i%2 == 1 {
			players = [2]*hub.Client{scan, gobot}
		}
		st, err := draughts.NewState(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The position after the last irreversible move, and the moves since.
		base, since := st.Position(), []draughts.Move(nil)
		for st.MoveCount() < 200 {
			if _, over := st.Result(); over {
				break
			}
			side := st.ToMove()
			m, err := players[side].GenMove(ctx, base, since, 50*time.Millisecond)
			if err != nil {
				t.Fatalf("game %d, %s after %v: %v", i+1, players[side].Name(), st.Moves(), err)
			}
			p := st.Position()
			n, _, err := st.PlayMove(side, p.Notation(m, p.Generate(nil)))
			if err != nil {
				t.Fatalf("game %d: %s plays %v: %v", i+1, players[side].Name(), m, err)
			}
			if p.Irreversible(m) {
				base, since = n.Position(), nil
			} else {
				since = append(since, m)
			}
			st = n
		}
		r, _ := st.Result()
		t.Logf("game %d: %s (White) vs %s (Black): %s %s after %d plies", i+1, players[0].Name(), players[1].Name(), r.Text, r.Reason, st.MoveCount())
	}
	if err := gobot.Close(); err != nil {
		t.Error(err)
	}
	if code := <-s.code; code != 0 {
		t.Errorf("gobot hub exited %d", code)
	}
}

// TestHubEnginesRelayed: `gobot hub --bot hub:scan` relays Scan, an
// engine of GOBOT_HUB_ENGINES, as the draughts levels offer it. Skipped
// unless GOBOT_SCAN names Scan's binary.
func TestHubEnginesRelayed(t *testing.T) {
	bin := os.Getenv("GOBOT_SCAN")
	if bin == "" {
		t.Skip("GOBOT_SCAN is not set: point it at Scan 3.1's binary to relay it through GOBOT_HUB_ENGINES")
	}
	t.Setenv("GOBOT_HUB_ENGINES", "scan="+bin+" hub")
	s := startHub(t, "--bot", "hub:scan")
	s.send(t, "hub", "init")
	s.until(t, "ready")
	s.send(t, "pos", "level move-time=0.1", "go think")
	_, done := s.until(t, "done")
	start := draughts.Start()
	mt, _ := done.Get("move")
	if _, err := hub.ParseMove(&start, mt); err != nil {
		t.Errorf("done move=%s: %v", mt, err)
	}
	s.send(t, "quit")
	if code := <-s.code; code != 0 {
		t.Errorf("gobot hub exited %d", code)
	}
}

// badHubEngine writes a Hub engine that answers every search with
// 32-26, illegal after it, and returns its path.
func badHubEngine(t *testing.T) string {
	t.Helper()
	bad := filepath.Join(t.TempDir(), "bad.sh")
	script := `#!/bin/sh
while read c rest; do
	case $c in
	hub) echo "id name=bad version=0"; echo wait ;;
	init) echo ready ;;
	ping) echo pong ;;
	go) echo "done move=32-26" ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(bad, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestHubRelayLevels: relaying an engine of GOBOT_HUB_ENGINES, the level
// parameter's values hold it (they held the built-in levels only, not
// the value itself), and set-param may choose a built-in level and the
// engine again.
func TestHubRelayLevels(t *testing.T) {
	t.Setenv("GOBOT_HUB_ENGINES", "bad="+badHubEngine(t))
	s := startHub(t, "--bot", "hub:bad")
	s.send(t, "hub")
	before, _ := s.until(t, "wait")
	want := `param name=level value=hub:bad type=enum values="` + hubLevelNames(dbots.Builtin()) + ` hub:bad"`
	if len(before) != 2 || before[1] != want {
		t.Errorf("hub answered %q, want the level's line %q", before, want)
	}
	s.send(t, "set-param name=level value=hard", "set-param name=level value=hub:bad", "init")
	if before, _ := s.until(t, "ready"); len(before) != 0 {
		t.Errorf("set-param of the levels offered answered %q", before)
	}
	s.send(t, "quit")
	if code := <-s.code; code != 0 {
		t.Errorf("gobot hub exited %d", code)
	}
}

// TestHubEngineFailureLogged: a Hub engine of GOBOT_HUB_ENGINES that
// answers an illegal move is replaced for the move with a warning in the
// log, as docs/hub.md says.
func TestHubEngineFailureLogged(t *testing.T) {
	bad := badHubEngine(t)
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	cfg := &config.Config{HubEngines: map[string]string{"bad": bad}}
	reg, err := newDraughtsRegistry(context.Background(), cfg, io.Discard, log)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	s, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := reg.GenMove(context.Background(), "hub:bad", s, 1)
	if err != nil || m == "32-26" {
		t.Fatalf("GenMove(hub:bad) = %q, %v; want the fallback's move", m, err)
	}
	if !strings.Contains(logged.String(), "level=hub:bad") || !strings.Contains(logged.String(), "WARN") {
		t.Errorf("log = %q, want a warning naming hub:bad", logged.String())
	}
}

// TestHubDrawnPosition: a position the rules have drawn (here by
// repetition, kings only) still has its moves searched, as Scan does:
// `done` with a legal move, and no error line. gobot said "the game is
// over" and then answered the first legal move, unsearched.
func TestHubDrawnPosition(t *testing.T) {
	s := startHub(t, "--bot", "hard", "--seed", "1")
	start, err := draughts.ParseFEN("W:WK47,45:BK4,6")
	if err != nil {
		t.Fatal(err)
	}
	s.send(t, "hub")
	s.until(t, "wait")
	s.send(t, "init")
	s.until(t, "ready")
	s.send(t, "pos pos="+start.Hub()+` moves="47-42 4-9 42-47 9-4 47-42 4-9 42-47 9-4"`, "level depth=2", "go think")
	before, done := s.until(t, "done")
	for _, l := range before {
		if strings.HasPrefix(l, "error") {
			t.Errorf("a drawn position answered %q", l)
		}
	}
	mt, _ := done.Get("move")
	if _, err := hub.ParseMove(&start, mt); err != nil {
		t.Errorf("done move=%s: %v", mt, err)
	}
	if len(before) == 0 {
		t.Errorf("no info line before done move=%s: the move was not searched", mt)
	}
	s.send(t, "quit")
	if code := <-s.code; code != 0 {
		t.Errorf("gobot hub exited %d after quit", code)
	}
}
