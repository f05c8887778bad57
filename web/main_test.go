package web

import (
	"os"
	"testing"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestMain runs the tests through pgtest, for the test of several workers
// on one PostgreSQL database (it skips, saying so, without PostgreSQL).
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
