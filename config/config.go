package config

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/storage"
)

// Mode says how the bot receives interactions from Discord.
type Mode string

const (
	// ModeGateway keeps a websocket session open with the bot token (default).
	ModeGateway Mode = "gateway"
	// ModeHTTP serves an interactions endpoint that Discord POSTs to.
	ModeHTTP Mode = "http"
)

func (m Mode) String() string { return string(m) }

// LogFormat selects the slog handler.
type LogFormat string

const (
	// LogText is slog's key=value text format (default).
	LogText LogFormat = "text"
	// LogJSON is one JSON object per line.
	LogJSON LogFormat = "json"
)

func (f LogFormat) String() string { return string(f) }

// Purpose says what the configuration is loaded for, and so which variables
// are required.
type Purpose int

const (
	// Run is the bot itself: a token is required, and in http mode a public key.
	Run Purpose = iota
	// Offline is every command that does not talk to Discord (console, gtp,
	// healthcheck): nothing is required, but whatever is set must be valid.
	Offline
)

// Config is gobot's validated configuration. Print or log it freely: the
// token is a Secret.
type Config struct {
	Token           Secret            // DISCORD_TOKEN or the content of DISCORD_TOKEN_FILE; "" only when Offline
	AppID           string            // DISCORD_APP_ID; "" means fetch it from /applications/@me
	PublicKey       ed25519.PublicKey // DISCORD_PUBLIC_KEY; nil unless set
	ClientSecret    Secret            // DISCORD_CLIENT_SECRET: the OAuth2 client secret the Activity's board page signs in with; "" for none
	APIURL          string            // DISCORD_API_URL without a trailing slash
	Mode            Mode              // GOBOT_MODE
	HTTPAddr        string            // GOBOT_HTTP_ADDR; "" means no HTTP server (gateway mode only)
	DBPath          string            // GOBOT_DB
	DatabaseURL     Secret            // GOBOT_DATABASE_URL; "" means the bbolt file DBPath
	DBPassword      Secret            // PGPASSWORD: the password when DatabaseURL has none (pgx reads it itself; kept to redact it)
	ShardID         int               // GOBOT_SHARD_ID; 0 when unset
	ShardCount      int               // GOBOT_SHARD_COUNT; 0 means ask Discord (GET /gateway/bot)
	GuildID         string            // GOBOT_GUILD_ID; "" means register commands globally
	GTPEngines      map[string]string // GOBOT_GTP_ENGINES: program name (lower case) -> command line, as gtp.ParsePrograms reads them
	ReviewEngine    string            // GOBOT_REVIEW_ENGINE: "gtp:NAME" of GTPEngines; "" for the built-in search
	HubEngines      map[string]string // GOBOT_HUB_ENGINES: draughts engine name (lower case) -> command line, in GOBOT_GTP_ENGINES's syntax
	LogLevel        slog.Level        // GOBOT_LOG_LEVEL
	LogFormat       LogFormat         // GOBOT_LOG_FORMAT
	MaxSearches     int               // GOBOT_MAX_SEARCHES: bot searches running at once
	ChallengeTTL    time.Duration     // GOBOT_CHALLENGE_TTL: how long a challenge stays open
	ScoringTTL      time.Duration     // GOBOT_SCORING_TTL: how long players have to agree on dead stones
	DefaultClock    clock.Control     // GOBOT_DEFAULT_CLOCK: the clock of games whose players choose none
	ShutdownTimeout time.Duration     // GOBOT_SHUTDOWN_TIMEOUT: grace period for in-flight work on SIGTERM

	// Warnings are settings accepted but ignored or unwise (shard
	// variables in http mode, a shutdown timeout longer than Docker
	// waits), for the start-up log; they quote no value that may be a
	// secret.
	Warnings []string
}

// dockerStopTimeout is how long docker stop waits after SIGTERM by
// default before it kills the container.
const dockerStopTimeout = 10 * time.Second

// raw is the environment as env/v11 reads it: strings with defaults, the
// order of the README table, and a one-line description per variable. The
// typed values are checked by Parse so that every message names its
// variable and never echoes a secret.
type raw struct {
	Token           string `env:"DISCORD_TOKEN" doc:"The bot token (Developer Portal → Bot → Reset Token). Required to run the bot, unless DISCORD_TOKEN_FILE is set. Never logged."`
	TokenFile       string `env:"DISCORD_TOKEN_FILE" doc:"Path of a file holding the token (e.g. a Docker secret); a trailing newline is ignored. Use instead of DISCORD_TOKEN."`
	AppID           string `env:"DISCORD_APP_ID" doc:"The application ID (a snowflake). Optional: fetched from Discord when unset."`
	PublicKey       string `env:"DISCORD_PUBLIC_KEY" doc:"The application's public key, 64 hex digits (General Information page). Required in http mode."`
	ClientSecret    string `env:"DISCORD_CLIENT_SECRET" doc:"The application's OAuth2 client secret (OAuth2 page → Reset Secret), for the board page as a Discord Activity: it exchanges the player's sign-in code at Discord. Unset: no Activity, and the bot's board page only says it is not set up (signing in by name works only beside gobot console). Never logged."`
	APIURL          string `env:"DISCORD_API_URL" envDefault:"https://discord.com/api/v10" doc:"Base URL of Discord's REST API, e.g. a rate-limit proxy."`
	Mode            string `env:"GOBOT_MODE" envDefault:"gateway" doc:"How interactions arrive: gateway (websocket) or http (interactions endpoint)."`
	HTTPAddr        string `env:"GOBOT_HTTP_ADDR" docDefault:":8080 in http mode, unset otherwise" doc:"Listen address of the HTTP server (interactions endpoint in http mode, and GET /healthz in both modes)."`
	DB              string `env:"GOBOT_DB" envDefault:"gobot.db" doc:"Path of the bbolt database file."`
	DatabaseURL     string `env:"GOBOT_DATABASE_URL" doc:"PostgreSQL URL (postgres://user:password@host:5432/gobot) of a database shared by several gobot workers, used instead of GOBOT_DB. A password in it must be percent-encoded (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), or left out and set in PGPASSWORD. Never logged."`
	DBPassword      string `env:"PGPASSWORD" doc:"The PostgreSQL password, when GOBOT_DATABASE_URL holds none: any characters, as they are (libpq's variable, which gobot's PostgreSQL driver reads). Never logged."`
	ShardID         string `env:"GOBOT_SHARD_ID" docDefault:"0" doc:"Gateway mode: the shard this process runs (0 to GOBOT_SHARD_COUNT-1). Direct messages arrive on shard 0. Ignored, with a warning, in http mode."`
	ShardCount      string `env:"GOBOT_SHARD_COUNT" docDefault:"Discord's recommendation" doc:"Gateway mode: how many shards there are, one per process; more than 1 needs GOBOT_DATABASE_URL. Unset: asked from Discord (GET /gateway/bot)."`
	GuildID         string `env:"GOBOT_GUILD_ID" doc:"Register the commands in this server only (instant, for testing) instead of globally."`
	GTPEngines      string `env:"GOBOT_GTP_ENGINES" doc:"Extra bot levels played by GTP programs: NAME=COMMAND entries separated by ';' or newlines, e.g. gnugo=/usr/games/gnugo --mode gtp. Each is started once at start-up and has 2 minutes to answer the GTP handshake (KataGo loads its network first), or gobot stops naming it; then 10 s for each command but genmove."`
	ReviewEngine    string `env:"GOBOT_REVIEW_ENGINE" docDefault:"mcts" doc:"What judges the positions of /go review: mcts (the built-in Monte Carlo search, a fixed budget per position, so a game always gets the same review) or gtp:NAME for a program of GOBOT_GTP_ENGINES that speaks kata-analyze or lz-analyze (KataGo, Leela Zero). /go estimate always uses the built-in search."`
	HubEngines      string `env:"GOBOT_HUB_ENGINES" doc:"Extra draughts bot levels played by Hub engines (Scan's protocol): NAME=COMMAND entries as in GOBOT_GTP_ENGINES, e.g. scan=/opt/scan/scan hub (run in the program's directory)."`
	LogLevel        string `env:"GOBOT_LOG_LEVEL" envDefault:"info" doc:"debug, info, warn or error."`
	LogFormat       string `env:"GOBOT_LOG_FORMAT" envDefault:"text" doc:"text or json."`
	MaxSearches     string `env:"GOBOT_MAX_SEARCHES" docDefault:"number of CPUs" doc:"How many bot searches (and so bot moves) may run at once; further bot moves wait their turn in a queue kept in the database, first owed first made. Each search holds its tree: up to about 42 MB for the tough and hard levels (1M nodes) and 335 MB for max (8M, allocated as its tree grows: 40–80 MB in a 9×9 search of up to 3 s on two cores), with half as much again for a moment while hard or max collects its full tree; a few MB below tough."`
	ChallengeTTL    string `env:"GOBOT_CHALLENGE_TTL" envDefault:"24h" doc:"How long a challenge stays open before its buttons are disabled (Go duration, 1m to 720h)."`
	ScoringTTL      string `env:"GOBOT_SCORING_TTL" envDefault:"24h" doc:"How long players have to agree on dead stones before the marking as it stands counts; against a bot that refuses it, the bot's own marking (Go duration, 1m to 720h). A game on a live clock waits at most 5 minutes."`
	DefaultClock    string `env:"GOBOT_DEFAULT_CLOCK" envDefault:"correspondence" doc:"The clock of games whose players choose none: a preset (correspondence, daily, live, blitz, none) or a spec such as byoyomi 10m 5x30s (see /go help)."`
	ShutdownTimeout string `env:"GOBOT_SHUTDOWN_TIMEOUT" envDefault:"8s" doc:"On SIGTERM, how long to let in-flight moves finish; keep it below the container's stop grace period (Docker: 10s; longer is warned of). At most 1h."`
}

// Default values that are not constant.
const defaultHTTPAddr = ":8080"

// Load reads the configuration for running the bot from the process
// environment.
func Load() (*Config, error) { return LoadFor(Run) }

// LoadFor reads the configuration for purpose p from the process environment.
func LoadFor(p Purpose) (*Config, error) { return Parse(Environ(os.Environ()), p) }

// Environ turns os.Environ-style "KEY=value" entries into a map.
func Environ(kv []string) map[string]string {
	m := make(map[string]string, len(kv))
	for _, e := range kv {
		if k, v, ok := strings.Cut(e, "="); ok {
			m[k] = v
		}
	}
	return m
}

// Parse validates environ (variable name -> value) for purpose p. Unset and
// empty variables are treated alike. On failure the error is an Errors
// listing every bad variable on one line.
func Parse(environ map[string]string, p Purpose) (*Config, error) {
	// Empty means unset, so that `-e GOBOT_MODE=` in a compose file falls
	// back to the default instead of failing.
	clean := make(map[string]string, len(environ))
	for k, v := range environ {
		if v != "" {
			clean[k] = v
		}
	}
	var r raw
	if err := env.ParseWithOptions(&r, env.Options{Environment: clean}); err != nil {
		// raw holds only strings without env options, so this is a
		// programmer error in the tags; report it without any value.
		return nil, fmt.Errorf("config: reading environment: %w", err)
	}
	var errs Errors
	bad := func(name string, sentinel error, format string, args ...any) {
		errs = append(errs, &VarError{Var: name, Msg: fmt.Sprintf(format, args...), Err: sentinel})
	}
	c := &Config{}

	// Token.
	switch {
	case r.Token != "" && r.TokenFile != "":
		bad("DISCORD_TOKEN", ErrConflict, "set either DISCORD_TOKEN or DISCORD_TOKEN_FILE, not both")
	case r.TokenFile != "":
		b, err := os.ReadFile(r.TokenFile)
		if err != nil {
			// The path is not quoted: set to the token by mistake, it
			// would print the token.
			bad("DISCORD_TOKEN_FILE", ErrInvalid, "cannot read the file it names: %v", errors.Unwrap(err))
			break
		}
		tok := strings.TrimRight(string(b), "\r\n")
		if msg := checkToken(tok); msg != "" {
			bad("DISCORD_TOKEN_FILE", ErrInvalid, "the file it names: %s", msg)
			break
		}
		c.Token = Secret(tok)
	case r.Token != "":
		// A Kubernetes secret made from a file often keeps its newline.
		tok := strings.TrimRight(r.Token, "\r\n")
		if msg := checkToken(tok); msg != "" {
			bad("DISCORD_TOKEN", ErrInvalid, "%s", msg)
			break
		}
		c.Token = Secret(tok)
	case p == Run:
		bad("DISCORD_TOKEN", ErrMissing, "not set (set DISCORD_TOKEN or DISCORD_TOKEN_FILE to the bot token)")
	}

	if r.AppID != "" {
		if !isSnowflake(r.AppID) {
			bad("DISCORD_APP_ID", ErrInvalid, "%s is not a Discord ID (digits only)", Shown(r.AppID))
		}
		c.AppID = r.AppID
	}

	switch m := Mode(strings.ToLower(r.Mode)); m {
	case ModeGateway, ModeHTTP:
		c.Mode = m
	default:
		bad("GOBOT_MODE", ErrInvalid, "%s is not gateway or http", Shown(r.Mode))
	}

	if r.PublicKey != "" {
		k, err := hex.DecodeString(r.PublicKey)
		switch {
		case err != nil:
			bad("DISCORD_PUBLIC_KEY", ErrInvalid, "not hexadecimal (want the 64 hex digits shown as Public Key in the Developer Portal)")
		case len(k) != ed25519.PublicKeySize:
			bad("DISCORD_PUBLIC_KEY", ErrInvalid, "%d bytes, want %d (64 hex digits)", len(k), ed25519.PublicKeySize)
		default:
			c.PublicKey = ed25519.PublicKey(k)
		}
	} else if p == Run && c.Mode == ModeHTTP {
		bad("DISCORD_PUBLIC_KEY", ErrMissing, "required when GOBOT_MODE=http")
	}

	if r.ClientSecret != "" {
		sec := strings.TrimSpace(r.ClientSecret)
		if len(sec) < 8 || strings.ContainsAny(sec, " \t\r\n") {
			bad("DISCORD_CLIENT_SECRET", ErrInvalid, "not a client secret (OAuth2 page → Reset Secret)")
		} else {
			c.ClientSecret = Secret(sec)
		}
	}
	if u, err := url.Parse(r.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		bad("DISCORD_API_URL", ErrInvalid, "%s is not an http(s) URL such as https://discord.com/api/v10", Shown(redactURL(r.APIURL)))
	} else {
		c.APIURL = strings.TrimRight(r.APIURL, "/")
	}

	c.HTTPAddr = r.HTTPAddr
	if c.HTTPAddr == "" && c.Mode == ModeHTTP {
		c.HTTPAddr = defaultHTTPAddr
	}
	if c.HTTPAddr != "" {
		if _, port, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			bad("GOBOT_HTTP_ADDR", ErrInvalid, "%s is not host:port (e.g. :8080)", Shown(c.HTTPAddr))
		} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			bad("GOBOT_HTTP_ADDR", ErrInvalid, "%s has no valid port (1-65535)", Shown(c.HTTPAddr))
		} else if n == 0 {
			// The system would choose the port, which neither Discord,
			// the load balancer nor gobot healthcheck could know.
			bad("GOBOT_HTTP_ADDR", ErrInvalid, "%s has port 0, which would be a random port that Discord and gobot healthcheck cannot find: give one such as :8080", Shown(c.HTTPAddr))
		}
	}

	c.DBPath = r.DB
	if looksLikeDatabaseURL(r.DB) {
		// A PostgreSQL URL or connection string set in the wrong variable
		// would be logged with its password, and opened as a file.
		bad("GOBOT_DB", ErrInvalid, "its value (%d characters, not shown in case it holds a password) is a database URL or connection string, not a file: GOBOT_DB is the path of the bbolt file; for PostgreSQL set GOBOT_DATABASE_URL instead", len(r.DB))
	}
	if r.DatabaseURL != "" {
		// The URL holds a password: never echo it (storage's reasons
		// quote no part of it).
		var ue *storage.URLError
		switch err := storage.CheckPostgresURL(r.DatabaseURL); {
		case errors.As(err, &ue):
			bad("GOBOT_DATABASE_URL", ErrInvalid, "%s", strings.TrimPrefix(ue.Reason, "is "))
		case err != nil:
			bad("GOBOT_DATABASE_URL", ErrInvalid, "cannot be used")
		default:
			c.DatabaseURL = Secret(r.DatabaseURL)
		}
	}
	c.DBPassword = Secret(r.DBPassword)

	if c.Mode == ModeHTTP && (r.ShardCount != "" || r.ShardID != "") {
		// Shards are the gateway's: in http mode Discord sends every
		// interaction to the endpoint, whichever worker answers it.
		c.Warnings = append(c.Warnings, "GOBOT_SHARD_ID and GOBOT_SHARD_COUNT are for gateway mode only: ignored in http mode, where any worker answers any interaction")
		r.ShardCount, r.ShardID = "", ""
	}
	if r.ShardCount != "" {
		n, err := strconv.Atoi(r.ShardCount)
		switch {
		case err != nil || n < 1 || n > 65536:
			bad("GOBOT_SHARD_COUNT", ErrInvalid, "%s is not a whole number from 1 to 65536", Shown(r.ShardCount))
		case n > 1 && r.DatabaseURL == "":
			bad("GOBOT_SHARD_COUNT", ErrConflict, "%d shards run as %d processes, which need a shared database: set GOBOT_DATABASE_URL", n, n)
		default:
			c.ShardCount = n
		}
	}
	if r.ShardID != "" {
		n, err := strconv.Atoi(r.ShardID)
		switch {
		case err != nil || n < 0:
			bad("GOBOT_SHARD_ID", ErrInvalid, "%s is not a whole number from 0", Shown(r.ShardID))
		case c.ShardCount > 0 && n >= c.ShardCount:
			bad("GOBOT_SHARD_ID", ErrInvalid, "%d is not below GOBOT_SHARD_COUNT=%d", n, c.ShardCount)
		default:
			c.ShardID = n
		}
	}

	if r.GuildID != "" {
		if !isSnowflake(r.GuildID) {
			bad("GOBOT_GUILD_ID", ErrInvalid, "%s is not a Discord ID (digits only)", Shown(r.GuildID))
		}
		c.GuildID = r.GuildID
	}

	if specs, err := gtp.ParsePrograms(r.GTPEngines); err != nil {
		msg := err.Error()
		var se *gtp.SpecError
		if errors.As(err, &se) {
			msg = se.Reason
		}
		bad("GOBOT_GTP_ENGINES", ErrInvalid, "%s", shownParts(msg))
	} else if len(specs) > 0 {
		c.GTPEngines = make(map[string]string, len(specs))
		for _, spec := range specs {
			c.GTPEngines[spec.Name] = spec.Command()
		}
	}

	// Hub engines are written as GTP programs are, and read by the same
	// reader.
	if specs, err := gtp.ParsePrograms(r.HubEngines); err != nil {
		msg := err.Error()
		var se *gtp.SpecError
		if errors.As(err, &se) {
			msg = se.Reason
		}
		bad("GOBOT_HUB_ENGINES", ErrInvalid, "%s", shownParts(msg))
	} else if len(specs) > 0 {
		c.HubEngines = make(map[string]string, len(specs))
		for _, spec := range specs {
			c.HubEngines[spec.Name] = spec.Command()
		}
	}

	switch name := strings.ToLower(strings.TrimSpace(r.ReviewEngine)); {
	case name == "" || name == "mcts":
	case strings.HasPrefix(name, "gtp:") && c.GTPEngines[name[len("gtp:"):]] != "":
		c.ReviewEngine = name
	default:
		bad("GOBOT_REVIEW_ENGINE", ErrInvalid, "%s is neither mcts nor gtp:NAME for a program of GOBOT_GTP_ENGINES", Shown(r.ReviewEngine))
	}

	switch strings.ToLower(r.LogLevel) {
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "info":
		c.LogLevel = slog.LevelInfo
	case "warn", "warning":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		bad("GOBOT_LOG_LEVEL", ErrInvalid, "%s is not debug, info, warn or error", Shown(r.LogLevel))
	}

	switch f := LogFormat(strings.ToLower(r.LogFormat)); f {
	case LogText, LogJSON:
		c.LogFormat = f
	default:
		bad("GOBOT_LOG_FORMAT", ErrInvalid, "%s is not text or json", Shown(r.LogFormat))
	}

	c.MaxSearches = runtime.NumCPU()
	if r.MaxSearches != "" {
		n, err := strconv.Atoi(r.MaxSearches)
		if err != nil || n < 1 || n > 1024 {
			bad("GOBOT_MAX_SEARCHES", ErrInvalid, "%s is not a whole number from 1 to 1024", Shown(r.MaxSearches))
		}
		c.MaxSearches = n
	}

	duration := func(name, s string, min, most time.Duration, mostSaid string) time.Duration {
		d, err := time.ParseDuration(s)
		if err != nil {
			bad(name, ErrInvalid, "%s is not a duration such as 24h or 90m", Shown(s))
			return 0
		}
		if d < min {
			bad(name, ErrInvalid, "%v is shorter than the minimum %v", d, min)
		}
		if d > most {
			bad(name, ErrInvalid, "%v is longer than the maximum %s", d, mostSaid)
		}
		return d
	}
	// A challenge or a scoring phase open for longer than a month is one
	// nobody waits for; a TTL of centuries was shown as "1 year".
	const month = 30 * 24 * time.Hour
	c.ChallengeTTL = duration("GOBOT_CHALLENGE_TTL", r.ChallengeTTL, time.Minute, month, "720h (30 days)")
	c.ScoringTTL = duration("GOBOT_SCORING_TTL", r.ScoringTTL, time.Minute, month, "720h (30 days)")
	c.ShutdownTimeout = duration("GOBOT_SHUTDOWN_TIMEOUT", r.ShutdownTimeout, time.Second, time.Hour, "1h")
	if c.ShutdownTimeout > dockerStopTimeout {
		c.Warnings = append(c.Warnings, fmt.Sprintf("GOBOT_SHUTDOWN_TIMEOUT=%v is longer than the %v docker stop waits before it kills gobot: "+
			"in a container, raise its stop grace period to match (docker stop --time, compose's stop_grace_period)", c.ShutdownTimeout, dockerStopTimeout))
	}
	if k, err := clock.Parse(r.DefaultClock); err != nil {
		var se *clock.SpecError
		msg := err.Error()
		if errors.As(err, &se) {
			msg = se.Reason
		}
		bad("GOBOT_DEFAULT_CLOCK", ErrInvalid, "%s (want %s)", shownParts(msg), clock.Syntax)
	} else {
		c.DefaultClock = k
	}

	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// checkToken returns what is wrong with a token, without quoting it.
func checkToken(tok string) string {
	switch {
	case tok == "":
		return "empty"
	case strings.HasPrefix(tok, "Bot ") || strings.HasPrefix(tok, "Bearer "):
		return `give the bare token, without the "Bot " prefix`
	case strings.ContainsAny(tok, "\"'`"):
		// docker run --env-file and compose's env_file keep quotes as
		// part of the value: Discord would refuse the token as wrong.
		return "is wrapped in quotes, which are not part of a token: remove them (an --env-file keeps quotes as part of the value)"
	case strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0:
		return "contains spaces or characters that cannot be in a token"
	}
	return ""
}

// Shown quotes a variable's value for an error message, unless it may be
// a secret: the token, the client secret or the public key, pasted into
// the wrong variable (they sit next to the other settings on Discord's
// pages), would otherwise be printed. This is the one rule for every
// configuration error (Parse's, and those of commands that read a
// variable themselves, such as gobot healthcheck): a value that
// MayBeSecret is named by its length only; any other value is quoted.
func Shown(v string) string {
	if MayBeSecret(v) {
		return fmt.Sprintf("its value (%d characters, not shown in case it is a secret)", len(v))
	}
	return strconv.Quote(v)
}

// quoted matches a Go-quoted string, as %q writes it.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// shownParts applies Shown's rule to a reason from another package's
// parser (a GTP program list, a time control), which quotes the part of
// the value it refuses: a quoted part that MayBeSecret is replaced by its
// length.
func shownParts(reason string) string {
	return quoted.ReplaceAllStringFunc(reason, func(q string) string {
		v, err := strconv.Unquote(q)
		if err != nil || !MayBeSecret(v) {
			return q
		}
		return fmt.Sprintf("(%d characters, not shown in case it is a secret)", len(v))
	})
}

// MayBeSecret reports whether v holds a run of 24 or more letters, digits,
// '-' or '_', as every part of a secret Discord gives does: a bot token's
// signature (27 or more), a client secret (32), a public key (64). Words,
// numbers, paths and commands have no such run. A command that reads a
// variable itself refuses such a value where it would otherwise print it
// or send it anywhere (a host name to the resolver).
func MayBeSecret(v string) bool {
	run := 0
	for _, r := range v {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			run++
			if run >= 24 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func isSnowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// looksLikeDatabaseURL reports whether a GOBOT_DB value is a database's
// address rather than a file's path: a URL ("postgres://…", any
// "scheme://") or a libpq connection string ("host=db user=gobot
// password=…"), which pgx also reads.
func looksLikeDatabaseURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return false
	}
	known := false
	for _, f := range fields {
		k, _, ok := strings.Cut(f, "=")
		if !ok {
			return false
		}
		switch k {
		case "host", "hostaddr", "port", "user", "password", "dbname", "sslmode":
			known = true
		}
	}
	return known
}

// redactURL returns a URL for printing: a password in it is replaced by
// "xxxxx", and a URL that does not parse is not printed at all.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}

// dbShown is the bbolt file the start-up line names: none when
// GOBOT_DATABASE_URL is set, which the file then is not used for.
func (c Config) dbShown() string {
	if c.DatabaseURL != "" {
		return ""
	}
	return c.DBPath
}

// String describes the configuration on one line, with the token and the
// API URL's password redacted.
func (c Config) String() string {
	names := make([]string, 0, len(c.GTPEngines))
	for n := range c.GTPEngines {
		names = append(names, n)
	}
	sort.Strings(names)
	key := ""
	if c.PublicKey != nil {
		key = hex.EncodeToString(c.PublicKey)
	}
	return fmt.Sprintf("mode=%s token=%s client_secret=%s app_id=%s public_key=%s api_url=%s http_addr=%s db=%s database_url=%s shard_id=%d shard_count=%d guild_id=%s gtp_engines=%s hub_engines=%s log_level=%s log_format=%s max_searches=%d challenge_ttl=%s scoring_ttl=%s default_clock=%q shutdown_timeout=%s",
		c.Mode, c.Token.String(), c.ClientSecret.String(), c.AppID, key, redactURL(c.APIURL), c.HTTPAddr, c.dbShown(), c.DatabaseURL.String(), c.ShardID, c.ShardCount, c.GuildID,
		strings.Join(names, ","), strings.Join(slices.Sorted(maps.Keys(c.HubEngines)), ","), c.LogLevel, c.LogFormat, c.MaxSearches, c.ChallengeTTL, c.ScoringTTL, c.DefaultClock.String(), c.ShutdownTimeout)
}

// GoString implements fmt.GoStringer for %#v.
func (c Config) GoString() string { return "config.Config{" + c.String() + "}" }

// Format implements fmt.Formatter: every verb prints String (GoString for
// %#v), so no field is ever formatted on its own.
func (c Config) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, c.GoString())
		return
	}
	fmt.Fprint(f, c.String())
}

// LogValue implements slog.LogValuer: a group of the settings, token redacted.
func (c Config) LogValue() slog.Value {
	names := make([]string, 0, len(c.GTPEngines))
	for n := range c.GTPEngines {
		names = append(names, n)
	}
	sort.Strings(names)
	return slog.GroupValue(
		slog.String("mode", string(c.Mode)),
		slog.String("token", c.Token.String()),
		slog.String("client_secret", c.ClientSecret.String()),
		slog.String("app_id", c.AppID),
		slog.String("api_url", redactURL(c.APIURL)),
		slog.String("http_addr", c.HTTPAddr),
		slog.String("db", c.dbShown()),
		slog.String("database_url", c.DatabaseURL.String()),
		slog.Int("shard_id", c.ShardID),
		slog.Int("shard_count", c.ShardCount),
		slog.String("guild_id", c.GuildID),
		slog.Any("gtp_engines", names),
		slog.Any("hub_engines", append([]string{}, slices.Sorted(maps.Keys(c.HubEngines))...)),
		slog.String("log_level", c.LogLevel.String()),
		slog.Int("max_searches", c.MaxSearches),
		slog.String("challenge_ttl", c.ChallengeTTL.String()),
		slog.String("scoring_ttl", c.ScoringTTL.String()),
		slog.String("default_clock", c.DefaultClock.String()),
		slog.String("shutdown_timeout", c.ShutdownTimeout.String()),
	)
}
