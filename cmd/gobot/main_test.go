package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage"
)

// goRun starts gobot with no arguments (the environment says what it
// serves) until ctx ends, and returns its output and its exit code to come.
func goRun(ctx context.Context) (stdout, stderr *logtest.Buffer, done <-chan int) {
	stdout, stderr = new(logtest.Buffer), new(logtest.Buffer)
	code := make(chan int, 1)
	go func() { code <- run(ctx, nil, strings.NewReader(""), stdout, stderr) }()
	return stdout, stderr, code
}

// stopRun cancels gobot as goRun started it and fails t unless it exits
// with 0 within a minute.
func stopRun(t *testing.T, cancel context.CancelFunc, done <-chan int, stderr *logtest.Buffer) {
	t.Helper()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("gobot exited with %d:\n%s", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("gobot did not stop after cancellation")
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestServeHTTPMode runs `gobot` as configured by the environment in http
// mode against a fake Discord: it registers /go, prints the invite link,
// serves /healthz and the interactions endpoint, and stops cleanly on
// cancellation, closing the database. The token appears in no output.
func TestServeHTTPMode(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "gobot.db")
	for k, v := range map[string]string{
		"DISCORD_TOKEN": d.Token, "DISCORD_API_URL": d.URL, "DISCORD_PUBLIC_KEY": d.Signer.PublicKeyHex(),
		"GOBOT_MODE": "http", "GOBOT_HTTP_ADDR": addr, "GOBOT_DB": db, "GOBOT_GUILD_ID": d.GuildID,
		"GOBOT_LOG_LEVEL": "debug", "DISCORD_APP_ID": "",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr, done := goRun(ctx)

	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case code := <-done:
			t.Fatalf("gobot exited with %d before serving:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("gobot did not become healthy:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	d.Endpoint = base + "/interactions"
	if r := d.Do(d.Ping()); r.Type != 1 {
		t.Fatalf("PING answered type %d, want PONG", r.Type)
	}
	// Interactions are served on /interactions only: a signed POST to any
	// other path, /healthz included, is not handled.
	for _, path := range []string{"/", "/healthz", "/interactions/x", "/api/interactions"} {
		req, err := d.Signer.Request(base+path, d.Ping().JSON(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := http.StatusNotFound; path == "/healthz" && resp.StatusCode != http.StatusMethodNotAllowed || path != "/healthz" && resp.StatusCode != want {
			t.Errorf("signed PING to %s answered %s, want 404 (405 for /healthz)", path, resp.Status)
		}
	}
	ch := d.GuildChannel("go")
	u := d.NewUser("ann")
	if m := d.Do(d.Command(ch, u, "go", discordtest.Sub("bot", discordtest.Str("level", "beginner"), discordtest.Int("size", 9)))); m.Ephemeral() {
		t.Fatalf("/go bot refused: %s", m.Text())
	}
	if len(d.Commands(d.GuildID)) != 3 {
		t.Errorf("registered %d guild commands, want /go, /draughts and /go-admin", len(d.Commands(d.GuildID)))
	}
	// The log names every command registered, not /go alone.
	if want := `msg="registered /go, /draughts and /go-admin in one guild" guild=` + d.GuildID; !strings.Contains(stderr.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, stderr.String())
	}
	// The draughts levels reach Discord through the wiring too.
	if m := d.Do(d.Command(d.GuildChannel("dames"), u, "draughts", discordtest.Sub("bot", discordtest.Str("level", "beginner")))); m.Ephemeral() {
		t.Fatalf("/draughts bot refused: %s", m.Text())
	}

	stopRun(t, cancel, done, stderr)
	// The database was closed: it opens again at once.
	s, err := storage.Open(db, storage.Options{Kinds: kinds(), Timeout: time.Second})
	if err != nil {
		t.Fatalf("database still locked after shutdown: %v", err)
	}
	g, err := s.Game(context.Background(), ch.ID)
	s.Close()
	if err != nil || goOf(g).Size() != 9 {
		t.Fatalf("the game was not stored: %v", err)
	}

	out := stdout.String()
	i := strings.Index(out, "https://discord.com/oauth2/authorize?")
	if i < 0 {
		t.Fatalf("no invite link in %q", out)
	}
	link, err := url.Parse(strings.Fields(out[i:])[0])
	if err != nil {
		t.Fatal(err)
	}
	q := link.Query()
	if q.Get("client_id") != d.AppID || q.Get("scope") != "bot applications.commands" {
		t.Errorf("invite link %s: want client_id %s and scopes bot, applications.commands", link, d.AppID)
	}
	// Send Messages, Send Messages in Threads, Create Public Threads,
	// Attach Files, Embed Links and nothing else.
	want := int64(1<<11 | 1<<38 | 1<<35 | 1<<15 | 1<<14)
	if got, _ := strconv.ParseInt(q.Get("permissions"), 10, 64); got != want {
		t.Errorf("invite permissions %d, want %d", got, want)
	}
	j := strings.Index(out, "your own account, to play in DMs and group chats: ")
	if j < 0 {
		t.Fatalf("no user-install link in %q", out)
	}
	user, err := url.Parse(strings.Fields(out[j+len("your own account, to play in DMs and group chats: "):])[0])
	if err != nil {
		t.Fatal(err)
	}
	if uq := user.Query(); uq.Get("client_id") != d.AppID || uq.Get("scope") != "applications.commands" || uq.Get("integration_type") != "1" {
		t.Errorf("user-install link %s: want client_id %s, scope applications.commands, integration_type 1", user, d.AppID)
	}
	for name, text := range map[string]string{"stdout": out, "logs": stderr.String()} {
		for _, part := range strings.Split(d.Token, ".") {
			if strings.Contains(text, part) {
				t.Errorf("%s contain part of the token", name)
			}
		}
	}
	if t.Failed() {
		t.Logf("logs:\n%s", stderr.String())
	}
}

func TestUnknownSubcommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"fly"}, strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `unknown command "fly"`) {
		t.Fatalf("gobot fly = %d, %q", code, stderr.String())
	}
}

// TestBadFlagExitsTwo: a flag that does not exist exits 2, as an unknown
// command does, and is printed once with the usage.
func TestBadFlagExitsTwo(t *testing.T) {
	for _, sub := range []string{"console", "gtp", "hub", "backup", "doctor", "migrate-db", "ratings", "arena"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{sub, "--bogus"}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || strings.Count(stderr.String(), "-bogus") != 1 {
			t.Errorf("gobot %s --bogus = %d, %q; want 2 and the error once", sub, code, stderr.String())
		}
	}
}

// TestStrayArgumentExitsTwo: a word without a dash is refused, not
// dropped with every flag after it ("gobot gtp hard --bot easy" played
// max; "gobot console ann --db c5.db" opened gobot-console.db as
// "player"); a level's name is taken for the --bot it lacks.
func TestStrayArgumentExitsTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gtp", "hard", "--bot", "easy"}, `gobot: gtp: unexpected argument "hard": options begin with a dash, and the ones after it were not read (did you mean --bot hard?)`},
		{[]string{"hub", "--seed", "3", "beginner"}, `gobot: hub: unexpected argument "beginner": options begin with a dash, and the ones after it were not read (did you mean --bot beginner?)`},
		{[]string{"console", "ann", "--db", "c5.db"}, `gobot: console: unexpected argument "ann": options begin with a dash, and the ones after it were not read`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
		if got := strings.TrimSpace(stderr.String()); code != 2 || got != tc.want || stdout.Len() != 0 {
			t.Errorf("gobot %s = %d, stderr %q, stdout %q; want 2 and %q alone", strings.Join(tc.args, " "), code, got, stdout.String(), tc.want)
		}
	}
}

// TestUsageIsExact: the usage names every flag of gobot hub, and
// migrate-db's --help gives the --db default once.
func TestUsageIsExact(t *testing.T) {
	if !strings.Contains(usage, "gobot hub [--bot LEVEL] [--nodes N] [--seed N]") {
		t.Errorf("the usage of gobot hub omits one of its flags: %s", usage)
	}
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"migrate-db", "--help"}, strings.NewReader(""), &stdout, &stderr)
	if got := stderr.String(); strings.Count(got, "default") != 2 || !strings.Contains(got, "(default GOBOT_DB or gobot.db)") {
		t.Errorf("gobot migrate-db --help printed %q; want each default once", got)
	}
}

// TestRunTakesNoArguments: an argument after run (a --help, a --version,
// a typo) prints the usage or refuses, and never starts the bot, which
// would log in to Discord; so for the health check.
func TestRunTakesNoArguments(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"run", "--help"}, 0, "usage:"},
		{[]string{"healthcheck", "-h"}, 0, "usage:"},
		{[]string{"--version"}, 0, "gobot 1.0, revision "},
		{[]string{"run", "--version"}, 2, `gobot: run takes no arguments (it is configured by the environment), not "--version"`},
		{[]string{"run", "extra"}, 2, `gobot: run takes no arguments (it is configured by the environment), not "extra"`},
		{[]string{"healthcheck", "--port", "1"}, 2, `gobot: healthcheck takes no arguments`},
		{[]string{"backup", "--help"}, 0, "copies the bbolt database (GOBOT_DB, or gobot.db) to FILE"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) || strings.Contains(stderr.String(), "DISCORD_TOKEN") {
			t.Errorf("gobot %q = %d, %q %q; want %d and %q", c.args, code, stdout.String(), stderr.String(), c.code, c.out)
		}
	}
}

func TestMissingTokenIsOneLine(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("DISCORD_TOKEN_FILE", "")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run"}, strings.NewReader(""), &stdout, &stderr)
	if code == 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "DISCORD_TOKEN") {
		t.Fatalf("gobot without a token = %d, %q; want one line naming DISCORD_TOKEN", code, stderr.String())
	}
}

// runGatewayOn runs gobot in gateway mode against the fake Discord d with
// its database at db, as a start that stops before connecting does, and
// returns its exit code and what it wrote on stderr.
func runGatewayOn(t *testing.T, d *discordtest.Server, db string) (int, *bytes.Buffer) {
	t.Helper()
	t.Setenv("DISCORD_TOKEN", d.Token)
	t.Setenv("DISCORD_API_URL", d.URL)
	t.Setenv("GOBOT_DB", db)
	t.Setenv("GOBOT_MODE", "gateway")
	t.Setenv("GOBOT_HTTP_ADDR", "")
	t.Setenv("DISCORD_APP_ID", d.AppID)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run"}, strings.NewReader(""), &stdout, &stderr)
	return code, &stderr
}

// TestDamagedDatabaseIsOneLine: a database file cut short stops start-up
// with one line that names the backup command, instead of a crash.
func TestDamagedDatabaseIsOneLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "gobot.db")
	s, err := storage.Open(db, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	d := discordtest.NewServer(t, discordtest.Options{})
	for _, size := range []int64{0, 16 << 10} {
		if err := os.Truncate(db, size); err != nil {
			t.Fatal(err)
		}
		code, stderr := runGatewayOn(t, d, db)
		out := stderr.String()
		if code != 1 || !strings.Contains(out, "gobot backup") || !strings.Contains(out, db) {
			t.Errorf("gobot on a database truncated to %d bytes = %d, %q; want 1 and a line naming %s and `gobot backup`", size, code, out, db)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.Contains(l, "starting gobot") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 {
			t.Errorf("gobot on a damaged database printed %d lines after the start-up line, want 1:\n%s", len(lines), out)
		}
	}
}

// TestMissingGTPProgramNamesItsVariable: a program of GOBOT_GTP_ENGINES
// that is not there stops start-up with an error naming the variable.
func TestMissingGTPProgramNamesItsVariable(t *testing.T) {
	_, err := newRegistry(&config.Config{GTPEngines: map[string]string{"foo": "/nonexistent/prog --mode gtp"}, MaxSearches: 1}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), `GOBOT_GTP_ENGINES: engine "foo": `) {
		t.Errorf("newRegistry with a missing program = %v, want an error naming GOBOT_GTP_ENGINES and foo", err)
	}
}

// TestDiscordRefusesStart: a token Discord refuses (401), whether the
// application ID is configured or asked for, an application ID that is
// not the token's (403), or a server GOBOT_GUILD_ID names where the bot
// may not register commands (403 Missing Access), stops gobot at start-up
// with a line that says what to fix, in both modes: it never listens nor
// prints invite links. An application ID fetched with the token is not
// blamed on the token. In http mode, a DISCORD_PUBLIC_KEY that is not the
// application's stops it too (Discord's signatures would never verify).
// What Discord's record of the application shows (the token, the
// application ID, the key) stops the start before the database file is
// created.
func TestDiscordRefusesStart(t *testing.T) {
	// The refusals are the point: the fake records them without failing.
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
	const scope = "and was invited with the applications.commands scope (Missing Access most often means an invite without it): invite it again with this link, which asks for that scope, then restart gobot: https://discord.com/oauth2/authorize?client_id="
	for _, c := range []struct {
		name, mode, token, appID, guild, want string
		askShards                             bool // GOBOT_SHARD_COUNT unset: the fake knows no GET /gateway/bot but refuses a wrong token there
		key                                   string
	}{
		{"wrong token, app ID asked", "http", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.wrong-token-wrong-token-wrong-tok", "", "", "discord refused DISCORD_TOKEN (HTTP 401)", false, ""},
		{"wrong token, shards asked", "gateway", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.wrong-token-wrong-token-wrong-tok", d.AppID, "", "discord refused DISCORD_TOKEN (HTTP 401)", true, ""},
		{"wrong token, app ID set", "http", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.wrong-token-wrong-token-wrong-tok", d.AppID, "", "discord refused DISCORD_TOKEN (HTTP 401)", false, ""},
		{"wrong token, gateway", "gateway", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.wrong-token-wrong-token-wrong-tok", d.AppID, "", "discord refused DISCORD_TOKEN (HTTP 401)", false, ""},
		{"wrong app ID", "http", d.Token, "123456789012345678", "", "check that DISCORD_APP_ID is the Application ID of the bot", false, ""},
		{"wrong app ID, gateway", "gateway", d.Token, "123456789012345678", "", "check that DISCORD_APP_ID is the Application ID of the bot", false, ""},
		{"wrong public key", "http", d.Token, d.AppID, "", "gobot: DISCORD_PUBLIC_KEY is not the public key of the application " + d.AppID + ", whose token DISCORD_TOKEN is: Discord's signatures would not verify, and every interaction would be refused; copy it again from the Developer Portal (General Information → Public Key)\n", false, strings.Repeat("ab", 32)},
		{"wrong public key, app ID asked", "http", d.Token, "", "", "gobot: DISCORD_PUBLIC_KEY is not the public key of the application " + d.AppID, false, strings.Repeat("ab", 32)},
		{"guild without the scope, app ID asked", "http", d.Token, "", "999000000000000002",
			"discord refused to register the commands of application " + d.AppID + ": check that the bot is in the server GOBOT_GUILD_ID names " + scope + d.AppID, false, ""},
		{"guild without the scope, app ID set", "gateway", d.Token, d.AppID, "999000000000000002",
			"check that DISCORD_APP_ID is the Application ID of the bot whose token is DISCORD_TOKEN (General Information in the Developer Portal), and that the bot is in the server GOBOT_GUILD_ID names " + scope + d.AppID, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range map[string]string{
				"DISCORD_TOKEN": c.token, "DISCORD_API_URL": d.URL, "DISCORD_PUBLIC_KEY": d.Signer.PublicKeyHex(),
				"GOBOT_MODE": c.mode, "GOBOT_HTTP_ADDR": freeAddr(t), "GOBOT_DB": filepath.Join(t.TempDir(), "gobot.db"),
				"DISCORD_APP_ID": c.appID, "GOBOT_GUILD_ID": c.guild, "GOBOT_SHARD_COUNT": "1",
			} {
				t.Setenv(k, v)
			}
			if c.key != "" {
				t.Setenv("DISCORD_PUBLIC_KEY", c.key)
			}
			db := os.Getenv("GOBOT_DB")
			if c.askShards {
				t.Setenv("GOBOT_SHARD_COUNT", "")
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			stdout, stderr, done := goRun(ctx)
			select {
			case code := <-done:
				if code != 1 || !strings.Contains(stderr.String(), c.want) || strings.Contains(stdout.String(), "Invite") {
					t.Errorf("gobot exited with %d, stdout %q, stderr:\n%s\nwant 1 and %q", code, stdout.String(), stderr.String(), c.want)
				}
				if strings.Contains(stderr.String(), "set DISCORD_APP_ID") {
					t.Errorf("the refusal points at DISCORD_APP_ID:\n%s", stderr.String())
				}
				if strings.Contains(stderr.String(), "DISCORD_TOKEN is the bot's token") {
					t.Errorf("the refusal blames the token the application ID was fetched with:\n%s", stderr.String())
				}
				if _, err := os.Stat(db); c.guild == "" && !os.IsNotExist(err) {
					t.Errorf("the refused start left a database file: %v", err)
				}
			case <-ctx.Done():
				t.Fatalf("gobot did not stop:\n%s", stderr.String())
			}
		})
	}
}

// plainGTP writes a shell script that speaks GTP, answering every command
// but protocol_version and list_commands with an empty success.
func plainGTP(t *testing.T) string {
	prog := filepath.Join(t.TempDir(), "plaingtp")
	// GTP with command IDs: "7 list_commands" is answered "=7 …".
	script := "#!/bin/sh\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n" +
		"    protocol_version) printf '=%s 2\\n\\n' \"$id\" ;;\n" +
		"    list_commands) printf '=%s protocol_version\\nname\\nlist_commands\\ngenmove\\nquit\\n\\n' \"$id\" ;;\n" +
		"    quit) printf '=%s\\n\\n' \"$id\"; exit 0 ;;\n" +
		"    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestReviewEngineThatCannotAnalyse: a GOBOT_REVIEW_ENGINE program that
// lists neither kata-analyze nor lz-analyze (GNU Go) stops the start with
// a line naming the variable and the reason.
func TestReviewEngineThatCannotAnalyse(t *testing.T) {
	prog := plainGTP(t)
	cfg := &config.Config{GTPEngines: map[string]string{"plain": prog}, ReviewEngine: "gtp:plain", MaxSearches: 1}
	_, _, err := newPlayers(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err == nil || !strings.HasPrefix(err.Error(), "GOBOT_REVIEW_ENGINE: gtp:plain cannot review games: it lists neither kata-analyze nor lz-analyze") {
		t.Errorf("newPlayers with a review engine that cannot analyse = %v", err)
	}
	cfg.ReviewEngine = ""
	_, stop, err := newPlayers(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Errorf("newPlayers with the program as a player only = %v", err)
	} else {
		stop()
	}
}

// TestStartChecksFirst: a start that cannot succeed stops before it leaves
// anything behind. With GOBOT_HTTP_ADDR taken, gobot exits at once saying
// so: it has not called Discord (no commands registered), printed no
// invite link and created no database file. When the application ID
// cannot be fetched, no database file is created either.
func TestStartChecksFirst(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{RecordOnly: true})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	for _, c := range []struct {
		name, mode, addr, apiURL, appID, want string
	}{
		{"address taken, http", "http", addr, d.URL, "", "gobot: HTTP server on " + addr + " (GOBOT_HTTP_ADDR): listen tcp " + addr + ": bind: address already in use\n"},
		{"address taken, gateway", "gateway", addr, d.URL, d.AppID, "gobot: HTTP server on " + addr + " (GOBOT_HTTP_ADDR): listen tcp " + addr + ": bind: address already in use\n"},
		{"no application ID", "gateway", "", "http://127.0.0.1:1/api", "", "gobot: fetch the application ID from Discord (GET /applications/@me): commands: discord GET /applications/@me: dial tcp 127.0.0.1:1: connect: connection refused\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "gobot.db")
			shards := "1" // gateway mode only (http mode warns of it)
			if c.mode == "http" {
				shards = ""
			}
			for k, v := range map[string]string{
				"DISCORD_TOKEN": d.Token, "DISCORD_API_URL": c.apiURL, "DISCORD_PUBLIC_KEY": d.Signer.PublicKeyHex(),
				"GOBOT_MODE": c.mode, "GOBOT_HTTP_ADDR": c.addr, "GOBOT_DB": db, "DISCORD_APP_ID": c.appID,
				"GOBOT_SHARD_COUNT": shards, "GOBOT_GUILD_ID": "", "GOBOT_LOG_FORMAT": "text", "GOBOT_LOG_LEVEL": "warn",
			} {
				t.Setenv(k, v)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr)
			if code != 1 || stdout.String() != "" || stderr.String() != c.want {
				t.Errorf("gobot = %d, stdout %q, stderr %q; want 1, nothing, %q", code, stdout.String(), stderr.String(), c.want)
			}
			if calls := d.Calls(); len(calls) != 0 {
				t.Errorf("gobot called Discord %d times before stopping, first %s %s", len(calls), calls[0].Method, calls[0].Path)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("the failed start left a database file: %v", err)
			}
		})
	}
}

// TestDatabaseDirMissingNamesGOBOT_DB: a GOBOT_DB in a directory that does
// not exist stops the start with one line naming the variable and the
// path, not the side file gobot creates first (".g.db.creating-…").
func TestDatabaseDirMissingNamesGOBOT_DB(t *testing.T) {
	d := discordtest.NewServer(t, discordtest.Options{})
	db := filepath.Join(t.TempDir(), "none", "g.db")
	code, stderr := runGatewayOn(t, d, db)
	var last string
	if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	if want := "gobot: GOBOT_DB: storage: create " + db + ": no such file or directory"; code != 1 || last != want {
		t.Errorf("gobot with GOBOT_DB in a missing directory = %d, %q; want 1 and %q", code, last, want)
	}
}
