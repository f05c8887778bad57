package bots

import (
	"context"
	"sync"

	"github.com/gobot-dev/gobot/engine"
)

// Limiter caps the number of searches that run at once across the whole
// bot, so that one busy server cannot starve the others, and keeps a bounded
// first-come first-served queue of the moves waiting for a slot. It is safe
// for concurrent use.
type Limiter struct {
	mu      sync.Mutex
	free    int       // slots not in use
	max     int       // slots in all
	maxWait int       // longest queue allowed
	queue   []*waiter // waiting callers, first in front
}

type waiter struct {
	ready chan struct{} // closed when the waiter is given a slot
	moved chan struct{} // signalled when the waiter's position changes
	pos   int           // 1-based position in the queue, 0 once served
}

// NewLimiter returns a limiter that lets concurrent searches run at once
// (at least one) and queues at most queue more (none when queue <= 0).
func NewLimiter(concurrent, queue int) *Limiter {
	concurrent = max(concurrent, 1)
	return &Limiter{free: concurrent, max: concurrent, maxWait: max(queue, 0)}
}

// Acquire waits for a search slot and returns the function that gives it
// back, which must be called exactly once. When the caller has to wait,
// onQueued (if not nil) is called with its 1-based position in the queue,
// and again each time the position improves, from the caller's own
// goroutine. Acquire returns ErrBusy at once when the queue is full, and the
// context's error if it is cancelled while waiting (the caller then leaves
// the queue and holds no slot).
func (l *Limiter) Acquire(ctx context.Context, onQueued func(position int)) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.free > 0 && len(l.queue) == 0 {
		l.free--
		l.mu.Unlock()
		return l.releaser(), nil
	}
	if len(l.queue) >= l.maxWait {
		l.mu.Unlock()
		return nil, ErrBusy
	}
	w := &waiter{ready: make(chan struct{}), moved: make(chan struct{}, 1)}
	l.queue = append(l.queue, w)
	w.pos = len(l.queue)
	pos := w.pos
	l.mu.Unlock()

	if onQueued != nil {
		onQueued(pos)
	}
	for {
		select {
		case <-w.ready:
			return l.releaser(), nil
		case <-w.moved:
			l.mu.Lock()
			p := w.pos
			l.mu.Unlock()
			if p > 0 && p < pos {
				pos = p
				if onQueued != nil {
					onQueued(pos)
				}
			}
		case <-ctx.Done():
			l.mu.Lock()
			served := w.pos == 0
			if !served {
				l.remove(w)
			}
			l.mu.Unlock()
			if served {
				// The slot was handed over as the context ended: give
				// it back rather than leak it.
				l.release()
			}
			return nil, ctx.Err()
		}
	}
}

// releaser returns a release function that works once.
func (l *Limiter) releaser() func() {
	var once sync.Once
	return func() { once.Do(l.release) }
}

// release gives a slot to the first waiter, or back to the pool.
func (l *Limiter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		l.free++
		return
	}
	w := l.queue[0]
	l.queue = l.queue[1:]
	w.pos = 0
	close(w.ready)
	l.renumber()
}

// remove takes w out of the queue; l.mu is held.
func (l *Limiter) remove(w *waiter) {
	for i, q := range l.queue {
		if q == w {
			l.queue = append(l.queue[:i], l.queue[i+1:]...)
			break
		}
	}
	w.pos = 0
	l.renumber()
}

// renumber refreshes the queue positions and tells the waiters that moved;
// l.mu is held.
func (l *Limiter) renumber() {
	for i, q := range l.queue {
		if q.pos != i+1 {
			q.pos = i + 1
			select {
			case q.moved <- struct{}{}:
			default:
			}
		}
	}
}

// Stats reports the number of searches running and waiting now.
func (l *Limiter) Stats() (running, queued int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.max - l.free, len(l.queue)
}

// Limited wraps bot so that each GenMove first takes a slot from l,
// reporting queue positions to onQueued (which may be nil).
func Limited(bot Bot, l *Limiter, onQueued func(position int)) Bot {
	return &limited{bot: bot, l: l, onQueued: onQueued}
}

type limited struct {
	bot      Bot
	l        *Limiter
	onQueued func(int)
}

func (b *limited) Name() string { return b.bot.Name() }

func (b *limited) GenMove(ctx context.Context, g *engine.Game, budget Budget) (engine.Move, error) {
	release, err := b.l.Acquire(ctx, b.onQueued)
	if err != nil {
		return engine.Move{}, err
	}
	defer release()
	return b.bot.GenMove(ctx, g, budget)
}
