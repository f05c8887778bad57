package clocktest

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	c := New(start)
	now := c.After(0)
	soon, later := c.After(time.Minute), c.After(time.Hour)
	if got := <-now; !got.Equal(start) {
		t.Errorf("After(0) fired at %v, want %v at once", got, start)
	}
	c.Advance(59 * time.Second)
	select {
	case <-soon:
		t.Fatal("After(1m) fired 59 s in")
	default:
	}
	c.Advance(time.Second)
	if got := <-soon; !got.Equal(start.Add(time.Minute)) {
		t.Errorf("After(1m) fired at %v, want %v", got, start.Add(time.Minute))
	}
	select {
	case <-later:
		t.Fatal("After(1h) fired a minute in")
	default:
	}
	if got := c.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Errorf("Now() = %v, want %v", got, start.Add(time.Minute))
	}
}

func TestClockTick(t *testing.T) {
	start := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	c := New(start)
	c.SetTick(time.Millisecond)
	fired := c.After(2 * time.Millisecond)
	for i := range 3 {
		if got, want := c.Now(), start.Add(time.Duration(i)*time.Millisecond); !got.Equal(want) {
			t.Fatalf("read %d: Now() = %v, want %v", i, got, want)
		}
	}
	select {
	case <-fired:
	default:
		t.Error("After(2ms) did not fire after three reads a millisecond apart")
	}
}
