package commands_test

// Several workers on one PostgreSQL database, as gobot runs them: a
// second App (peer) beside the env's, with a store of its own on the
// same database, its own claims on the bot queue and its own handlers.

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/draughtsroom"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/storage"
)

// peer starts another worker on e's PostgreSQL database, talking to the
// same fake Discord and logging into e's log; it stops when the test
// ends. Interactions still go to e's App: the peer only makes owed bot
// moves and does the background work.
func (e *env) peer() *commands.App {
	e.t.Helper()
	if e.pgURL == "" {
		e.t.Fatalf("a peer worker needs the env on PostgreSQL (newEnvPostgres)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	store, err := storage.OpenPostgres(ctx, e.pgURL, storage.Options{Kinds: testKinds(), Now: e.clock.Now, StartRatings: testStartRatings()})
	if err != nil {
		e.t.Fatalf("storage.OpenPostgres: %v", err)
	}
	app, err := commands.New(commands.Options{
		AppID:      e.d.AppID,
		GuildID:    e.d.GuildID,
		Discord:    commands.NewREST(e.d.URL, e.d.Token, nil),
		Store:      store,
		Rooms:      []commands.NewRoom{goroom.New(e.offered(), e.reviewer), draughtsroom.New(nil)},
		BotWorkers: e.workers,
		Logger:     slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})).With("worker", "peer"),
		Now:        e.clock.Now,
		After:      e.clock.After,
	})
	if err != nil {
		e.t.Fatalf("commands.New: %v", err)
	}
	runCtx, stopRun := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		app.Run(runCtx)
	}()
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := app.Shutdown(ctx); err != nil {
			e.t.Errorf("peer Shutdown: %v", err)
		}
		stopRun()
		<-done
		if err := store.Close(); err != nil {
			e.t.Errorf("peer store.Close: %v", err)
		}
	})
	return app
}

// noClaims is the store of a worker whose bot workers never get a move:
// the other workers claim every one first.
type noClaims struct{ commands.Store }

func (noClaims) ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error) {
	return nil, storage.ErrNotFound
}

// TestE2EBotMoveMadeByAnotherWorker: the bot's reply to a move is made by
// another worker than the one whose handler waits for it. That worker
// answers the waiting command with the board, the player's move and the
// bot's; the handler, finding the move made elsewhere, leaves that answer
// as it is (it edited it into the board without the bot's line: with two
// workers and one search slot the bot's move was then announced nowhere).
func TestE2EBotMoveMadeByAnotherWorker(t *testing.T) {
	t.Parallel()
	e := newEnvPostgres(t)
	e.wrapStore = func(s commands.Store) commands.Store { return noClaims{s} }
	e.restart()
	e.peer()
	gina := e.d.NewUser("gina")
	dm := e.d.DM(gina)
	move := e.botThinking(dm, gina, "tester")
	e.waitMoves("the bot's move, made by the peer", dm.ID, 2)
	// Shutting down waits for the handler: it answers once it finds the
	// move gone from the queue.
	if err := e.stopWithin(time.Minute); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	m, _ := e.d.Original(move)
	want := "\n⚫ gina vs ⚪ gobot tester\n⚫ " + gina.Mention() + " played **E5**.\n⚪ gobot (tester) played **A9**.\n**Move 3** · ⚫ black to play: " + gina.Mention() +
		"\nLast move: ⚪ A9 · Captures: ⚫ 0 · ⚪ 0\n⏱ ⚫ 4 days · ⚪ 4 days · ⚫ black's time runs out <t:1749124800:R>\n" +
		"-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · Fischer: 3 days, +1 day per move, at most 7 days"
	if _, board := m.PNG(); !board || m.Text() != want {
		t.Errorf("answer to the move (board %v) =\n%s\nwant\n%s", board, m.Text(), want)
	}
	said := 0
	for _, msg := range e.d.Public(dm.ID) {
		said += strings.Count(msg.Text(), "gobot (tester) played **A9**")
	}
	if said != 1 {
		t.Errorf("the bot's move was announced %d times in the DM, want once", said)
	}
}

// noticeHold is the bot's Discord holding the first queue notice it edits
// into an answer until release is closed (held is closed when it is).
type noticeHold struct {
	commands.Discord
	once    sync.Once
	held    chan struct{}
	release chan struct{}
}

func (d *noticeHold) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *commands.Message) (*discordgo.Message, error) {
	if strings.HasPrefix(m.Content, "⏳ The bots are all busy") {
		first := false
		d.once.Do(func() { first = true })
		if first {
			close(d.held)
			<-d.release
		}
	}
	return d.Discord.EditOriginal(ctx, it, m)
}

// TestE2EQueueNoticeAfterAnotherWorkersAnswer: a waiting command's queue
// notice, from a look at the queue just before another worker made the
// move, reaches Discord after that worker answered the command with the
// board and the bot's move. The answer ends as that board alone, the bot's
// move said once. The notice stayed above the board for good: Discord
// kept the board and took the notice as its text, and the handler, finding
// the command answered, left it so.
func TestE2EQueueNoticeAfterAnotherWorkersAnswer(t *testing.T) {
	t.Parallel()
	e := newEnvPostgres(t)
	sl := newSlotted(e.players, 1, time.Millisecond)
	e.offer, e.workers = sl, 1
	hold := &noticeHold{held: make(chan struct{}), release: make(chan struct{})}
	e.wrapStore = func(s commands.Store) commands.Store { return noClaims{s} }
	e.wrapDiscord = func(d commands.Discord) commands.Discord { hold.Discord = d; return hold }
	e.restart()
	e.peer()
	// The peer's worker holds the first move; the second waits, and its
	// handler's notice (number 1 in the queue) is held on its way.
	games := botQueueStart(t, e, 2)
	second := secondQueued(t, e, games)
	<-hold.held
	close(sl.hold)
	e.d.WaitFor("the peer's answer with the bot's move", func() bool {
		m, ok := e.d.Original(second.it)
		return ok && strings.Contains(m.Text(), "played **A9**")
	})
	close(hold.release)
	// Shutting down waits for the handler.
	if err := e.stopWithin(time.Minute); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	m, _ := e.d.Original(second.it)
	if _, board := m.PNG(); !board || m.Content != "" || !strings.Contains(m.Text(), "⚫ gobot (tester) played **A9**.") {
		t.Errorf("answer (board %v, text above it %q) =\n%s\nwant the board with the bot's move alone", board, m.Content, m.Text())
	}
	said := 0
	for _, msg := range e.d.Public(second.ch.ID) {
		said += strings.Count(msg.Text(), "gobot (tester) played **A9**")
	}
	if said != 1 {
		t.Errorf("the bot's move was announced %d times, want once", said)
	}
}
