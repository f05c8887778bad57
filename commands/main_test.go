package commands_test

import (
	"os"
	"testing"

	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestMain lets tests run the bot on PostgreSQL (newEnvPostgres): pgtest
// starts a cluster when the first one asks and stops it at the end.
func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m))
}
