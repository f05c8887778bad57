package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Defaults for HealthOptions.
const (
	// DefaultDeepCheckEvery is how often the deep check runs.
	DefaultDeepCheckEvery = 5 * time.Minute
	// deepCheckDuty bounds the deep check's share of the time: after a
	// check that took d, the next waits at least deepCheckDuty×d.
	deepCheckDuty = 10
	// pingTimeout bounds the read transaction of one GET /healthz.
	pingTimeout = time.Second
)

// HealthOptions configure NewHealth.
type HealthOptions struct {
	// Ping is the cheap check run for every request: a read transaction
	// (storage's Store.Ping).
	Ping func(ctx context.Context) error
	// Deep is the expensive check (storage's Store.CheckPages), run in the
	// background by Run, never by a request.
	Deep func(ctx context.Context) error
	// Every is how often Deep runs (DefaultDeepCheckEvery when zero), and
	// never more often than ten times its last duration.
	Every  time.Duration
	Logger *slog.Logger
	// Now returns the current time (time.Now); tests set it.
	Now func() time.Time
}

// Health serves GET /healthz cheaply: each request runs Ping (a read
// transaction) and reads the cached result of the last deep check, which
// Run repeats in the background at a bounded rate. Unauthenticated floods
// of health checks therefore cost a read transaction each, never a full
// check of the database. It answers 200 while Ping succeeds and the last
// deep check (if one has finished) passed, 503 otherwise.
type Health struct {
	opts    HealthOptions
	trigger chan struct{}

	mu      sync.Mutex
	checked bool
	err     error
	at      time.Time
	took    time.Duration
}

// NewHealth returns a Health; call Run to start its deep checks.
func NewHealth(opts HealthOptions) *Health {
	if opts.Every <= 0 {
		opts.Every = DefaultDeepCheckEvery
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Health{opts: opts, trigger: make(chan struct{}, 1)}
}

// Run runs the deep check at once and then every Every (but never more than
// a tenth of the time) until ctx ends.
func (h *Health) Run(ctx context.Context) {
	for {
		start := h.opts.Now()
		err := h.opts.Deep(ctx)
		took := h.opts.Now().Sub(start)
		if ctx.Err() != nil {
			return
		}
		h.mu.Lock()
		failed, was := err != nil, h.err != nil
		h.checked, h.err, h.at, h.took = true, err, start, took
		h.mu.Unlock()
		switch {
		case failed:
			h.opts.Logger.Error("health: deep check failed", "err", err, "took", took)
		case was:
			h.opts.Logger.Info("health: deep check passes again", "took", took)
		}
		t := time.NewTimer(max(h.opts.Every, deepCheckDuty*took))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-h.trigger:
			t.Stop()
		}
	}
}

// Trigger asks Run for a deep check now (tests; an operator's signal).
func (h *Health) Trigger() {
	select {
	case h.trigger <- struct{}{}:
	default:
	}
}

// ServeHTTP answers GET and HEAD /healthz.
func (h *Health) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	ctx, cancel := context.WithTimeout(req.Context(), pingTimeout)
	defer cancel()
	if err := h.opts.Ping(ctx); err != nil {
		h.opts.Logger.Warn("health: database read failed", "err", err)
		http.Error(w, "unhealthy: database read failed", http.StatusServiceUnavailable)
		return
	}
	h.mu.Lock()
	checked, err, at, took := h.checked, h.err, h.at, h.took
	h.mu.Unlock()
	if err != nil {
		http.Error(w, fmt.Sprintf("unhealthy: deep check at %s failed: %v", at.UTC().Format(time.RFC3339), err), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !checked {
		io.WriteString(w, "ok (database readable; first deep check running)\n")
		return
	}
	fmt.Fprintf(w, "ok (database readable; deep check passed %s ago, took %s)\n", h.opts.Now().Sub(at).Round(time.Second), took.Round(time.Millisecond))
}
