package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestStartWhileDatabaseHangs: gobot started on a PostgreSQL that accepts
// connections and never answers says, after "starting gobot", which
// server it is connecting to and that it does not answer (never the
// password), and stopped then (SIGTERM) says which server it gave up on,
// instead of a bare "context canceled".
func TestStartWhileDatabaseHangs(t *testing.T) {
	addr := pgtest.Silent(t)
	for k, v := range map[string]string{
		"DISCORD_TOKEN": leakToken, "GOBOT_MODE": "gateway", "GOBOT_HTTP_ADDR": "", "DISCORD_APP_ID": "1087469857499172832", "DISCORD_API_URL": "http://127.0.0.1:1/api",
		"GOBOT_DATABASE_URL": "postgres://gobot:Tr0ub%40dor@" + addr + "/gobot?connect_timeout=1", "GOBOT_LOG_LEVEL": "info",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, stderr, done := goRun(ctx)
	waitLog := func(want string) {
		t.Helper()
		for !strings.Contains(stderr.String(), want) {
			select {
			case code := <-done:
				t.Fatalf("gobot exited with %d before logging %q:\n%s", code, want, stderr.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitLog(`msg="storage: connecting to PostgreSQL" server=` + addr)
	waitLog(`msg="storage: PostgreSQL does not answer; trying again" server=` + addr)
	cancel() // SIGTERM
	if code := <-done; code != 1 {
		t.Errorf("gobot stopped while connecting exited with %d, want 1", code)
	}
	out := stderr.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last, want := lines[len(lines)-1], "gobot: storage: PostgreSQL at "+addr+" did not answer; gave up after "; !strings.HasPrefix(last, want) || !strings.Contains(last, "(context canceled)") {
		t.Errorf("last line = %q, want %q… (context canceled)…\n%s", last, want, out)
	}
	if strings.Contains(out, "Tr0ub") {
		t.Errorf("the output quotes the database password:\n%s", out)
	}
}

// TestDatabasePasswordWithReservedCharacters: a database password with
// '@' (or another character a URL reserves) left as it is in the URL
// stops gobot and migrate-db with one line that says to percent-encode
// it, quoting no piece of it: pgx would read the rest of the password as
// the host, and its error named that host.
func TestDatabasePasswordWithReservedCharacters(t *testing.T) {
	const url = "postgres://gobot:Tr0ub@dor&3@db:5432/gobot?sslmode=disable"
	const reason = "has a character in its user name or password that a URL reserves: " +
		"percent-encode it (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the password out of the URL and set PGPASSWORD to it"
	t.Setenv("DISCORD_TOKEN", leakToken)
	t.Setenv("GOBOT_DATABASE_URL", url)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "gobot: config: GOBOT_DATABASE_URL: " + reason},
		{[]string{"migrate-db", "--db", "gobot.db"}, "gobot: migrate-db: GOBOT_DATABASE_URL: storage: the database URL " + reason},
		{[]string{"migrate-db", "--db", "gobot.db", "--to", url}, "gobot: migrate-db: --to: storage: the database URL " + reason},
	} {
		var stdout, stderr logtest.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr)
		out := strings.TrimSpace(stderr.String())
		if code == 0 || out != c.want {
			t.Errorf("gobot %v = %d,\n%s\nwant an error and\n%s", c.args, code, out, c.want)
		}
		if strings.Contains(out+stdout.String(), "dor&3") || strings.Contains(out+stdout.String(), "Tr0ub") {
			t.Errorf("gobot %v quotes the password:\n%s", c.args, out)
		}
	}
}
