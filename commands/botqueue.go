package commands

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/storage"
)

// Owed bot moves. The write that hands the turn to a bot also queues the
// move in the store (storage's queue of owed moves, in the same
// transaction), so the move is an obligation that outlives any handler and
// any process. Workers drain that queue oldest first: each claims a move
// (ClaimBotMove), asks Players for it (which waits for one of the search
// slots bots.Registry's limiter allows) and commits it with the game's
// version check, which also takes it off the queue. A move that fails
// stays queued and is tried again after a delay that grows with each
// failure; a move that finds no free search slot is given back at once and
// keeps its place. Nothing is ever dropped for being late in the queue.
//
// The handler whose action made the move owed waits for it and answers
// with the board (telling the player its place in the queue meanwhile). If
// no handler waits any more (it gave up after botAwaitMax, gobot
// restarted, the move failed once), the worker posts the board itself (see
// postBoard).

const (
	// botLease is how long a claim on an owed move lasts unless renewed;
	// a worker renews it every botRenewEvery while it makes the move, so
	// that another worker takes the move over only from a worker that
	// died, and then within one lease: a few seconds, as workers sharing
	// PostgreSQL promise (a renewal is one small write).
	botLease      = 10 * time.Second
	botRenewEvery = botLease / 3
	// botPollEvery is how often an idle worker looks at the queue for
	// moves no wake-up told it about: owed by another process sharing the
	// store, or due again after a failure.
	botPollEvery = time.Second
	// botPollMax is how rarely at most a worker looks at the queue while
	// its claims fail (the database is down): the wait doubles from
	// botPollEvery with each failure, and is botPollEvery again after a
	// claim that works.
	botPollMax = 10 * time.Second
	// claimLogEvery is how often at most the workers' failing claims are
	// logged while they go on failing, with their count.
	claimLogEvery = time.Minute
	// botBusyRetry is how long a worker waits after Players found every
	// search slot taken by other work.
	botBusyRetry = 100 * time.Millisecond
	// botRetryFirst is the delay before a failed move is tried again; it
	// doubles with each failure, up to botRetryMax.
	botRetryFirst = 5 * time.Second
	botRetryMax   = 5 * time.Minute
	// botNoticeAfter is how long a handler waits for a move before it
	// first looks at the move's place in the queue (and tells the player);
	// botCheckEvery how often it looks again, and botNoticeEvery how often
	// at most it tells the player a new place.
	botNoticeAfter = time.Second
	botCheckEvery  = 2 * time.Second
	botNoticeEvery = 10 * time.Second
	// botAnswerWait is how long a handler whose command's bot move
	// another process made waits for that process to answer the command
	// (see answeredElsewhere), looking every botAnswerPoll.
	botAnswerWait = 3 * time.Second
	botAnswerPoll = 200 * time.Millisecond
	// botAwaitMax bounds a handler's wait for a queued move, well within
	// the 15 minutes Discord lets it edit its answer; the move stays owed
	// and its board is posted when it is made.
	botAwaitMax = 10 * time.Minute
)

// retryDelay is the delay before an owed move is tried again after its
// attempts-th failure (0 for the first).
func retryDelay(attempts int) time.Duration {
	d := botRetryFirst
	for i := 0; i < attempts && d < botRetryMax; i++ {
		d *= 2
	}
	return min(d, botRetryMax)
}

// errRestarting is a bot move given up by the handler waiting for it
// because the App is shutting down; the move stays owed.
var errRestarting = errors.New("commands: gobot is restarting")

// errStillQueued is a handler's wait for a bot move that lasted
// botAwaitMax; the move stays owed.
var errStillQueued = errors.New("commands: the bot's move is still queued")

// errMadeElsewhere is a handler's wait for a bot move that left the queue
// without an outcome in this process: the stored game says what happened.
var errMadeElsewhere = errors.New("commands: the bot's move left the queue elsewhere")

// errAnsweredElsewhere is a handler's wait for a bot move made by
// another process, which has answered the handler's command with the
// move already: the handler must leave that answer as it is.
var errAnsweredElsewhere = errors.New("commands: the bot's move was answered elsewhere")

// botOutcome is what a worker did with an owed move.
type botOutcome struct {
	gameID string
	moves  int           // the game's move count when the move became owed
	game   *storage.Game // the game after the move, when it was made
	note   string        // the move as the notes describe it
	err    error         // why the move was not made
}

// moveWaiter is a handler waiting for the bot's move in its game.
type moveWaiter struct {
	gameID string
	moves  int             // the move count at which the bot is to move
	done   chan botOutcome // receives the outcome, once
}

func (mw *moveWaiter) wants(out *botOutcome) bool {
	return mw.gameID == out.gameID && mw.moves == out.moves
}

// channelWatch is what the App knows of one channel's handlers: how many
// are in flight, which wait for a bot move, and the outcome of a move
// attempted while handlers were in flight but none waited for it yet (the
// handler that waits for it next takes it; else the last to leave posts
// the move, if it was made).
type channelWatch struct {
	attendants int
	waiters    []*moveWaiter
	pending    *botOutcome
}

// owedMoves is the App's side of the queue: its workers and the handlers
// waiting for their moves.
type owedMoves struct {
	worker string // this process's name on claims

	mu      sync.Mutex
	wake    chan struct{} // closed (and replaced) to wake every idle worker
	started bool
	watch   map[string]*channelWatch // by channel ID
	making  map[owedMove]int         // the moves this process's workers hold, with how many hold each
	wg      sync.WaitGroup           // the workers
	claims  claimFailures
}

// claimFailures are the workers' failed claims since the last that worked:
// logged once when they start, then at most once per claimLogEvery with
// their count, and once when a claim works again, rather than once per
// worker and poll (a WARN a second per worker while the database is down).
//
// With several workers, a claim sent before the failures began may still
// come back after the first of them: it proves nothing about the database
// now, so only a claim sent after the first failure ends them.
type claimFailures struct {
	mu     sync.Mutex
	sent   uint64    // claims sent so far, numbering them
	from   uint64    // the first claim sent after the first failure
	since  time.Time // the first failure; zero when claims work
	count  int       // failures since then
	logged time.Time // when they were last logged
	unlog  int       // failures since then
}

// send numbers a claim about to be sent, for worked.
func (c *claimFailures) send() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent++
	return c.sent
}

// failed records a failed claim and logs it when it is the first, or when
// claimLogEvery has passed since the last line.
func (c *claimFailures) failed(log *slog.Logger, now time.Time, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count++
	c.unlog++
	if c.since.IsZero() {
		c.since, c.logged, c.unlog, c.from = now, now, 0, c.sent+1
		log.Warn("bot queue: cannot claim owed bot moves; the workers try again, less often while it lasts", "err", err)
		return
	}
	if now.Sub(c.logged) >= claimLogEvery {
		log.Warn("bot queue: claims still failing", "failures", c.unlog, "total", c.count, "for", now.Sub(c.since).Round(time.Second), "err", err)
		c.logged, c.unlog = now, 0
	}
}

// worked records that claim n (from send) worked, logging the end of
// failures if it was sent after they began.
func (c *claimFailures) worked(log *slog.Logger, now time.Time, n uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.since.IsZero() || n < c.from {
		return
	}
	log.Info("bot queue: claims work again", "failures", c.count, "for", now.Sub(c.since).Round(time.Second))
	c.since, c.count, c.unlog = time.Time{}, 0, 0
}

// owedMove names a move in the queue: the game's, at a move count.
type owedMove struct {
	gameID string
	moves  int
}

func newOwedMoves() *owedMoves {
	return &owedMoves{worker: "gobot-" + storage.NewID(), wake: make(chan struct{}), watch: map[string]*channelWatch{}, making: map[owedMove]int{}}
}

// hold records that a worker of this process makes m, until the returned
// function is called, after the worker has handed the outcome over (see
// deliver): a handler that finds the move gone from the queue meanwhile
// waits for that outcome (see waitOutcome).
func (o *owedMoves) hold(m *storage.BotMove) (done func()) {
	k := owedMove{m.GameID, m.Moves}
	o.mu.Lock()
	o.making[k]++
	o.mu.Unlock()
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.making[k]--; o.making[k] == 0 {
			delete(o.making, k)
		}
	}
}

// held reports whether a worker of this process makes the move g owes at
// moves (see hold).
func (o *owedMoves) held(gameID string, moves int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.making[owedMove{gameID, moves}] > 0
}

// kick wakes every idle worker: a move may have become owed.
func (o *owedMoves) kick() {
	o.mu.Lock()
	close(o.wake)
	o.wake = make(chan struct{})
	o.mu.Unlock()
}

// woken returns the channel the next kick closes.
func (o *owedMoves) woken() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.wake
}

// attend counts a handler in flight in a channel until the returned
// function is called; that function returns a move made meanwhile that no
// handler took, for the caller to post.
func (o *owedMoves) attend(channelID string) (leave func() *botOutcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.channel(channelID).attendants++
	return func() *botOutcome {
		o.mu.Lock()
		defer o.mu.Unlock()
		w := o.watch[channelID]
		w.attendants--
		var p *botOutcome
		if w.attendants == 0 {
			p, w.pending = w.pending, nil
			o.forget(channelID)
		}
		if p == nil || p.game == nil {
			return nil
		}
		return p
	}
}

// channel returns the watch of a channel, creating it; o.mu is held.
func (o *owedMoves) channel(id string) *channelWatch {
	w := o.watch[id]
	if w == nil {
		w = &channelWatch{}
		o.watch[id] = w
	}
	return w
}

// forget drops a channel's watch once nothing is left in it; o.mu is held.
func (o *owedMoves) forget(id string) {
	if w := o.watch[id]; w != nil && w.attendants == 0 && len(w.waiters) == 0 && w.pending == nil {
		delete(o.watch, id)
	}
}

// await registers a handler waiting for the bot's move in g. When the
// move was attempted already (while the handler was in flight), its
// outcome is returned at once instead.
func (o *owedMoves) await(g *storage.Game) (*moveWaiter, *botOutcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	w := o.channel(g.ChannelID)
	mw := &moveWaiter{gameID: g.ID, moves: g.State.MoveCount(), done: make(chan botOutcome, 1)}
	if p := w.pending; p != nil && mw.wants(p) {
		w.pending = nil
		return nil, p
	}
	w.waiters = append(w.waiters, mw)
	return mw, nil
}

// leave unregisters a waiter that stops waiting. It reports false when a
// worker has already sent it the outcome, which the caller then reads.
func (o *owedMoves) leave(channelID string, mw *moveWaiter) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	w := o.watch[channelID]
	if w == nil {
		return false
	}
	for i, x := range w.waiters {
		if x == mw {
			w.waiters = append(w.waiters[:i], w.waiters[i+1:]...)
			o.forget(channelID)
			return true
		}
	}
	return false
}

// deliver hands a worker's outcome to the handlers waiting for that
// move, or keeps it for a handler in flight in the channel. It reports
// false when no handler is there to answer: the worker posts the board.
func (o *owedMoves) deliver(channelID string, out botOutcome) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	w := o.watch[channelID]
	if w == nil {
		return false
	}
	sent := false
	kept := w.waiters[:0]
	for _, mw := range w.waiters {
		if mw.wants(&out) {
			mw.done <- out
			sent = true
			continue
		}
		kept = append(kept, mw)
	}
	w.waiters = kept
	if !sent && w.attendants > 0 {
		w.pending = &out
		sent = true
	}
	o.forget(channelID)
	return sent
}

// startWorkers starts the workers that drain the queue of owed bot moves,
// once, unless the App is shutting down. Run starts them (so moves owed
// before a restart are made), and so does the first move owed.
func (a *App) startWorkers() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed || a.owed.started {
		return
	}
	a.owed.started = true
	for range a.opts.BotWorkers {
		a.owed.wg.Add(1)
		go func() {
			defer a.owed.wg.Done()
			ctx, cancel := a.halt.With(context.Background())
			defer cancel()
			a.botWorker(ctx)
		}()
	}
}

// botWorker makes owed bot moves, oldest first, until the App shuts down;
// ctx ends when Shutdown gives up waiting for the move in progress.
func (a *App) botWorker(ctx context.Context) {
	backoff := botPollEvery // the wait after the next failed claim
	for {
		wake := a.owed.woken()
		select {
		case <-a.closing:
			return
		default:
		}
		n := a.owed.claims.send()
		m, err := a.queue.ClaimBotMove(ctx, a.owed.worker, botLease)
		wait := botPollEvery
		switch {
		case err == nil || errors.Is(err, storage.ErrNotFound):
			a.owed.claims.worked(a.log, a.Now(), n)
			backoff = botPollEvery
		case ctx.Err() == nil:
			a.owed.claims.failed(a.log, a.Now(), err)
			wait, backoff = backoff, min(2*backoff, botPollMax)
		}
		if err == nil {
			var pause time.Duration
			if !a.track(func() { pause = a.makeOwedMove(ctx, m) }) {
				a.release(ctx, m, time.Time{})
				return
			}
			if pause > 0 && sleepUntilClosing(a.closing, pause) {
				return
			}
			continue
		}
		t := time.NewTimer(wait)
		select {
		case <-wake:
		case <-t.C:
		case <-a.closing:
			t.Stop()
			return
		}
		t.Stop()
	}
}

// shuttingDown reports whether Shutdown has started.
func (a *App) shuttingDown() bool {
	select {
	case <-a.closing:
		return true
	default:
		return false
	}
}

// sleepUntilClosing waits d and reports true if closing closed first.
func sleepUntilClosing(closing <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return false
	case <-closing:
		return true
	}
}

// release gives a claim back (see storage.Store.ReleaseBotMove), logging a
// failure: the claim then lapses by itself. It gives the claim back even
// when ctx has ended.
func (a *App) release(ctx context.Context, m *storage.BotMove, retryAt time.Time) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
	defer cancel()
	if err := a.queue.ReleaseBotMove(ctx, m, retryAt); err != nil {
		a.log.Warn("bot queue: release", "channel", m.ChannelID, "err", err)
	}
}

// makeOwedMove makes one claimed bot move and hands its outcome to the
// handlers waiting for it, or posts it. It returns how long the worker
// should pause before its next claim.
func (a *App) makeOwedMove(ctx context.Context, m *storage.BotMove) time.Duration {
	defer a.owed.hold(m)()
	log := a.log.With("channel", m.ChannelID, "game", m.GameID)
	g, err := a.LoadGame(ctx, m.ChannelID)
	switch {
	case errors.Is(err, ErrQuarantined):
		// The record was damaged and is set aside, its owed move with it.
		a.tellSetAside(ctx, m.ChannelID)
		a.owed.deliver(m.ChannelID, botOutcome{gameID: m.GameID, moves: m.Moves, err: err})
		return 0
	case err != nil && !errors.Is(err, ErrNoGame):
		log.Warn("bot queue: load game; the move stays queued", "err", err)
		a.release(ctx, m, a.Now().Add(retryDelay(m.Attempts)))
		return 0
	}
	if err != nil || g.ID != m.GameID || !botToMove(g) || g.State.MoveCount() != m.Moves {
		// The game moved on since the claim (its queue entry went with
		// that write): the handlers waiting look at it again.
		a.release(ctx, m, time.Time{})
		a.owed.deliver(m.ChannelID, botOutcome{gameID: m.GameID, moves: m.Moves, err: ErrConflict})
		return 0
	}
	stop := a.renewWhileMoving(ctx, m)
	shown := g.Delivery
	note, err := a.safeBotMove(ctx, g)
	stop()
	switch {
	case err == nil:
		log.Debug("bot moved", "waited", a.Now().Sub(m.Since), "attempts", m.Attempts)
		if _, over := g.State.Result(); over {
			a.retireBotBoard(ctx, g, shown)
		}
		out := botOutcome{gameID: g.ID, moves: m.Moves, game: g, note: note}
		if !a.owed.deliver(m.ChannelID, out) {
			a.postBotMove(ctx, g, note)
		}
		return 0
	case errors.Is(err, ErrBotBusy):
		// Every search slot is taken by other work: keep the place and
		// try again shortly.
		a.release(ctx, m, time.Time{})
		return botBusyRetry
	case ctx.Err() != nil:
		// Shutting down: the move stays owed for the next process.
		a.release(ctx, m, time.Time{})
		a.owed.deliver(m.ChannelID, botOutcome{gameID: g.ID, moves: m.Moves, err: err})
		return 0
	case errors.Is(err, ErrConflict) || errors.Is(err, ErrGameOver):
		// The game changed meanwhile (an undo, a resignation, another
		// worker whose claim had lapsed) or ended (the bot's own clock ran
		// out while its move waited): nothing was stored, nothing is owed
		// any more unless the stored game says otherwise.
		a.release(ctx, m, time.Time{})
		a.owed.deliver(m.ChannelID, botOutcome{gameID: g.ID, moves: m.Moves, err: err})
		return 0
	}
	delay := retryDelay(m.Attempts)
	log.Warn("bot move failed; it stays queued", "attempt", m.Attempts+1, "retry_in", delay, "err", err)
	a.release(ctx, m, a.Now().Add(delay))
	a.owed.deliver(m.ChannelID, botOutcome{gameID: g.ID, moves: m.Moves, err: err})
	return 0
}

// renewWhileMoving renews the claim m every botRenewEvery until the
// returned function is called, which returns once renewing has stopped. A
// claim that could not be renewed (it lapsed, another worker has the move)
// is logged: the version check keeps one of the two moves.
func (a *App) renewWhileMoving(ctx context.Context, m *storage.BotMove) (stop func()) {
	return a.renewEvery(ctx, m, botRenewEvery)
}

// renewEvery is renewWhileMoving renewing every period (tests shorten it).
func (a *App) renewEvery(ctx context.Context, m *storage.BotMove, period time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			switch err := a.queue.ExtendBotMove(ctx, m, botLease); {
			case err == nil || ctx.Err() != nil:
			case errors.Is(err, storage.ErrNotFound):
				// The claim lapsed or was taken over: renewing is over.
				a.log.Warn("bot queue: renew the claim", "channel", m.ChannelID, "err", err)
				return
			default:
				// The database failed this once (the claim holds until its
				// lease ends): the next tick tries again.
				a.log.Warn("bot queue: renew the claim; trying again", "channel", m.ChannelID, "err", err)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// retireBotBoard removes the buttons of the board the bot's move that
// ended g was played on, as a person's winning move or resignation does
// (RetireBoard, in one edit): the newest board g kept before the move (d).
// The answer to the game's last interaction is left alone: it is the
// person's move the bot answered, whose answer waits for this move and
// becomes the final board (or, when its handler gave up waiting, a board
// of its own, kept as the newest). Where only that interaction's token
// reaches the players (a user install's private channel), nothing else
// can be edited, and the board keeps its dead buttons.
func (a *App) retireBotBoard(ctx context.Context, g *storage.Game, d storage.Delivery) {
	if f := d.Followup; f != nil && f.ChannelPosts {
		d.Followup = nil
	}
	a.RetireBoard(ctx, g, d, false)
}

// safeBotMove is botMove in a worker: a panic (a bug in a bot) is logged
// with its stack and returned as an error wrapping errPanic, and the
// worker goes on with other games.
func (a *App) safeBotMove(ctx context.Context, g *storage.Game) (note string, err error) {
	defer func() {
		if p := recover(); p != nil {
			a.log.Error("bot move panicked", "channel", g.ChannelID, "game", g.ID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			note, err = "", fmt.Errorf("commands: bot move in game %s: %w: %v", g.ID, errPanic, p)
		}
	}()
	return a.botMove(ctx, g)
}

// awaitBot waits for the bot's move owed in g, made by a worker, and
// returns the game after it with the move's note. Meanwhile, when the
// move is not made within botNoticeAfter, it edits the deferred answer to
// tell the player its place in the queue. It gives up with errRestarting
// when the App shuts down before the move is started, with errStillQueued
// after botAwaitMax, and with the worker's error when the move failed.
func (a *App) awaitBot(ctx context.Context, r *Request, g *storage.Game) (*storage.Game, string, error) {
	// One limit for the whole wait, however often it begins again (the
	// game's record written meanwhile, the move still owed): the answer
	// must come within the interaction token's life.
	giveUp := time.Now().Add(botAwaitMax)
	for {
		mw, done := a.owed.await(g)
		a.startWorkers()
		a.owed.kick()
		out := a.waitOutcome(ctx, r, g, mw, done, giveUp)
		if out.game != nil {
			return out.game, out.note, nil
		}
		if !errors.Is(out.err, ErrConflict) && !errors.Is(out.err, errMadeElsewhere) {
			return g, "", out.err
		}
		// The game changed under the worker, or another process made the
		// move: the stored game says what happened.
		stored, err := a.LoadGame(ctx, g.ChannelID)
		same := err == nil && stored.ID == g.ID
		at := g.State.MoveCount()
		if same && stored.State.MoveCount() == at && botToMove(stored) {
			// The same move is still owed (the record changed otherwise:
			// a clock, a board's message): wait for it again.
			g = stored
			continue
		}
		if err != nil && !errors.Is(err, ErrNoGame) {
			return g, "", out.err // the store failed: answerBotFailure says so
		}
		// Another process made the move and announces it (its handler
		// waiting for it, or its worker's post), whatever became of the
		// game since. That worker answers this command itself when it
		// finds it still waiting (see post): the answer is then complete,
		// and an edit from here would take the bot's move out of it, or
		// say the move was not played when the game ended or changed
		// since.
		if a.answeredElsewhere(ctx, r, g) {
			return g, "", errAnsweredElsewhere
		}
		if same {
			switch now := stored.State.MoveCount(); {
			case now == at+1 && a.lastMover(stored).IsBot():
				// The board alone, which shows the bot's move as the
				// last one: it is announced once.
				return stored, "", nil
			case now > at+1:
				// The game has gone on since (the player's next move,
				// made while this answer waited): the board as it
				// stands, saying so; never a later move of the bot's,
				// which answers another command.
				return stored, wentOnNote, nil
			}
		}
		return g, "", out.err
	}
}

// wentOnNote ends the answer of a command whose bot move was made and
// announced elsewhere while the game went on past it.
const wentOnNote = "The game has gone on since; here it is as it stands."

// answeredElsewhere reports whether the answer of r, a command waiting
// for the bot move g owes, is no longer "thinking…" nor the queue notice
// (see unanswered): another process answered it (a notice of this
// handler's that reached Discord after that answer is taken off it, see
// clearNotice). When r is the command that made the move owed (g keeps
// its token for follow-ups), the process that made the move answers it
// itself (see post), moments after its write, which this handler may see
// first: it waits up to botAnswerWait for that answer, so that the move
// is announced in it, once. When Discord cannot say, it reports false,
// and the handler answers.
func (a *App) answeredElsewhere(ctx context.Context, r *Request, g *storage.Game) bool {
	if !r.Responded() {
		// Not even deferred yet: there is no answer to read, and no other
		// process answers a command that is not "thinking…".
		return false
	}
	f := g.Delivery.Followup
	mine := f != nil && f.InteractionID == r.Interaction.ID
	deadline := time.Now().Add(botAnswerWait)
	for {
		orig, err := r.discord.Original(ctx, r.Interaction)
		if err != nil {
			a.log.Debug("bot move made elsewhere: read the answer", "channel", r.Interaction.ChannelID, "err", err)
			return false
		}
		if !unanswered(orig) {
			a.clearNotice(ctx, r, orig)
			return true
		}
		if !mine || time.Now().After(deadline) || sleepUntilClosing(ctx.Done(), botAnswerPoll) {
			return false
		}
	}
}

// botMoveStored reports whether the stored game of g's channel is g with
// the move after its first moves made: a worker's write, whose outcome
// the worker hands over next. A failed read counts as stored, so that the
// handler goes on waiting for the worker, which hands over whatever it
// found.
func (a *App) botMoveStored(ctx context.Context, g *storage.Game, moves int) bool {
	cur, err := a.games.Game(ctx, g.ChannelID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return false
	case err != nil:
		return true
	}
	return cur.ID == g.ID && cur.State.MoveCount() > moves
}

// clearNotice takes the queue notice off orig, r's answer, when it shows
// one above a board. The other process's answer with the bot's move may
// have reached Discord before a notice of this handler's (read from the
// queue just before that process made the move) did: Discord then kept
// the board and took the notice as its text, which would promise a move
// already made for good. The handler shows no notice once it stops
// waiting, so what it clears stays cleared.
func (a *App) clearNotice(ctx context.Context, r *Request, orig *discordgo.Message) {
	if len(orig.Embeds) == 0 && len(orig.Attachments) == 0 || !strings.HasPrefix(orig.Content, queuePromise) {
		return
	}
	if _, err := r.discord.EditOriginal(ctx, r.Interaction, &Message{ClearContent: true}); err != nil {
		a.log.Info("take the queue notice off an answer given elsewhere", "channel", r.Interaction.ChannelID, "err", err)
	}
}

// waitOutcome waits for the outcome of a waiter registered with await
// (done, when not nil, is the outcome await found). Every botCheckEvery it
// looks at the move's place in the queue: it tells the player that place
// (at most every botNoticeEvery), and gives up with errMadeElsewhere when
// the move has left the queue and no worker of this process holds it
// (another process sharing the store made it), or with errStillQueued at
// giveUp.
func (a *App) waitOutcome(ctx context.Context, r *Request, g *storage.Game, mw *moveWaiter, done *botOutcome, giveUp time.Time) botOutcome {
	if done != nil {
		return *done
	}
	give := func(err error) botOutcome {
		if a.owed.leave(g.ChannelID, mw) {
			return botOutcome{gameID: g.ID, err: err}
		}
		return <-mw.done // a worker got there first
	}
	check := time.NewTimer(botNoticeAfter)
	defer check.Stop()
	limit := time.NewTimer(time.Until(giveUp))
	defer limit.Stop()
	closing := a.closing
	shown, shownAt := 0, time.Time{}
	for {
		select {
		case out := <-mw.done:
			return out
		case <-check.C:
			check.Reset(botCheckEvery)
			pos, err := a.queue.BotQueuePosition(ctx, g.ChannelID, g.ID, mw.moves)
			switch {
			case errors.Is(err, storage.ErrNotFound) && a.owed.held(g.ID, mw.moves) && a.botMoveStored(ctx, g, mw.moves):
				// A worker of this process made the move (its write took
				// it off the queue) and hands the outcome over next,
				// however long that takes on a busy machine: the answer
				// is this handler's, with the bot's move in it.
			case errors.Is(err, storage.ErrNotFound):
				// Gone, and no worker of this process has stored it: its
				// outcome was handed over already (give reads it), or
				// the move left the queue elsewhere (another process
				// made it, or the game ended or moved on while a worker
				// here may still be searching, which its write will
				// find).
				return give(errMadeElsewhere)
			case err != nil:
				a.log.Debug("queue position", "channel", g.ChannelID, "err", err)
			case pos > 0 && pos != shown && (shown == 0 || time.Since(shownAt) >= botNoticeEvery):
				shown, shownAt = pos, time.Now()
				if _, err := r.discord.EditOriginal(ctx, r.Interaction, &Message{Content: queuedNote(pos)}); err != nil {
					a.log.Debug("queue notice", "err", err)
				}
			}
		case <-limit.C:
			return give(errStillQueued)
		case <-closing:
			// Shutting down: a move not started yet is left for the next
			// process; one being made is awaited (Shutdown waits for it).
			if pos := a.queuePosition(ctx, g); pos > 0 {
				return give(errRestarting)
			}
			closing = nil
		case <-ctx.Done():
			return give(ctx.Err())
		}
	}
}

// queuePosition is the place in the queue of the bot move g owes, 0 when
// it is being made, not owed any more, or unknown.
func (a *App) queuePosition(ctx context.Context, g *storage.Game) int {
	pos, err := a.queue.BotQueuePosition(ctx, g.ChannelID, g.ID, g.State.MoveCount())
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.log.Debug("queue position", "channel", g.ChannelID, "err", err)
	}
	return pos
}

// queuePromise begins every queuedNote.
const queuePromise = "⏳ The bots are all busy; gobot will move here as soon as one is free"

// queuedNote is the promise made to players whose bot move waits in the
// queue, with its place in it when known.
func queuedNote(pos int) string {
	if pos > 0 {
		return fmt.Sprintf("%s (number %d in the queue).", queuePromise, pos)
	}
	return queuePromise + "."
}
