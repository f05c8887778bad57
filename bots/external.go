package bots

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// External is a GTP program (GNU Go, KataGo, ...) as a Bot: a small pool
// of its processes, each following whichever game it was last asked about
// (a process that switches games gets the new game replayed). It is safe
// for concurrent use.
type External struct {
	spec gtp.Spec
	opts gtp.ClientOptions
	sem  chan struct{} // one token per process allowed
	log  *slog.Logger

	mu     sync.Mutex
	idle   []*gtp.Client
	all    []*gtp.Client
	closed bool
}

var _ Bot = (*External)(nil)

// NewExternal returns the program of spec as a Bot that runs at most procs
// processes at once (at least one). Processes start on demand.
func NewExternal(spec gtp.Spec, opts gtp.ClientOptions, procs int) *External {
	return &External{spec: spec, opts: opts, sem: make(chan struct{}, max(procs, 1)), log: slog.New(slog.DiscardHandler)}
}

// Name returns "gtp:NAME".
func (e *External) Name() string { return GTPPrefix + e.spec.Name }

// GenMove asks the program for a move. Budget.Time, or the time to ctx's
// deadline when that is shorter, is passed on as the time for the move;
// otherwise the program plays at its own settings. When the program picks a
// move the game's rules forbid (typically a superko repetition it does not
// know of), or ctx's deadline passes before it answers, the greedy player
// chooses instead.
func (e *External) GenMove(ctx context.Context, g *engine.Game, budget Budget) (engine.Move, error) {
	if err := begin(ctx, g); err != nil {
		return engine.Move{}, err
	}
	select {
	case e.sem <- struct{}{}:
	default:
		select {
		case e.sem <- struct{}{}:
		case <-ctx.Done():
			if err := cancelled(ctx); err != nil {
				return engine.Move{}, err
			}
			e.log.Warn("bots: no engine process free in time; the greedy player moves instead", "engine", e.spec.Name)
			ReportStandIn(ctx, StandInBusy)
			return NewGreedy(int64(g.MoveCount())).GenMove(ctx, g, budget)
		}
	}
	defer func() { <-e.sem }()
	c, err := e.client()
	if err != nil {
		return engine.Move{}, err
	}
	defer e.put(c)
	moveTime := budget.Time
	if d, ok := ctx.Deadline(); ok && (moveTime <= 0 || time.Until(d) < moveTime) {
		moveTime = max(time.Until(d), time.Millisecond)
	}
	m, err := c.GenMove(ctx, g, moveTime)
	if errors.Is(err, gtp.ErrIllegal) {
		e.log.Warn("bots: engine chose an illegal move; the greedy player moves instead", "engine", e.spec.Name, "err", err)
		ReportStandIn(ctx, StandInIllegal)
		return NewGreedy(int64(g.MoveCount())).GenMove(ctx, g, budget)
	}
	if err != nil && cancelled(ctx) == nil && ctx.Err() != nil {
		// The time for the move ran out before the program answered.
		e.log.Warn("bots: engine out of time; the greedy player moves instead", "engine", e.spec.Name, "err", err)
		ReportStandIn(ctx, StandInLate)
		return NewGreedy(int64(g.MoveCount())).GenMove(ctx, g, budget)
	}
	if err != nil && !errors.Is(err, gtp.ErrClosed) && cancelled(ctx) == nil {
		if _, timed := MoveTime(ctx); timed {
			// On a clock, a move tried again later would lose on time:
			// the program failed (it exited, could not start, answered
			// an error), so the greedy player moves, and the program is
			// started again for the next move.
			e.log.Warn("bots: engine failed; the greedy player moves instead", "engine", e.spec.Name, "err", err)
			ReportStandIn(ctx, StandInFailed)
			return NewGreedy(int64(g.MoveCount())).GenMove(ctx, g, budget)
		}
	}
	if err != nil {
		return engine.Move{}, fmt.Errorf("bots: %w", err)
	}
	return m, nil
}

// Check starts one process of the program, if none is idle, and has it
// answer the GTP handshake (protocol_version, name) within the start
// timeout: a program that exits, or does not speak GTP, is found at
// start-up rather than at a player's first move. The process stays, idle,
// for the first move.
func (e *External) Check(ctx context.Context) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	defer e.put(c)
	if _, err := c.Command(ctx, 0, "name"); err != nil {
		return err
	}
	return nil
}

// client takes an idle process or makes a new one.
func (e *External) client() (*gtp.Client, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if n := len(e.idle); n > 0 {
		c := e.idle[n-1]
		e.idle = e.idle[:n-1]
		return c, nil
	}
	c := gtp.NewClient(e.spec, e.opts)
	e.all = append(e.all, c)
	return c, nil
}

// put returns a process to the pool, or closes it if e is closed.
func (e *External) put(c *gtp.Client) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		c.Close()
		return
	}
	e.idle = append(e.idle, c)
}

// Close stops every process of the program, waiting for moves in progress
// on them to end; later moves fail with ErrClosed.
func (e *External) Close() error {
	e.mu.Lock()
	e.closed = true
	all := e.all
	e.all, e.idle = nil, nil
	e.mu.Unlock()
	var errs []error
	for _, c := range all {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
