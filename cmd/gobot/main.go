package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/bots"
	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/draughtsroom"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/estimate"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/internal/redact"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/web"
)

// The permissions the bot asks for when invited: Send Messages, Send
// Messages in Threads, Create Public Threads, Attach Files, Embed Links.
const invitePermissions = discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads |
	discordgo.PermissionCreatePublicThreads |
	discordgo.PermissionAttachFiles |
	discordgo.PermissionEmbedLinks

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sub := "run"
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelp(args[0]) || args[0] == "-version" || args[0] == "--version") {
		sub, args = args[0], args[1:]
	}
	var err error
	// The bot and the health check are configured by the environment
	// alone: an argument (a --help, a typo) must not start them.
	if (sub == "run" || sub == "healthcheck") && len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "gobot: %s takes no arguments (it is configured by the environment), not %q\n%s", sub, strings.Join(args, " "), usage)
		return 2
	}
	switch sub {
	case "run":
		err = serve(ctx, stdout, stderr)
	case "console":
		err = console(ctx, args, stdin, stdout, stderr)
	case "gtp":
		err = serveGTP(ctx, args, stdin, stdout, stderr)
	case "hub":
		err = serveHub(ctx, args, stdin, stdout, stderr)
	case "backup":
		err = backup(ctx, args, stdout, stderr)
	case "arena":
		err = runArena(ctx, args, stdout)
	case "doctor":
		err = doctor(ctx, args, stdout, stderr)
	case "migrate-db":
		err = migrateDB(ctx, args, stdout, stderr)
	case "healthcheck":
		err = healthcheck(ctx, os.Getenv, stdout)
	case "ratings":
		err = ratings(ctx, args, stdout, stderr)
	case "unregister":
		err = unregister(ctx, args, stdout)
	case "version", "-version", "--version":
		if len(args) > 0 {
			fmt.Fprintf(stderr, "gobot: version takes no arguments, not %q\n", strings.Join(args, " "))
			return 2
		}
		fmt.Fprintln(stdout, thisBuild())
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "gobot: unknown command %q\n%s", sub, usage)
		return 2
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if errors.As(err, new(*loggedError)) {
			return 1 // the log has it, as the configuration asks
		}
		var ue *usageError
		if errors.As(err, &ue) {
			// The flag package has printed the error and the usage.
			if !ue.printed {
				fmt.Fprintln(stderr, "gobot:", err)
			}
			return 2
		}
		fmt.Fprintln(stderr, "gobot:", err)
		return 1
	}
	return 0
}

// usageError is a command line that cannot be read (a flag that does not
// exist or lacks its value): gobot exits 2, as for an unknown command and
// as the flag package does.
type usageError struct {
	err     error
	printed bool // the flag package has printed it, with the usage
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// strayArgs refuses the words fs parsed no flag from (flag stops at the
// first word without a dash, and drops every flag after it): "gobot gtp
// hard --bot easy" would play max, silently. A word that is a level is
// taken for the --bot it lacks. It returns nil when there are none.
func strayArgs(fs *flag.FlagSet, isLevel func(string) bool) error {
	if fs.NArg() == 0 {
		return nil
	}
	msg := fmt.Sprintf("%s: unexpected argument %q: options begin with a dash, and the ones after it were not read", fs.Name(), fs.Arg(0))
	if isLevel != nil && isLevel(fs.Arg(0)) {
		msg += fmt.Sprintf(" (did you mean --bot %s?)", fs.Arg(0))
	}
	return &usageError{err: errors.New(msg)}
}

// flagError returns the error of a FlagSet's Parse (ContinueOnError, with
// its output on stderr) as a usageError; -help's flag.ErrHelp is returned
// as it is.
func flagError(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &usageError{err: err, printed: true}
}

const usage = `usage:
  gobot [run]                                run the Discord bot (configured by the environment)
  gobot console [--user NAME] [--db FILE] [--boards DIR] [--web ADDR]
                                             play in the terminal through the real commands,
                                             and in the browser at http://ADDR/play/ (default 127.0.0.1:7800)
  gobot gtp [--bot LEVEL] [--ko RULE] [--playouts N] [--log]
                                             speak GTP on stdin/stdout
  gobot hub [--bot LEVEL] [--nodes N] [--seed N]
                                             play draughts as a Hub engine (Scan's protocol) on stdin/stdout
  gobot backup FILE                          copy the database (GOBOT_DB) to FILE, even while the bot runs
  gobot doctor [--db FILE] [export N]        list the game records set aside as damaged; export one as SGF
  gobot arena [flags]                        play bot levels against each other
  gobot migrate-db --to postgres://… [--db FILE]
                                             copy the bbolt database into PostgreSQL, verified; safe to re-run
                                             (without --to: GOBOT_DATABASE_URL)
  gobot healthcheck                          exit 0 if the gobot on this machine answers GET /healthz
                                             (on the port of GOBOT_HTTP_ADDR), 1 otherwise
  gobot ratings rebuild [--db FILE]          recompute every rating from the archive (stop the bot first on bbolt)
  gobot unregister                           remove the commands from the server GOBOT_GUILD_ID names
                                             (or the global ones); gobot registers them again when it starts
  gobot version, --version                   print the version and the commit gobot was built from
  gobot help, -h, --help                     print this usage
`

// isHelp reports whether a first argument asks for the usage.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help":
		return true
	}
	return false
}

// newLogger builds the slog logger the configuration asks for, on stderr.
// Every record passes through cfg.RedactHandler: an error that quotes a
// proxy's echo of the Authorization header, or the API URL, reaches the log
// without the token or the password.
func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.LogFormat == config.LogJSON {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(cfg.RedactHandler(h))
}

// logDiscordgo sends what discordgo's package logger says to log, as
// records prefixed "discordgo: ", at the slog level of discordgo's; left
// alone, it prints plain-text lines to the standard logger, which a JSON
// log (GOBOT_LOG_FORMAT=json) must not have. The records pass through
// log's redaction like any other. The returned func puts back the logger
// it replaced. Sessions stay at discordgo's warnings or below (its debug
// level prints the identify packet, token included, and its informational
// messages quote URLs with interaction tokens).
func logDiscordgo(log *slog.Logger) (restore func()) {
	prev := discordgo.Logger
	discordgo.Logger = func(level, _ int, format string, a ...any) {
		l := slog.LevelDebug
		switch level {
		case discordgo.LogError:
			l = slog.LevelError
		case discordgo.LogWarning:
			l = slog.LevelWarn
		case discordgo.LogInformational:
			l = slog.LevelInfo
		}
		log.Log(context.Background(), l, "discordgo: "+fmt.Sprintf(format, a...))
	}
	return func() { discordgo.Logger = prev }
}

// loggedError is an error that stopped the bot and that is in the log
// already (a JSON record, GOBOT_LOG_FORMAT=json): run prints it no more.
type loggedError struct{ err error }

func (e *loggedError) Error() string { return e.err.Error() }
func (e *loggedError) Unwrap() error { return e.err }

// logStop logs err, the error that stops the bot, as a record at level
// ERROR of log when the log is JSON, and returns it as a loggedError; as
// text, the log and the printed line "gobot: …" read alike, and err is
// returned for run to print. A log pipeline reading JSON thus keeps the
// one line that says why gobot stopped.
func logStop(log *slog.Logger, json bool, err error) error {
	if err == nil || !json {
		return err
	}
	log.Error("gobot stopped", "err", err)
	return &loggedError{err}
}

// jsonLogAsked reports whether GOBOT_LOG_FORMAT asks for JSON, as config
// reads it, for an error before the configuration is loaded: one that
// does not load is logged as the variable asks when it says json, and
// printed as text otherwise (GOBOT_LOG_FORMAT may be what is wrong).
func jsonLogAsked(getenv func(string) string) bool {
	return strings.EqualFold(getenv("GOBOT_LOG_FORMAT"), string(config.LogJSON))
}

// redactedError is an error whose message has had the configuration's
// secrets removed (config.Redact), still wrapping the original for errors.Is.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// hideValues returns err with each of values that may be a secret
// (config.MayBeSecret) named by its length wherever err's text has it, as
// config.Shown names a value; it still wraps err for errors.Is. It is for
// errors of packages that quote what they were given (exec's "program not
// found", a path), to which config's rule is unknown.
func hideValues(err error, values ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, v := range values {
		if config.MayBeSecret(v) {
			msg = strings.ReplaceAll(msg, v, fmt.Sprintf("(%d characters, not shown in case it is a secret)", len(v)))
		}
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// redactErr redacts *err, the error a subcommand returns (it is printed),
// as the log is.
func redactErr(cfg *config.Config, err *error) {
	if *err != nil {
		*err = &redactedError{msg: cfg.Redact((*err).Error()), err: *err}
	}
}

// commandList names the registered commands for the log: "/go, /draughts
// and /go-admin", with the Activity's launch command when it is
// registered too (globally, with the Activity set up; see App.Register).
func commandList(defs []*discordgo.ApplicationCommand, launch bool) string {
	var names []string
	for _, d := range defs {
		names = append(names, "/"+d.Name)
	}
	if launch {
		names = append(names, "the Activity's launch")
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// warnShortSecrets says, once at start-up and without their values, which
// secrets are too short for the log to mask outside a URL (config.Redact).
func warnShortSecrets(log *slog.Logger, cfg *config.Config) {
	if names := cfg.ShortSecrets(); len(names) > 0 {
		log.Warn(fmt.Sprintf("%s: shorter than %d characters, so the log masks it only in URLs and connection strings, "+
			"not in other text, where it could not be told from ordinary words; a longer password is masked everywhere",
			strings.Join(names, " and "), redact.MinFreeText))
	}
}

// serve runs the bot until ctx ends (SIGTERM or interrupt). The error it
// returns is printed: it is redacted as the log is.
func serve(ctx context.Context, stdout, stderr io.Writer) (err error) {
	cfg, err := config.Load()
	if err != nil {
		// Config's errors quote no secret (config.Shown), so a logger
		// without the configuration's redaction may log them.
		jsonLog := jsonLogAsked(os.Getenv)
		return logStop(slog.New(slog.NewJSONHandler(stderr, nil)), jsonLog, err)
	}
	defer redactErr(cfg, &err)
	log := newLogger(cfg, stderr)
	defer logDiscordgo(log)()
	jsonLog := cfg.LogFormat == config.LogJSON
	defer func() { err = logStop(log, jsonLog, err) }()
	log.Info("starting gobot", append(thisBuild().logArgs(), "config", cfg)...)
	warnShortSecrets(log, cfg)
	for _, w := range cfg.Warnings {
		log.Warn(w)
	}

	// What can stop the start is checked before anything is left behind:
	// the HTTP address, the engines and the application ID before the
	// database (a new bbolt file is created on opening), and all of them,
	// with the shards, before the commands are registered and the invite
	// links printed. The address is only tried here, not held: a socket
	// held while the rest starts would take connections it cannot answer
	// yet, where a refusal lets a load balancer pass them to another
	// worker.
	if cfg.HTTPAddr != "" {
		if err := tryListen(cfg.HTTPAddr); err != nil {
			return err
		}
	}
	players, closePlayers, err := newPlayers(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closePlayers()
	dreg, err := newDraughtsRegistry(ctx, cfg, stderr, log)
	if err != nil {
		return err
	}
	defer dreg.Close()

	rest := commands.NewREST(cfg.APIURL, cfg.Token.Reveal(), nil)
	appID, err := applicationID(ctx, cfg, rest, log, true)
	if err != nil {
		return err
	}
	store, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	var shardID, shardCount int
	if cfg.Mode == config.ModeGateway {
		if shardID, shardCount, err = shards(ctx, cfg, rest); err != nil {
			return err
		}
	}
	app, err := commands.New(commands.Options{
		AppID: appID, GuildID: cfg.GuildID, Discord: rest, Store: store, Rooms: rooms(players, dreg), Logger: log,
		ChallengeTTL: cfg.ChallengeTTL, ScoringTTL: cfg.ScoringTTL, DefaultClock: &cfg.DefaultClock, BotWorkers: cfg.MaxSearches,
		Activity: cfg.ClientSecret != "" && cfg.HTTPAddr != "",
	})
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = app.Register(rctx)
	cancel()
	if refused := commandsRefused(cfg, appID, err); refused != nil {
		return refused
	}
	switch {
	case err != nil:
		log.Error("could not register the slash commands (/go, /draughts, /go-admin); they may be missing or out of date in Discord", "err", err)
	case cfg.GuildID != "":
		log.Info("registered "+commandList(app.Definitions(), false)+" in one guild", "guild", cfg.GuildID)
	default:
		log.Info("registered " + commandList(app.Definitions(), cfg.ClientSecret != "" && cfg.HTTPAddr != "") + " globally")
	}
	if jsonLog {
		// In a JSON log every line is a record, the links too.
		log.Info("invite gobot to a server", "url", inviteURL(appID))
		log.Info("or add it to your own account, to play in DMs and group chats", "url", userInstallURL(appID))
	} else {
		fmt.Fprintf(stdout, "Invite gobot to a server: %s\n", inviteURL(appID))
		fmt.Fprintf(stdout, "Or add it to your own account, to play in DMs and group chats: %s\n", userInstallURL(appID))
	}

	// The clocks get back the time gobot was down before the first
	// interaction can reach a clock (app.Run would do it later).
	app.CreditOutage(ctx)
	if cfg.ClientSecret != "" && cfg.HTTPAddr == "" {
		log.Warn("DISCORD_CLIENT_SECRET is set but GOBOT_HTTP_ADDR is not: without an HTTP server there is no board page, so no Activity")
	}
	var srv *http.Server
	if cfg.HTTPAddr != "" {
		mux := http.NewServeMux()
		health := commands.NewHealth(healthOptions(store, log))
		go health.Run(ctx)
		mux.Handle("GET /healthz", health)
		if cfg.Mode == config.ModeHTTP {
			mux.Handle("POST "+commands.InteractionsPath, app.HTTPHandler(cfg.PublicKey))
		}
		// No signing in by name here, even on a loopback address: a proxy
		// on this host (nginx's proxy_pass to 127.0.0.1) would make every
		// visitor this computer, and a local game has no Discord channel.
		// That is the console's board page (serveBoard).
		board, err := web.New(web.Options{
			App: app, ClientID: appID, ClientSecret: cfg.ClientSecret.Reveal(), BotToken: cfg.Token.Reveal(), APIURL: cfg.APIURL, Log: log,
		})
		if err != nil {
			return err
		}
		defer board.Close()
		mux.Handle(web.Path, board)
		mux.Handle(web.Path+"/", board)
		// The root is where Discord opens the Activity; only a GET goes
		// on to the page (a POST there is no interaction: 404).
		mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				http.NotFound(w, r)
				return
			}
			board.Redirect(w, r)
		})
		if pg, ok := store.(*storage.Postgres); ok {
			// Moves made by other workers reach this one's board pages.
			go pg.ListenGames(ctx, app.Publish)
		}
		srv = &http.Server{Addr: cfg.HTTPAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
		errc := make(chan error, 1)
		go func() { errc <- srv.ListenAndServe() }()
		select {
		case err := <-errc:
			// Taken since tryListen: by another program, in the moments
			// the start took.
			return fmt.Errorf("HTTP server on %s: %w", cfg.HTTPAddr, err)
		case <-time.After(100 * time.Millisecond):
		}
		log.Info("listening", "addr", cfg.HTTPAddr, "mode", cfg.Mode.String())
	}

	var gw *discordgo.Session
	if cfg.Mode == config.ModeGateway {
		dg := rest.Session()
		dg.ShardID, dg.ShardCount = shardID, shardCount
		gw, err = openGateway(ctx, dg, cfg.APIURL, app, log)
		if err != nil {
			return err
		}
		log.Info("connected to the Discord gateway", "shard", gw.ShardID, "shards", gw.ShardCount)
	}

	runDone := make(chan struct{})
	go func() { app.Run(ctx); close(runDone) }()

	<-ctx.Done()
	log.Info("shutting down: finishing moves in flight")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if srv != nil {
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("HTTP server shutdown", "err", err)
		}
	}
	if gw != nil {
		if err := gw.Close(); err != nil {
			log.Warn("gateway close", "err", err)
		}
	}
	if err := app.Shutdown(sctx); err != nil {
		log.Warn("some work did not finish in time and was cancelled", "err", err)
	}
	<-runDone
	log.Info("stopped")
	return nil
}

// tryListen checks that gobot can listen on addr (GOBOT_HTTP_ADDR), then
// lets it go: the server listens there once the bot is ready.
func tryListen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("HTTP server on %s (GOBOT_HTTP_ADDR): %w", addr, err)
	}
	return ln.Close()
}

// appStore is what serve needs from a store: the App's parts
// (commands.Store), the health check and Close. Both storage.Store and
// storage.Postgres have them.
type appStore interface {
	commands.Store
	Check(ctx context.Context) error
	Close() error
}

// healthOptions are the checks behind /healthz. For the bbolt file a
// request costs a read transaction, and the file's pages are checked in the
// background at a bounded rate (its full Check replays every game: far too
// slow for a request). PostgreSQL's Check reads no records and serves as
// both.
func healthOptions(store appStore, log *slog.Logger) commands.HealthOptions {
	if s, ok := store.(*storage.Store); ok {
		return commands.HealthOptions{Ping: s.Ping, Deep: s.CheckPages, Logger: log}
	}
	return commands.HealthOptions{Ping: store.Check, Deep: store.Check, Logger: log}
}

// openStore opens PostgreSQL when GOBOT_DATABASE_URL is set, and the bbolt
// file (serving hot backups on its socket) otherwise.
func openStore(ctx context.Context, cfg *config.Config, log *slog.Logger) (appStore, error) {
	if cfg.DatabaseURL != "" {
		octx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		return storage.OpenPostgres(octx, cfg.DatabaseURL.Reveal(), storage.Options{Kinds: kinds(), Logger: log, StartRatings: startRatings()})
	}
	s, err := storage.Open(cfg.DBPath, storage.Options{Kinds: kinds(), BackupSocket: storage.DefaultBackupSocket(cfg.DBPath), Logger: log, StartRatings: startRatings()})
	if err != nil {
		// One line naming the variable, as the configuration's errors do.
		return nil, fmt.Errorf("GOBOT_DB: %w", err)
	}
	return s, nil
}

// startRatings are the bot levels' start ratings, each kind's from its
// room (goroom.StartRatings, draughtsroom.StartRatings) for its built-in
// levels; GTP programs and Hub engines have no measured strength. Every
// store that rates games or rebuilds the ratings is opened with them, so
// that the two agree.
func startRatings() storage.StartRatings {
	return storage.StartRatings{
		engine.Kind{}.Name():   goroom.StartRatings(bots.Builtin()),
		draughts.Kind{}.Name(): draughtsroom.StartRatings(dbots.Builtin()),
	}
}

// kinds are the games gobot hosts, each registered once: the store reads
// their records back by kind.
func kinds() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}

// rooms are the Discord side's rooms of the kinds gobot hosts, Go's first
// (the default for what names no kind); a kind's rules are in kinds.
func rooms(players goroom.Players, dreg *dbots.Registry) []commands.NewRoom {
	return []commands.NewRoom{goroom.New(players, nil), draughtsroom.New(dreg)}
}

// tokenRefused is the error of a start-up call that Discord answered with
// 401: the token is not a bot's current token.
func tokenRefused(err error) error {
	return fmt.Errorf("discord refused DISCORD_TOKEN (HTTP 401): it is not the bot's current token; copy it again from the Developer Portal (Bot → Reset Token): %w", err)
}

// applicationID is DISCORD_APP_ID, or when it is not set the ID of the
// application whose token DISCORD_TOKEN is, as Discord says it. Discord's
// record of the application is read either way, before anything is left
// behind, to stop a start that could not work with a line that says what
// to fix: a token Discord refuses, a DISCORD_APP_ID of another
// application, and in http mode a DISCORD_PUBLIC_KEY that is not the
// application's (every interaction would then be refused as unsigned,
// with nothing in the log to say why), when serving. When DISCORD_APP_ID
// is set and Discord cannot be asked, the start goes on, with a warning.
func applicationID(ctx context.Context, cfg *config.Config, rest *commands.REST, log *slog.Logger, serving bool) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	app, err := rest.Application(ctx)
	switch {
	case errors.Is(err, commands.ErrDiscordUnauthorized):
		return "", tokenRefused(err)
	case err != nil && cfg.AppID == "":
		return "", fmt.Errorf("fetch the application ID from Discord (GET /applications/@me): %w", err)
	case err != nil:
		log.Warn("could not check DISCORD_APP_ID and DISCORD_PUBLIC_KEY against Discord's record of the application (GET /applications/@me); going on with them", "err", err)
		return cfg.AppID, nil
	case cfg.AppID != "" && cfg.AppID != app.ID:
		return "", fmt.Errorf("DISCORD_APP_ID is %s, but DISCORD_TOKEN is the token of the application %s: check that DISCORD_APP_ID is the Application ID of the bot whose token is DISCORD_TOKEN (General Information in the Developer Portal), or leave it unset to take the token's", cfg.AppID, app.ID)
	case serving && cfg.Mode == config.ModeHTTP && app.VerifyKey != "" && !strings.EqualFold(app.VerifyKey, hex.EncodeToString(cfg.PublicKey)):
		return "", fmt.Errorf("DISCORD_PUBLIC_KEY is not the public key of the application %s, whose token DISCORD_TOKEN is: Discord's signatures would not verify, and every interaction would be refused; copy it again from the Developer Portal (General Information → Public Key)", app.ID)
	}
	return app.ID, nil
}

// commandsRefused is the error that stops gobot when Discord refuses a
// write of its commands (err) for the token, the application or the
// server; nil for any other error, or none.
func commandsRefused(cfg *config.Config, appID string, err error) error {
	switch {
	case errors.Is(err, commands.ErrDiscordUnauthorized):
		return tokenRefused(err)
	case errors.Is(err, commands.ErrDiscordForbidden) || errors.Is(err, commands.ErrDiscordNotFound):
		return registerRefused(cfg, appID, err)
	}
	return nil
}

// registerRefused is the error that stops start-up when Discord answers
// the registration of the commands with 403 or 404 (err): it names what
// can cause it. An application that is not the token's can only be a
// DISCORD_APP_ID set by hand, not one fetched with the token. In one
// server, Missing Access most often means the bot was invited without the
// applications.commands scope: the invite link asks for it.
func registerRefused(cfg *config.Config, appID string, err error) error {
	var checks []string
	if cfg.AppID != "" {
		checks = append(checks, "that DISCORD_APP_ID is the Application ID of the bot whose token is DISCORD_TOKEN (General Information in the Developer Portal)")
	}
	if cfg.GuildID != "" {
		check := "that the bot is in the server GOBOT_GUILD_ID names"
		if commands.DiscordCode(err) == commands.DiscordMissingAccess {
			check += " and was invited with the applications.commands scope (Missing Access most often means an invite without it): invite it again with this link, which asks for that scope, then restart gobot: " + inviteURL(appID)
		}
		checks = append(checks, check)
	}
	if len(checks) == 0 {
		return fmt.Errorf("discord refused to register the commands of application %s: %w", appID, err)
	}
	return fmt.Errorf("discord refused to register the commands of application %s: check %s: %w", appID, strings.Join(checks, ", and "), err)
}

// inviteURL is the OAuth2 link that adds the bot to a server with only the
// scopes and permissions it needs.
func inviteURL(appID string) string {
	q := url.Values{}
	q.Set("client_id", appID)
	q.Set("scope", "bot applications.commands")
	q.Set("permissions", fmt.Sprint(invitePermissions))
	q.Set("integration_type", "0")
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}

// userInstallURL is the OAuth2 link that installs the app on a user's
// account (the Developer Portal's User Install must be enabled): /go then
// works in their DMs, group DMs and servers where the bot is no member.
func userInstallURL(appID string) string {
	q := url.Values{}
	q.Set("client_id", appID)
	q.Set("scope", "applications.commands")
	q.Set("integration_type", "1")
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}

// shards returns the gateway shard this process runs and how many there
// are: GOBOT_SHARD_ID and GOBOT_SHARD_COUNT, the count asked from Discord
// when unset. Every shard is its own process, so more than one needs the
// shared PostgreSQL store.
func shards(ctx context.Context, cfg *config.Config, rest *commands.REST) (id, count int, err error) {
	count = cfg.ShardCount
	if count == 0 {
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		count, err = rest.RecommendedShards(sctx)
		cancel()
		if errors.Is(err, commands.ErrDiscordUnauthorized) {
			return 0, 0, tokenRefused(err)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("ask Discord how many gateway shards to run (set GOBOT_SHARD_COUNT to skip this): %w", err)
		}
		if count > 1 && cfg.DatabaseURL == "" {
			return 0, 0, fmt.Errorf("discord asks for %d gateway shards: run one gobot per shard (GOBOT_SHARD_ID 0 to %d, GOBOT_SHARD_COUNT=%d) sharing a PostgreSQL database (GOBOT_DATABASE_URL)", count, count-1, count)
		}
	}
	if cfg.ShardID >= count {
		return 0, 0, fmt.Errorf("GOBOT_SHARD_ID=%d, but there are only %d shards (0 to %d)", cfg.ShardID, count, count-1)
	}
	return cfg.ShardID, count, nil
}

// openGateway connects the websocket of dg, the session the bot's REST
// calls go through (so the gateway lookup shares their rate limits and
// apiURL, DISCORD_API_URL), with no privileged intents, and passes every
// interaction to the bot.
func openGateway(ctx context.Context, dg *discordgo.Session, apiURL string, app *commands.App, log *slog.Logger) (*discordgo.Session, error) {
	dg.Identify.Intents = discordgo.IntentsNone
	// discordgo's own messages go to our log (logDiscordgo). Its debug
	// level would print the identify packet, token included: never go
	// below warnings.
	dg.LogLevel = discordgo.LogWarning
	// The event's raw payload goes along: it says what discordgo's
	// Interaction drops, such as the channel's type.
	dg.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		if ic, ok := e.Struct.(*discordgo.InteractionCreate); ok && ic.Interaction != nil {
			app.HandleEvent(ctx, ic.Interaction, e.RawData)
		}
	})
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		log.Info("gateway ready", "user", r.User.Username, "guilds", len(r.Guilds))
	})
	if err := dg.Open(); err != nil {
		return nil, fmt.Errorf("connect to the Discord gateway: %w", asSent(err, apiURL))
	}
	return dg, nil
}

// asSent returns err, from a request discordgo made through a
// commands.REST session, naming the URL the request went to: discordgo's
// *url.Error names its own endpoint (discordgo.EndpointAPI, its API version
// included), which the session's transport rewrote to apiURL
// (commands.RewriteTransport) before dialling. A password in apiURL is
// shown as net/http shows one.
func asSent(err error, apiURL string) error {
	ue, ok := err.(*url.Error) // discordgo returns the HTTP client's error as it is
	if !ok || !strings.HasPrefix(ue.URL, discordgo.EndpointAPI) {
		return err
	}
	base, perr := url.Parse(strings.TrimRight(apiURL, "/") + "/")
	if perr != nil {
		return err
	}
	sent := *ue
	sent.URL = base.Redacted() + strings.TrimPrefix(ue.URL, discordgo.EndpointAPI)
	return &sent
}

// console runs the terminal session.
func console(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.String("user", "player", "your name in the console")
	db := fs.String("db", "gobot-console.db", "database file for console games")
	boards := fs.String("boards", "boards", "folder for the board PNGs")
	webAddr := fs.String("web", "127.0.0.1:7800", "loopback address of the board page in the browser (\"\" for none)")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if err := strayArgs(fs, nil); err != nil {
		return err
	}
	cfg, err := config.LoadFor(config.Offline)
	if err != nil {
		return err
	}
	if os.Getenv("GOBOT_LOG_LEVEL") == "" {
		cfg.LogLevel = slog.LevelWarn
	}
	log := newLogger(cfg, stderr)
	// Like the bot, the console serves hot backups (gobot backup) on its socket.
	store, err := storage.Open(*db, storage.Options{Kinds: kinds(), BackupSocket: storage.DefaultBackupSocket(*db), Logger: log, StartRatings: startRatings()})
	if err != nil {
		return err
	}
	defer store.Close()
	players, closePlayers, err := newPlayers(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closePlayers()
	dreg, err := newDraughtsRegistry(ctx, cfg, stderr, log)
	if err != nil {
		return err
	}
	defer dreg.Close()
	co := commands.ConsoleOptions{
		In: stdin, Out: stdout, User: *user, Store: store, BoardDir: *boards, StateFile: *db + ".console.json",
		Options: commands.Options{Logger: log, ChallengeTTL: cfg.ChallengeTTL, ScoringTTL: cfg.ScoringTTL, DefaultClock: &cfg.DefaultClock, BotWorkers: cfg.MaxSearches, Rooms: rooms(players, dreg)},
	}
	if *webAddr != "" {
		co.Web = func(app *commands.App, key []byte) (string, func(), error) {
			return serveBoard(app, *webAddr, key, log)
		}
	}
	return commands.RunConsole(ctx, co)
}

// serveBoard serves the board page for the console on addr, a loopback
// address (another port when that one is taken), its sign-ins signed with
// key, and returns its URL.
func serveBoard(app *commands.App, addr string, key []byte, log *slog.Logger) (string, func(), error) {
	if !loopbackAddr(addr) {
		return "", nil, fmt.Errorf("--web %s: the console's board page listens on a loopback address only (127.0.0.1:PORT)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		host, _, _ := net.SplitHostPort(addr)
		if ln, err = net.Listen("tcp", net.JoinHostPort(host, "0")); err != nil {
			return "", nil, err
		}
		// The address asked for is taken (another console): said, since
		// a page opened at it would be another console's.
		log.Warn("the board page's address is taken: serving it on another port", "asked", addr, "serving", ln.Addr().String())
	}
	board, err := web.New(web.Options{App: app, Local: true, LocalChannel: commands.ConsoleChannel, SessionKey: key, Log: log})
	if err != nil {
		ln.Close()
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(web.Path, board)
	mux.Handle(web.Path+"/", board)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	stop := func() {
		board.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
	return "http://" + ln.Addr().String() + web.Path + "/", stop, nil
}

// loopbackAddr reports whether a listen address is on a loopback
// interface only (127.0.0.1:8080, localhost:8080, [::1]:8080), where the
// console's board page listens.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveGTP serves the Go Text Protocol with a bot level as the player. The
// level keeps its own budget, but a controller's clock comes first: each
// move's search ends by the deadline gtp.Serve computes from time_settings
// and time_left, with the best move found by then.
func serveGTP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gtp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := fs.String("bot", "", "bot level that generates moves ("+levelNames(bots.Builtin())+", or gtp:NAME for a program of GOBOT_GTP_ENGINES; default: the strongest built-in level)")
	// Simple ko by default, as GNU Go and most GTP peers play: a controller
	// that referees superko itself sees the same legal moves.
	ko := fs.String("ko", "simple", "ko rule: simple, positional or situational")
	playouts := fs.Int("playouts", 0, "playouts per move instead of the level's own budget (the Monte Carlo levels from casual up; nodes for a static minimax); a fixed count makes the level as strong on a loaded machine as on an idle one, for matches")
	logMoves := fs.Bool("log", false, "write a line to stderr for every genmove: the move, its time, and the search's win rate, playouts and variation")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	koRule, err := engine.ParseKoRule(*ko)
	if err != nil {
		return fmt.Errorf("--ko: %w", err)
	}
	reg, err := offlineRegistry()
	if err != nil {
		return err
	}
	if err := strayArgs(fs, func(w string) bool { _, ok := reg.Lookup(w); return ok }); err != nil {
		return err
	}
	defer reg.Close()
	l, err := gtpLevel(reg, *level, *playouts)
	if err != nil {
		return err
	}
	var moveLog io.Writer
	if *logMoves {
		moveLog = stderr
	}
	err = gtp.Serve(ctx, stdin, stdout, gtp.ServerOptions{
		Name: "gobot", Version: version + " (" + l.Name + ")", Ko: koRule,
		GenMove:    gtpGenMove(l, moveLog),
		DeadStones: estimate.DeadStones,
		Warn:       func(msg string) { fmt.Fprintln(stderr, "gobot: warning:", msg) },
	})
	if errors.Is(err, context.Canceled) {
		return nil // SIGTERM or an interrupt: a normal end of the session
	}
	return err
}

// gtpLevel finds the level `gobot gtp` plays: name, or the strongest
// built-in one when name is empty, at a fixed number of playouts a move
// instead of its own budget when playouts is positive (the controller's
// clock still ends a search early).
func gtpLevel(reg *bots.Registry, name string, playouts int) (bots.Level, error) {
	if playouts < 0 {
		return bots.Level{}, fmt.Errorf("--playouts: %d is negative; give a count of playouts, or 0 for the level's own budget", playouts)
	}
	if name == "" {
		name = defaultGTPLevel(reg.Levels())
	}
	l, ok := reg.Lookup(name)
	if !ok {
		return bots.Level{}, fmt.Errorf("--bot: unknown level %q (levels: %s)", name, levelNames(reg.Levels()))
	}
	if playouts > 0 {
		l.Budget = bots.Budget{Playouts: playouts}
	}
	return l, nil
}

// gtpGenMove plays level l for a GTP session: one bot for the session when
// the level keeps its tree between moves, a fresh one per move otherwise,
// at the level's budget and within ctx's deadline. Under the controller's
// clock a level that searches for a time (hard, max) searches for the
// clock's target instead of its own time, and up to ctx's deadline while
// its choice is unclear; a level of fixed playouts keeps them. It bypasses
// the registry's limiter, which serves many games: a session searches one
// move at a time, and a clock that has run out must still get a move.
// With log not nil it writes a line there for every move (see logMove).
func gtpGenMove(l bots.Level, log io.Writer) func(ctx context.Context, g *engine.Game, c engine.Color, target time.Duration) (engine.Move, error) {
	var kept bots.Bot
	return func(ctx context.Context, g *engine.Game, c engine.Color, target time.Duration) (m engine.Move, err error) {
		defer func() {
			if p := recover(); p != nil {
				kept = nil
				m, err = engine.Move{}, fmt.Errorf("%s: %w: %v", l.Name, bots.ErrInternal, p)
			}
		}()
		bot := kept
		if bot == nil {
			// A different seed for every move of a game, as in Discord.
			bot = l.New(g.Seed() ^ int64(g.MoveCount()+1)*0x5851f42d4c957f2d)
		}
		if l.KeepTree {
			kept = bot
		}
		budget := l.Budget
		if d, ok := ctx.Deadline(); ok && budget.Playouts == 0 {
			budget = bots.Budget{Time: target, Max: time.Until(d)}
		}
		if log == nil {
			return bot.GenMove(ctx, g, budget)
		}
		searched := searches(bot)
		start := time.Now()
		m, err = bot.GenMove(ctx, g, budget)
		n, ok := gtp.MoveNumber(ctx)
		if !ok {
			n = g.MoveCount() + 1
		}
		logMove(log, bot, n, c, m, err, time.Since(start), searched, gtp.Cleanup(ctx))
		return m, err
	}
}

// searcher is a bot that searches a tree (bots.MCTSBot) and keeps the
// statistics of its last search.
type searcher interface{ Searcher() *mcts.Searcher }

// searches returns the number of searches bot has run (0 for a bot that
// does not search a tree).
func searches(bot bots.Bot) int {
	if s, ok := bot.(searcher); ok {
		return s.Searcher().Stats().Searches
	}
	return 0
}

// logMove writes the line of `gobot gtp --log` for one genmove of c, the
// game's move number, that took elapsed: the move (or the error), the time, and, when the
// move came from a new search (bot's searches went past before), the
// search's statistics; otherwise what answered without one.
func logMove(w io.Writer, bot bots.Bot, number int, c engine.Color, m engine.Move, err error, elapsed time.Duration, before int, cleanup bool) {
	head := fmt.Sprintf("gobot: move %d, %v: ", number, c)
	tail := "\n"
	if cleanup && err == nil && m.Kind == engine.Pass {
		// Not the move sent: kgs-genmove_cleanup plays on (engine/gtp).
		tail = "; kgs-genmove_cleanup sends a move that captures a dead stone instead, where there is one\n"
	}
	switch {
	case err != nil:
		fmt.Fprintf(w, "%serror after %v: %v\n", head, elapsed.Round(time.Millisecond), err)
	case searches(bot) > before:
		st := bot.(searcher).Searcher().Stats()
		played := m.String()
		if m != st.Move {
			played += " (the end-of-game rules' choice)"
		}
		fmt.Fprintf(w, "%s%s in %v; search: %v%s", head, played, elapsed.Round(time.Millisecond), st, tail)
	default:
		fmt.Fprintf(w, "%s%s in %v, without a search%s", head, m, elapsed.Round(time.Millisecond), tail)
	}
}

func levelNames(levels []bots.Level) string {
	var names []string
	for _, l := range levels {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

// defaultGTPLevel is the strongest built-in level: the last one that is
// not a GTP program.
func defaultGTPLevel(levels []bots.Level) string {
	name := ""
	for _, l := range levels {
		if !strings.HasPrefix(l.Name, bots.GTPPrefix) {
			name = l.Name
		}
	}
	return name
}

// backup copies the database to a file, through the running bot's backup
// socket when it is running.
func backup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gobot backup FILE\n\ncopies the bbolt database (GOBOT_DB, or gobot.db) to FILE, even while the bot runs;\nFILE must not exist (an existing file, perhaps the last good backup, is never replaced)")
	}
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() != 1 {
		return errors.New("usage: gobot backup FILE")
	}
	cfg, err := config.LoadFor(config.Offline)
	if err != nil {
		return err
	}
	if cfg.DatabaseURL != "" {
		return errors.New("backup: the database is PostgreSQL (GOBOT_DATABASE_URL): back it up with pg_dump; gobot backup copies the bbolt file")
	}
	out := fs.Arg(0)
	if err := storage.BackupTo(ctx, cfg.DBPath, storage.DefaultBackupSocket(cfg.DBPath), out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DBPath, out)
	return nil
}

// goOf is the game of Go that g holds (engine.GameOf); nil for another kind.
func goOf(g *storage.Game) *engine.Game { return engine.GameOf(g.State) }
