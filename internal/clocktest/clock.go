package clocktest

import (
	"sync"
	"time"
)

// Clock is a fake time for a test: the bot's (commands.Options.Now and
// After), the store's (storage.Options.Now) and the fake Discord's
// (discordtest.Options.Now), moved only by Advance. It is safe for
// concurrent use.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	tick    time.Duration // added by each Now after it reads (SetTick)
	waiters []waiter
}

type waiter struct {
	at time.Time
	c  chan time.Time
}

// New returns a Clock that reads start until it is advanced.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time, then moves it on by the tick (SetTick).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now
	if c.tick > 0 {
		c.advance(c.tick)
	}
	return now
}

// SetTick makes every Now move the clock d forward after reading it, as
// the time a request takes passes on a real clock: two reads in one
// request then differ, as they would in production.
func (c *Clock) SetTick(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick = d
}

// After is time.After on this clock: the channel receives the time once
// Advance has moved the clock d past now (at once when d <= 0).
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{c.now.Add(d), ch})
	return ch
}

// Waits reports whether an After channel waits for the clock to reach at:
// a test that is about to advance past a timer the code re-arms after some
// work waits for it first, so that the advance does not come between the
// work and the re-arming (which would then count from the advanced time).
func (c *Clock) Waits(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.waiters {
		if w.at.Equal(at) {
			return true
		}
	}
	return false
}

// Advance moves the clock d forward and fires the After channels whose
// time has come.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(d)
}

func (c *Clock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.c <- c.now
	}
	c.waiters = kept
}
