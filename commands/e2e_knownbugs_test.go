package commands_test

// Acceptance tests for bugs found by the end-to-end suite and not fixed yet
// go here. They fail until fixed, so they run only when asked:
//
//	GOBOT_E2E_KNOWN_BUGS=1 go test -run KnownBug ./commands/
//
// Each test starts with knownBug(t). Once a bug is fixed, move its test into
// the e2e_*_test.go file of its theme. (None is open today.)

import (
	"os"
	"testing"
)

// knownBug skips a known-bug test unless GOBOT_E2E_KNOWN_BUGS is set.
func knownBug(t *testing.T) {
	t.Helper()
	if os.Getenv("GOBOT_E2E_KNOWN_BUGS") == "" {
		t.Skip("a known bug; set GOBOT_E2E_KNOWN_BUGS=1 to run")
	}
}

var _ = knownBug // kept for the next known bug
