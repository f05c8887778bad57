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
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
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
	script []string
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

func newTopLeft() *topLeft { return &topLeft{gate: make(chan struct{}), calls: map[string]int{}} }

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
	p.mu.Unlock()
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

// logBuffer keeps the bot's log, shown when a test fails.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// env is one bot, its database and the fake Discord around it.
type env struct {
	t       testing.TB
	d       *discordtest.Server
	clock   *discordtest.Clock
	players *topLeft
	// reviewer, when set before start, reviews games instead of the
	// built-in engine.
	reviewer commands.Reviewer
	// offer, when set, is what the bot plays with instead of players
	// (players behind a search limiter, say).
	offer commands.Players
	// workers, when set, is Options.BotWorkers.
	workers int
	dbPath  string
	logs    *logBuffer

	gateway bool // interactions arrive as from the gateway, answered by REST callbacks

	store   *storage.Store
	bot     *commands.Bot
	srv     *httptest.Server
	stopRun context.CancelFunc
	runDone chan struct{}
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvMode(t, "http")
}

// newEnvMode starts an env in "http" mode (signed POSTs to the interactions
// endpoint, answered in the HTTP response) or "gateway" mode (interactions
// handed to Bot.Handle as the gateway session does, answered through
// POST /interactions/{id}/{token}/callback).
func newEnvMode(t testing.TB, mode string) *env {
	t.Helper()
	e := &env{
		gateway: mode == "gateway",
		t:       t,
		// The bot, the store (challenge expiry) and the fake Discord
		// (signature timestamps, interaction tokens) share one clock, which
		// starts far from the wall clock so nothing reads the wrong one.
		clock:   discordtest.NewClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)),
		players: newTopLeft(),
		// Reviews at a small budget: the real one takes a minute under
		// the race detector on a busy machine.
		reviewer: commands.NewLocalReviewer(review.MCTS{Playouts: 300, Seed: 1}),
		dbPath:   filepath.Join(t.TempDir(), "gobot.db"),
	}
	opts := discordtest.Options{Now: e.clock.Now}
	if e.gateway {
		opts.Deliver = e.deliver
	}
	e.d = discordtest.NewServer(t, opts)
	e.logs = &logBuffer{}
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

// deliver hands a payload to the bot as the gateway session does.
func (e *env) deliver(payload []byte) {
	var it discordgo.Interaction
	if err := json.Unmarshal(payload, &it); err != nil {
		e.t.Errorf("discordgo cannot read the interaction: %v", err)
		return
	}
	e.bot.Handle(context.Background(), &it)
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
	store, err := storage.Open(e.dbPath, storage.Options{Now: e.clock.Now})
	if err != nil {
		e.t.Fatalf("storage.Open: %v", err)
	}
	scan := &scanSignal{Store: store, scanned: make(chan struct{})}
	bot, err := commands.New(commands.Options{
		AppID:      e.d.AppID,
		GuildID:    e.d.GuildID,
		Discord:    commands.NewREST(e.d.URL, e.d.Token, nil),
		Store:      scan,
		Players:    e.offered(),
		BotWorkers: e.workers,
		Reviewer:   e.reviewer,
		Logger:     slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:        e.clock.Now,
		After:      e.clock.After,
	})
	if err != nil {
		e.t.Fatalf("commands.New: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := bot.Register(ctx); err != nil {
		e.t.Fatalf("Register: %v", err)
	}
	e.store, e.bot = store, bot
	e.srv = httptest.NewServer(bot.HTTPHandler(e.d.Signer.Public))
	e.d.Endpoint = e.srv.URL
	runCtx, stopRun := context.WithCancel(context.Background())
	e.stopRun, e.runDone = stopRun, make(chan struct{})
	go func() {
		defer close(e.runDone)
		bot.Run(runCtx)
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
func (e *env) offered() commands.Players {
	if e.offer != nil {
		return e.offer
	}
	return e.players
}

// scanSignal is the store with a signal once ActiveGames has answered.
type scanSignal struct {
	*storage.Store
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
	if e.bot == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	e.srv.Close()
	err := e.bot.Shutdown(ctx)
	e.stopRun()
	<-e.runDone
	if err := e.store.Close(); err != nil {
		e.t.Errorf("store.Close: %v", err)
	}
	e.bot, e.store = nil, nil
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

// do sends an interaction and returns what the user ends up seeing: the
// reply, or for a deferred reply the message it is edited into, or for a
// deferred update the follow-up or edit that comes after.
func (e *env) do(it *discordtest.Interaction) discordtest.Message {
	e.t.Helper()
	r := e.d.Do(it)
	switch r.Type {
	case discordtest.CallbackChannelMessageWithSource, discordtest.CallbackUpdateMessage:
		return *r.Message
	case discordtest.CallbackDeferredChannelMessageWithSource:
		// The deferral is edited into the answer, or deleted and
		// replaced by a follow-up (an ephemeral error after a public
		// deferral).
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
	case before != nil && (after.Version != before.Version || after.Game.MoveCount() != before.Game.MoveCount()):
		e.t.Errorf("a refused action changed the game: version %d -> %d, moves %d -> %d",
			before.Version, after.Version, before.Game.MoveCount(), after.Game.MoveCount())
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
	p, err := engine.ParsePoint(s, g.Game.Size())
	if err != nil {
		panic(err) // test tables hold valid points
	}
	return g.Game.Board().At(p)
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
	if g.Black.UserID != alice.ID || g.White.UserID != bob.ID || g.Game.Size() != 9 {
		e.t.Fatalf("game = %s (black) vs %s (white) on %d×%d, want alice black, bob white, 9×9", g.Black.UserID, g.White.UserID, g.Game.Size(), g.Game.Size())
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

// botGame is /go bot on 9×9 at level with u white: the bot moves first.
func (e *env) botGame(ch *discordtest.Channel, u discordtest.User, level string) *discordtest.Interaction {
	return e.slash(ch, u, "bot", discordtest.Str("level", level), discordtest.Int("size", 9), discordtest.Str("color", "white"))
}

// waitMoves waits, as what, until the game in channelID has n moves.
func (e *env) waitMoves(what, channelID string, n int) {
	e.d.WaitFor(what, func() bool {
		g := e.game(channelID)
		return g != nil && g.Game.MoveCount() == n
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

func TestE2EPing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.d.Do(e.d.Ping())
	if r.Type != discordtest.CallbackPong {
		t.Errorf("PING answered with type %d, want 1", r.Type)
	}
	if cmds := e.d.Commands(e.d.GuildID); len(cmds) != 1 {
		t.Errorf("Register overwrote %d guild commands, want /go alone", len(cmds))
	}
}

func TestE2ESignature(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	it := e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob))
	body := it.JSON()
	now := e.clock.Now()
	sig, ts := e.d.Signer.Sign(body, now)
	other, _ := discordtest.NewSigner()
	otherSig, _ := other.Sign(body, now)
	staleSig, staleTS := e.d.Signer.Sign(body, now.Add(-10*time.Minute))
	futureSig, futureTS := e.d.Signer.Sign(body, now.Add(10*time.Minute))
	tamperedBody := []byte(strings.Replace(string(body), alice.ID, bob.ID, 1))
	tests := []struct {
		name   string
		body   []byte
		header http.Header
	}{
		{"no headers", body, http.Header{}},
		{"no signature", body, http.Header{"X-Signature-Timestamp": {ts}}},
		{"no timestamp", body, http.Header{"X-Signature-Ed25519": {sig}}},
		{"signature not hex", body, http.Header{"X-Signature-Ed25519": {"zz" + sig[2:]}, "X-Signature-Timestamp": {ts}}},
		{"short signature", body, http.Header{"X-Signature-Ed25519": {sig[:64]}, "X-Signature-Timestamp": {ts}}},
		{"another key", body, http.Header{"X-Signature-Ed25519": {otherSig}, "X-Signature-Timestamp": {ts}}},
		{"timestamp changed", body, http.Header{"X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {fmt.Sprint(now.Unix() + 1)}}},
		{"body changed", tamperedBody, http.Header{"X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {ts}}},
		{"stale", body, http.Header{"X-Signature-Ed25519": {staleSig}, "X-Signature-Timestamp": {staleTS}}},
		{"from the future", body, http.Header{"X-Signature-Ed25519": {futureSig}, "X-Signature-Timestamp": {futureTS}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.header.Set("Content-Type", "application/json")
			r, err := e.d.Post(tt.body, tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != http.StatusUnauthorized {
				t.Errorf("HTTP %d, want 401", r.Status)
			}
		})
	}
	// Nothing happened: no REST call besides registering the command, no
	// challenge message, no game.
	for _, c := range e.d.Calls() {
		if c.Method != http.MethodPut {
			t.Errorf("a refused interaction caused %v", c)
		}
	}
	if n := len(e.d.Messages(ch.ID)); n != 0 {
		t.Errorf("%d messages in the channel, want none", n)
	}
	// The same payload, properly signed, works.
	if m := e.do(it); !strings.Contains(m.Text(), bob.Mention()) {
		t.Errorf("signed challenge answered %q", m.Text())
	}
}

// TestE2EFullGame plays a 9×9 game between two people from the challenge
// to the result, with captures, a ko, and every kind of refused input.
func TestE2EFullGame(t *testing.T) { bothModes(t, testE2EFullGame) }

func testE2EFullGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("go-club")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	first := e.challenge(ch, alice, bob)
	if !strings.Contains(first.Content, alice.Mention()) {
		t.Errorf("first board content %q does not ask %s to move", first.Content, alice.Mention())
	}
	if png, _ := first.PNG(); png.Description == "" {
		t.Errorf("board picture has no alt text")
	}

	type step struct {
		who  discordtest.User
		move string
		want string // refusal message; "" when the move is legal
	}
	steps := []step{
		{alice, "D6", ""},
		{bob, "E6", ""},
		{bob, "E7", "not your turn"},
		{carol, "E7", "not playing"},
		{alice, "Z99", "valid points are A1–J9"},
		{alice, "I5", "skip the letter I"},
		{alice, "K1", "A1–J9"},
		{alice, "D6", "already"},
		{alice, "nonsense", "A1–J9"},
		{alice, "C5", ""},
		{bob, "F5", ""},
		{alice, "D4", ""},
		{bob, "E4", ""},
		{alice, "J9", ""},
		{bob, "A2", ""},
		{alice, "J8", ""},
		{bob, "B1", ""},
		{alice, "J7", ""},
		{bob, "D5", ""},   // into Black's mouth: atari
		{alice, "E5", ""}, // captures D5: ko
		{bob, "D5", "ko"},
		{bob, "H1", ""}, // a ko threat elsewhere
		{alice, "A1", "suicide"},
		{alice, "J6", ""},
		{bob, "D5", ""}, // retakes the ko, capturing E5
	}
	moves := 0
	for i, s := range steps {
		it := e.play(ch, s.who, s.move)
		if s.want != "" {
			t.Run(fmt.Sprintf("%d %s %s refused", i, s.who.Username, s.move), func(t *testing.T) { e.refused(it, s.want) })
			continue
		}
		m := e.do(it)
		moves++
		if m.Ephemeral {
			t.Fatalf("step %d: %s %s refused: %q", i, s.who.Username, s.move, m.Text())
		}
		g := e.game(ch.ID)
		if g.Game.MoveCount() != moves {
			t.Fatalf("step %d: %d moves stored, want %d", i, g.Game.MoveCount(), moves)
		}
		if _, ok := m.PNG(); !ok {
			t.Errorf("step %d: the answer to %s has no board picture", i, s.move)
		}
		if !strings.Contains(m.Text(), s.move) {
			t.Errorf("step %d: the answer does not name the move %s: %q", i, s.move, m.Text())
		}
	}

	g := e.game(ch.ID)
	if got := g.Game.Captures(engine.Black); got != 1 {
		t.Errorf("black captured %d, want 1 (D5)", got)
	}
	if got := g.Game.Captures(engine.White); got != 1 {
		t.Errorf("white captured %d, want 1 (E5 retaking the ko)", got)
	}
	for p, want := range map[string]engine.Color{"D5": engine.White, "E5": engine.Empty, "A1": engine.Empty, "H1": engine.White} {
		if got := at(g, p); got != want {
			t.Errorf("%s holds %v, want %v", p, got, want)
		}
	}

	// The buttons of the first board are stale now.
	e.refused(e.click(alice, first, "pass"), "old board")

	// Alice passes by command, Bob with the button of the newest board.
	latest := e.board(ch.ID)
	e.refused(e.click(bob, latest, "pass"), "not your turn")
	if m := e.do(e.slash(ch, alice, "pass")); m.Ephemeral {
		t.Fatalf("alice's pass refused: %q", m.Text())
	}
	latest = e.board(ch.ID)
	e.refused(e.click(carol, latest, "pass"), "not playing")
	scoring := e.do(e.click(bob, latest, "pass"))
	if scoring.Ephemeral {
		t.Fatalf("bob's pass refused: %q", scoring.Text())
	}
	g = e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("after two passes the game is not in the scoring phase")
	}
	if _, ok := scoring.Button("accept"); !ok {
		t.Fatalf("scoring message %q has no Accept button", scoring.Text())
	}
	e.refused(e.click(carol, scoring, "accept"), "not playing")
	e.refused(e.play(ch, alice, "G3"), "dead stones")

	after := e.do(e.click(alice, scoring, "accept"))
	if after.Ephemeral {
		t.Fatalf("alice's accept refused: %q", after.Text())
	}
	e.refused(e.click(alice, after, "accept"), "already accepted")
	final := e.do(e.click(bob, after, "accept"))
	if !strings.Contains(strings.ToLower(final.Text()), "game over") {
		t.Errorf("final message = %q, want the result", final.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the finished game is still active")
	}
	a, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatalf("ArchivedGame: %v", err)
	}
	if !strings.HasPrefix(a.Result, "B+") && !strings.HasPrefix(a.Result, "W+") {
		t.Errorf("archived result %q, want B+… or W+…", a.Result)
	}
	if final.Text() == "" || !strings.Contains(final.Text(), a.Result) {
		t.Logf("final message %q does not quote the result %q", final.Text(), a.Result)
	}
	e.refused(e.play(ch, alice, "G3"), "no game")
	// The final board offers nothing to press: its buttons are gone or
	// disabled, and the scoring message's buttons no longer act.
	final, _ = e.d.Message(final.ID)
	for _, b := range final.Buttons() {
		if !b.Disabled {
			t.Errorf("the final board still offers %q (%s)", b.Label, b.CustomID)
		}
	}
	e.refused(e.d.Click(bob, scoring, mustButton(t, scoring, "accept").CustomID), "ended")
}

func mustButton(t *testing.T, m discordtest.Message, label string) discordtest.Component {
	t.Helper()
	b, ok := m.Button(label)
	if !ok {
		t.Fatalf("no %q button on %q", label, m.Text())
	}
	return b
}

// TestE2EBotInDM: a player alone against the bot in a DM; the bot answers
// each move by itself within the same interaction.
func TestE2EBotInDM(t *testing.T) { bothModes(t, testE2EBotInDM) }

func testE2EBotInDM(t *testing.T, e *env) {
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)

	start := e.do(e.botGame(dm, dave, "tester"))
	if start.Ephemeral {
		t.Fatalf("/go bot refused: %q", start.Text())
	}
	g := e.game(dm.ID)
	if g == nil || g.White.UserID != dave.ID || !g.Black.IsBot() {
		t.Fatalf("game = %+v, want the bot black and dave white", g)
	}
	if g.Game.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Fatalf("the bot did not open at A9 by itself: %d moves", g.Game.MoveCount())
	}
	for i, move := range []string{"E5", "D4", "F6"} {
		m := e.do(e.play(dm, dave, move))
		if m.Ephemeral {
			t.Fatalf("%s refused: %q", move, m.Text())
		}
		g = e.game(dm.ID)
		if want := 3 + 2*i; g.Game.MoveCount() != want {
			t.Fatalf("after %s: %d moves, want %d (the bot answers at once)", move, g.Game.MoveCount(), want)
		}
		last, _ := g.Game.LastMove()
		if last.Color != engine.Black || !strings.Contains(m.Text(), last.Point.String()) {
			t.Errorf("after %s: last move %v; answer %q should show the bot's reply", move, last, m.Text())
		}
	}
	if at(g, "B9") != engine.Black || at(g, "C9") != engine.Black || at(g, "D9") != engine.Black {
		t.Errorf("the bot's replies are not B9, C9, D9")
	}

	// Undo against the bot takes back its reply and the player's move.
	before := g.Game.MoveCount()
	if m := e.do(e.slash(dm, dave, "undo")); m.Ephemeral {
		t.Fatalf("undo refused: %q", m.Text())
	}
	g = e.game(dm.ID)
	if g.Game.MoveCount() != before-2 || at(g, "F6") != engine.Empty || at(g, "D9") != engine.Empty {
		t.Errorf("after undo: %d moves (want %d), F6 %v, D9 %v", g.Game.MoveCount(), before-2, at(g, "F6"), at(g, "D9"))
	}

	// Resigning ends the game and frees the DM.
	if m := e.do(e.slash(dm, dave, "resign")); m.Ephemeral || !strings.Contains(strings.ToLower(m.Text()), "resign") {
		t.Errorf("resign answered %q", m.Text())
	}
	if e.game(dm.ID) != nil {
		t.Errorf("game still active after resigning")
	}
}

func TestE2EDeclineAndStolenClick(t *testing.T) { bothModes(t, testE2EDeclineAndStolenClick) }

func testE2EDeclineAndStolenClick(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 13)))

	// Nobody but Bob may answer, not even Alice.
	e.refused(e.click(carol, msg, "accept"), "only "+bob.Mention())
	e.refused(e.click(carol, msg, "decline"), "only "+bob.Mention())
	e.refused(e.click(alice, msg, "accept"), "only "+bob.Mention())

	e.do(e.click(bob, msg, "decline"))
	got, _ := e.d.Message(msg.ID)
	for _, b := range got.Buttons() {
		if !b.Disabled {
			t.Errorf("button %q still enabled after the decline", b.Label)
		}
	}
	if !strings.Contains(strings.ToLower(got.Text()), "declin") {
		t.Errorf("challenge message after decline = %q", got.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("a declined challenge started a game")
	}
	// The old message's Accept button does nothing now.
	r := e.d.Do(e.d.Click(bob, msg, "challenge/"+msg.InteractionID+"/accept"))
	if r.Message != nil && !r.Message.Ephemeral {
		for _, b := range r.Message.Buttons() {
			if !b.Disabled {
				t.Errorf("pressing Accept on a declined challenge re-enabled %q", b.Label)
			}
		}
	}
	if e.game(ch.ID) != nil {
		t.Errorf("accepting a declined challenge started a game")
	}
}

func TestE2EExpiry(t *testing.T) { httpMode(t, testE2EExpiry) }

func testE2EExpiry(t *testing.T, e *env) {
	ch1, ch2 := e.d.GuildChannel("one"), e.d.GuildChannel("two")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	first := e.newChallenge(e.slash(ch1, alice, "challenge", discordtest.UserOpt("opponent", bob)))
	second := e.newChallenge(e.slash(ch2, alice, "challenge", discordtest.UserOpt("opponent", bob)))

	e.clock.Advance(commands.DefaultChallengeTTL + time.Minute)

	// Pressing Accept on an expired challenge says so and starts nothing.
	m := e.do(e.click(bob, first, "accept"))
	if !strings.Contains(strings.ToLower(m.Text()), "expired") && !strings.Contains(strings.ToLower(m.Text()), "no longer open") {
		t.Errorf("accepting an expired challenge answered %q", m.Text())
	}
	if e.game(ch1.ID) != nil {
		t.Errorf("an expired challenge started a game")
	}

	// The sweep (at start and every minute) closes the other one: its
	// buttons are disabled without anyone pressing them.
	e.restart()
	e.d.WaitFor("the expired challenge's buttons to be disabled", func() bool {
		got, _ := e.d.Message(second.ID)
		b, ok := got.Button("accept")
		return ok && b.Disabled
	})
	got, _ := e.d.Message(second.ID)
	if !strings.Contains(strings.ToLower(got.Text()), "expired") {
		t.Errorf("expired challenge message = %q", got.Text())
	}
}

func TestE2EUndo(t *testing.T) { bothModes(t, testE2EUndo) }

func testE2EUndo(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.challenge(ch, alice, bob)

	e.refused(e.slash(ch, alice, "undo"), "nothing to undo")
	e.do(e.play(ch, alice, "C3"))
	e.do(e.play(ch, bob, "G7"))
	e.do(e.play(ch, alice, "E5"))

	ask := e.do(e.slash(ch, alice, "undo"))
	if _, ok := ask.Button("allow"); !ok {
		t.Fatalf("undo request %q has no Allow button", ask.Text())
	}
	e.refused(e.click(carol, ask, "allow"), "not playing")
	e.refused(e.click(alice, ask, "allow"), "only "+bob.Mention())
	e.do(e.click(bob, ask, "allow"))
	e.waitBoard(ch.ID, "took back")
	g := e.game(ch.ID)
	if g.Game.MoveCount() != 2 || at(g, "E5") != engine.Empty || g.Game.ToPlay() != engine.Black {
		t.Errorf("after undo: %d moves, E5 %v, %v to play; want 2, empty, black", g.Game.MoveCount(), at(g, "E5"), g.Game.ToPlay())
	}
	e.refused(e.d.Click(bob, ask, mustButton(t, ask, "allow").CustomID), "old board")

	// A refused undo changes nothing.
	e.do(e.play(ch, alice, "F5"))
	ask = e.do(e.slash(ch, alice, "undo"))
	e.do(e.click(bob, ask, "refuse"))
	if g := e.game(ch.ID); g.Game.MoveCount() != 3 || at(g, "F5") != engine.Black {
		t.Errorf("a refused undo took the move back")
	}
}

// TestE2ERace sends two moves at once for the player to move, and two
// presses of the same Pass button: exactly one of each is applied.
func TestE2ERace(t *testing.T) { bothModes(t, testE2ERace) }

func testE2ERace(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()

	race := func(its ...*discordtest.Interaction) []*discordtest.Reply {
		replies := make([]*discordtest.Reply, len(its))
		errs := make([]error, len(its))
		var wg sync.WaitGroup
		for i, it := range its {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i], errs[i] = e.d.Send(it)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		return replies
	}

	for round := 0; round < 3; round++ {
		before := e.game(ch.ID).Game.MoveCount()
		who := alice
		if before%2 == 1 {
			who = bob
		}
		a, b := fmt.Sprintf("C%d", 3+round), fmt.Sprintf("G%d", 3+round)
		its := []*discordtest.Interaction{e.play(ch, who, a), e.play(ch, who, b)}
		race(its...)
		var texts []string
		for _, it := range its {
			var m discordtest.Message
			e.d.WaitFor("both racing moves to be answered", func() bool {
				var ok bool
				m, ok = e.d.Original(it)
				return ok && !m.Deferred
			})
			texts = append(texts, m.Text())
		}
		g := e.game(ch.ID)
		if g.Game.MoveCount() != before+1 {
			t.Fatalf("round %d: %d moves applied, want exactly 1 (answers %q)", round, g.Game.MoveCount()-before, texts)
		}
		placed := 0
		for _, p := range []string{a, b} {
			if at(g, p) != engine.Empty {
				placed++
			}
		}
		if placed != 1 {
			t.Errorf("round %d: %d of %s, %s hold stones, want 1", round, placed, a, b)
		}
	}

	// Two presses of one Pass button.
	latest := e.board(ch.ID)
	g := e.game(ch.ID)
	toPlay := alice
	if g.Game.ToPlay() == engine.White {
		toPlay = bob
	}
	before := g.Game.MoveCount()
	b, _ := latest.Button("pass")
	race(e.d.Click(toPlay, latest, b.CustomID), e.d.Click(toPlay, latest, b.CustomID))
	e.d.WaitFor("the pass to be stored", func() bool { return e.game(ch.ID).Game.MoveCount() > before })
	if n := e.game(ch.ID).Game.MoveCount() - before; n != 1 {
		t.Errorf("two presses of one Pass button applied %d passes", n)
	}
}

// TestE2ERestart stops the bot in the middle of a game and starts a new
// process on the same database: the game goes on, old buttons still work.
func TestE2ERestart(t *testing.T) { httpMode(t, testE2ERestart) }

func testE2ERestart(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "E5"))
	e.do(e.play(ch, bob, "C3"))
	board := e.board(ch.ID)

	e.restart()

	g := e.game(ch.ID)
	if g == nil || g.Game.MoveCount() != 2 || at(g, "E5") != engine.Black || at(g, "C3") != engine.White {
		t.Fatalf("after restart the game is not as it was")
	}
	e.refused(e.play(ch, bob, "D4"), "not your turn")
	if m := e.do(e.play(ch, alice, "G7")); m.Ephemeral {
		t.Fatalf("move after restart refused: %q", m.Text())
	}
	// The board from before the restart is stale by one move now.
	e.refused(e.click(bob, board, "pass"), "old board")
	if m := e.do(e.click(bob, e.board(ch.ID), "pass")); m.Ephemeral {
		t.Errorf("pass after restart refused: %q", m.Text())
	}
	if n := e.game(ch.ID).Game.MoveCount(); n != 4 {
		t.Errorf("%d moves after the restart, want 4", n)
	}
}

// TestE2EBotRestart: when the bot process stops while it is the bot's turn,
// the next process makes the move by itself and posts the board.
func TestE2EBotRestart(t *testing.T) { httpMode(t, testE2EBotRestart) }

func testE2EBotRestart(t *testing.T, e *env) {
	dm := e.d.DM(e.d.NewUser("erin"))
	erin := dm.Recipient
	e.do(e.slash(dm, erin, "bot", discordtest.Int("size", 9)))
	e.do(e.play(dm, erin, "E5"))
	g := e.game(dm.ID)
	if g.Game.MoveCount() != 2 {
		t.Fatalf("%d moves, want 2", g.Game.MoveCount())
	}
	e.stop()
	// While the bot is down, the game is left with the bot to move (as if
	// the process died while thinking).
	store, err := storage.Open(e.dbPath, storage.Options{Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	g, err = store.Game(context.Background(), dm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Game.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	store.Close()
	posted := len(e.d.Public(dm.ID))

	e.start()
	e.d.WaitFor("the bot to move after the restart", func() bool {
		g := e.game(dm.ID)
		return g != nil && g.Game.MoveCount() == 2 && len(e.d.Public(dm.ID)) > posted
	})
	if _, ok := e.board(dm.ID).PNG(); !ok {
		t.Errorf("the bot's move after the restart was posted without a board")
	}
}

func TestE2EAutocomplete(t *testing.T) { httpMode(t, testE2EAutocomplete) }

func testE2EAutocomplete(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "D4"))
	r := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub("play", discordtest.Focused("move", "d"))))
	if r.Type != discordtest.CallbackAutocompleteResult {
		t.Fatalf("autocomplete answered with type %d", r.Type)
	}
	if len(r.Choices) != 8 {
		t.Errorf("%d choices for D on 9×9 with D4 taken, want 8: %+v", len(r.Choices), r.Choices)
	}
	for _, c := range r.Choices {
		if c.Name == "D4" || !strings.HasPrefix(c.Name, "D") {
			t.Errorf("choice %q should not be offered", c.Name)
		}
	}
	all := e.d.Do(e.d.Autocomplete(ch, bob, "go", discordtest.Sub("play", discordtest.Focused("move", ""))))
	if len(all.Choices) != 25 {
		t.Errorf("%d choices for an empty prefix, want 25 (Discord's maximum)", len(all.Choices))
	}
}

func TestE2EThread(t *testing.T) { httpMode(t, testE2EThread) }

func testE2EThread(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Bool("thread", true)))
	e.do(e.click(bob, msg, "accept"))
	var threads []*discordtest.Channel
	e.d.WaitFor("the game's thread", func() bool {
		threads = e.d.Threads(ch.ID)
		return len(threads) == 1 && e.game(threads[0].ID) != nil
	})
	th := threads[0]
	e.d.WaitFor("the board in the thread", func() bool {
		for _, m := range e.d.Public(th.ID) {
			if _, ok := m.PNG(); ok {
				return true
			}
		}
		return false
	})
	if m := e.do(e.play(th, alice, "E5")); m.Ephemeral {
		t.Fatalf("move in the thread refused: %q", m.Text())
	}
	// The parent channel stays free for another game.
	e.do(e.slash(ch, alice, "bot", discordtest.Int("size", 9)))
	if e.game(ch.ID) == nil {
		t.Errorf("a game in a thread blocks its parent channel")
	}
	e.refused(e.slash(ch, bob, "bot"), "already")
}

// TestE2EConcurrentGames: while the bot thinks in one DM, a game between two
// people in a server channel goes on; the thinking bot's interaction is
// deferred in time and edited when the move comes.
func TestE2EConcurrentGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	frank := e.d.NewUser("frank")
	dm := e.d.DM(frank)
	slow := e.botGame(dm, frank, "slow")
	type result struct {
		r   *discordtest.Reply
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := e.d.Send(slow)
		done <- result{r, err}
	}()

	ch, alice, bob := e.guildGame()
	for i, mv := range []string{"E5", "C3", "G7", "C7"} {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("%s refused while the bot thinks elsewhere: %q", mv, m.Text())
		}
	}
	if n := e.game(ch.ID).Game.MoveCount(); n != 4 {
		t.Fatalf("%d moves in the human game, want 4", n)
	}
	if g := e.game(dm.ID); g == nil || g.Game.MoveCount() != 0 {
		t.Fatalf("the slow bot's game should be waiting for its first move")
	}

	res := <-done // the bot answered within its deadline, before moving
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Errorf("while thinking, the bot answered type %d, want 5 (deferred)", res.r.Type)
	}
	close(e.players.gate)
	m := e.d.Settled(slow)
	if g := e.game(dm.ID); g.Game.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Errorf("after thinking the bot has not played A9")
	}
	if _, ok := m.PNG(); !ok {
		t.Errorf("the deferred answer was not edited into a board: %q", m.Text())
	}
}

// TestE2EBotFailure: a bot move that fails is retried by itself and the
// board is posted when it succeeds; a bot that panics gets an apology and
// the bot process keeps running.
func TestE2EBotFailure(t *testing.T) { httpMode(t, testE2EBotFailure) }

func testE2EBotFailure(t *testing.T, e *env) {
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	it := e.botGame(dm, gina, "flaky")
	m := e.do(it)
	if !strings.Contains(m.Text(), "try again") {
		t.Errorf("after a failed bot move the answer is %q, want it to say it will try again", m.Text())
	}
	e.clock.Advance(time.Minute) // the move stays queued, to be tried again within a minute
	e.waitMoves("the bot to retry its move by itself", dm.ID, 1)
	e.waitBoard(dm.ID, "A9")

	hank := e.d.NewUser("hank")
	dm2 := e.d.DM(hank)
	pit := e.botGame(dm2, hank, "panic")
	pm := e.do(pit)
	if !strings.Contains(strings.ToLower(pm.Text()), "sorry") {
		t.Errorf("after a panic the answer is %q, want an apology", pm.Text())
	}
	e.alive()
	if m := e.do(e.play(dm, gina, "E5")); m.Ephemeral {
		t.Errorf("a move in another game after the panic was refused: %q", m.Text())
	}
}

// TestE2ECommands covers /go board, /go sgf, /go help, /go abort and the
// Resign button.
func TestE2ECommands(t *testing.T) { bothModes(t, testE2ECommands) }

func testE2ECommands(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator

	e.refused(e.slash(ch, alice, "board"), "no game")
	help := e.do(e.slash(ch, carol, "help"))
	if !strings.Contains(help.Text(), "/go play") || !strings.Contains(help.Text(), "tester") {
		t.Errorf("help = %q, want the commands and the bot levels", help.Text())
	}

	e.challenge(ch, alice, bob)
	for i, mv := range []string{"E5", "C3", "D4"} {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		e.do(e.play(ch, who, mv))
	}
	board := e.do(e.slash(ch, carol, "board"))
	if _, ok := board.PNG(); !ok || !strings.Contains(board.Text(), "D4") {
		t.Errorf("/go board = %q, want the board with the last move D4", board.Text())
	}

	sgf := e.do(e.slash(ch, bob, "sgf"))
	if len(sgf.Attachments) != 1 {
		t.Fatalf("/go sgf attached %d files", len(sgf.Attachments))
	}
	rec, _, err := engine.ParseSGF(sgf.Attachments[0].Data)
	if err != nil {
		t.Fatalf("the SGF does not parse: %v\n%s", err, sgf.Attachments[0].Data)
	}
	if rec.MoveCount() != 3 || rec.Size() != 9 {
		t.Errorf("the SGF has %d moves on %d×%d, want 3 on 9×9", rec.MoveCount(), rec.Size(), rec.Size())
	}

	// Resigning by button asks first; only the players may.
	latest := e.board(ch.ID)
	e.refused(e.click(carol, latest, "resign"), "not playing")
	confirm := e.do(e.click(bob, latest, "resign"))
	if !confirm.Ephemeral {
		t.Errorf("the resignation question is public: %q", confirm.Text())
	}
	if e.game(ch.ID).Game.Over() {
		t.Fatalf("the Resign button resigned without asking")
	}
	end := e.do(e.click(bob, confirm, "yes"))
	_ = end
	if e.game(ch.ID) != nil {
		t.Fatalf("the game is still active after resigning")
	}
	e.waitBoard(ch.ID, "resign")

	// Abort needs Manage Messages in a server.
	e.challenge(ch, alice, bob)
	e.refused(e.d.Click(alice, latest, mustButton(t, latest, "pass").CustomID), "earlier game")
	e.refused(e.slash(ch, alice, "abort"), "manage messages")
	if m := e.do(e.slash(ch, mod, "abort")); m.Ephemeral || !strings.Contains(m.Text(), "aborted") {
		t.Errorf("abort by a moderator answered %q", m.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the game survived /go abort")
	}
	e.refused(e.slash(ch, mod, "abort"), "no game")
}

// TestE2EHandicap: a handicap game starts with the stones on the board and
// White to move.
func TestE2EHandicap(t *testing.T) { httpMode(t, testE2EHandicap) }

func testE2EHandicap(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame(discordtest.Int("handicap", 2))
	g := e.game(ch.ID)
	if g.Game.Handicap() != 2 || g.Game.ToPlay() != engine.White {
		t.Fatalf("handicap %d, %v to play; want 2 and white", g.Game.Handicap(), g.Game.ToPlay())
	}
	e.refused(e.play(ch, alice, "E5"), "not your turn")
	if m := e.do(e.play(ch, bob, "E5")); m.Ephemeral {
		t.Errorf("white's first move refused: %q", m.Text())
	}
}

// TestE2EDeadStones: in the scoring phase a player marks a group dead; the
// marking changes, the old Accept button becomes stale, and both accept
// the new one.
func TestE2EDeadStones(t *testing.T) { httpMode(t, testE2EDeadStones) }

func testE2EDeadStones(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	// Black walls off the left; a lone white stone sits inside.
	moves := []string{"D1", "B8", "D2", "pass", "D3", "pass", "D4", "pass", "D5", "pass", "D6", "pass", "D7", "pass", "D8", "pass", "D9", "pass", "pass"}
	for i, mv := range moves {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if mv == "pass" {
			e.do(e.slash(ch, who, "pass"))
			continue
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("%s refused: %q", mv, m.Text())
		}
	}
	scoring := e.do(e.slash(ch, bob, "pass"))
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase after two passes")
	}
	deadBefore := len(g.Scoring.Dead)
	marked := e.do(e.slash(ch, alice, "dead", discordtest.Str("point", "B8")))
	if marked.Ephemeral {
		t.Fatalf("/go dead B8 refused: %q", marked.Text())
	}
	g = e.game(ch.ID)
	if len(g.Scoring.Dead) == deadBefore {
		t.Fatalf("/go dead B8 did not change the marking (%d dead)", len(g.Scoring.Dead))
	}
	e.refused(e.slash(ch, alice, "dead", discordtest.Str("point", "F5")), "no stone")
	if _, ok := scoring.Button("accept"); ok {
		e.refused(e.d.Click(bob, scoring, mustButton(t, scoring, "accept").CustomID), "changed")
	}
	latest := e.board(ch.ID)
	e.do(e.click(alice, latest, "accept"))
	e.do(e.click(bob, latest, "accept"))
	e.d.WaitFor("the game to end", func() bool { return e.game(ch.ID) == nil })
}

// TestE2ERateLimit: Discord answers 429 to the bot's edits and posts; the
// bot waits as told and retries, and the players see the boards.
func TestE2ERateLimit(t *testing.T) { bothModes(t, testE2ERateLimit) }

func testE2ERateLimit(t *testing.T, e *env) {
	ch, alice, _ := e.guildGame()
	if e.gateway {
		// The answer goes up with the callback itself.
		e.d.RateLimit("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 1)
	} else {
		// The answer is deferred in the HTTP response, then edited.
		e.d.RateLimit("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", 1)
	}
	m := e.do(e.play(ch, alice, "E5"))
	if _, ok := m.PNG(); !ok {
		t.Errorf("after a 429 the board was not posted: %q", m.Text())
	}
	limited := 0
	for _, c := range e.d.Calls() {
		if c.Status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 1 {
		t.Errorf("%d calls were rate limited, want 1", limited)
	}
	if n := e.game(ch.ID).Game.MoveCount(); n != 1 {
		t.Errorf("%d moves after a rate-limited answer, want 1", n)
	}
}

// TestE2EDoubleAccept: two presses of Accept at once start one game.
func TestE2EDoubleAccept(t *testing.T) { httpMode(t, testE2EDoubleAccept) }

func testE2EDoubleAccept(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9)))
	b := mustButton(t, msg, "accept")
	its := []*discordtest.Interaction{e.d.Click(bob, msg, b.CustomID), e.d.Click(bob, msg, b.CustomID)}
	var wg sync.WaitGroup
	for _, it := range its {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.d.Send(it); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	e.d.WaitFor("the first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && !m.Deferred {
				return true
			}
		}
		return false
	})
	boards := 0
	for _, m := range e.d.Public(ch.ID) {
		if _, ok := m.PNG(); ok {
			boards++
		}
	}
	if boards != 1 {
		t.Errorf("%d boards posted for two presses of Accept, want 1", boards)
	}
	if g := e.game(ch.ID); g == nil || g.Game.MoveCount() != 0 {
		t.Errorf("no fresh game after the double accept")
	}
}

// TestE2EScoringTimeout: when the players do not agree on the dead stones
// in time, the sweep ends the game with the marking as it stands.
func TestE2EScoringTimeout(t *testing.T) { httpMode(t, testE2EScoringTimeout) }

func testE2EScoringTimeout(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	e.do(e.play(ch, alice, "E5"))
	e.do(e.slash(ch, bob, "pass"))
	e.do(e.slash(ch, alice, "pass"))
	g := e.game(ch.ID)
	if g == nil || g.Scoring == nil {
		t.Fatalf("not in the scoring phase")
	}
	e.clock.Advance(commands.DefaultScoringTTL + time.Minute)
	e.restart() // the sweep runs at start (and every minute)
	e.d.WaitFor("the scoring phase to time out", func() bool { return e.game(ch.ID) == nil })
	a, err := e.store.ArchivedGame(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Result, "B+") {
		t.Errorf("result %q, want a black win (one stone and the whole board against 7.5 komi)", a.Result)
	}
	e.waitBoard(ch.ID, "ran out")
}

// TestE2ERestartChallenge: a challenge made before a restart can be
// accepted after it.
func TestE2ERestartChallenge(t *testing.T) { httpMode(t, testE2ERestartChallenge) }

func testE2ERestartChallenge(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	e.restart()
	e.do(e.click(bob, msg, "accept"))
	e.d.WaitFor("the game to start", func() bool { return e.game(ch.ID) != nil })
	g := e.game(ch.ID)
	if g.White.UserID != alice.ID || g.Black.UserID != bob.ID {
		t.Errorf("colours: black %s, white %s; want bob black, alice white as challenged", g.Black.UserID, g.White.UserID)
	}
}

// TestE2EBadInput: options and payloads a well-behaved Discord client would
// rarely send still get a specific refusal and change nothing.
func TestE2EBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	robot := e.d.NewUser("otherbot")
	robot.Bot = true
	dm := e.d.DM(alice)
	sub := discordtest.Sub
	tests := []struct {
		name string
		it   *discordtest.Interaction
		want string
	}{
		{"challenge yourself", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", alice))), "yourself"},
		{"challenge a bot account", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", robot))), "bot"},
		{"size 10", e.d.Command(ch, alice, "go", sub("challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 10))), "9, 13 or 19"},
		{"colour purple", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("color", "purple"))), "black, white or nigiri"},
		{"unknown ruleset", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("ruleset", "ing"))), "ruleset"},
		{"komi not in halves", e.d.Command(ch, alice, "go", sub("bot", discordtest.Num("komi", 6.3))), "komi"},
		{"komi huge", e.d.Command(ch, alice, "go", sub("bot", discordtest.Num("komi", 1000))), "komi"},
		{"handicap above 9", e.d.Command(ch, alice, "go", sub("bot", discordtest.Int("size", 19), discordtest.Int("handicap", 12))), "handicap"},
		{"negative handicap", e.d.Command(ch, alice, "go", sub("bot", discordtest.Int("handicap", -1))), "handicap"},
		{"unknown level", e.d.Command(ch, alice, "go", sub("bot", discordtest.Str("level", "godlike"))), "level"},
		{"thread in a DM", e.d.Command(dm, alice, "go", sub("challenge", discordtest.UserOpt("opponent", bob), discordtest.Bool("thread", true))), "thread"},
		{"play without a game", e.d.Command(dm, alice, "go", sub("play", discordtest.Str("move", "D4"))), "no game"},
		{"pass without a game", e.d.Command(ch, alice, "go", sub("pass")), "no game"},
		{"resign without a game", e.d.Command(ch, alice, "go", sub("resign")), "no game"},
		{"undo without a game", e.d.Command(ch, alice, "go", sub("undo")), "no game"},
		{"sgf without a game", e.d.Command(ch, alice, "go", sub("sgf")), "no game"},
		{"dead without a game", e.d.Command(ch, alice, "go", sub("dead", discordtest.Str("point", "D4"))), "no game"},
		{"a subcommand from an old version", e.d.Command(ch, alice, "go", sub("teleport")), "don't know"},
		{"another command", e.d.Command(ch, alice, "chess", sub("play")), "don't know"},
		{"an unknown button", e.d.Click(alice, discordtest.Message{ID: "1", ChannelID: ch.ID}, "weird/button"), "don't know"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { e.refused(tt.it, tt.want) })
	}
	if e.game(ch.ID) != nil || e.game(dm.ID) != nil {
		t.Errorf("bad input started a game")
	}
	if n := len(e.d.Public(ch.ID)) + len(e.d.Public(dm.ID)); n != 0 {
		t.Errorf("bad input posted %d public messages", n)
	}

	// Transport-level garbage with a valid signature.
	for _, tt := range []struct {
		name string
		body string
	}{
		{"not JSON", "{nope"},
		{"empty object", "{}"},
		{"unknown type", `{"id":"1","application_id":"` + e.d.AppID + `","type":42,"token":"t","version":1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sig, ts := e.d.Signer.Sign([]byte(tt.body), e.clock.Now())
			r, err := e.d.Post([]byte(tt.body), http.Header{"Content-Type": {"application/json"}, "X-Signature-Ed25519": {sig}, "X-Signature-Timestamp": {ts}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status == http.StatusOK && tt.name == "not JSON" {
				t.Errorf("HTTP 200 for a body that is not JSON")
			}
			if r.Status >= 500 {
				t.Errorf("HTTP %d: %s", r.Status, r.Body)
			}
		})
	}
	if r := e.d.Do(e.d.Ping()); r.Type != discordtest.CallbackPong {
		t.Errorf("the bot stopped answering after bad input")
	}
}

// TestE2EPrivateChannel: with a user install, two friends play in their own
// DM, where the bot is not a member: everything must go through the
// interactions, since the channel endpoints answer 403.
func TestE2EPrivateChannel(t *testing.T) { bothModes(t, testE2EPrivateChannel) }

func testE2EPrivateChannel(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.PrivateChannel(alice, bob)
	e.challenge(ch, alice, bob)
	for i, mv := range []string{"E5", "C3", "G7"} {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("%s refused: %q", mv, m.Text())
		}
	}
	e.do(e.click(bob, e.board(ch.ID), "pass"))
	if n := e.game(ch.ID).Game.MoveCount(); n != 4 {
		t.Errorf("%d moves, want 4", n)
	}
	e.do(e.slash(ch, alice, "resign"))
	if e.game(ch.ID) != nil {
		t.Errorf("the game is still active after resigning")
	}
	// A bot game there too: its replies come within the interaction.
	if m := e.do(e.slash(ch, alice, "bot", discordtest.Int("size", 9), discordtest.Str("color", "white"))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	e.do(e.play(ch, alice, "E5"))
	if n := e.game(ch.ID).Game.MoveCount(); n != 3 {
		t.Errorf("%d moves in the bot game, want 3", n)
	}
}

// TestE2EScoringResume: moves typed loosely are read; after two passes a
// player resumes play instead of accepting, and the game goes on.
func TestE2EScoringResume(t *testing.T) { httpMode(t, testE2EScoringResume) }

func testE2EScoringResume(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame()
	for i, mv := range []string{"e5", " C3 ", "pass", "PASS"} {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if m := e.do(e.play(ch, who, mv)); m.Ephemeral {
			t.Fatalf("move %q refused: %q", mv, m.Text())
		}
	}
	g := e.game(ch.ID)
	if g.Game.MoveCount() != 4 || at(g, "E5") != engine.Black || at(g, "C3") != engine.White || g.Scoring == nil {
		t.Fatalf("after e5, C3, pass, pass: %d moves, scoring %v", g.Game.MoveCount(), g.Scoring != nil)
	}
	scoring := e.board(ch.ID)
	e.refused(e.d.Click(e.d.NewUser("carol"), scoring, mustButton(t, scoring, "resume").CustomID), "not playing")
	if m := e.do(e.click(bob, scoring, "resume")); m.Ephemeral {
		t.Fatalf("resume refused: %q", m.Text())
	}
	g = e.game(ch.ID)
	if g.Scoring != nil || g.Game.ToPlay() != engine.Black {
		t.Fatalf("after resuming: scoring %v, %v to play; want play on with black", g.Scoring != nil, g.Game.ToPlay())
	}
	e.refused(e.d.Click(alice, scoring, mustButton(t, scoring, "accept").CustomID), "resumed")
	if m := e.do(e.play(ch, alice, "G7")); m.Ephemeral {
		t.Errorf("a move after resuming was refused: %q", m.Text())
	}
}

// TestE2EManyGames: eight players each start a bot game in their DM and
// play at the same time; every game ends up with exactly its moves.
func TestE2EManyGames(t *testing.T) { httpMode(t, testE2EManyGames) }

func testE2EManyGames(t *testing.T, e *env) {
	const players, moves = 8, 3
	type player struct {
		u  discordtest.User
		dm *discordtest.Channel
	}
	ps := make([]player, players)
	for i := range ps {
		u := e.d.NewUser(fmt.Sprintf("player%d", i))
		ps[i] = player{u, e.d.DM(u)}
	}
	// settle waits for an interaction's final answer without touching t,
	// so it can run in any goroutine.
	settle := func(it *discordtest.Interaction) (discordtest.Message, error) {
		r, err := e.d.Send(it)
		if err != nil {
			return discordtest.Message{}, err
		}
		if r.Status != http.StatusOK {
			return discordtest.Message{}, fmt.Errorf("HTTP %d", r.Status)
		}
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			if m, ok := e.d.Original(it); ok && !m.Deferred {
				return m, nil
			}
			time.Sleep(20 * time.Millisecond)
		}
		return discordtest.Message{}, fmt.Errorf("no answer to %s", it.ID)
	}
	errs := make(chan error, players)
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m, err := settle(e.slash(p.dm, p.u, "bot", discordtest.Int("size", 9), discordtest.Str("color", "black"))); err != nil || m.Ephemeral {
				errs <- fmt.Errorf("%s: /go bot: %v %q", p.u.Username, err, m.Text())
				return
			}
			for _, mv := range []string{"E5", "D4", "F6"}[:moves] {
				if m, err := settle(e.play(p.dm, p.u, mv)); err != nil || m.Ephemeral {
					errs <- fmt.Errorf("%s: %s: %v %q", p.u.Username, mv, err, m.Text())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range ps {
		g := e.game(p.dm.ID)
		if g == nil {
			t.Errorf("%s has no game", p.u.Username)
			continue
		}
		if g.Game.MoveCount() != 2*moves {
			t.Errorf("%s's game has %d moves, want %d", p.u.Username, g.Game.MoveCount(), 2*moves)
			continue
		}
		if at(g, "E5") != engine.Black || at(g, "A9") != engine.White {
			t.Errorf("%s's game does not hold its own moves", p.u.Username)
		}
	}
}

// TestE2EStopFinishesMoves: SIGTERM while the bot thinks waits for the move,
// which is stored and answered before the process ends.
func TestE2EStopFinishesMoves(t *testing.T) { httpMode(t, testE2EStopFinishesMoves) }

func testE2EStopFinishesMoves(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	slow := e.botGame(ch, alice, "slow")
	e.d.Do(slow) // deferred while the bot's move is owed
	e.thinking("slow")
	stopped := make(chan error, 1)
	go func() { stopped <- e.stopWithin(time.Minute) }()
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) while a move was in flight", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(e.players.gate)
	if err := <-stopped; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	m, ok := e.d.Original(slow)
	if !ok || m.Deferred || !strings.Contains(m.Text(), "A9") {
		t.Errorf("the move in flight was not answered before the stop: %q", m.Text())
	}
	e.start()
	if g := e.game(ch.ID); g == nil || g.Game.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Errorf("the move in flight was not stored")
	}
}

// TestE2EPassText: after a pass the board says "Last move: ⚫ pass", not
// "pass (pass)" (engine.Move.String is already "pass" for a pass).
func TestE2EPassText(t *testing.T) {
	e := newEnv(t)
	ch, alice, _ := e.guildGame()
	m := e.do(e.slash(ch, alice, "pass"))
	if strings.Contains(m.Text(), "pass (pass)") || !strings.Contains(m.Text(), "Last move: ⚫ pass") {
		t.Errorf("the board says %q", m.Text())
	}
}

// TestE2EPrivateRetry: in a user-install private channel (the bot is not a
// member, so POST /channels/{id}/messages is refused with 403), a bot move
// that failed once is retried in the background, committed, and posted as
// a follow-up of the interaction that announced the retry.
func TestE2EPrivateRetry(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.PrivateChannel(alice, bob)
	e.do(e.botGame(ch, alice, "flaky"))
	e.clock.Advance(time.Minute) // the failed move is tried again within a minute
	e.waitMoves("the retried bot move", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
}

// TestE2EAbortWhileThinking: a moderator aborts a game while the bot
// thinks. Nothing is stored, and the thinking interaction is answered with
// what was committed: the game was aborted, never the bot's move that could
// not be stored, nor a promise to try again.
func TestE2EAbortWhileThinking(t *testing.T) {
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	mod := e.d.NewUser("mod")
	mod.Permissions = discordtest.PermModerator
	slow := e.botGame(ch, alice, "slow")
	done := make(chan error, 1)
	go func() {
		_, err := e.d.Send(slow)
		done <- err
	}()
	e.d.WaitFor("the bot game to start", func() bool { return e.game(ch.ID) != nil })
	e.do(e.slash(ch, mod, "abort"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(e.players.gate)
	var got discordtest.Message
	e.d.WaitFor("the thinking interaction's answer", func() bool {
		o, ok := e.d.Original(slow)
		if ok && !o.Deferred {
			got = o
			return true
		}
		if f := e.d.Followups(slow); !ok && len(f) > 0 {
			got = f[len(f)-1]
			return true
		}
		return false
	})
	if strings.Contains(got.Text(), "A9") || strings.Contains(got.Text(), "try again") || !strings.Contains(got.Text(), "aborted") {
		t.Errorf("after the abort, the answer shows a move that was never stored: %q", got.Text())
	}
	if e.game(ch.ID) != nil {
		t.Errorf("the aborted game came back")
	}
}

// TestE2EStopWhileThinking: SIGTERM arrives while the bot thinks and the
// grace period runs out. The interaction that was thinking is still
// answered (with a fresh short deadline: the env's checkMessages reports a
// "thinking…" message left for ever), and the next process makes the move
// and posts the board.
func TestE2EStopWhileThinking(t *testing.T) {
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	slow := e.botGame(ch, alice, "slow")
	e.d.Do(slow)
	e.thinking("slow")
	if err := e.stopWithin(time.Second); err == nil {
		t.Fatalf("Shutdown returned nil although the bot was still thinking")
	}
	if m, ok := e.d.Original(slow); !ok || m.Deferred || !strings.Contains(m.Text(), "restarting") {
		t.Errorf("the thinking interaction was answered %q (deferred: %v), want a note that gobot restarts", m.Text(), m.Deferred)
	}
	e.start()
	close(e.players.gate)
	e.waitMoves("the bot's move after the restart", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
}

// TestE2ESecondGame: after a game ends, a new one in the same channel gets
// its own board, whose buttons work (the env's challenge returns it, not
// the earlier game's board).
func TestE2ESecondGame(t *testing.T) { bothModes(t, testE2ESecondGame) }

func testE2ESecondGame(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	first := e.challenge(ch, alice, bob)
	old := e.game(ch.ID)
	e.do(e.slash(ch, alice, "resign"))
	second := e.challenge(ch, alice, bob)
	g := e.game(ch.ID)
	if g == nil || g.ID == old.ID {
		t.Fatalf("no second game in the channel")
	}
	if boardOf(second, old.ID) || !boardOf(second, g.ID) || second.ID == first.ID {
		t.Fatalf("challenge returned the first game's board for the second game")
	}
	m := e.do(e.click(alice, second, "pass"))
	if m.Ephemeral || !strings.Contains(m.Text(), "passed") {
		t.Errorf("Pass on the second game's board answered %q", m.Text())
	}
}

// TestE2EPrivateRetryExpired: in a user-install private channel, a bot move
// retried after the last interaction's token has expired cannot be posted
// anywhere; the next move's answer says what the bot played.
func TestE2EPrivateRetryExpired(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.PrivateChannel(alice, bob)
	m := e.do(e.botGame(ch, alice, "flaky"))
	if !strings.Contains(m.Text(), "try again") {
		t.Fatalf("the failed bot move answered %q", m.Text())
	}
	e.clock.Advance(20 * time.Minute) // the interaction's token has expired by the retry
	e.d.WaitFor("the retried bot move, marked unposted", func() bool {
		g := e.game(ch.ID)
		return g != nil && g.Game.MoveCount() == 1 && g.Unposted
	})
	m = e.do(e.play(ch, alice, "E5"))
	if !strings.Contains(m.Text(), "played **A9** earlier") {
		t.Errorf("the next answer does not say what the bot played: %q", m.Text())
	}
	if g := e.game(ch.ID); g == nil || g.Unposted || g.Game.MoveCount() != 3 {
		t.Errorf("after the next move the game is %+v, want 3 moves and nothing unposted", g)
	}
}

// TestE2EPrivateStopWhileThinking: in a user-install private channel, the
// bot restarts while it thinks; the next process makes the move and posts
// its board as a follow-up of the game's last interaction (stored with the
// game), since the channel itself refuses the bot's posts.
func TestE2EPrivateStopWhileThinking(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.PrivateChannel(alice, bob)
	slow := e.botGame(ch, alice, "slow")
	e.d.Do(slow)
	e.thinking("slow")
	if err := e.stopWithin(time.Second); err == nil {
		t.Fatalf("Shutdown returned nil although the bot was still thinking")
	}
	e.start()
	close(e.players.gate)
	e.waitMoves("the bot's move after the restart", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
	if g := e.game(ch.ID); g.Unposted {
		t.Errorf("the bot's move is marked unposted although its board was posted")
	}
}
