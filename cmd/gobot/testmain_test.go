package main

import (
	"os"
	"testing"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster the tests may start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
