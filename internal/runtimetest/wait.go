package runtimetest

import (
	"testing"
	"time"
)

// waitBound is how long WaitFor waits: it tells a hang from slowness, and
// a condition that comes true ends the wait at once.
var waitBound = 10 * time.Second

// WaitFor waits until ok reports true, polling, and fails t when it has
// not within 10 seconds. what names the condition in the failure, as in
// "the worker to take the move".
func WaitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
