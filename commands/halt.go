package commands

import (
	"context"
	"sync"
)

// halt cancels, at once, every context derived from it that is still in
// use: Shutdown's hard stop of in-flight work, and the stop of running
// reviews. It holds cancel functions, not a context, so that every context
// is passed down from the call that starts the work. The zero halt is
// ready to use.
type Halt struct {
	mu      sync.Mutex
	stopped bool
	next    uint64
	cancels map[uint64]context.CancelFunc
}

// with returns a context derived from parent that stop also cancels (at
// once when stop came first), and the function that cancels it and
// forgets it, which the caller must call when the work ends.
func (h *Halt) With(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		cancel()
		return ctx, cancel
	}
	if h.cancels == nil {
		h.cancels = make(map[uint64]context.CancelFunc)
	}
	id := h.next
	h.next++
	h.cancels[id] = cancel
	return ctx, func() {
		h.mu.Lock()
		delete(h.cancels, id)
		h.mu.Unlock()
		cancel()
	}
}

// stop cancels every context from with, now and later.
func (h *Halt) Stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	for id, cancel := range h.cancels {
		cancel()
		delete(h.cancels, id)
	}
}

// isStopped reports whether stop was called.
func (h *Halt) IsStopped() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopped
}
