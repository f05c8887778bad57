package draughts

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scanHub is Scan 3.1 running in Hub mode, a peer for the rules: its
// "pos" command refuses an illegal move with an error line, so each move
// of a candidate set can be asked about, each answer closed by a "ping".
type scanHub struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startScan(t *testing.T, bin string) *scanHub {
	t.Helper()
	cmd := exec.Command(bin, "hub")
	cmd.Dir = filepath.Dir(bin) // Scan reads scan.ini and data/ there
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	h := &scanHub{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	h.out.Buffer(make([]byte, 1<<16), 1<<20)
	t.Cleanup(func() {
		fmt.Fprintln(h.in, "quit")
		h.in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	h.send(t, "hub")
	h.until(t, "wait")
	h.send(t, "set-param name=tt-size value=16", "set-param name=book value=false", "init")
	h.until(t, "ready")
	return h
}

func (h *scanHub) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(h.in, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatalf("writing to Scan: %v", err)
	}
}

// until reads lines up to one that starts with word, and returns the lines
// before it and the line itself.
func (h *scanHub) until(t *testing.T, word string) (before []string, line string) {
	t.Helper()
	for h.out.Scan() {
		l := h.out.Text()
		if l == word || strings.HasPrefix(l, word+" ") {
			return before, l
		}
		before = append(before, l)
	}
	t.Fatalf("Scan stopped before %q: %v", word, h.out.Err())
	return nil, ""
}

// legal asks Scan which of the moves (in the Hub form) are legal in the
// position (in the Hub form), all at once.
func (h *scanHub) legal(t *testing.T, pos string, moves []string) []bool {
	t.Helper()
	var b strings.Builder
	for _, m := range moves {
		fmt.Fprintf(&b, "pos pos=%s moves=\"%s\"\nping\n", pos, m)
	}
	h.send(t, strings.TrimSuffix(b.String(), "\n"))
	out := make([]bool, len(moves))
	for i := range moves {
		before, _ := h.until(t, "pong")
		out[i] = true
		for _, l := range before {
			if strings.HasPrefix(l, "error") {
				if strings.Contains(l, "bad position") {
					t.Fatalf("Scan refuses the position %s: %s", pos, l)
				}
				out[i] = false
			}
		}
	}
	return out
}

// hubMove writes m as the Hub protocol does: start, end and, for a
// capture, every piece taken.
func hubMove(m Move) string {
	if !m.IsCapture() {
		return m.String()
	}
	s := m.String()
	for _, q := range m.Captured.Squares() {
		s += "x" + q.String()
	}
	return s
}

// candidates returns every move the side to move could be thought to
// have: each capture sequence of each piece, ended or not, of any length,
// and each step or king's slide in any direction (backwards too).
func candidates(p *Position) []Move {
	var out []Move
	add := func(m Move) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	empty := p.Empties()
	for _, s := range p.Pieces(p.Turn()).Squares() {
		for _, r := range p.CaptureRoutes(s, false) {
			add(r.Move())
		}
		i := int(bitOf(s))
		king := p.Kings(p.Turn()).Has(s)
		for _, d := range steps {
			for l := i + d; uint64(empty)>>uint(l)&1 != 0; l += d {
				add(Move{From: s, To: squareOf(l)})
				if !king {
					break
				}
			}
		}
	}
	return out
}

func TestScanAgrees(t *testing.T) {
	bin := os.Getenv("GOBOT_SCAN")
	if bin == "" {
		t.Skip("GOBOT_SCAN is not set: point it at Scan 3.1's binary (bash /work/shared/tools/build-scan.sh /tmp builds /tmp/scan-3.1/scan) to compare the legal moves with Scan's")
	}
	games := 100
	if n, err := strconv.Atoi(os.Getenv("GOBOT_SCAN_GAMES")); err == nil {
		games = n
	}
	h := startScan(t, bin)
	rng := rand.New(rand.NewPCG(2024, 11))
	var positions, asked, legalMoves, withCaptures, withKings, searched int
	compare := func(p Position) {
		t.Helper()
		moves := p.Generate(nil)
		if len(moves) == 0 {
			return
		}
		cands := candidates(&p)
		hub := make([]string, len(cands))
		for i, m := range cands {
			hub[i] = hubMove(m)
		}
		answers := h.legal(t, p.Hub(), hub)
		for i, m := range cands {
			if mine := slices.Contains(moves, m); mine != answers[i] {
				t.Errorf("%s (%s): %s is legal for us: %v, for Scan: %v", p.FEN(), p.Hub(), hub[i], mine, answers[i])
			}
		}
		for _, m := range moves {
			if !slices.Contains(cands, m) {
				t.Errorf("%s: our legal move %s is not among the candidates", p.FEN(), hubMove(m))
			}
		}
		positions++
		asked += len(cands)
		legalMoves += len(moves)
		if moves[0].IsCapture() {
			withCaptures++
		}
		if p.Kings(White)|p.Kings(Black) != 0 {
			withKings++
		}
		// Scan's own choice is one of our legal moves.
		if positions%25 == 0 {
			h.send(t, "pos pos="+p.Hub(), "level depth=3", "go think")
			_, done := h.until(t, "done")
			move := ""
			for _, f := range strings.Fields(done) {
				if v, ok := strings.CutPrefix(f, "move="); ok {
					move = v
				}
			}
			m, err := p.ParseMove(move)
			if err != nil || !slices.Contains(moves, m) {
				t.Errorf("%s: Scan plays %q, which we read as %v, %v", p.FEN(), move, m, err)
			}
			searched++
		}
	}
	for g := 0; g < games; g++ {
		p := Start()
		for ply := 0; ply < 200; ply++ {
			compare(p)
			moves := p.Generate(nil)
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		for i := 0; i < 50; i++ {
			compare(randomPosition(rng))
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("Scan agrees on %d positions (%d with a capture, %d with kings): %d candidate moves asked, %d legal; %d of Scan's searched moves legal for us",
		positions, withCaptures, withKings, asked, legalMoves, searched)
}
