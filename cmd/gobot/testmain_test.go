package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// workerEnv, set to 1, makes the test binary run as gobot itself (the
// workers of the multi-process tests) instead of running tests.
const workerEnv = "GOBOT_TEST_RUN_AS_GOBOT"

// TestMain stops the throwaway PostgreSQL cluster the tests may start, and
// runs the binary as gobot when a multi-process test starts it as a worker.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, nil, os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(pgtest.Main(m))
}
