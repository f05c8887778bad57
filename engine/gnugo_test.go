package engine

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// The scoring corpus (estimate_corpus_test.go) asks GNU Go for its verdict
// on the dead stones and plays games against it. This package's tests cannot
// use the GTP client of engine/gtp, which imports this package; the
// referee tests that compare the rules with GNU Go live in engine/gtp and
// use that client.

const gnugoPath = "/usr/games/gnugo"

// gtpClient speaks GTP to one engine.
type gtpClient struct {
	name  string
	w     io.Writer
	r     *bufio.Reader
	close func() error
}

// send sends one command and returns whether it succeeded and the response
// text (without "= " or "? ").
func (c *gtpClient) send(t testing.TB, cmd string) (bool, string) {
	t.Helper()
	if _, err := io.WriteString(c.w, cmd+"\n"); err != nil {
		t.Fatalf("%s: sending %q: %v", c.name, cmd, err)
	}
	var lines []string
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: reading the response to %q: %v (so far %q)", c.name, cmd, err, lines)
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
	resp := strings.Join(lines, "\n")
	if len(resp) == 0 || (resp[0] != '=' && resp[0] != '?') {
		t.Fatalf("%s: response to %q is %q", c.name, cmd, resp)
	}
	return resp[0] == '=', strings.TrimSpace(resp[1:])
}

func (c *gtpClient) must(t testing.TB, cmd string) string {
	t.Helper()
	ok, resp := c.send(t, cmd)
	if !ok {
		t.Fatalf("%s: %q failed: %s", c.name, cmd, resp)
	}
	return resp
}

// startGNUGo starts GNU Go in GTP mode with Chinese rules and args, or skips
// the test when it is not installed. Its close quits it and may be called
// before the test ends, which closes it otherwise.
func startGNUGo(t testing.TB, args ...string) *gtpClient {
	t.Helper()
	path := gnugoPath
	if _, err := os.Stat(path); err != nil {
		p, lerr := exec.LookPath("gnugo")
		if lerr != nil {
			t.Skipf("GNU Go is not installed (no %s and no gnugo on PATH; Debian package gnugo): skipping", gnugoPath)
		}
		path = p
	}
	cmd := exec.Command(path, append([]string{"--mode", "gtp", "--chinese-rules"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting GNU Go: %v", err)
	}
	c := &gtpClient{name: "gnugo", w: in, r: bufio.NewReader(out)}
	c.close = sync.OnceValue(func() error {
		io.WriteString(in, "quit\n")
		in.Close()
		return cmd.Wait()
	})
	t.Cleanup(func() {
		if err := c.close(); err != nil {
			t.Errorf("GNU Go exited with %v", err)
		}
	})
	return c
}
