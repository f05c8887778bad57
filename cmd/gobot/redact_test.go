package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/internal/logtest"
)

const leakToken = "TVRJd01EQXdNREF3TURBd01EQXdNREF3TURBeA.GfAkeT.b0t-t0k3n-f0r-t3sts-0nly-n0t-r34l"

// echoProxy is a misbehaving proxy in front of Discord: every answer is a
// 401 whose body echoes the request's headers, Authorization included.
func echoProxy(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]any{"message": "401: Unauthorized", "echo": r.Header, "url": r.URL.String()})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTokenNotInErrorPaths runs gobot against a proxy that echoes the
// Authorization header in its error bodies, with a password in
// DISCORD_API_URL: neither the error that stops start-up (the application
// ID cannot be fetched) nor the log of a failed registration may print the
// token or the password.
func TestTokenNotInErrorPaths(t *testing.T) {
	proxy := echoProxy(t)
	const password = "pr0xy-s3cr3t-pa55"
	apiURL := strings.Replace(proxy.URL, "http://", "http://gobot:"+password+"@", 1)
	check := func(what, out string) {
		t.Helper()
		for i := 0; i+6 <= len(leakToken); i++ {
			if strings.Contains(out, leakToken[i:i+6]) {
				t.Errorf("%s contains %q, a piece of the token:\n%s", what, leakToken[i:i+6], out)
				break
			}
		}
		if strings.Contains(out, password) {
			t.Errorf("%s contains the API URL's password:\n%s", what, out)
		}
	}
	base := map[string]string{
		"DISCORD_TOKEN": leakToken, "DISCORD_API_URL": apiURL, "GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"),
		"GOBOT_LOG_LEVEL": "debug", "DISCORD_TOKEN_FILE": "", "GOBOT_GUILD_ID": "",
	}
	t.Run("start-up error", func(t *testing.T) {
		for k, v := range base {
			t.Setenv(k, v)
		}
		t.Setenv("DISCORD_APP_ID", "")
		t.Setenv("GOBOT_MODE", "gateway")
		t.Setenv("GOBOT_HTTP_ADDR", "")
		var stdout, stderr logtest.Buffer
		code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "HTTP 401") {
			t.Errorf("gobot behind an echoing proxy = %d, want 1 and the 401 reported:\n%s", code, stderr.String())
		}
		check("stderr", stderr.String())
		check("stdout", stdout.String())
	})
	t.Run("logged error", func(t *testing.T) {
		for k, v := range base {
			t.Setenv(k, v)
		}
		addr := freeAddr(t)
		t.Setenv("DISCORD_APP_ID", "1087469857499172832")
		t.Setenv("GOBOT_MODE", "http")
		t.Setenv("DISCORD_PUBLIC_KEY", strings.Repeat("ab", 32))
		t.Setenv("GOBOT_HTTP_ADDR", addr)
		// The registration's 401 stops the start, reported with the
		// proxy's echo scrubbed.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		stdout, stderr, done := goRun(ctx)
		if code := <-done; code != 1 || !strings.Contains(stderr.String(), "discord refused DISCORD_TOKEN") || !strings.Contains(stderr.String(), "HTTP 401") {
			t.Errorf("the failed registration = exit %d, not reported with its 401:\n%s", code, stderr.String())
		}
		check("stderr", stderr.String())
		check("stdout", stdout.String())
	})
}

// TestEngineAndPathErrorsHideSecrets: a secret pasted as the program of
// GOBOT_GTP_ENGINES or GOBOT_HUB_ENGINES, or as the path of GOBOT_DB, is
// not found; the error says so without printing it (exec and os quote
// what they were given), as config names such a value by its length.
func TestEngineAndPathErrorsHideSecrets(t *testing.T) {
	check := func(what string, err error) {
		t.Helper()
		if err == nil || strings.Contains(err.Error(), clientSecret) || !strings.Contains(err.Error(), " characters, not shown in case it is a secret)") {
			t.Errorf("%s = %v; want an error naming the secret by its length only", what, err)
		}
	}
	_, err := newRegistry(&config.Config{GTPEngines: map[string]string{"foo": clientSecret + " --mode gtp"}, MaxSearches: 1}, nil)
	check("newRegistry with a secret as its program", err)
	_, err = newDraughtsRegistry(context.Background(), &config.Config{HubEngines: map[string]string{"bad": clientSecret}}, io.Discard, nil)
	check("newDraughtsRegistry with a secret as its program", err)

	var stdout, stderr logtest.Buffer
	db := filepath.Join(t.TempDir(), clientSecret)
	if code := run(context.Background(), []string{"migrate-db", "--to", "postgres://gobot:pw@127.0.0.1:1/gobot", "--db", db}, nil, &stdout, &stderr); code == 0 {
		t.Errorf("migrate-db from a missing database: exit 0")
	}
	check("migrate-db from a missing database", errors.New(stderr.String()))
}

// TestShortSecretWarning: a database password too short for the log to
// mask outside a URL is named once at start-up, without its value.
func TestShortSecretWarning(t *testing.T) {
	cfg, err := config.Parse(map[string]string{"DISCORD_TOKEN": leakToken, "PGPASSWORD": "gobot",
		"GOBOT_DATABASE_URL": "postgres://gobot@db:5432/gobot"}, config.Run)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	warnShortSecrets(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTime})), cfg)
	want := `level=WARN msg="PGPASSWORD: shorter than 12 characters, so the log masks it only in URLs and connection strings, not in other text, where it could not be told from ordinary words; a longer password is masked everywhere"` + "\n"
	if buf.String() != want {
		t.Errorf("warning =\n%s\nwant\n%s", buf.String(), want)
	}
	cfg.DBPassword = "a-long-database-password"
	buf.Reset()
	warnShortSecrets(slog.New(slog.NewTextHandler(&buf, nil)), cfg)
	if buf.Len() != 0 {
		t.Errorf("a long password is warned about:\n%s", buf.String())
	}
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
