package runtimetest

import (
	"runtime"
	"testing"
	"time"
)

// settle is how long NoGoroutineLeft waits for goroutines to wind down:
// they end asynchronously in the runtime, after the code that ended them
// has returned.
var settle = 5 * time.Second

// NoGoroutineLeft fails t unless the number of goroutines falls back to
// before (runtime.NumGoroutine, taken before the code under test ran)
// within 5 seconds. what says when, as in "after the search".
func NoGoroutineLeft(t testing.TB, before int, what string) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines %s, %d before", n, what, before)
	}
}
