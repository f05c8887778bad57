package config

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/gobot-dev/gobot/engine/clock"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the configuration table in ../README.md")

// testToken looks like a real bot token; its 4-grams appear nowhere else in
// the configuration's output.
const testToken = "MTA4NzQ2OTg1NzQ5OTE3MjgzMg.GqZ7vX.Yb3kQw9RfP0uLs2TnVc8JhEoDaMi6xKz1ByWgN"

var testKey = strings.Repeat("ab", 32)

func TestParse(t *testing.T) {
	keyBytes, _ := hex.DecodeString(testKey)
	tests := []struct {
		name     string
		env      map[string]string
		purpose  Purpose
		want     *Config
		wantErr  []string // variables named in the error, in order
		sentinel error
	}{
		{
			name: "defaults",
			env:  map[string]string{"DISCORD_TOKEN": testToken},
			want: &Config{
				Token: testToken, APIURL: "https://discord.com/api/v10", Mode: ModeGateway,
				DBPath: "gobot.db", LogLevel: slog.LevelInfo, LogFormat: LogText,
				MaxSearches: runtime.NumCPU(), ChallengeTTL: 24 * time.Hour, ScoringTTL: 24 * time.Hour, DefaultClock: clock.Default(),
				ShutdownTimeout: 8 * time.Second,
			},
		},
		{
			name: "everything set",
			env: map[string]string{
				"DISCORD_TOKEN": testToken, "DISCORD_APP_ID": "1087469857499172832", "DISCORD_PUBLIC_KEY": testKey,
				"DISCORD_API_URL": "http://127.0.0.1:9999/api/v10/", "GOBOT_MODE": "HTTP", "GOBOT_HTTP_ADDR": "127.0.0.1:9000",
				"GOBOT_DB": "/data/gobot.db", "GOBOT_GUILD_ID": "123456789012345678",
				"GOBOT_GTP_ENGINES": "gnugo=/usr/games/gnugo --mode gtp --level 10; katago = katago gtp -config a=b.cfg\n",
				"GOBOT_LOG_LEVEL":   "debug", "GOBOT_LOG_FORMAT": "json", "GOBOT_MAX_SEARCHES": "3", "GOBOT_REVIEW_ENGINE": "gtp:KataGo",
				"GOBOT_CHALLENGE_TTL": "2h", "GOBOT_SCORING_TTL": "90m", "GOBOT_SHUTDOWN_TIMEOUT": "5s", "GOBOT_DEFAULT_CLOCK": "Live",
			},
			want: &Config{
				Token: testToken, AppID: "1087469857499172832", PublicKey: keyBytes, APIURL: "http://127.0.0.1:9999/api/v10",
				Mode: ModeHTTP, HTTPAddr: "127.0.0.1:9000", DBPath: "/data/gobot.db", GuildID: "123456789012345678",
				GTPEngines:   map[string]string{"gnugo": "/usr/games/gnugo --mode gtp --level 10", "katago": "katago gtp -config a=b.cfg"},
				ReviewEngine: "gtp:katago",
				LogLevel:     slog.LevelDebug, LogFormat: LogJSON, MaxSearches: 3,
				ChallengeTTL: 2 * time.Hour, ScoringTTL: 90 * time.Minute, ShutdownTimeout: 5 * time.Second,
				DefaultClock: clock.Control{System: clock.ByoYomi, Main: 10 * time.Minute, Periods: 5, Period: 30 * time.Second},
			},
		},
		{
			name: "http mode defaults its address",
			env:  map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "http", "DISCORD_PUBLIC_KEY": testKey},
			want: &Config{
				Token: testToken, PublicKey: keyBytes, APIURL: "https://discord.com/api/v10", Mode: ModeHTTP, HTTPAddr: ":8080",
				DBPath: "gobot.db", LogLevel: slog.LevelInfo, LogFormat: LogText,
				MaxSearches: runtime.NumCPU(), ChallengeTTL: 24 * time.Hour, ScoringTTL: 24 * time.Hour, DefaultClock: clock.Default(), ShutdownTimeout: 8 * time.Second,
			},
		},
		{
			name: "empty values mean unset",
			env:  map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "", "GOBOT_DB": "", "GOBOT_LOG_LEVEL": ""},
			want: &Config{
				Token: testToken, APIURL: "https://discord.com/api/v10", Mode: ModeGateway,
				DBPath: "gobot.db", LogLevel: slog.LevelInfo, LogFormat: LogText,
				MaxSearches: runtime.NumCPU(), ChallengeTTL: 24 * time.Hour, ScoringTTL: 24 * time.Hour, DefaultClock: clock.Default(), ShutdownTimeout: 8 * time.Second,
			},
		},
		{
			name: "token with a trailing newline",
			env:  map[string]string{"DISCORD_TOKEN": testToken + "\n"},
			want: &Config{
				Token: testToken, APIURL: "https://discord.com/api/v10", Mode: ModeGateway,
				DBPath: "gobot.db", LogLevel: slog.LevelInfo, LogFormat: LogText,
				MaxSearches: runtime.NumCPU(), ChallengeTTL: 24 * time.Hour, ScoringTTL: 24 * time.Hour, DefaultClock: clock.Default(), ShutdownTimeout: 8 * time.Second,
			},
		},
		{
			name:    "offline needs no token",
			env:     map[string]string{"GOBOT_MODE": "http"},
			purpose: Offline,
			want: &Config{
				APIURL: "https://discord.com/api/v10", Mode: ModeHTTP, HTTPAddr: ":8080",
				DBPath: "gobot.db", LogLevel: slog.LevelInfo, LogFormat: LogText,
				MaxSearches: runtime.NumCPU(), ChallengeTTL: 24 * time.Hour, ScoringTTL: 24 * time.Hour, DefaultClock: clock.Default(), ShutdownTimeout: 8 * time.Second,
			},
		},
		{name: "no token", env: map[string]string{}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrMissing},
		{name: "http without key", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "http"}, wantErr: []string{"DISCORD_PUBLIC_KEY"}, sentinel: ErrMissing},
		{name: "token and file", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_TOKEN_FILE": "/run/secrets/token"}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrConflict},
		{name: "token with Bot prefix", env: map[string]string{"DISCORD_TOKEN": "Bot " + testToken}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrInvalid},
		{name: "token in quotes", env: map[string]string{"DISCORD_TOKEN": `"` + testToken + `"`}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrInvalid},
		{name: "token in single quotes", env: map[string]string{"DISCORD_TOKEN": "'" + testToken + "'"}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrInvalid},
		{name: "token with space", env: map[string]string{"DISCORD_TOKEN": testToken[:20] + " " + testToken[20:]}, wantErr: []string{"DISCORD_TOKEN"}, sentinel: ErrInvalid},
		{name: "missing token file", env: map[string]string{"DISCORD_TOKEN_FILE": "/nonexistent/gobot-token"}, wantErr: []string{"DISCORD_TOKEN_FILE"}, sentinel: ErrInvalid},
		{name: "bad app id", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_APP_ID": "my-bot"}, wantErr: []string{"DISCORD_APP_ID"}, sentinel: ErrInvalid},
		{name: "key not hex", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_PUBLIC_KEY": strings.Repeat("zz", 32)}, wantErr: []string{"DISCORD_PUBLIC_KEY"}, sentinel: ErrInvalid},
		{name: "key too short", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_PUBLIC_KEY": "abcd"}, wantErr: []string{"DISCORD_PUBLIC_KEY"}, sentinel: ErrInvalid},
		{name: "api url without scheme", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_API_URL": "discord.com/api"}, wantErr: []string{"DISCORD_API_URL"}, sentinel: ErrInvalid},
		{name: "api url ftp", env: map[string]string{"DISCORD_TOKEN": testToken, "DISCORD_API_URL": "ftp://discord.com/api"}, wantErr: []string{"DISCORD_API_URL"}, sentinel: ErrInvalid},
		{name: "bad mode", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "websocket"}, wantErr: []string{"GOBOT_MODE"}, sentinel: ErrInvalid},
		{name: "addr without port", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_HTTP_ADDR": "localhost"}, wantErr: []string{"GOBOT_HTTP_ADDR"}, sentinel: ErrInvalid},
		{name: "addr bad port", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_HTTP_ADDR": ":99999"}, wantErr: []string{"GOBOT_HTTP_ADDR"}, sentinel: ErrInvalid},
		{name: "bad guild", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GUILD_ID": "12ab"}, wantErr: []string{"GOBOT_GUILD_ID"}, sentinel: ErrInvalid},
		{name: "engine without command", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": "gnugo="}, wantErr: []string{"GOBOT_GTP_ENGINES"}, sentinel: ErrInvalid},
		{name: "engine without equals", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": "/usr/games/gnugo --mode gtp"}, wantErr: []string{"GOBOT_GTP_ENGINES"}, sentinel: ErrInvalid},
		{name: "engine bad name", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": "Gnu Go=gnugo"}, wantErr: []string{"GOBOT_GTP_ENGINES"}, sentinel: ErrInvalid},
		{name: "review engine not configured", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_REVIEW_ENGINE": "gtp:katago"}, wantErr: []string{"GOBOT_REVIEW_ENGINE"}, sentinel: ErrInvalid},
		{name: "review engine unknown", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_REVIEW_ENGINE": "leela"}, wantErr: []string{"GOBOT_REVIEW_ENGINE"}, sentinel: ErrInvalid},
		{name: "engine twice", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": "g=a;g=b"}, wantErr: []string{"GOBOT_GTP_ENGINES"}, sentinel: ErrInvalid},
		{name: "bad level", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_LOG_LEVEL": "verbose"}, wantErr: []string{"GOBOT_LOG_LEVEL"}, sentinel: ErrInvalid},
		{name: "bad format", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_LOG_FORMAT": "xml"}, wantErr: []string{"GOBOT_LOG_FORMAT"}, sentinel: ErrInvalid},
		{name: "searches zero", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MAX_SEARCHES": "0"}, wantErr: []string{"GOBOT_MAX_SEARCHES"}, sentinel: ErrInvalid},
		{name: "searches word", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MAX_SEARCHES": "many"}, wantErr: []string{"GOBOT_MAX_SEARCHES"}, sentinel: ErrInvalid},
		{name: "ttl no unit", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_CHALLENGE_TTL": "24"}, wantErr: []string{"GOBOT_CHALLENGE_TTL"}, sentinel: ErrInvalid},
		{name: "ttl too short", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_SCORING_TTL": "10s"}, wantErr: []string{"GOBOT_SCORING_TTL"}, sentinel: ErrInvalid},
		{name: "bad default clock", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_DEFAULT_CLOCK": "fischer 3d"}, wantErr: []string{"GOBOT_DEFAULT_CLOCK"}, sentinel: ErrInvalid},
		{name: "shutdown negative", env: map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_SHUTDOWN_TIMEOUT": "-1s"}, wantErr: []string{"GOBOT_SHUTDOWN_TIMEOUT"}, sentinel: ErrInvalid},
		{
			name:     "several problems on one line",
			env:      map[string]string{"GOBOT_MODE": "http", "GOBOT_LOG_LEVEL": "loud"},
			wantErr:  []string{"DISCORD_TOKEN", "DISCORD_PUBLIC_KEY", "GOBOT_LOG_LEVEL"},
			sentinel: ErrMissing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.env, tt.purpose)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Parse() error = %v, want nil", err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Parse() mismatch (-want +got):\n%s", diff)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse() = %v, want an error naming %v", got, tt.wantErr)
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse() error = %T %v, want config.Errors", err, err)
			}
			var names []string
			for _, e := range errs {
				names = append(names, e.Var)
			}
			if diff := cmp.Diff(tt.wantErr, names); diff != "" {
				t.Errorf("Parse() error %q names (-want +got):\n%s", err, diff)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("Parse() error = %v, want errors.Is %v", err, tt.sentinel)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "config: ") {
				t.Errorf("Parse() error = %q, want one line starting with \"config: \"", msg)
			}
			for _, n := range tt.wantErr {
				if !strings.Contains(msg, n) {
					t.Errorf("Parse() error = %q, does not name %s", msg, n)
				}
			}
		})
	}
}

// TestGTPEngines: GOBOT_GTP_ENGINES is read by gtp.ParsePrograms, the one
// reader of NAME=COMMAND lists (`gobot arena -gtp` reads the same), and a
// bad list is one line saying what is wrong.
func TestGTPEngines(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
		err  string
	}{
		{"GnuGo = /usr/games/gnugo --mode gtp; # off: pachi=pachi\nkata.1=katago gtp -config '/etc/kata go.cfg'",
			map[string]string{"gnugo": "/usr/games/gnugo --mode gtp", "kata.1": "katago gtp -config '/etc/kata go.cfg'"}, ""},
		{"/usr/games/gnugo --mode gtp", nil, `config: GOBOT_GTP_ENGINES: entry "/usr/games/gnugo --mode gtp" is not NAME=COMMAND`},
		{"Gnu Go=gnugo", nil, `config: GOBOT_GTP_ENGINES: name "Gnu Go" must be 1 to 32 letters, digits, '-', '_' or '.'`},
		{"gtp:gnugo=gnugo", nil, `config: GOBOT_GTP_ENGINES: name "gtp:gnugo" must be 1 to 32 letters, digits, '-', '_' or '.'`},
		{"gnugo= ", nil, `config: GOBOT_GTP_ENGINES: program "gnugo" has no command`},
		{"g=a;G=b", nil, `config: GOBOT_GTP_ENGINES: program "g" is listed twice`},
		{"kata=katago -config '/etc/kata go.cfg", nil, `config: GOBOT_GTP_ENGINES: program "kata": command "katago -config '/etc/kata go.cfg" has an unclosed ' quote`},
	}
	review := map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": "gnugo=gnugo --mode gtp", "GOBOT_REVIEW_ENGINE": "gtp:katago"}
	if _, err := Parse(review, Run); err == nil || err.Error() != `config: GOBOT_REVIEW_ENGINE: "gtp:katago" is neither mcts nor gtp:NAME for a program of GOBOT_GTP_ENGINES` {
		t.Errorf("GOBOT_REVIEW_ENGINE=gtp:katago: Parse() error = %v", err)
	}
	for _, tt := range tests {
		got, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_GTP_ENGINES": tt.in}, Run)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || !errors.Is(err, ErrInvalid) {
				t.Errorf("GOBOT_GTP_ENGINES=%q: Parse() error = %v, want %q (ErrInvalid)", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("GOBOT_GTP_ENGINES=%q: Parse() error = %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got.GTPEngines); diff != "" {
			t.Errorf("GOBOT_GTP_ENGINES=%q: GTPEngines (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestTokenInQuotes: a token in quotes, as docker's --env-file passes
// `DISCORD_TOKEN="…"`, is refused saying so, not sent to Discord, whose
// refusal would send the operator to reset a token that is right.
func TestTokenInQuotes(t *testing.T) {
	for _, tok := range []string{`"` + testToken + `"`, "'" + testToken + "'"} {
		_, err := Parse(map[string]string{"DISCORD_TOKEN": tok}, Run)
		const want = "config: DISCORD_TOKEN: is wrapped in quotes, which are not part of a token: remove them (an --env-file keeps quotes as part of the value)"
		if err == nil || err.Error() != want {
			t.Errorf("Parse of a token in quotes = %v, want %q", err, want)
		}
	}
}

func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content string
		wantErr bool
	}{
		{"plain", testToken, false},
		{"trailing newline", testToken + "\n", false},
		{"crlf", testToken + "\r\n", false},
		{"two newlines", testToken + "\n\n", false},
		{"empty", "", true},
		{"only newline", "\n", true},
		{"two lines", testToken + "\nother\n", true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("token%d", i))
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Parse(map[string]string{"DISCORD_TOKEN_FILE": path}, Run)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "DISCORD_TOKEN_FILE") {
					t.Fatalf("Parse() error = %v, want one naming DISCORD_TOKEN_FILE", err)
				}
				assertNoToken(t, "error", err.Error())
				return
			}
			if err != nil {
				t.Fatalf("Parse() error = %v", err)
			}
			if c.Token.Reveal() != testToken {
				t.Errorf("Token.Reveal() has %d bytes, want the file's token (%d bytes)", len(c.Token.Reveal()), len(testToken))
			}
		})
	}
}

// assertNoToken fails if out contains any 4-character piece of testToken.
func assertNoToken(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i+4 <= len(testToken); i++ {
		if piece := testToken[i : i+4]; strings.Contains(out, piece) {
			t.Errorf("%s contains %q, a piece of the token:\n%s", what, piece, out)
			return
		}
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	c, err := Parse(map[string]string{
		"DISCORD_TOKEN": testToken, "DISCORD_APP_ID": "1087469857499172832", "DISCORD_PUBLIC_KEY": testKey,
		"GOBOT_MODE": "http", "GOBOT_GTP_ENGINES": "gnugo=/usr/games/gnugo --mode gtp",
	}, Run)
	if err != nil {
		t.Fatal(err)
	}
	type holder struct {
		Cfg  Config
		Ptr  *Config
		Tok  Secret
		Toks []Secret
	}
	h := holder{Cfg: *c, Ptr: c, Tok: c.Token, Toks: []Secret{c.Token}}
	outputs := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s", "%T"} {
		outputs["Config "+verb] = fmt.Sprintf(verb, *c)
		outputs["*Config "+verb] = fmt.Sprintf(verb, c)
		outputs["Secret "+verb] = fmt.Sprintf(verb, c.Token)
		outputs["holder "+verb] = fmt.Sprintf(verb, h)
		outputs["&holder "+verb] = fmt.Sprintf(verb, &h)
	}
	outputs["String"] = c.String()
	outputs["GoString"] = c.GoString()
	outputs["Println"] = fmt.Sprintln(c, *c, c.Token, h)
	if b, err := json.Marshal(h); err != nil {
		t.Errorf("json.Marshal: %v", err)
	} else {
		outputs["json"] = string(b)
	}
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		var hd slog.Handler = slog.NewTextHandler(&buf, nil)
		if format == "json" {
			hd = slog.NewJSONHandler(&buf, nil)
		}
		log := slog.New(hd)
		log.Info("start", "config", c, "value", *c, "token", c.Token, "holder", h)
		log.Info("group", slog.Any("cfg", c), slog.Group("g", "tok", c.Token))
		outputs["slog "+format] = buf.String()
	}
	for what, out := range outputs {
		assertNoToken(t, what, out)
		if out == "" {
			t.Errorf("%s is empty", what)
		}
	}
	if !strings.Contains(outputs["String"], "token="+redacted) {
		t.Errorf("String() = %q, want token=%s", outputs["String"], redacted)
	}
	if c.Token.Reveal() != testToken {
		t.Errorf("Reveal() does not return the token")
	}
	if got := fmt.Sprint(Secret("")); got != "" {
		t.Errorf("empty Secret prints %q, want \"\"", got)
	}
}

func TestVars(t *testing.T) {
	vars := Vars()
	seen := map[string]bool{}
	for _, v := range vars {
		if v.Description == "" {
			t.Errorf("%s has no description", v.Name)
		}
		if seen[v.Name] {
			t.Errorf("%s listed twice", v.Name)
		}
		seen[v.Name] = true
	}
	for _, name := range []string{"DISCORD_TOKEN", "DISCORD_TOKEN_FILE", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DISCORD_API_URL",
		"GOBOT_MODE", "GOBOT_HTTP_ADDR", "GOBOT_DB", "GOBOT_GUILD_ID", "GOBOT_GTP_ENGINES", "GOBOT_LOG_LEVEL"} {
		if !seen[name] {
			t.Errorf("Vars() lacks %s", name)
		}
	}
	md := Markdown()
	if got, want := strings.Count(md, "\n"), len(vars)+2; got != want {
		t.Errorf("Markdown() has %d lines, want %d:\n%s", got, want, md)
	}
	for _, want := range []string{"| `GOBOT_DB` | `gobot.db` |", "| `GOBOT_HTTP_ADDR` | :8080 in http mode, unset otherwise |", "| `DISCORD_TOKEN` | — |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown() lacks %q:\n%s", want, md)
		}
	}
}

// TestREADMETable keeps README.md's configuration table equal to Markdown().
func TestREADMETable(t *testing.T) {
	const begin, end = "<!-- config:begin -->\n", "<!-- config:end -->"
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no README.md: %v", err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Skipf("README.md has no %q ... %q markers around its configuration table", strings.TrimSpace(begin), end)
	}
	got, want := s[i+len(begin):j], Markdown()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md configuration table is stale; run go test ./config -update\n%s", cmp.Diff(want, got))
}

func TestPublicKeyUsable(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "http", "DISCORD_PUBLIC_KEY": hex.EncodeToString(pub)}, Run)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("1700000000{\"type\":1}")
	if !ed25519.Verify(c.PublicKey, msg, ed25519.Sign(priv, msg)) {
		t.Error("PublicKey does not verify a signature made with its private key")
	}
}

func TestDatabaseAndShards(t *testing.T) {
	const url = "postgres://gobot:hunter2@db:5432/gobot"
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // a variable named in the error; "" for none
		id, n   int
	}{
		{"postgres and shards", map[string]string{"GOBOT_DATABASE_URL": url, "GOBOT_SHARD_ID": "2", "GOBOT_SHARD_COUNT": "4"}, "", 2, 4},
		{"one shard on bbolt", map[string]string{"GOBOT_SHARD_COUNT": "1"}, "", 0, 1},
		{"shards need postgres", map[string]string{"GOBOT_SHARD_COUNT": "2"}, "GOBOT_SHARD_COUNT", 0, 0},
		{"shard beyond the count", map[string]string{"GOBOT_DATABASE_URL": url, "GOBOT_SHARD_ID": "4", "GOBOT_SHARD_COUNT": "4"}, "GOBOT_SHARD_ID", 0, 0},
		{"not a postgres URL", map[string]string{"GOBOT_DATABASE_URL": "mysql://gobot:hunter2@db/gobot"}, "GOBOT_DATABASE_URL: not a postgres:// URL", 0, 0},
		{"a URL in GOBOT_DB", map[string]string{"GOBOT_DB": url}, "GOBOT_DB: its value (38 characters, not shown in case it holds a password) is a database URL or connection string, not a file: GOBOT_DB is the path of the bbolt file; for PostgreSQL set GOBOT_DATABASE_URL instead", 0, 0},
		{"a connection string in GOBOT_DB", map[string]string{"GOBOT_DB": "host=db user=gobot password=hunter2"}, "GOBOT_DB: its value (35 characters", 0, 0},
		{"a file with = in its name", map[string]string{"GOBOT_DB": "/data/a=b.db"}, "", 0, 0},
		{"a port that is no number", map[string]string{"GOBOT_DATABASE_URL": "postgres://gobot:hunter2@db:notaport/gobot"}, "GOBOT_DATABASE_URL: cannot be read as a URL: check its host and port", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.env["DISCORD_TOKEN"] = testToken
			c, err := Parse(tt.env, Run)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse() = %v, want an error naming %s", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the error shows the database password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse() = %v", err)
			}
			if c.ShardID != tt.id || c.ShardCount != tt.n {
				t.Errorf("shard %d of %d, want %d of %d", c.ShardID, c.ShardCount, tt.id, tt.n)
			}
			if s := c.String() + fmt.Sprint(c.LogValue()); strings.Contains(s, "hunter2") {
				t.Errorf("the configuration prints the database password: %s", s)
			}
			if c.DatabaseURL != "" {
				if got := c.Redact("dial " + url + ": refused"); strings.Contains(got, "hunter2") {
					t.Errorf("Redact leaves the database password in %q", got)
				}
				// The bbolt file is not used: the start-up line names none.
				if s := c.String() + fmt.Sprint(c.LogValue()); strings.Contains(s, "gobot.db") || !strings.Contains(s, " db= ") {
					t.Errorf("the configuration names the unused bbolt file: %s", s)
				}
			}
		})
	}
}

// TestSecretInTheWrongVariable: the token or the client secret pasted
// into an ID's variable (they sit next to the IDs on Discord's pages) is
// refused without being printed; a short wrong value is still quoted.
func TestSecretInTheWrongVariable(t *testing.T) {
	for _, name := range []string{"DISCORD_APP_ID", "GOBOT_GUILD_ID"} {
		_, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, name: testToken}, Run)
		if err == nil || strings.Contains(err.Error(), testToken[:12]) || !strings.Contains(err.Error(), name+": its value (72 characters, not shown in case it is a secret) is not a Discord ID") {
			t.Errorf("%s set to the token: %v", name, err)
		}
		_, err = Parse(map[string]string{"DISCORD_TOKEN": testToken, name: "my-bot"}, Run)
		if err == nil || !strings.Contains(err.Error(), `"my-bot" is not a Discord ID`) {
			t.Errorf("%s=my-bot: %v", name, err)
		}
	}
}

// TestNoErrorPrintsASecret: the token pasted into any variable that
// refuses it is never printed, in whole or in part (no 8 characters of
// it), while a short wrong value is still quoted.
func TestNoErrorPrintsASecret(t *testing.T) {
	vars := []string{
		"DISCORD_APP_ID", "DISCORD_API_URL", "GOBOT_MODE", "GOBOT_HTTP_ADDR", "GOBOT_GUILD_ID",
		"GOBOT_LOG_LEVEL", "GOBOT_LOG_FORMAT", "GOBOT_MAX_SEARCHES", "GOBOT_SHARD_COUNT", "GOBOT_SHARD_ID",
		"GOBOT_CHALLENGE_TTL", "GOBOT_SCORING_TTL", "GOBOT_SHUTDOWN_TIMEOUT", "GOBOT_REVIEW_ENGINE",
		"GOBOT_GTP_ENGINES", "GOBOT_HUB_ENGINES", "GOBOT_DEFAULT_CLOCK",
	}
	values := map[string]string{
		"the token":           testToken,
		"a client secret":     "Zq3vX9bK_Lm2Np8Rs4Tu6Wy0Ab1Cd5Ef",
		"the public key":      testKey,
		"a program and token": "katago " + testToken,
	}
	for _, name := range vars {
		for what, v := range values {
			env := map[string]string{"DISCORD_TOKEN": testToken, name: v}
			if name == "DISCORD_APP_ID" || name == "GOBOT_HTTP_ADDR" {
				env["GOBOT_MODE"] = "http"
				env["DISCORD_PUBLIC_KEY"] = testKey
			}
			_, err := Parse(env, Run)
			if err == nil {
				if what == "the token" {
					t.Errorf("%s set to %s: accepted", name, what)
				}
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, name) {
				t.Errorf("%s set to %s: %v does not name it", name, what, err)
			}
			for i := 0; i+8 <= len(v); i++ {
				part := v[i : i+8]
				if strings.Contains(strings.ToLower(msg), strings.ToLower(part)) && strings.TrimSpace(part) == part && !strings.Contains(name, strings.ToUpper(part)) {
					t.Errorf("%s set to %s: %v prints %q of it", name, what, err, part)
					break
				}
			}
		}
	}
	for name, want := range map[string]string{
		"GOBOT_MODE":          `"websocket" is not gateway or http`,
		"GOBOT_LOG_LEVEL":     `"websocket" is not debug`,
		"GOBOT_GTP_ENGINES":   `entry "websocket" is not NAME=COMMAND`,
		"GOBOT_DEFAULT_CLOCK": `"websocket"`,
	} {
		if _, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, name: "websocket"}, Run); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=websocket: %v, want %s", name, err, want)
		}
	}
}

// TestIgnoredAndUnwiseSettings: the shard variables, gateway-only, are
// ignored in http mode with a warning (they were refused without
// PostgreSQL and silently ignored with it); a shutdown timeout longer than
// docker stop waits is warned of; a TTL of centuries is refused (it was
// shown as "1 year"); the JSON start-up record gives durations as text.
func TestIgnoredAndUnwiseSettings(t *testing.T) {
	http := map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_MODE": "http", "DISCORD_PUBLIC_KEY": testKey,
		"GOBOT_SHARD_COUNT": "4", "GOBOT_SHARD_ID": "9", "GOBOT_SHUTDOWN_TIMEOUT": "1h"}
	c, err := Parse(http, Run)
	if err != nil {
		t.Fatalf("Parse(shards in http mode) = %v", err)
	}
	want := []string{
		"GOBOT_SHARD_ID and GOBOT_SHARD_COUNT are for gateway mode only: ignored in http mode, where any worker answers any interaction",
		"GOBOT_SHUTDOWN_TIMEOUT=1h0m0s is longer than the 10s docker stop waits before it kills gobot: in a container, raise its stop grace period to match (docker stop --time, compose's stop_grace_period)",
	}
	if !slices.Equal(c.Warnings, want) || c.ShardCount != 0 || c.ShardID != 0 {
		t.Errorf("Warnings = %q (shards %d/%d), want %q", c.Warnings, c.ShardID, c.ShardCount, want)
	}
	for _, bad := range []struct{ name, value, want string }{
		{"GOBOT_CHALLENGE_TTL", "2562047h", "config: GOBOT_CHALLENGE_TTL: 2562047h0m0s is longer than the maximum 720h (30 days)"},
		{"GOBOT_SCORING_TTL", "721h", "config: GOBOT_SCORING_TTL: 721h0m0s is longer than the maximum 720h (30 days)"},
		{"GOBOT_SHUTDOWN_TIMEOUT", "2h", "config: GOBOT_SHUTDOWN_TIMEOUT: 2h0m0s is longer than the maximum 1h"},
	} {
		_, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, bad.name: bad.value}, Run)
		if err == nil || err.Error() != bad.want {
			t.Errorf("Parse(%s=%s) = %v, want %s", bad.name, bad.value, err, bad.want)
		}
	}
	c, err = Parse(map[string]string{"DISCORD_TOKEN": testToken}, Run)
	if err != nil || len(c.Warnings) != 0 {
		t.Fatalf("Parse(defaults) = %v, warnings %q", err, c.Warnings)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting gobot", "config", c)
	for _, want := range []string{`"challenge_ttl":"24h0m0s"`, `"scoring_ttl":"24h0m0s"`, `"shutdown_timeout":"8s"`, `"hub_engines":[]`, `"gtp_engines":[]`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON start-up record lacks %s:\n%s", want, buf.String())
		}
	}
}

// TestHTTPAddrPortZero: GOBOT_HTTP_ADDR with port 0 is refused: the system
// would choose a port that Discord, the load balancer and gobot
// healthcheck cannot know (it was accepted, and logged as ":0").
func TestHTTPAddrPortZero(t *testing.T) {
	_, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_HTTP_ADDR": ":0"}, Run)
	want := `config: GOBOT_HTTP_ADDR: ":0" has port 0, which would be a random port that Discord and gobot healthcheck cannot find: give one such as :8080`
	if err == nil || err.Error() != want {
		t.Errorf("Parse(GOBOT_HTTP_ADDR=:0) = %v, want %s", err, want)
	}
}
