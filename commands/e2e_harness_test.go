package commands_test

// The acceptance tests: the bot runs as in GOBOT_MODE=http — its
// interactions endpoint on loopback, real storage on a temporary file — and
// talks to a fake Discord (commands/discordtest) that signs Discord's
// documented interaction payloads, records every REST call and checks each
// one against Discord's OpenAPI description. Nothing in commands is called
// directly apart from its constructor: every action is a signed POST, every
// observation is what Discord would show or what storage holds.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/bots"
	dbots "github.com/gobot-dev/gobot/bots/draughts"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/commands/draughtsroom"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/internal/clocktest"
	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/pgtest"
)

// topLeft is the bot opponent of the tests. Every level plays the first
// legal point in reading order from the top-left corner (A9, B9, ... on
// 9×9), so the tests know its replies; levels differ in how they get there:
//   - tester answers at once;
//   - slow waits until the test closes gate (or its context ends);
//   - flaky fails its first move, then plays;
//   - panic panics;
//   - scripted plays the test's script instead (see setScript).
type topLeft struct {
	gate chan struct{}

	mu     sync.Mutex
	calls  map[string]int
	ended  map[string]int // the calls of each level that have returned
	script []string
	shares []time.Duration // the clock's share each move was asked with (bots.MoveTime), 0 for none
}

// setScript gives the scripted level a whole game's moves in GTP notation,
// both colours, in order ("pass" included): it plays the entry at the
// game's move number, and passes when that entry is not its colour's turn
// or the script has run out.
func (p *topLeft) setScript(moves []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.script = moves
}

func newTopLeft() *topLeft {
	return &topLeft{gate: make(chan struct{}), calls: map[string]int{}, ended: map[string]int{}}
}

// endedCalls returns how many of level's calls have returned.
func (p *topLeft) endedCalls(level string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ended[level]
}

func (p *topLeft) Levels() []commands.Level {
	return []commands.Level{
		{Name: "tester", Description: "plays the first free point from the top left"},
		{Name: "slow", Description: "the same, when the test lets it"},
		{Name: "flaky", Description: "fails once, then plays"},
		{Name: "panic", Description: "panics"},
		{Name: "scripted", Description: "plays the test's script"},
	}
}

func (p *topLeft) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	p.mu.Lock()
	p.calls[level]++
	n := p.calls[level]
	script := p.script
	share, _ := bots.MoveTime(ctx)
	p.shares = append(p.shares, share)
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.ended[level]++
		p.mu.Unlock()
	}()
	switch level {
	case "scripted":
		i := g.MoveCount()
		if i >= len(script) || script[i] == "pass" || (i%2 == 0) != (g.ToPlay() == engine.Black) {
			return engine.PassMove(g.ToPlay()), nil
		}
		pt, err := engine.ParsePoint(script[i], g.Size())
		if err != nil {
			return engine.Move{}, err
		}
		return engine.PlaceAt(g.ToPlay(), pt), nil
	case "tester":
	case "slow":
		select {
		case <-p.gate:
		case <-ctx.Done():
			return engine.Move{}, ctx.Err()
		}
	case "flaky":
		if n == 1 {
			return engine.Move{}, errors.New("topLeft: the engine fell over")
		}
	case "panic":
		panic("topLeft: a bug in a bot")
	default:
		return engine.Move{}, fmt.Errorf("topLeft: unknown level %q", level)
	}
	if err := ctx.Err(); err != nil {
		return engine.Move{}, err
	}
	legal := map[engine.Point]bool{}
	for _, pt := range g.Legal() {
		legal[pt] = true
	}
	n = g.Size()
	for row := n - 1; row >= 0; row-- {
		for col := 0; col < n; col++ {
			if pt := (engine.Point{Col: col, Row: row}); legal[pt] {
				return engine.PlaceAt(g.ToPlay(), pt), nil
			}
		}
	}
	return engine.PassMove(g.ToPlay()), nil
}

// env is one bot, its database and the fake Discord around it.
type env struct {
	t       testing.TB
	d       *discordtest.Server
	clock   *clocktest.Clock
	players *topLeft
	// reviewer, when set before start, reviews games instead of the
	// built-in engine.
	reviewer goroom.Reviewer
	// offer, when set, is what the bot plays with instead of players
	// (players behind a search limiter, say).
	offer goroom.Players
	// draughtsPlayers, when set before start (or a restart), are the
	// draughts levels instead of the built-in ones.
	draughtsPlayers draughtsroom.Players
	// workers, when set, is Options.BotWorkers.
	workers int
	// wrapStore, when set before start, wraps the store the bot uses (a
	// test's hook between the bot and storage).
	wrapStore func(commands.Store) commands.Store
	dbPath    string
	// pgURL, when set, is the PostgreSQL database the bot uses instead
	// of a bbolt file at dbPath (see newEnvPostgres).
	pgURL string
	logs  *logtest.Buffer
	// wrapDiscord, when set before start (or a restart), wraps the bot's
	// REST client: a process whose calls stop reaching Discord.
	wrapDiscord func(commands.Discord) commands.Discord

	gateway bool // interactions arrive as from the gateway, answered by REST callbacks
	// activity: the bot runs with the Activity set up (Options.Activity),
	// its Discord wrapped to add the Open board button.
	activity bool

	store   e2eStore
	app     *commands.App
	srv     *httptest.Server
	stopRun context.CancelFunc
	runDone chan struct{}
}

// e2eStore is the store as the tests read it: what the bot uses, and the
// rebuild, history, queue and quarantine that tests check. Both stores
// have it.
type e2eStore interface {
	commands.Store
	RebuildRatings(ctx context.Context) (*storage.RebuildReport, error)
	RatingHistory(ctx context.Context, playerKey string) ([]storage.RatingChange, error)
	BotQueue(ctx context.Context) ([]storage.BotMove, error)
	QuarantinedGames(ctx context.Context) ([]storage.Quarantined, error)
	Close() error
}

var (
	_ e2eStore = (*storage.Store)(nil)
	_ e2eStore = (*storage.Postgres)(nil)
)

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvMode(t, "http")
}

// newEnvPostgres is newEnv with the bot on PostgreSQL, a new database of
// its own (pgtest; the test is skipped without PostgreSQL).
func newEnvPostgres(t testing.TB) *env {
	t.Helper()
	return newEnvOn(t, "http", pgtest.Database(t))
}

// newEnvMode starts an env in "http" mode (signed POSTs to the interactions
// endpoint, answered in the HTTP response) or "gateway" mode (interactions
// handed to App.Handle as the gateway session does, answered through
// POST /interactions/{id}/{token}/callback).
func newEnvMode(t testing.TB, mode string) *env {
	t.Helper()
	return newEnvOn(t, mode, "")
}

// newEnvOn is newEnvMode on the PostgreSQL database at pgURL, or on a
// bbolt file when pgURL is empty.
func newEnvOn(t testing.TB, mode, pgURL string, setup ...func(*env)) *env {
	t.Helper()
	e := &env{
		gateway: mode == "gateway",
		t:       t,
		// The bot, the store (challenge expiry) and the fake Discord
		// (signature timestamps, interaction tokens) share one clock, which
		// starts far from the wall clock so nothing reads the wrong one.
		clock:   clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)),
		players: newTopLeft(),
		// Reviews at a small budget: the real one takes a minute under
		// the race detector on a busy machine.
		reviewer: goroom.NewLocalReviewer(review.MCTS{Playouts: 300, Seed: 1}),
		dbPath:   filepath.Join(t.TempDir(), "gobot.db"),
		pgURL:    pgURL,
	}
	opts := discordtest.Options{Now: e.clock.Now}
	if e.gateway {
		opts.Deliver = e.deliver
	}
	e.d = discordtest.NewServer(t, opts)
	for _, f := range setup {
		f(e)
	}
	e.logs = &logtest.Buffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", e.logs.String())
		}
	})
	e.start()
	t.Cleanup(e.checkMessages) // runs after stop: nothing is in flight
	t.Cleanup(e.stop)
	return e
}

// deliver hands a payload to the bot as the gateway session does (see
// openGateway in cmd/gobot).
func (e *env) deliver(payload []byte) {
	var it discordgo.Interaction
	if err := json.Unmarshal(payload, &it); err != nil {
		e.t.Errorf("discordgo cannot read the interaction: %v", err)
		return
	}
	e.app.HandleEvent(context.Background(), &it, payload)
}

// alive checks that the bot still answers: a PING over HTTP, /go help
// through the gateway (which never sends PINGs).
func (e *env) alive() {
	e.t.Helper()
	if !e.gateway {
		if r := e.d.Do(e.d.Ping()); r.Type != discordtest.CallbackPong {
			e.t.Errorf("the bot answered PING with type %d", r.Type)
		}
		return
	}
	if m := e.do(e.d.Command(e.d.GuildChannel("alive"), e.d.NewUser("someone"), "go", discordtest.Sub("help"))); !strings.Contains(m.Text(), "/go") {
		e.t.Errorf("the bot answered /go help with %q", m.Text())
	}
}

// httpMode runs f in http mode only: the scenario exercises nothing the
// two modes do differently, and the suite must stay quick under -race.
func httpMode(t *testing.T, f func(t *testing.T, e *env)) {
	t.Parallel()
	f(t, newEnvMode(t, "http"))
}

// withAndWithoutActivity runs f on a bot without the Activity and on one
// with it (its Discord wrapped: what it can do beyond Discord must still
// be found).
func withAndWithoutActivity(t *testing.T, f func(t *testing.T, e *env)) {
	t.Parallel()
	for _, activity := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "activity"}[activity], func(t *testing.T) {
			t.Parallel()
			f(t, newEnvOn(t, "http", "", func(e *env) { e.activity = activity }))
		})
	}
}

// bothModes runs f once in http mode and once in gateway mode.
func bothModes(t *testing.T, f func(t *testing.T, e *env)) {
	t.Parallel()
	for _, mode := range []string{"http", "gateway"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f(t, newEnvMode(t, mode))
		})
	}
}

// checkMessages holds for every test: no answer is left "thinking…", and
// every board picture has alt text and is shown in an embed.
func (e *env) checkMessages() {
	for _, m := range e.d.AllMessages() {
		if m.Deferred {
			e.t.Errorf("an answer was deferred and never sent (the user sees \"thinking…\" for ever), interaction %s", m.InteractionID)
		}
		png, ok := m.PNG()
		if !ok {
			continue
		}
		if png.Description == "" {
			e.t.Errorf("board %s has no alt text", png.Filename)
		}
		shown := false
		for _, em := range m.Embeds {
			shown = shown || (em.Image != nil && em.Image.URL == "attachment://"+png.Filename)
		}
		if !shown {
			e.t.Errorf("board %s is attached but not shown in an embed: %q", png.Filename, m.Text())
		}
	}
}

// start opens the database and starts a bot on it, as cmd/gobot does in
// http mode: commands.New, Register, HTTPHandler and Run.
func (e *env) start() {
	e.t.Helper()
	opts := storage.Options{Kinds: testKinds(), Now: e.clock.Now, StartRatings: testStartRatings()}
	var store e2eStore
	if e.pgURL != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		pg, err := storage.OpenPostgres(ctx, e.pgURL, opts)
		cancel()
		if err != nil {
			e.t.Fatalf("storage.OpenPostgres: %v", err)
		}
		store = pg
	} else {
		bolt, err := storage.Open(e.dbPath, opts)
		if err != nil {
			e.t.Fatalf("storage.Open: %v", err)
		}
		store = bolt
	}
	scan := &scanSignal{Store: store, scanned: make(chan struct{})}
	var used commands.Store = scan
	if e.wrapStore != nil {
		used = e.wrapStore(scan)
	}
	var discord commands.Discord = commands.NewREST(e.d.URL, e.d.Token, nil)
	if e.wrapDiscord != nil {
		discord = e.wrapDiscord(discord)
	}
	app, err := commands.New(commands.Options{
		AppID:      e.d.AppID,
		GuildID:    e.d.GuildID,
		Discord:    discord,
		Store:      used,
		Rooms:      []commands.NewRoom{goroom.New(e.offered(), e.reviewer), draughtsroom.New(e.draughtsPlayers)},
		BotWorkers: e.workers,
		Logger:     slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:        e.clock.Now,
		After:      e.clock.After,
		Activity:   e.activity,
	})
	if err != nil {
		e.t.Fatalf("commands.New: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Register(ctx); err != nil {
		e.t.Fatalf("Register: %v", err)
	}
	e.store, e.app = store, app
	e.srv = httptest.NewServer(app.HTTPHandler(e.d.Signer.Public))
	e.d.Endpoint = e.srv.URL
	runCtx, stopRun := context.WithCancel(context.Background())
	e.stopRun, e.runDone = stopRun, make(chan struct{})
	go func() {
		defer close(e.runDone)
		app.Run(runCtx)
	}()
	// Run sets the bot-move workers going and sweeps the active games
	// (expired scoring phases) at once; the tests start from a bot that
	// has done its first sweep.
	select {
	case <-scan.scanned:
	case <-time.After(time.Minute):
		e.t.Fatalf("Run did not look at the active games within a minute")
	}
}

// offered is what the bot plays with: offer when set, else players.
func (e *env) offered() goroom.Players {
	if e.offer != nil {
		return e.offer
	}
	return e.players
}

// scanSignal is the store with a signal once ActiveGames has answered.
type scanSignal struct {
	commands.Store
	once    sync.Once
	scanned chan struct{}
}

func (s *scanSignal) ActiveGames(ctx context.Context) ([]*storage.Game, error) {
	gs, err := s.Store.ActiveGames(ctx)
	s.once.Do(func() { close(s.scanned) })
	return gs, err
}

// stop shuts the bot down as SIGTERM does and closes the database.
func (e *env) stop() {
	if err := e.stopWithin(time.Minute); err != nil {
		e.t.Errorf("Shutdown: %v", err)
	}
}

// stopWithin stops the bot giving in-flight work grace to finish, and
// returns Shutdown's error (context.DeadlineExceeded when work had to be
// cancelled).
func (e *env) stopWithin(grace time.Duration) error {
	if e.app == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	e.srv.Close()
	err := e.app.Shutdown(ctx)
	e.stopRun()
	<-e.runDone
	if err := e.store.Close(); err != nil {
		e.t.Errorf("store.Close: %v", err)
	}
	e.app, e.store = nil, nil
	return err
}

// restart is a redeploy: the process goes away and a new one opens the
// same database.
func (e *env) restart() {
	e.t.Helper()
	e.stop()
	e.start()
}

// game reads the active game in a channel from storage (nil if none).
func (e *env) game(channelID string) *storage.Game {
	e.t.Helper()
	g, err := e.store.Game(context.Background(), channelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		e.t.Fatalf("store.Game(%s): %v", channelID, err)
	}
	return g
}

// sendAtOnce sends its all at once, each on its own goroutine, and
// returns their replies and errors in the same order.
func (e *env) sendAtOnce(its []*discordtest.Interaction) ([]*discordtest.Reply, []error) {
	replies := make([]*discordtest.Reply, len(its))
	errs := make([]error, len(its))
	var wg sync.WaitGroup
	for i, it := range its {
		wg.Go(func() { replies[i], errs[i] = e.d.Send(it) })
	}
	wg.Wait()
	return replies, errs
}

// do sends an interaction and returns what the user ends up seeing: the
// reply, or for a deferred reply the message it is edited into, or for a
// deferred update the follow-up or edit that comes after.
func (e *env) do(it *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	return e.answerOf(it, e.d.Do(it))
}

// answerOf is what the user ends up seeing of it, sent and answered r
// (see do).
func (e *env) answerOf(it *discordtest.Interaction, r *discordtest.Reply) discordtest.Message {
	e.t.Helper()
	switch r.Type {
	case discordtest.CallbackUpdateMessage:
		if !confirmation(it) {
			return *r.Message
		}
		// A confirmation's button takes itself off its question
		// (commands.Confirming): the answer follows.
		var got discordtest.Message
		e.d.WaitFor("the answer to a confirmation", func() bool {
			f := e.d.Followups(it)
			if len(f) > 0 {
				got = f[0]
			}
			return len(f) > 0
		})
		return got
	case discordtest.CallbackChannelMessageWithSource:
		return *r.Message
	case discordtest.CallbackDeferredChannelMessageWithSource:
		return e.deferredAnswer(it)
	case discordtest.CallbackDeferredUpdateMessage:
		before := r.Message.Edits
		var got discordtest.Message
		e.d.WaitFor("the answer to a deferred button press", func() bool {
			if f := e.d.Followups(it); len(f) > 0 {
				got = f[len(f)-1]
				return true
			}
			m, ok := e.d.Original(it)
			got = m
			return ok && m.Edits > before
		})
		return got
	}
	e.t.Fatalf("unexpected interaction response type %d: %s", r.Type, r.Body)
	return discordtest.Message{}
}

// confirmation reports whether it presses the button of a question that
// asks to confirm: "Yes, resign", "Yes, abort", or a team's vote.
func confirmation(it *discordtest.Interaction) bool {
	data, _ := it.Payload["data"].(map[string]any)
	id, _ := data["custom_id"].(string)
	return strings.Contains(id, "/resign-yes/") || strings.Contains(id, "/abort-yes/")
}

// deferredAnswer waits for the answer to an interaction whose reply was
// deferred: the deferral is edited into the answer, or deleted and replaced
// by a follow-up (an ephemeral error after a public deferral).
func (e *env) deferredAnswer(it *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	var got discordtest.Message
	e.d.WaitFor("the answer to interaction "+it.ID, func() bool {
		m, ok := e.d.Original(it)
		if ok && !m.Deferred {
			got = m
			return true
		}
		if f := e.d.Followups(it); !ok && len(f) > 0 {
			got = f[len(f)-1]
			return true
		}
		return false
	})
	return got
}

// refused sends an interaction that must be refused: an ephemeral reply
// containing want, and no change to the game in the channel nor any new
// public message.
func (e *env) refused(it *discordtest.Interaction, want string) {
	e.t.Helper()
	ch := it.Channel.ID
	before := e.game(ch)
	public := len(e.d.Public(ch))
	m := e.do(it)
	if !m.Ephemeral {
		e.t.Errorf("reply to a refused action is public: %q", m.Text())
	}
	if !strings.Contains(strings.ToLower(m.Text()), strings.ToLower(want)) {
		e.t.Errorf("reply = %q, want it to say %q", m.Text(), want)
	}
	after := e.game(ch)
	switch {
	case (before == nil) != (after == nil):
		e.t.Errorf("a refused action created or removed the game")
	case before != nil && (after.Version != before.Version || after.State.MoveCount() != before.State.MoveCount()):
		e.t.Errorf("a refused action changed the game: version %d -> %d, moves %d -> %d",
			before.Version, after.Version, before.State.MoveCount(), after.State.MoveCount())
	}
	if n := len(e.d.Public(ch)); n != public {
		e.t.Errorf("a refused action posted %d public messages", n-public)
	}
}

// board returns the newest public message with a board picture.
func (e *env) board(channelID string) discordtest.Message {
	e.t.Helper()
	msgs := e.d.Public(channelID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := msgs[i].PNG(); ok && !msgs[i].Deferred {
			return msgs[i]
		}
	}
	e.t.Fatalf("no board in channel %s", channelID)
	return discordtest.Message{}
}

// waitBoard waits for a public board whose text contains s.
func (e *env) waitBoard(channelID, s string) discordtest.Message {
	e.t.Helper()
	var m discordtest.Message
	e.d.WaitFor(fmt.Sprintf("a board saying %q", s), func() bool {
		msgs := e.d.Public(channelID)
		for i := len(msgs) - 1; i >= 0; i-- {
			if _, ok := msgs[i].PNG(); ok && strings.Contains(msgs[i].Text(), s) {
				m = msgs[i]
				return true
			}
		}
		return false
	})
	return m
}

// at says what stands on a point in the stored game.
func at(g *storage.Game, s string) engine.Color {
	p, err := engine.ParsePoint(s, goOf(g).Size())
	if err != nil {
		panic(err) // test tables hold valid points
	}
	return goOf(g).Board().At(p)
}

// slash is /go <sub> with opts, sent by u in ch.
func (e *env) slash(ch *discordtest.Channel, u discordtest.User, sub string, opts ...discordtest.Option) *discordtest.Interaction {
	return e.d.Command(ch, u, "go", discordtest.Sub(sub, opts...))
}

// play is /go play move:<move>.
func (e *env) play(ch *discordtest.Channel, u discordtest.User, move string) *discordtest.Interaction {
	return e.slash(ch, u, "play", discordtest.Str("move", move))
}

// click presses the button whose label or custom ID contains label.
func (e *env) click(u discordtest.User, m discordtest.Message, label string) *discordtest.Interaction {
	e.t.Helper()
	b, ok := m.Button(label)
	if !ok {
		e.t.Fatalf("no %q button on message %q (buttons %+v)", label, m.Text(), m.Buttons())
	}
	if b.Disabled {
		e.t.Fatalf("button %q is disabled", label)
	}
	return e.d.Click(u, m, b.CustomID)
}

// newChallenge sends a /go challenge. The challenge must be stored by the
// time its buttons are shown: a click at once must find it.
func (e *env) newChallenge(it *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	m := e.do(it)
	if m.Ephemeral {
		return m
	}
	if _, err := e.store.Challenge(context.Background(), it.ID); err != nil {
		e.t.Errorf("the challenge's buttons are shown before it is stored (%v): a quick Accept would be refused", err)
	}
	return m
}

// challenge has alice challenge bob in ch on 9×9 with alice black, and bob
// accept; it returns the new game's first board (recognised by the game's
// ID in its buttons, so an earlier game's board in the same channel never
// passes for it).
func (e *env) challenge(ch *discordtest.Channel, alice, bob discordtest.User, opts ...discordtest.Option) discordtest.Message {
	e.t.Helper()
	all := append([]discordtest.Option{discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black")}, opts...)
	msg := e.newChallenge(e.slash(ch, alice, "challenge", all...))
	if msg.Ephemeral || !strings.Contains(msg.Text(), bob.Mention()) {
		e.t.Fatalf("challenge message = %q, want a public message mentioning %s", msg.Text(), bob.Mention())
	}
	e.do(e.click(bob, msg, "accept"))
	var g *storage.Game
	e.d.WaitFor("the game to start", func() bool {
		g = e.game(ch.ID)
		return g != nil
	})
	if g.First(engine.SideOf(engine.Black)).UserID != alice.ID || g.First(engine.SideOf(engine.White)).UserID != bob.ID || goOf(g).Size() != 9 {
		e.t.Fatalf("game = %s (black) vs %s (white) on %d×%d, want alice black, bob white, 9×9", g.First(engine.SideOf(engine.Black)).UserID, g.First(engine.SideOf(engine.White)).UserID, goOf(g).Size(), goOf(g).Size())
	}
	var first discordtest.Message
	e.d.WaitFor("the new game's first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && !m.Deferred && boardOf(m, g.ID) {
				first = m
				return true
			}
		}
		return false
	})
	return first
}

// guildGame starts a 9×9 game between alice (black) and bob (white) in a
// server channel "general" (see challenge).
func (e *env) guildGame(opts ...discordtest.Option) (ch *discordtest.Channel, alice, bob discordtest.User) {
	e.t.Helper()
	ch = e.d.GuildChannel("general")
	alice, bob = e.d.NewUser("alice"), e.d.NewUser("bob")
	e.challenge(ch, alice, bob, opts...)
	return ch, alice, bob
}

// privateChannel makes a DM between alice and bob where gobot is used
// through a user install (see discordtest.Server.PrivateChannel).
func (e *env) privateChannel() (ch *discordtest.Channel, alice, bob discordtest.User) {
	alice, bob = e.d.NewUser("alice"), e.d.NewUser("bob")
	return e.d.PrivateChannel(alice, bob), alice, bob
}

// botGame is /go bot on 9×9 at level with u white: the bot moves first.
func (e *env) botGame(ch *discordtest.Channel, u discordtest.User, level string) *discordtest.Interaction {
	return e.slash(ch, u, "bot", discordtest.Str("level", level), discordtest.Int("size", 9), discordtest.Str("color", "white"))
}

// waitMoves waits, as what, until the game in channelID has n moves.
func (e *env) waitMoves(what, channelID string, n int) {
	e.d.WaitFor(what, func() bool {
		g := e.game(channelID)
		return g != nil && g.State.MoveCount() == n
	})
}

// thinking waits until a worker has asked the bot of level for a move
// (owed moves are made by workers, just after the answer is deferred).
func (e *env) thinking(level string) {
	e.d.WaitFor("the bot "+level+" to think", func() bool {
		e.players.mu.Lock()
		defer e.players.mu.Unlock()
		return e.players.calls[level] > 0
	})
}

// boardOf reports whether m is a board of game id: its buttons say so.
func boardOf(m discordtest.Message, id string) bool {
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, "game/"+id+"/") {
			return true
		}
	}
	return false
}

// goOf is the game of Go that g holds (engine.GameOf).
func goOf(g *storage.Game) *engine.Game { return engine.GameOf(g.State) }

// testStartRatings are the bot levels' start ratings, as cmd/gobot gives
// them: Go's and draughts' built-in levels.
func testStartRatings() storage.StartRatings {
	return storage.StartRatings{
		engine.Kind{}.Name():   goroom.StartRatings(bots.Builtin()),
		draughts.Kind{}.Name(): draughtsroom.StartRatings(dbots.Builtin()),
	}
}

// testKinds are the kinds the tests' stores read: Go and draughts.
func testKinds() *game.Kinds {
	var ks game.Kinds
	ks.Register(engine.Kind{})
	ks.Register(draughts.Kind{})
	return &ks
}
