package config

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// apiPassword is the password of a rate-limit proxy in DISCORD_API_URL.
const apiPassword = "pr0xy-s3cr3t-pa55"

// TestAPIURLPasswordNeverPrinted: a password in DISCORD_API_URL is used,
// but never printed by the start-up line, the log or an error.
func TestAPIURLPasswordNeverPrinted(t *testing.T) {
	url := "https://gobot:" + apiPassword + "@proxy.example:8443/api/v10"
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_API_URL": url}, Run)
	if err != nil {
		t.Fatal(err)
	}
	if c.APIURL != url {
		t.Errorf("APIURL = %q, want the URL as given (the client needs the password)", c.APIURL)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("starting gobot", "config", c)
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting gobot", "config", *c)
	outputs := map[string]string{
		"String": c.String(), "%v": fmt.Sprintf("%v", c), "%#v": fmt.Sprintf("%#v", *c), "slog": buf.String(),
	}
	_, err = Parse(map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_API_URL": url + "?x=1"}, Run)
	if err == nil {
		t.Fatal("Parse(DISCORD_API_URL with a query) = nil error")
	}
	outputs["error"] = err.Error()
	for what, out := range outputs {
		if strings.Contains(out, apiPassword) {
			t.Errorf("%s prints the API URL's password:\n%s", what, out)
		}
	}
	if !strings.Contains(c.String(), "proxy.example:8443") {
		t.Errorf("String() = %q, want the API host still shown", c.String())
	}
}

// TestTokenFilePathNeverPrinted: DISCORD_TOKEN_FILE set to the token itself
// by mistake must not print the token in the error that says the file
// cannot be read.
func TestTokenFilePathNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "tok")
	if err := os.WriteFile(bad, []byte("a\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{testToken, filepath.Join(dir, testToken), bad} {
		_, err := Parse(map[string]string{"DISCORD_TOKEN_FILE": path}, Run)
		if err == nil || !strings.Contains(err.Error(), "DISCORD_TOKEN_FILE") {
			t.Fatalf("Parse(DISCORD_TOKEN_FILE=...) = %v, want an error naming the variable", err)
		}
		assertNoToken(t, "DISCORD_TOKEN_FILE error", err.Error())
		if strings.Contains(err.Error(), dir) {
			t.Errorf("DISCORD_TOKEN_FILE error quotes the path: %s", err)
		}
	}
}

// TestRedactHandler: whatever reaches the log, a REST error quoting a
// proxy's echo of the Authorization header included, has the token and the
// API password replaced.
func TestRedactHandler(t *testing.T) {
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken,
		"DISCORD_API_URL": "https://gobot:" + apiPassword + "@proxy.example/api/v10"}, Run)
	if err != nil {
		t.Fatal(err)
	}
	echo := errors.New(`commands: discord GET /oauth2/applications/@me: HTTP 401: {"headers":{"Authorization":"Bot ` + testToken + `"},"url":"https://gobot:` + apiPassword + `@proxy.example"}`)
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		var h slog.Handler = slog.NewTextHandler(&buf, nil)
		if format == "json" {
			h = slog.NewJSONHandler(&buf, nil)
		}
		log := slog.New(c.RedactHandler(h))
		log.Error("could not register "+testToken, "err", echo)
		log.With("token", testToken).WithGroup("g").Warn("discordgo", "msg", fmt.Sprintf("Bot %s", testToken), "n", 3,
			slog.Group("inner", "err", echo, "s", []string{testToken}))
		log.Info("plain", "n", 42, "ok", true)
		out := buf.String()
		assertNoToken(t, "log "+format, out)
		if strings.Contains(out, apiPassword) {
			t.Errorf("log %s prints the API password:\n%s", format, out)
		}
		for _, want := range []string{"HTTP 401", "could not register", "42", "[redacted]"} {
			if !strings.Contains(out, want) {
				t.Errorf("log %s lost %q:\n%s", format, want, out)
			}
		}
	}
	if got := c.Redact("x " + testToken + " y " + apiPassword); got != "x [redacted] y [redacted]" {
		t.Errorf("Redact() = %q", got)
	}
}

// clientSecret is an OAuth2 client secret as the Developer Portal shows one.
const clientSecret = "Zq3vX9-c1ient_s3cret_Kp7mWn2"

// TestClientSecretNeverPrinted: DISCORD_CLIENT_SECRET is kept for the
// board page's code exchange, and redacted like the token everywhere else:
// the start-up line, the log (also where an error quotes it) and errors.
func TestClientSecretNeverPrinted(t *testing.T) {
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_CLIENT_SECRET": clientSecret}, Run)
	if err != nil {
		t.Fatal(err)
	}
	if c.ClientSecret.Reveal() != clientSecret {
		t.Errorf("ClientSecret = %q, want the secret as given", c.ClientSecret.Reveal())
	}
	var buf bytes.Buffer
	log := slog.New(c.RedactHandler(slog.NewTextHandler(&buf, nil)))
	log.Info("starting gobot", "config", c)
	log.Warn("token endpoint answered: bad client_secret="+clientSecret, "err", errors.New("echo "+clientSecret))
	var jbuf bytes.Buffer
	slog.New(slog.NewJSONHandler(&jbuf, nil)).Info("starting gobot", "config", *c)
	outputs := map[string]string{
		"String": c.String(), "%v": fmt.Sprintf("%v", c), "%#v": fmt.Sprintf("%#v", *c), "log": buf.String(), "json": jbuf.String(),
		"Redact": c.Redact("client_secret=" + clientSecret),
	}
	for what, out := range outputs {
		if strings.Contains(out, clientSecret) {
			t.Errorf("%s prints the client secret:\n%s", what, out)
		}
	}
	if !strings.Contains(c.String(), "client_secret=[redacted]") {
		t.Errorf("String() = %q, want client_secret=[redacted]", c.String())
	}
	if _, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_CLIENT_SECRET": "a b"}, Run); err == nil || !strings.Contains(err.Error(), "DISCORD_CLIENT_SECRET") {
		t.Errorf("Parse(a malformed secret) = %v, want an error naming DISCORD_CLIENT_SECRET", err)
	}
}

// TestDatabaseURLPasswordReservedCharacters: a password in
// GOBOT_DATABASE_URL with a character a URL reserves, left as it is, is
// refused with a line that says what to encode and quotes no piece of it
// (pgx and net/url would read such a URL differently: pgx printed the
// password's end as the host it could not find). Encoded, it is accepted,
// and Redact removes it as written and as meant; so it does PGPASSWORD.
func TestDatabaseURLPasswordReservedCharacters(t *testing.T) {
	const reserved = "config: GOBOT_DATABASE_URL: has a character in its user name or password that a URL reserves: " +
		"percent-encode it (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the password out of the URL and set PGPASSWORD to it"
	for _, password := range []string{"Tr0ub@dor&3", "Tr0ub/dor&3", "Tr0ub?dor&3", "Tr0ub#dor&3", "Tr0ub%dor&3", "Tr0ub/4321"} {
		_, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_DATABASE_URL": "postgres://gobot:" + password + "@db:5432/gobot?sslmode=disable"}, Run)
		if err == nil || err.Error() != reserved {
			t.Errorf("Parse(a password %q as it is) = %v, want\n%s", password, err, reserved)
			continue
		}
		for i := 0; i+3 <= len(password); i++ {
			if piece := password[i : i+3]; strings.Contains(err.Error(), piece) && !strings.Contains(reserved, piece) {
				t.Errorf("the refusal of a password %q quotes %q", password, piece)
			}
		}
	}
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_DATABASE_URL": "postgres://gobot:Tr0ub%40dor%263-xy@db:5432/gobot?sslmode=disable",
		"PGPASSWORD": "an0ther/s3cret"}, Run)
	if err != nil {
		t.Fatalf("Parse(the password percent-encoded) = %v", err)
	}
	if got, want := c.Redact("Tr0ub%40dor%263-xy Tr0ub@dor&3-xy an0ther/s3cret"), "[redacted] [redacted] [redacted]"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}

	_, err = Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_DATABASE_URL": "postgres://gobot:hunter2@db:5432/gobot?sslmode=bogus"}, Run)
	if want := "config: GOBOT_DATABASE_URL: cannot be used: failed to configure TLS (sslmode is invalid)"; err == nil || err.Error() != want {
		t.Errorf("Parse(sslmode=bogus) = %v, want %s", err, want)
	}
}

// TestShortPasswordsMaskedOnlyInURLs: a short or common database password
// ("gobot", "x"), as compose setups use, is masked where it is a password
// (a URL's, a connection string's password=) but not in ordinary text:
// masking every "gobot" or "x" garbled the log ("starting [redacted]",
// "e[redacted]pected") and so gave the password away. ShortSecrets names
// it for the start-up warning, without its value.
func TestShortPasswordsMaskedOnlyInURLs(t *testing.T) {
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "PGPASSWORD": "x",
		"GOBOT_DATABASE_URL": "postgres://gobot:gobot@127.0.0.1:7866/gobot?sslmode=disable"}, Run)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(c.RedactHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	log.Info("starting gobot", "err", errors.New("invalid body length: expected at most 5"))
	log.Warn("connect", "err", errors.New(`dial postgres://gobot:gobot@127.0.0.1:7866/gobot: password authentication failed for user "gobot"`))
	log.Warn("conn", "s", "host=db user=gobot password=x")
	want := `level=INFO msg="starting gobot" err="invalid body length: expected at most 5"
level=WARN msg=connect err="dial postgres://gobot:[redacted]@127.0.0.1:7866/gobot: password authentication failed for user \"gobot\""
level=WARN msg=conn s="host=db user=gobot password=[redacted]"
`
	if buf.String() != want {
		t.Errorf("log =\n%s\nwant\n%s", buf.String(), want)
	}
	if got, want := strings.Join(c.ShortSecrets(), ", "), "PGPASSWORD, the password in GOBOT_DATABASE_URL"; got != want {
		t.Errorf("ShortSecrets() = %q, want %q", got, want)
	}
}
