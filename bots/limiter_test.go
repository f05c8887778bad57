package bots

import (
	"context"
	"errors"
	"testing"
)

func TestLimiterQueue(t *testing.T) {
	l := NewLimiter(1, 2)
	ctx := context.Background()
	releaseA, err := l.Acquire(ctx, nil)
	if err != nil {
		t.Fatalf("Acquire A: %v", err)
	}

	type result struct {
		release func()
		err     error
	}
	// B and C wait, reporting their positions.
	posB := make(chan int, 4)
	posC := make(chan int, 4)
	doneB := make(chan result, 1)
	doneC := make(chan result, 1)
	ctxC, cancelC := context.WithCancel(ctx)
	defer cancelC()
	go func() {
		r, err := l.Acquire(ctx, func(p int) { posB <- p })
		doneB <- result{r, err}
	}()
	if p := <-posB; p != 1 {
		t.Fatalf("B queued at %d, want 1", p)
	}
	go func() {
		r, err := l.Acquire(ctxC, func(p int) { posC <- p })
		doneC <- result{r, err}
	}()
	if p := <-posC; p != 2 {
		t.Fatalf("C queued at %d, want 2", p)
	}
	if running, queued := l.Stats(); running != 1 || queued != 2 {
		t.Errorf("Stats() = %d running, %d queued; want 1, 2", running, queued)
	}
	// The queue is full: D is turned away at once.
	if _, err := l.Acquire(ctx, func(int) { t.Error("D was queued") }); !errors.Is(err, ErrBusy) {
		t.Fatalf("Acquire D = %v, want ErrBusy", err)
	}
	// A finishes: B runs and C moves up to first place.
	releaseA()
	releaseA() // a second call is harmless
	b := <-doneB
	if b.err != nil {
		t.Fatalf("Acquire B: %v", b.err)
	}
	if p := <-posC; p != 1 {
		t.Fatalf("C moved to %d, want 1", p)
	}
	// C gives up: it leaves the queue without a slot.
	cancelC()
	if c := <-doneC; !errors.Is(c.err, context.Canceled) || c.release != nil {
		t.Fatalf("Acquire C = %v, want context.Canceled and no release", c.err)
	}
	if running, queued := l.Stats(); running != 1 || queued != 0 {
		t.Errorf("Stats() = %d running, %d queued; want 1, 0", running, queued)
	}
	b.release()
	if running, queued := l.Stats(); running != 0 || queued != 0 {
		t.Errorf("Stats() after all released = %d running, %d queued; want 0, 0", running, queued)
	}
	// With no queue at all, a full limiter is busy at once.
	l0 := NewLimiter(1, 0)
	r, err := l0.Acquire(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l0.Acquire(ctx, nil); !errors.Is(err, ErrBusy) {
		t.Errorf("Acquire on a full limiter without queue = %v, want ErrBusy", err)
	}
	r()
	if _, err := l0.Acquire(ctx, nil); err != nil {
		t.Errorf("Acquire after release = %v", err)
	}
}

func TestLimiterConcurrent(t *testing.T) {
	// Many goroutines through a two-slot limiter: never more than two hold
	// a slot at once, and every one gets through.
	l := NewLimiter(2, 100)
	const n = 40
	var inside, most int
	mu := make(chan struct{}, 1)
	done := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			release, err := l.Acquire(context.Background(), nil)
			if err != nil {
				done <- err
				return
			}
			mu <- struct{}{}
			inside++
			most = max(most, inside)
			<-mu
			mu <- struct{}{}
			inside--
			<-mu
			release()
			done <- nil
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-done; err != nil {
			t.Fatalf("Acquire: %v", err)
		}
	}
	if most > 2 {
		t.Errorf("%d searches at once, want at most 2", most)
	}
}
