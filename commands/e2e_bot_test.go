package commands_test

// Scenarios of games against a bot: in a DM, across a restart, a failing
// bot, private channels the bot cannot post in, and stopping or aborting
// while it thinks. The harness is in
// e2e_harness_test.go.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// TestE2EBotInDM: a player alone against the bot in a DM; the bot answers
// each move by itself within the same interaction.
func TestE2EBotInDM(t *testing.T) { bothModes(t, testE2EBotInDM) }

func testE2EBotInDM(t *testing.T, e *env) {
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.refused(e.slash(dm, dave, "bot", discordtest.Str("level", "grandmaster")), "Unknown level \"grandmaster\": choose one of tester, slow, flaky, panic, scripted")

	// Unrated: a rated game against the bot has no undo.
	start := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Bool("rated", false)))
	if start.Ephemeral {
		t.Fatalf("/go bot refused: %q", start.Text())
	}
	g := e.game(dm.ID)
	if g == nil || g.First(engine.SideOf(engine.White)).UserID != dave.ID || !g.First(engine.SideOf(engine.Black)).IsBot() {
		t.Fatalf("game = %+v, want the bot black and dave white", g)
	}
	if g.State.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Fatalf("the bot did not open at A9 by itself: %d moves", g.State.MoveCount())
	}
	for i, move := range []string{"E5", "D4", "F6"} {
		m := e.do(e.play(dm, dave, move))
		if m.Ephemeral {
			t.Fatalf("%s refused: %q", move, m.Text())
		}
		g = e.game(dm.ID)
		if want := 3 + 2*i; g.State.MoveCount() != want {
			t.Fatalf("after %s: %d moves, want %d (the bot answers at once)", move, g.State.MoveCount(), want)
		}
		last, _ := goOf(g).LastMove()
		if last.Color != engine.Black || !strings.Contains(m.Text(), last.Point.String()) {
			t.Errorf("after %s: last move %v; answer %q should show the bot's reply", move, last, m.Text())
		}
	}
	if at(g, "B9") != engine.Black || at(g, "C9") != engine.Black || at(g, "D9") != engine.Black {
		t.Errorf("the bot's replies are not B9, C9, D9")
	}

	// Undo against the bot takes back its reply and the player's move.
	before := g.State.MoveCount()
	if m := e.do(e.slash(dm, dave, "undo")); m.Ephemeral {
		t.Fatalf("undo refused: %q", m.Text())
	}
	g = e.game(dm.ID)
	if g.State.MoveCount() != before-2 || at(g, "F6") != engine.Empty || at(g, "D9") != engine.Empty {
		t.Errorf("after undo: %d moves (want %d), F6 %v, D9 %v", g.State.MoveCount(), before-2, at(g, "F6"), at(g, "D9"))
	}

	// Resigning ends the game and frees the DM.
	if m := e.do(e.slash(dm, dave, "resign")); m.Ephemeral || !strings.Contains(strings.ToLower(m.Text()), "resign") {
		t.Errorf("resign answered %q", m.Text())
	}
	if e.game(dm.ID) != nil {
		t.Errorf("game still active after resigning")
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
	if g.State.MoveCount() != 2 {
		t.Fatalf("%d moves, want 2", g.State.MoveCount())
	}
	e.stop()
	// While the bot is down, the game is left with the bot to move (as if
	// the process died while thinking).
	store, err := storage.Open(e.dbPath, storage.Options{Kinds: testKinds(), Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	g, err = store.Game(context.Background(), dm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := goOf(g).Undo(); err != nil {
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
		return g != nil && g.State.MoveCount() == 2 && len(e.d.Public(dm.ID)) > posted
	})
	if _, ok := e.board(dm.ID).PNG(); !ok {
		t.Errorf("the bot's move after the restart was posted without a board")
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

// TestE2EPrivateRetry: in a user-install private channel (the bot is not a
// member, so POST /channels/{id}/messages is refused with 403), a bot move
// that failed once is retried in the background, committed, and posted as
// a follow-up of the interaction that announced the retry.
func TestE2EPrivateRetry(t *testing.T) {
	e := newEnv(t)
	ch, alice, _ := e.privateChannel()
	e.do(e.botGame(ch, alice, "flaky"))
	e.clock.Advance(time.Minute) // the failed move is tried again within a minute
	e.waitMoves("the retried bot move", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
}

// TestE2EPrivateRetryExpired: in a user-install private channel, a bot move
// retried after the last interaction's token has expired cannot be posted
// anywhere; the next move's answer says what the bot played.
func TestE2EPrivateRetryExpired(t *testing.T) {
	e := newEnv(t)
	ch, alice, _ := e.privateChannel()
	m := e.do(e.botGame(ch, alice, "flaky"))
	if !strings.Contains(m.Text(), "try again") {
		t.Fatalf("the failed bot move answered %q", m.Text())
	}
	e.clock.Advance(20 * time.Minute) // the interaction's token has expired by the retry
	e.d.WaitFor("the retried bot move, marked unposted", func() bool {
		g := e.game(ch.ID)
		return g != nil && g.State.MoveCount() == 1 && g.Delivery.Unposted
	})
	m = e.do(e.play(ch, alice, "E5"))
	if !strings.Contains(m.Text(), "played **A9** earlier") {
		t.Errorf("the next answer does not say what the bot played: %q", m.Text())
	}
	if g := e.game(ch.ID); g == nil || g.Delivery.Unposted || g.State.MoveCount() != 3 {
		t.Errorf("after the next move the game is %+v, want 3 moves and nothing unposted", g)
	}
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
	e.do(e.slash(ch, mod, "abort", discordtest.Str("reason", "test")))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(e.players.gate)
	got := e.deferredAnswer(slow) // the thinking interaction's answer
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
	e.stopWhileThinking(e.d.GuildChannel("general"), e.d.NewUser("alice"), func(slow *discordtest.Interaction) {
		if m, ok := e.d.Original(slow); !ok || m.Deferred || !strings.Contains(m.Text(), "restarting") {
			t.Errorf("the thinking interaction was answered %q (deferred: %v), want a note that gobot restarts", m.Text(), m.Deferred)
		}
	})
}

// createHook is the store with the handler that creates game id held,
// its game stored, until its context ends: held is closed once it is.
type createHook struct {
	commands.Store
	id   string
	held chan struct{}
}

func (h *createHook) CreateGame(ctx context.Context, g *storage.Game) error {
	err := h.Store.CreateGame(ctx, g)
	if g.ID == h.id {
		close(h.held)
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
		}
	}
	return err
}

// TestE2EStopBeforeBotDeferral: SIGTERM arrives while /go bot, its game
// stored, has not deferred its answer yet, and the grace period runs out
// before it does (through the gateway, where the deferral is gobot's own
// callback). The deferral still goes out, with a fresh short deadline, and
// the interaction is answered: it was left unanswered, the player seeing
// "The application did not respond". The next process makes the move.
func TestE2EStopBeforeBotDeferral(t *testing.T) {
	e := newEnvMode(t, "gateway")
	ch, alice := e.d.GuildChannel("general"), e.d.NewUser("alice")
	slow := e.botGame(ch, alice, "slow")
	held := make(chan struct{})
	e.wrapStore = func(s commands.Store) commands.Store { return &createHook{Store: s, id: slow.ID, held: held} }
	e.restart()
	sent := make(chan error, 1)
	go func() {
		_, err := e.d.Send(slow)
		sent <- err
	}()
	select {
	case <-held:
	case <-time.After(time.Minute):
		t.Fatal("/go bot did not store its game")
	}
	if err := e.stopWithin(time.Second); err == nil {
		t.Fatalf("Shutdown returned nil although /go bot was held")
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if m, ok := e.d.Original(slow); !ok || m.Deferred || !strings.Contains(m.Text(), "🔄 gobot is restarting and will play its move as soon as it is back.") {
		t.Errorf("/go bot stopped before its deferral was answered %q (sent: %v, deferred: %v), want a note that gobot restarts", m.Text(), ok, m.Deferred)
	}
	e.wrapStore = nil
	e.start()
	close(e.players.gate)
	e.waitMoves("the bot's move after the restart", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
}

// stopWhileThinking has u start a game in ch against the slow bot and stops
// gobot while the bot thinks, with a grace period too short for its move;
// it calls stopped, starts gobot again and waits until the next process
// has made the bot's move and posted the board.
func (e *env) stopWhileThinking(ch *discordtest.Channel, u discordtest.User, stopped func(slow *discordtest.Interaction)) {
	e.t.Helper()
	slow := e.botGame(ch, u, "slow")
	e.d.Do(slow)
	e.thinking("slow")
	if err := e.stopWithin(time.Second); err == nil {
		e.t.Fatalf("Shutdown returned nil although the bot was still thinking")
	}
	stopped(slow)
	e.start()
	close(e.players.gate)
	e.waitMoves("the bot's move after the restart", ch.ID, 1)
	e.waitBoard(ch.ID, "A9")
}

// TestE2EPrivateStopWhileThinking: in a user-install private channel, the
// bot restarts while it thinks; the next process makes the move and posts
// its board as a follow-up of the game's last interaction (stored with the
// game), since the channel itself refuses the bot's posts.
func TestE2EPrivateStopWhileThinking(t *testing.T) {
	e := newEnv(t)
	ch, alice, _ := e.privateChannel()
	e.stopWhileThinking(ch, alice, func(*discordtest.Interaction) {})
	if g := e.game(ch.ID); g.Delivery.Unposted {
		t.Errorf("the bot's move is marked unposted although its board was posted")
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
	if g := e.game(ch.ID); g == nil || g.State.MoveCount() != 1 || at(g, "A9") != engine.Black {
		t.Errorf("the move in flight was not stored")
	}
}

// TestE2EBotOutOfTimeWhileThinking: the bot runs out of time while it
// thinks over its reply: the loss on time is announced, and the answer to
// the player's move, still pending, is filled in by the bot's worker; the
// announcement's clean-up leaves it alone (an edit that only removed its
// buttons was refused by Discord as an empty message).
func TestE2EBotOutOfTimeWhileThinking(t *testing.T) {
	e := newEnv(t)
	ch, alice := e.d.GuildChannel("general"), e.d.NewUser("alice")
	e.do(e.slash(ch, alice, "bot", discordtest.Str("level", "slow"), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Str("clock", "absolute 1m")))
	g := e.game(ch.ID)
	e.clock.Advance(5 * time.Second)
	move := e.play(ch, alice, "E5")
	e.d.Do(move)
	e.thinking("slow")
	e.clock.Advance(61 * time.Second)
	e.d.WaitFor("the game to end on time", func() bool { return e.game(ch.ID) == nil })
	close(e.players.gate)
	if a := e.archived(ch.ID, g.ID); a.Result != "B+T" || !a.Annulled {
		t.Errorf("archived %s annulled=%v, want B+T annulled (the bot made no move)", a.Result, a.Annulled)
	}
	e.d.WaitFor("the announcement", func() bool { return len(e.publicWith(ch.ID, "ran out of time")) == 1 })
	if got := e.deferredAnswer(move); !strings.Contains(got.Text(), "while gobot was thinking") {
		t.Errorf("the answer to E5 = %q, want it to say the game ended while gobot was thinking", got.Text())
	}
}

// TestE2ELevelSuggestions: the level options of /go bot, /go vote and a
// rengo seat suggest the levels with how each plays, filtered by what was
// typed and by the levels the server's admins offer; a level typed by hand
// is checked all the same.
func TestE2ELevelSuggestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice := e.d.NewUser("alice")
	names := func(sub, option, typed string) []string {
		r := e.d.Do(e.d.Autocomplete(ch, alice, "go", discordtest.Sub(sub, discordtest.Focused(option, typed))))
		var out []string
		for _, c := range r.Choices {
			out = append(out, c.Name+" = "+fmt.Sprint(c.Value))
		}
		return out
	}
	all := []string{
		"tester: plays the first free point from the top left = tester",
		"slow: the same, when the test lets it = slow",
		"flaky: fails once, then plays = flaky",
		"panic: panics = panic",
		"scripted: plays the test's script = scripted",
	}
	for _, c := range []struct{ sub, option string }{{"bot", "level"}, {"vote", "level"}, {"rengo", "bot"}} {
		if got := names(c.sub, c.option, ""); !slices.Equal(got, all) {
			t.Errorf("/go %s %s: suggestions %q, want %q", c.sub, c.option, got, all)
		}
	}
	if got := names("bot", "level", "SCRIPT"); !slices.Equal(got, all[4:]) {
		t.Errorf("/go bot level:SCRIPT suggests %q, want %q", got, all[4:])
	}
	// A name's beginning first; words of the descriptions when no name
	// begins so.
	if got := names("bot", "level", "s"); !slices.Equal(got, []string{all[1], all[4]}) {
		t.Errorf("/go bot level:s suggests %q, want slow and scripted", got)
	}
	if got := names("bot", "level", "top left"); !slices.Equal(got, all[:1]) {
		t.Errorf("/go bot level:top left suggests %q, want tester", got)
	}
	ann, _, _ := e.admins()
	e.do(e.set(ch, ann, "bot_levels", "tester, slow"))
	if got := names("bot", "level", ""); !slices.Equal(got, all[:2]) {
		t.Errorf("with bot_levels tester, slow: suggestions %q, want %q", got, all[:2])
	}
	e.refused(e.slash(ch, alice, "bot", discordtest.Str("level", "grandmaster")), `Unknown level "grandmaster": choose one of tester, slow, flaky, panic, scripted.`)
	// Typed by hand in another case, a level is still that level.
	if m := e.do(e.slash(ch, alice, "bot", discordtest.Str("level", "Tester"), discordtest.Int("size", 9))); m.Ephemeral || !strings.Contains(m.Text(), "gobot tester") {
		t.Errorf("/go bot level:Tester = %q (ephemeral %v), want a game against gobot tester", m.Text(), m.Ephemeral)
	}
}

// TestE2EBotKeepsToItsClock: on a short clock the bot is asked to move
// within its share of the time left (bots.MoveTime), so that it does not
// lose on time by thinking its level's full budget every move; on a clock
// of days it keeps its own budget.
func TestE2EBotKeepsToItsClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Str("clock", "absolute 1m")))
	e.do(e.play(dm, dave, "E5"))
	e.do(e.slash(dm, dave, "resign"))
	e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white")))
	e.players.mu.Lock()
	shares := slices.Clone(e.players.shares)
	e.players.mu.Unlock()
	// Absolute 1m at the start: 60 s over 27 moves (81 empty points), then
	// with 80 empty (26 moves); the default correspondence clock: none.
	want := []time.Duration{time.Minute/27*9/10 - 500*time.Millisecond, time.Minute/26*9/10 - 500*time.Millisecond, 0}
	if !slices.Equal(shares, want) {
		t.Errorf("the bot was asked to move within %v, want %v", shares, want)
	}
}

// TestE2EGameRunningInDM: a second game asked for in a DM whose game is
// running is refused without the advice of a thread, which DMs do not
// have (thread:true is refused there); in a server channel the advice
// stays for a challenge. A game against gobot, which takes no challenge
// and whose command has no thread: option, is pointed to another channel
// or the user's DM with gobot instead. A player of the game running is
// told how to see it and end it; anyone else, who cannot, is not.
func TestE2EGameRunningInDM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	e.do(e.botGame(dm, dave, "tester"))
	// Its players are told how to see the game running and end it, with
	// that game's command.
	const inDM = "A game is already running in this DM. Finish it first: a DM holds one game at a time."
	const goWayOut = " `/go board` shows it; `/go resign` ends it (or `/go abort` before each player has made two moves)."
	e.said(e.botGame(dm, dave, "tester"), inDM+goWayOut)
	e.said(e.draughtsCmd(dm, dave, "bot", discordtest.Str("level", "beginner")), inDM+goWayOut)
	ch, alice, bob := e.privateChannel()
	e.challenge(ch, alice, bob)
	e.said(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob)), inDM+goWayOut)
	e.said(e.draughtsCmd(ch, alice, "challenge", discordtest.UserOpt("opponent", bob)), inDM+goWayOut)
	e.said(e.slash(ch, bob, "bot", discordtest.Str("level", "tester")), "A game is already running in this DM. Finish it first, or play me in your DM with me: `/go bot` there."+goWayOut)
	// At the count, the way out is its Accept.
	e.do(e.slash(ch, alice, "pass"))
	e.do(e.slash(ch, bob, "pass"))
	e.said(e.slash(ch, bob, "challenge", discordtest.UserOpt("opponent", alice)), inDM+" It is at its count: **Accept** the marking on its board (`/go board`) to end it.")
	// A draughts game's players are pointed to /draughts.
	eve := e.d.NewUser("eve")
	edm := e.d.DM(eve)
	e.do(e.draughtsCmd(edm, eve, "bot", discordtest.Str("level", "beginner")))
	e.said(e.botGame(edm, eve, "tester"), inDM+" `/draughts board` shows it; `/draughts resign` ends it (or `/draughts abort` before each player has made two moves).")
	general, ann, _ := e.guildGame()
	e.said(e.slash(general, dave, "challenge", discordtest.UserOpt("opponent", ann)), "A game is already running in this channel. Finish it first, or use `/go challenge ... thread:true` to play in a thread.")
	e.said(e.draughtsCmd(general, dave, "challenge", discordtest.UserOpt("opponent", ann)), "A game is already running in this channel. Finish it first, or use `/draughts challenge ... thread:true` to play in a thread.")
	// gobot takes no challenge, and its bot command no thread: option.
	e.said(e.botGame(general, dave, "tester"), "A game is already running in this channel. Finish it first, or play me in another channel or in your DM with me: `/go bot` there.")
	e.said(e.draughtsCmd(general, dave, "bot", discordtest.Str("level", "beginner")), "A game is already running in this channel. Finish it first, or play me in another channel or in your DM with me: `/draughts bot` there.")
}

// TestE2EAnswerLost: when Discord does not take the answer to a move that
// is committed (the edit of its deferred answer fails), the player is not
// told that nothing changed: the board, the move and the bot's reply, is
// posted separately, and the player told so. When that post fails too, the
// answer points to /go board, which shows the game, and the next move's
// answer says the reply whose board never showed.
func TestE2EAnswerLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	if m := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Bool("rated", false))); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	const original = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
	e.d.Fail(http.MethodPatch, original, http.StatusServiceUnavailable, 3) // the answer and its two retries
	it := e.play(dm, dave, "E5")
	e.d.Do(it)
	var f []discordtest.Message
	e.d.WaitFor("the board posted separately, and the word why", func() bool { f = e.d.Followups(it); return len(f) == 2 })
	if len(f[0].Attachments) != 1 || !strings.Contains(f[0].Text(), "played **E5**") || !strings.Contains(f[0].Text(), "played **B9**") || f[0].Ephemeral {
		t.Errorf("the first follow-up: %q, want the board saying E5 and B9, in public", f[0].Text())
	}
	if got, want := f[1].Text(), "Done, but Discord did not take my answer to this command: the board is posted separately."; got != want || !f[1].Ephemeral {
		t.Errorf("the second follow-up: %q (private: %v), want %q, private", got, f[1].Ephemeral, want)
	}
	if _, ok := e.d.Original(it); ok {
		t.Errorf("the deferred answer (thinking…) is still there")
	}
	g := e.game(dm.ID)
	if g.State.MoveCount() != 3 || at(g, "E5") != engine.White || at(g, "B9") != engine.Black {
		t.Fatalf("after E5: %d moves, E5 %v, B9 %v; want E5 and the bot's B9", g.State.MoveCount(), at(g, "E5"), at(g, "B9"))
	}

	// The edit and the post both refused: /go board, and the next answer
	// says the reply.
	const followup = "/webhooks/{webhook_id}/{webhook_token}"
	e.d.Fail(http.MethodPatch, original, http.StatusServiceUnavailable, 3)
	e.d.Fail(http.MethodPost, followup, http.StatusServiceUnavailable, 1)
	e.d.Fail(http.MethodPost, "/channels/{channel_id}/messages", http.StatusServiceUnavailable, 1)
	if got, want := e.do(e.play(dm, dave, "D4")).Text(), "Done, but Discord did not take my answer to this command: `/go board` shows the game as it stands."; got != want {
		t.Errorf("the answer = %q, want %q", got, want)
	}
	if b := e.do(e.slash(dm, dave, "board")); !strings.Contains(b.Text(), "**Move 6** · ⚪ white to play") {
		t.Errorf("/go board = %q, want the game after D4 and the bot's reply", b.Text())
	}
	if m := e.do(e.play(dm, dave, "F6")); !strings.Contains(m.Text(), "(⚫ gobot (tester) played **C9** earlier, but its board could not be posted here.)") {
		t.Errorf("the next answer = %q, want the reply whose board never showed", m.Text())
	}
}
