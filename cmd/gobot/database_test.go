package main

import (
	"context"
	"strings"
	"testing"
)

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
		var stdout, stderr syncBuffer
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
