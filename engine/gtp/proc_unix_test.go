//go:build unix

package gtp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCloseKillsWrappedProgram(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to wrap the engine with")
	}
	// A wrapper script that starts the program as its child and waits. The
	// program hangs in genmove, deaf to its closed input: only a kill ends
	// it, and Close must kill both.
	spec, log := fakeSpec(t, "hang")
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `exec 3<&0; "$@" <&3 & echo $! > ` + pidFile + `; wait`
	wrapped := Spec{Name: "wrapped", Argv: append([]string{sh, "-c", script, "sh"}, spec.Argv...)}
	c, err := StartClient(context.Background(), wrapped, ClientOptions{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Command(ctx, time.Hour, "genmove b")
	}()
	time.Sleep(200 * time.Millisecond)
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("read pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	cancel()
	<-done
	// The program child is killed with its group; once reaped by init it no
	// longer exists. Poll rather than time the assertion.
	for i := 0; i < 500; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the engine behind the wrapper (pid %d) survived Close; log %s", pid, log)
}
