package storage_test

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// TestCheckPostgresURL: a URL whose password has a character a URL
// reserves, left as it is, is refused before pgx reads it (pgx and
// net/url would split it differently, and pgx's errors quoted the
// password's end as a host); so are URLs pgx refuses, with pgx's reason;
// no refusal quotes a piece of the password.
func TestCheckPostgresURL(t *testing.T) {
	const reserved = "storage: the database URL has a character in its user name or password that a URL reserves: " +
		"percent-encode it (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the password out of the URL and set PGPASSWORD to it"
	const notAllowed = "storage: the database URL has a character in its user name or password that a URL does not allow as it is: " +
		"percent-encode it (a space as %20, @ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the password out of the URL and set PGPASSWORD to it"
	tests := []struct {
		url, want string // want "" for a URL that is fine
	}{
		{"postgres://gobot:s3cret@db:5432/gobot?sslmode=disable", ""},
		{"postgresql://gobot:Tr0ub%40dor%263@db/gobot", ""},
		{"postgres://gobot@db/gobot?application_name=me@home", ""},
		{"postgres://gobot:s3cret@[::1]:5432,db2:5433/gobot", ""},
		{"postgres://db/gobot", ""},
		{"postgres://gobot:Tr0ub@dor&3@db:5432/gobot?sslmode=disable", reserved},
		{"postgres://gobot:Tr0ub/dor&3@db:5432/gobot", reserved},
		{"postgres://gobot:Tr0ub/4321@db:5432/gobot", reserved},
		{"postgres://gobot:Tr0ub?dor&3@db:5432/gobot", reserved},
		{"postgres://gobot:Tr0ub#dor&3@db:5432/gobot", reserved},
		{"postgres://gobot:Tr0ub%dor&3@db:5432/gobot", reserved},
		{"postgres://gobot:Tr0ub?4321@db:5432/gobot", reserved},
		// A space, or a mix that neither net/url nor pgx reads (they
		// said to check the host and port).
		{"postgres://gobot:Tr0ub dor&3@db:5432/gobot", notAllowed},
		{"postgres://gobot:Tr0ub@dor/w?rd#%@db:5432/gobot", notAllowed},
		{"mysql://gobot:Tr0ubdor&3@db/gobot", "storage: the database URL is not a postgres:// URL (such as postgres://gobot:password@db:5432/gobot)"},
		{"postgres://gobot:Tr0ubdor&3@db:port/gobot", "storage: the database URL cannot be read as a URL: check its host and port (such as postgres://gobot:password@db:5432/gobot)"},
		{"postgres://gobot:Tr0ubdor&3@db:5432/gobot?sslmode=bogus", "storage: the database URL cannot be used: failed to configure TLS (sslmode is invalid)"},
	}
	for _, tt := range tests {
		err := storage.CheckPostgresURL(tt.url)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckPostgresURL(%s) = %v, want nil", tt.url, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.Is(err, storage.ErrInvalid)):
			t.Errorf("CheckPostgresURL(%s) = %v, want %s (ErrInvalid)", tt.url, err, tt.want)
		case err != nil && (strings.Contains(err.Error(), "Tr0ub") || strings.Contains(err.Error(), "dor&3")):
			t.Errorf("CheckPostgresURL(%s) quotes the password: %v", tt.url, err)
		}
	}
	_, err := storage.OpenPostgres(context.Background(), "postgres://gobot:Tr0ub@dor&3@127.0.0.1:1/gobot", storage.Options{})
	if err == nil || err.Error() != reserved {
		t.Errorf("OpenPostgres(a password with @) = %v, want %s", err, reserved)
	}
}

// TestOpenPostgresUnresponsive: a server that accepts connections and
// never answers does not hold OpenPostgres in silence: it logs the server
// it connects to (host:port, not the password), logs each attempt that
// timed out and tries again, and when its context ends says which server
// did not answer.
func TestOpenPostgresUnresponsive(t *testing.T) {
	addr := pgtest.Silent(t)
	var log logtest.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := storage.OpenPostgres(ctx, "postgres://gobot:Tr0ub%40dor@"+addr+"/gobot?connect_timeout=1", storage.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	want := "storage: PostgreSQL at " + addr + " did not answer; gave up after "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("OpenPostgres(a server that never answers) = %v, want %q… (context.DeadlineExceeded)", err, want)
	}
	out := log.String()
	for _, want := range []string{
		`msg="storage: connecting to PostgreSQL" server=` + addr,
		`msg="storage: PostgreSQL does not answer; trying again" server=` + addr + " attempt=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
	if s := out + err.Error(); strings.Contains(s, "Tr0ub") {
		t.Errorf("the log or the error quotes the password:\n%s", s)
	}
}

// TestOpenPostgresRefused: a server that answers with an error (here, no
// such database) stops the start at once, with the server's answer alone:
// not the TLS attempt pgx made before it under sslmode=prefer, which the
// server refused and which misled admins into looking at TLS.
func TestOpenPostgresRefused(t *testing.T) {
	u, err := url.Parse(pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/no_such_db"
	q := u.Query()
	q.Set("sslmode", "prefer")
	q.Del("search_path")
	u.RawQuery = q.Encode()
	_, err = storage.OpenPostgres(context.Background(), u.String(), storage.Options{})
	want := "storage: connect to PostgreSQL at " + u.Host + `: FATAL: database "no_such_db" does not exist (SQLSTATE 3D000)`
	if err == nil || err.Error() != want {
		t.Errorf("OpenPostgres(no such database) = %v, want %q", err, want)
	}
}
