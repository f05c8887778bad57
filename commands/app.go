package commands

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Defaults for Options left zero.
const (
	DefaultChallengeTTL = 24 * time.Hour
	DefaultScoringTTL   = 24 * time.Hour
	// BotMoveTimeout bounds one bot move, whatever its level's budget.
	BotMoveTimeout = 2 * time.Minute
	// acceptClaim bounds the claim an Accept holds on its challenge while
	// it makes the game's thread (storage's ClaimChallenge): a worker that
	// dies meanwhile holds it no longer than this.
	acceptClaim = 30 * time.Second
	// sweepEvery is how often expired challenges and scoring phases are closed.
	sweepEvery = time.Minute
)

// Options is what New needs. Discord, Store and Players are required.
type Options struct {
	// AppID is the application ID (used to register commands).
	AppID string
	// GuildID, when set, registers the commands in that guild only.
	GuildID string
	Discord Discord
	Store   Store
	Logger  *slog.Logger
	// ChallengeTTL is how long a challenge stays open (DefaultChallengeTTL).
	ChallengeTTL time.Duration
	// ScoringTTL is how long players have to agree on dead stones (DefaultScoringTTL).
	ScoringTTL time.Duration
	// DefaultClock is the clock of games whose players choose none; nil
	// means clock.Default() (correspondence).
	DefaultClock *clock.Control
	// BotWorkers is how many owed bot moves are made at once (the workers
	// draining the store's queue); 0 means runtime.NumCPU(). Give the
	// number of searches Players runs at once (GOBOT_MAX_SEARCHES), so
	// that each worker finds a search slot.
	BotWorkers int
	// Now returns the current time (time.Now); tests set it.
	Now func() time.Time
	// After waits d on the same clock as Now (time.After); tests with their
	// own Now set it, so that the clocks' scheduler wakes on their time.
	After func(d time.Duration) <-chan time.Time
	// Rooms make the rooms of the kinds of game the App hosts, one each
	// (room.go); the first is the default for anything that names no
	// kind. An App needs one at least.
	Rooms []NewRoom
	// DeferAfter is how long the HTTP endpoint lets a handler answer
	// before it defers the answer (0: httpDeferAfter, 2 s, inside
	// Discord's 3 s).
	DeferAfter time.Duration
	// Activity says the board page runs as a Discord Activity: board
	// messages get an Open board button, and Register adds the Entry
	// Point command (activity.go).
	Activity bool
}

// App is gobot's Discord application: it handles interactions and runs
// the background work (bot moves, clocks, expiries). It is safe for
// concurrent use: interactions run concurrently and each game is
// serialised by storage's version check.
type App struct {
	opts   Options
	log    *slog.Logger
	router *Router
	// seeUser is told who sent each interaction from Discord (SeeUsers).
	seeUser atomic.Pointer[func(userID, avatar string)]

	// The parts of Options.Store (deps.go), one field each: every handler
	// and helper reaches persistence through the part it names, never
	// through the whole Store.
	games      Games
	challenges Challenges
	archive    Archive
	stats      Stats
	reviews    Reviews
	deadlines  Deadlines
	queue      BotQueue
	admin      Admin

	// kick wakes the clocks' scheduler after a write (see kickClocks).
	kick chan struct{}

	// owed holds the workers that make owed bot moves and the handlers
	// waiting for them (see botqueue.go).
	owed *owedMoves

	// rooms are the kinds' rooms (room.go).
	rooms *rooms

	// changes are the listeners of the change feed (see OnChange in web.go).
	changes *changes

	outageOnce sync.Once // creditOutage
	// unreachable says that the store failed a heartbeat or a deadline
	// read since its last outage credit: the next credit check
	// (creditAfterOutage) gives the clocks the time it was down.
	unreachable atomic.Bool

	mu       sync.Mutex
	closed   bool
	closing  chan struct{} // closed when Shutdown starts
	inflight sync.WaitGroup
	halt     Halt // cancels in-flight work when Shutdown's grace period is over
}

// New returns an App with its routes registered.
func New(opts Options) (*App, error) {
	if opts.Discord == nil || opts.Store == nil || len(opts.Rooms) == 0 {
		return nil, errors.New("commands: New needs Discord, Store and a room")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.ChallengeTTL <= 0 {
		opts.ChallengeTTL = DefaultChallengeTTL
	}
	if opts.ScoringTTL <= 0 {
		opts.ScoringTTL = DefaultScoringTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.After == nil {
		opts.After = time.After
	}
	if opts.DefaultClock == nil {
		d := clock.Default()
		opts.DefaultClock = &d
	}
	if opts.BotWorkers <= 0 {
		opts.BotWorkers = runtime.NumCPU()
	}
	if opts.Activity {
		opts.Discord = activityDiscord{opts.Discord}
	}
	st := opts.Store
	if opts.DeferAfter <= 0 {
		opts.DeferAfter = httpDeferAfter
	}
	b := &App{opts: opts, log: opts.Logger,
		games: st, challenges: st, archive: st, stats: st, reviews: st, deadlines: st, queue: st, admin: st,
		kick: make(chan struct{}, 1),
		owed: newOwedMoves(), closing: make(chan struct{}), changes: &changes{}}
	// Every committed write of a game is announced (web.go).
	b.games, b.challenges = feedGames{Games: st, app: b}, feedChallenges{Challenges: st, app: b}
	var list []Room
	for _, open := range opts.Rooms {
		rm, err := open(b)
		if err != nil {
			return nil, err
		}
		list = append(list, rm)
	}
	var err error
	if b.rooms, err = newRooms(list); err != nil {
		return nil, err
	}
	b.router = b.routes()
	return b, nil
}

// Now is the time on the App's clock (Options.Now).
func (a *App) Now() time.Time { return a.opts.Now() }

// GameStore is the store's part for active games (Options.Store), for the
// rooms: every write of a game is version-checked and announced on the
// change feed.
func (a *App) GameStore() Games { return a.games }

// Archives is the store's part for finished games (Options.Store), for
// the rooms.
func (a *App) Archives() Archive { return a.archive }

// Challenges is the store's part for open challenges, for the rooms.
func (a *App) Challenges() Challenges { return a.challenges }

// Reviews is the store's part for games' reviews, for the rooms.
func (a *App) Reviews() Reviews { return a.reviews }

// Discord is the Discord the App answers through (Options.Discord).
func (a *App) Discord() Discord { return a.opts.Discord }

// DefaultClock is the clock of a game started without one
// (Options.DefaultClock).
func (a *App) DefaultClock() clock.Control { return *a.opts.DefaultClock }

// ScoringTTL is how long a scoring phase may wait for the players
// (Options.ScoringTTL).
func (a *App) ScoringTTL() time.Duration { return a.opts.ScoringTTL }

// ChallengeTTLDefault is how long a challenge stays open where a server
// chose no other (Options.ChallengeTTL).
func (a *App) ChallengeTTLDefault() time.Duration { return a.opts.ChallengeTTL }

// Logger is the App's logger (Options.Logger).
func (a *App) Logger() *slog.Logger { return a.log }

// Wait waits for the work in flight (handlers, and what they started in
// the background) to end.
func (a *App) Wait() { a.inflight.Wait() }

// Router returns the App's router (for tests and the help text).
func (a *App) Router() *Router { return a.router }

// Register overwrites the application's commands with its rooms' and
// /go-admin (Definitions), globally or in the configured guild.
func (a *App) Register(ctx context.Context) error {
	if a.opts.AppID == "" {
		return errors.New("commands: Register needs the application ID")
	}
	cmds := a.Definitions()
	if a.opts.Activity && a.opts.GuildID == "" {
		// Discord refuses a global overwrite that drops the Entry Point
		// command of an application with Activities; without gobot's
		// own, OverwriteCommands keeps the existing one (Discord's
		// "Launch", made when Activities were enabled in the portal).
		cmds = append(cmds, entryPoint())
	}
	if err := a.opts.Discord.OverwriteCommands(ctx, a.opts.AppID, a.opts.GuildID, cmds); err != nil {
		return fmt.Errorf("commands: register the commands: %w", err)
	}
	return nil
}

// Handle handles one interaction received from the gateway (or the console),
// answering through Discord. It returns when the handler has finished.
// Cancelling ctx does not interrupt a move in progress (SIGTERM lets moves
// finish); Shutdown does, once its grace period is over.
func (a *App) Handle(ctx context.Context, it *discordgo.Interaction) {
	a.HandleEvent(ctx, it, nil)
}

// HandleEvent is Handle for an interaction received from the gateway with
// its event's payload, which says what discordgo's Interaction does not:
// the channel's type, and a thread's parent (see ThreadsHere).
func (a *App) HandleEvent(ctx context.Context, it *discordgo.Interaction, payload []byte) {
	hctx, cancel := a.halt.With(context.WithoutCancel(ctx))
	defer cancel()
	initial := func(ctx context.Context, resp *Response) (*discordgo.Message, error) {
		return a.opts.Discord.Callback(ctx, it, resp)
	}
	var ch *ChannelInfo
	if payload != nil {
		ch = channelOfPayload(payload)
	}
	a.track(func() { a.handle(hctx, it, ch, initial) })
}

// enter counts new in-flight work and reports true, unless the App is
// shutting down; the caller calls b.inflight.Done when the work ends.
func (a *App) enter() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.inflight.Add(1)
	return true
}

// track runs fn as in-flight work unless the App is shutting down.
func (a *App) track(fn func()) bool {
	if !a.enter() {
		return false
	}
	defer a.inflight.Done()
	fn()
	return true
}

// spawn runs fn in a new goroutine as in-flight work with a context that
// Shutdown cancels only after its grace period. It reports false, and
// runs nothing, once the App is shutting down.
func (a *App) spawn(fn func(ctx context.Context)) bool {
	if !a.enter() {
		return false
	}
	go func() {
		defer a.inflight.Done()
		ctx, cancel := a.halt.With(context.Background())
		defer cancel()
		fn(ctx)
	}()
	return true
}

// Spawn is spawn for the rooms: fn runs in a new goroutine as in-flight
// work that Shutdown waits for; nothing runs, and it reports false, once
// the App is shutting down.
func (a *App) Spawn(fn func(ctx context.Context)) bool { return a.spawn(fn) }

// Shutdown stops taking new work and waits for in-flight interactions and
// bot moves to finish, or for ctx to end, when it cancels them and waits for
// them to return. Game reviews in progress are cancelled at once. Owed bot
// moves not started yet stay queued in the store for the next start;
// handlers waiting for them answer at once.
func (a *App) Shutdown(ctx context.Context) error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.closing)
	}
	a.mu.Unlock()
	// A room's long work (Go's reviews take minutes) stops at once rather
	// than hold up the moves' grace period.
	for _, rm := range a.rooms.list {
		if s, ok := rm.(Stopper); ok {
			s.Stop()
		}
	}
	done := make(chan struct{})
	go func() { a.inflight.Wait(); a.owed.wg.Wait(); close(done) }()
	select {
	case <-done:
		a.halt.Stop()
		return nil
	case <-ctx.Done():
		a.halt.Stop()
		<-done
		return ctx.Err()
	}
}

// SeeUsers has f told the ID and avatar hash of the user of every
// interaction from Discord from now on: the board page shows the players'
// pictures of everyone who used gobot on this process, not only of those
// who opened the page here.
func (a *App) SeeUsers(f func(userID, avatar string)) { a.seeUser.Store(&f) }

// handle runs the router on one interaction and turns a failure into an
// ephemeral reply. A panic is recovered, logged with its stack and answered
// with an apology.
func (a *App) handle(ctx context.Context, it *discordgo.Interaction, ch *ChannelInfo, initial initialFunc) {
	if f := a.seeUser.Load(); f != nil {
		u := it.User
		if it.Member != nil && it.Member.User != nil {
			u = it.Member.User
		}
		if u != nil {
			(*f)(u.ID, u.Avatar)
		}
	}
	a.handleWith(ctx, it, ch, a.opts.Discord, initial)
}

// handleWith is handle answering through d: the board page's actions
// (web.go) keep their answers instead of sending them to Discord. It
// returns the handler's refusal (or failure), already answered, or nil
// when the handler did what was asked.
func (a *App) handleWith(ctx context.Context, it *discordgo.Interaction, ch *ChannelInfo, d Discord, initial initialFunc) (refused error) {
	r := newRequest(it, d, initial)
	r.Channel = ch
	start := a.Now()
	log := a.log.With("interaction", it.ID, "type", interactionTypeName(it.Type), "channel", it.ChannelID)
	if r.User != nil {
		log = log.With("user", r.User.ID)
	}
	defer func() {
		if p := recover(); p != nil {
			log.Error("handler panicked", "path", r.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			refused = UserErr(errPanic, "Sorry, something went wrong on my side and nothing was changed. Please try again; if it keeps happening, tell the server admins.")
			a.replyError(ctx, r, log, refused)
		}
	}()
	if r.User == nil {
		refused = UserErr(ErrBadOption, "I could not tell who sent this.")
		a.replyError(ctx, r, log, refused)
		return refused
	}
	if it.ChannelID != "" && it.Type != discordgo.InteractionApplicationCommandAutocomplete {
		// A bot move this handler causes is answered by it; one made
		// while it runs and answered by no handler is posted when it ends.
		leave := a.owed.attend(it.ChannelID)
		defer func() {
			if out := leave(); out != nil {
				a.postBotMove(ctx, out.game, out.note)
			}
		}()
	}
	err := a.router.Dispatch(ctx, r)
	if err != nil {
		a.replyError(ctx, r, log, err)
		return err
	}
	log.Debug("handled", "path", r.Path, "took", a.Now().Sub(start))
	return nil
}

// interactionTypeName names an interaction's type for the log, for every
// type Discord sends. discordgo's InteractionType.String has no name for
// autocomplete, which the log gave as "InteractionType(4)"; the others
// keep the names it gives them (Discord's, in CamelCase), so that searches
// of older logs still find them.
func interactionTypeName(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionPing:
		return "Ping"
	case discordgo.InteractionApplicationCommand:
		return "ApplicationCommand"
	case discordgo.InteractionMessageComponent:
		return "MessageComponent"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "ApplicationCommandAutocomplete"
	case discordgo.InteractionModalSubmit:
		return "ModalSubmit"
	}
	// A type Discord adds later.
	return fmt.Sprintf("InteractionType(%d)", t)
}

// errPanic marks the apology after a recovered panic.
var errPanic = errors.New("commands: handler panicked")

func (a *App) replyError(ctx context.Context, r *Request, log *slog.Logger, err error) {
	if le := (*storage.LimitError)(nil); errors.As(err, &le) {
		// Another game of the player's started at the same moment: the
		// store refused this one.
		err = fmt.Errorf("%w: %w", limitRefusal(le.Player, le.Games, le.Max, r.User != nil && le.Player.UserID == r.User.ID), err)
	}
	if be := (*storage.BanError)(nil); errors.As(err, &be) {
		// An admin banned one of the game's people after the command
		// checked: the store refused the game.
		err = fmt.Errorf("%w: %w", banRefusal(be.Ban, r.User != nil && be.Ban.User.UserID == r.User.ID), err)
	}
	msg, expected := ErrorMessage(err)
	if errors.Is(err, ErrGameRunning) && !errors.As(err, new(*UserError)) {
		// The default sentence's way out, a thread, exists only in
		// server channels: not in a DM, nor in the console's one channel,
		// nor where no thread can be started (a thread, a forum post).
		switch {
		case r.Interaction.GuildID == "":
			msg = gameRunningInDM
		case r.Interaction.GuildID == consoleGuild:
			msg = gameRunningInConsole
		case !ThreadsHere(r):
			msg = GameRunningNoThread(r)
		}
	}
	if cmd := commandOf(r); cmd != CommandName && !errors.As(err, new(*UserError)) {
		// The default sentences name /go's commands: under /draughts,
		// its own (/draughts board, /draughts challenge, /draughts help).
		msg = strings.ReplaceAll(msg, "`/go ", "`/"+cmd+" ")
	}
	if errors.Is(err, ErrGameRunning) {
		msg += a.runningWayOut(ctx, r)
	}
	if expected {
		log.Info("refused", "path", r.Path, "reason", err)
	} else if !errors.Is(err, errPanic) {
		log.Error("handler failed", "path", r.Path, "err", err)
	}
	if r.Interaction.Type == discordgo.InteractionApplicationCommandAutocomplete {
		if !r.Responded() {
			_ = r.Choices(ctx, nil)
		}
		return
	}
	// Discord refuses a message over 2,000 characters, and the user would
	// read only "interaction failed".
	// A damaged game set aside concerns both players: say it in public.
	public := errors.Is(err, ErrQuarantined)
	if rerr := r.Reply(ctx, &Message{Content: Clip(msg, 2000), Ephemeral: !public}); rerr != nil {
		log.Warn("could not send error reply", "err", rerr)
	}
}

// errorMessage returns what the user reads for err, and whether err is an
// expected refusal (bad input, wrong turn) rather than a fault of ours.
func ErrorMessage(err error) (string, bool) {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Msg, !errors.Is(err, errPanic)
	}
	for _, m := range sentinelMessages {
		if errors.Is(err, m.err) {
			return m.msg, true
		}
	}
	// A game's own refusal (game.Refusal; a room gives its rules' errors
	// their sentences).
	if text, ok := game.Explain(err); ok {
		return text, true
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "That took too long and was abandoned; nothing was changed. Please try again.", false
	}
	return "Sorry, something went wrong on my side and nothing was changed. Please try again in a moment.", false
}

// runningWayOut is what ErrGameRunning's sentence tells a player of the
// game already running in r's channel: how to see it and end it, with
// that game's command (" `/draughts board` shows it; …"); at Go's count,
// that its Accept ends it. It is empty for anyone else, who cannot end
// it, and when the game cannot be read.
func (a *App) runningWayOut(ctx context.Context, r *Request) string {
	if r.User == nil {
		return ""
	}
	g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
	if err != nil || g == nil {
		return ""
	}
	if _, ok := g.SideOf(r.User.ID); !ok {
		return ""
	}
	cmd := a.roomOf(g).Command()
	if g.Scoring != nil {
		return fmt.Sprintf(" It is at its count: **Accept** the marking on its board (`/%s board`) to end it.", cmd)
	}
	return fmt.Sprintf(" `/%s board` shows it; `/%s resign` ends it (or `/%s abort` before each player has made two moves).", cmd, cmd, cmd)
}

// gameRunningInDM is ErrGameRunning's sentence in a DM or group DM, which
// has no threads for a second game.
const gameRunningInDM = "A game is already running in this DM. Finish it first: a DM holds one game at a time."

// GameRunningNoThread is ErrGameRunning's sentence in a server channel
// where no thread can be started (see ThreadsHere): inside a thread or
// forum post, a channel of another kind than text, or one where gobot may
// not create threads.
func GameRunningNoThread(r *Request) string {
	if r.Channel != nil && r.Channel.IsThread() {
		return "A game is already running in this thread. Finish it first: a thread holds one game at a time, and Discord starts no thread inside it."
	}
	return "A game is already running in this channel. Finish it first: I cannot start a thread for another game here."
}

// BotRunning is err, said for a game against gobot (/go bot, /draughts
// bot) when it is ErrGameRunning without a sentence of its own: the
// default sentence's way out, a challenge with thread:true, is no way to
// play gobot, which takes no challenge, and the bot command has no
// thread: option. Another channel or the user's DM with gobot is.
func BotRunning(r *Request, err error) error {
	if !errors.Is(err, ErrGameRunning) || errors.As(err, new(*UserError)) {
		return err
	}
	it := r.Interaction
	there := "`/" + commandOf(r) + " bot` there."
	switch {
	case it.GuildID == consoleGuild:
		return UserErr(err, gameRunningInConsole)
	case it.GuildID == "" && it.Context == discordgo.InteractionContextBotDM:
		return UserErr(err, gameRunningInDM)
	case it.GuildID == "":
		// A DM or group DM between people, through a user install.
		return UserErr(err, "A game is already running in this DM. Finish it first, or play me in your DM with me: "+there)
	case r.Channel != nil && r.Channel.IsThread():
		return UserErr(err, "A game is already running in this thread. Finish it first, or play me in another channel or in your DM with me: "+there)
	}
	return UserErr(err, "A game is already running in this channel. Finish it first, or play me in another channel or in your DM with me: "+there)
}

// gameRunningInConsole is ErrGameRunning's sentence in the console, whose
// one channel has no threads.
const gameRunningInConsole = "A game is already running here. Finish it first: the console holds one game at a time."

// sentinelMessages are the default sentences for errors without a
// *UserError, checked in order (ErrSuperko before ErrKo).
var sentinelMessages = []struct {
	err error
	msg string
}{
	{ErrQuarantined, QuarantineNotice},
	{ErrNoGame, "There is no game in this channel. Start one with `/go challenge` or `/go bot`."},
	{ErrGameRunning, "A game is already running in this channel. Finish it first, or use `/go challenge ... thread:true` to play in a thread."},
	{ErrNotPlayer, "You are not playing in this game."},
	{ErrNotYourTurn, "It is not your turn."},
	{ErrStale, "That button belongs to an old board. Use the buttons on the newest board, or `/go board`."},
	{ErrConflict, "Another action on this game was applied at the same moment, so yours was not. Look at the new board and try again."},
	{ErrGameOver, "This game is over."},
	{ErrNoChallenge, "This challenge is no longer open."},
	{ErrExpired, "This has expired."},
	{ErrForbidden, "You need the Manage Messages permission for that."},
	{ErrUnknownComponent, "That button is not one I know (it may be from an older version of gobot): use `/go help`."},
	{ErrUnknown, "I don't know that command. Try `/go help`."},
	{ErrNoUndo, "There is nothing to undo."},
	{ErrNotScoring, "The game is not in the scoring phase: that only works after both players have passed."},
	{ErrBotBusy, "All the bots are busy thinking right now. Please try again in a moment."},
}
