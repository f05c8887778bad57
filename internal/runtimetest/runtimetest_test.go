package runtimetest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestCPUTime works until the CPU time rises, for at most 5 seconds.
func TestCPUTime(t *testing.T) {
	start := CPUTime()
	for x, end := 0, time.Now().Add(5*time.Second); CPUTime() == start && time.Now().Before(end); x++ {
		_ = fmt.Sprint(x)
	}
	if used := CPUTime() - start; runtime.GOOS != "windows" && runtime.GOOS != "plan9" && used <= 0 {
		t.Errorf("CPUTime() rose by %v over 5 s of work, want more than 0", used)
	}
}

func TestNoGoroutineLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	done := make(chan struct{})
	go func() { <-done }()
	rec := &recorder{TB: t}
	close(done)
	NoGoroutineLeft(rec, before, "after the goroutine ended")
	if rec.msg != "" {
		t.Errorf("a goroutine that ended was reported: %s", rec.msg)
	}

	// Three left running, so that a goroutine of the test runner's own
	// ending meanwhile (CI failed once so, the count falling back to
	// before with one left) cannot hide them.
	stop := make(chan struct{})
	defer close(stop)
	base := runtime.NumGoroutine()
	for range 3 {
		go func() { <-stop }()
	}
	defer func(d time.Duration) { settle = d }(settle)
	settle = 100 * time.Millisecond
	rec = &recorder{TB: t}
	NoGoroutineLeft(rec, base, "while three run")
	if want := fmt.Sprintf(" goroutines while three run, %d before", base); !strings.HasSuffix(rec.msg, want) {
		t.Errorf("goroutines still running: %q, want a report ending %q", rec.msg, want)
	}
}

type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

func (r *recorder) Fatalf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

// TestWaitFor: a condition that comes true ends the wait when it does; one
// that never does fails the test, naming it.
func TestWaitFor(t *testing.T) {
	polls := 0
	WaitFor(t, "the third poll", func() bool { polls++; return polls == 3 })
	if polls != 3 {
		t.Errorf("WaitFor polled %d times for a condition true on the third, want 3", polls)
	}
	defer func(d time.Duration) { waitBound = d }(waitBound)
	waitBound = 20 * time.Millisecond
	rec := &recorder{TB: t}
	WaitFor(rec, "Godot", func() bool { return false })
	if rec.msg != "timed out waiting for Godot" {
		t.Errorf("a condition never true: %q, want \"timed out waiting for Godot\"", rec.msg)
	}
}
