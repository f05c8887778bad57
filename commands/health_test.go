package commands

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/runtimetest"
)

// TestHealthCheap: /healthz answers from a read transaction (ping) and the
// cached result of the last deep check; requests never wait for, nor start,
// a deep check, however many arrive.
func TestHealthCheap(t *testing.T) {
	var pings, deeps atomic.Int32
	release := make(chan struct{})
	deepErr := error(nil)
	var mu sync.Mutex
	h := NewHealth(HealthOptions{
		Ping: func(ctx context.Context) error { pings.Add(1); return nil },
		Deep: func(ctx context.Context) error {
			deeps.Add(1)
			select {
			case <-release:
			case <-ctx.Done():
			}
			mu.Lock()
			defer mu.Unlock()
			return deepErr
		},
		Every:  time.Hour,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()

	get := func() (int, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		return w.Code, w.Body.String()
	}
	// The first deep check is still running: health is the ping's.
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if code, body := get(); code != http.StatusOK {
				t.Errorf("GET /healthz during the first deep check = %d %q, want 200", code, body)
			}
		})
	}
	wg.Wait()
	if n := pings.Load(); n != 50 {
		t.Errorf("%d pings for 50 requests", n)
	}
	release <- struct{}{}
	runtimetest.WaitFor(t, "the deep check's result", func() bool { _, body := get(); return strings.Contains(body, "deep check passed") })
	if n := deeps.Load(); n != 1 {
		t.Errorf("the deep check ran %d times, want once (requests must not start it)", n)
	}

	// A failing deep check makes health fail until one passes again.
	mu.Lock()
	deepErr = errors.New("storage: check: page 12: unreachable unfreed")
	mu.Unlock()
	h.Trigger()
	release <- struct{}{}
	runtimetest.WaitFor(t, "the failed deep check", func() bool { code, _ := get(); return code == http.StatusServiceUnavailable })
	if _, body := get(); !strings.Contains(body, "unreachable unfreed") {
		t.Errorf("unhealthy body = %q, want the deep check's error", body)
	}
	cancel()
	<-done
}

// TestHealthPingFails: a store that cannot run a read transaction is
// unhealthy at once, whatever the last deep check said.
func TestHealthPingFails(t *testing.T) {
	h := NewHealth(HealthOptions{
		Ping:   func(ctx context.Context) error { return errors.New("storage: store is closed") },
		Deep:   func(ctx context.Context) error { return nil },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("GET /healthz with a failing ping = %d, want 503", w.Code)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/healthz", nil))
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz = %d, want 405", w.Code)
	}
}
