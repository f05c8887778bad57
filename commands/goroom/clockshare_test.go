package goroom

import (
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// TestClockShare: the bot's thinking time on a clock is the time left
// spread over the moves still to come (a third of the empty points, at
// least 15), or what a period allows, less 10% and half a second; a
// clock of days sets no limit.
func TestClockShare(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		spec string
		want time.Duration
		ok   bool
	}{
		{"absolute 20s", 20*time.Second/27*9/10 - 500*time.Millisecond, true}, // 81 empty points: 27 moves
		{"absolute 10s", 100 * time.Millisecond, true},                        // the least
		{"byoyomi 10m 5x30s", 10*time.Minute/27*9/10 - 500*time.Millisecond, true},
		{"byoyomi 10s 5x30s", 15*time.Second*9/10 - 500*time.Millisecond, true}, // half a period
		{"simple 10s", 5*time.Second*9/10 - 500*time.Millisecond, true},
		{"fischer 10m +10s max 20m", (10*time.Minute/27+10*time.Second*3/4)*9/10 - 500*time.Millisecond, true},
		{"correspondence", 0, false},
		{"daily", 0, false},
		{"none", 0, false},
	} {
		c, err := clock.Parse(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.spec, err)
		}
		eg, err := engine.NewGame(engine.Config{Size: 9})
		if err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{State: engine.Own(eg)}
		if c.System != clock.None {
			g.Clock = clock.New(c)
			g.Clock.Start(clock.First, now)
		}
		got, ok := clockShare(g, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: share %v, %v; want %v, %v", tt.spec, got, ok, tt.want, tt.ok)
		}
	}
}
