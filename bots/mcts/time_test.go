package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// rootWith returns a search whose root has one expanded child per entry
// of stats ({visits, win rate}), read at the fake time *now.
func rootWith(now *time.Time, stats [][2]float64) *search {
	s := &search{tree: newArena(0), now: func() time.Time { return *now }}
	s.root, _ = s.tree.alloc(1)
	first, _ := s.tree.alloc(len(stats))
	root := s.tree.at(s.root)
	root.first, root.nchild = first, int16(len(stats))
	root.state.Store(stateExpanded)
	for i, st := range stats {
		ch := s.tree.at(first + int32(i))
		ch.move = int16(i + 1)
		ch.visits.Store(int32(st[0]))
		ch.wins.Store(int32(2 * st[0] * st[1]))
	}
	return s
}

// TestTimeUp: a search with a target stops there when its choice is clear
// and goes on to its deadline while it is unclear (another move searched at
// least half as much as the best, or one searched at least a fifth as much
// that wins more often); without a target only the deadline counts.
func TestTimeUp(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const (
		target   = 200 * time.Millisecond
		deadline = 600 * time.Millisecond
	)
	tests := []struct {
		name  string
		stats [][2]float64
		clear bool
	}{
		{"one move well ahead", [][2]float64{{1000, 0.6}, {300, 0.55}, {100, 0.7}}, true},
		{"a move searched half as much", [][2]float64{{1000, 0.6}, {500, 0.5}, {100, 0.4}}, false},
		{"a move searched a fifth as much wins more often", [][2]float64{{1000, 0.6}, {200, 0.62}, {100, 0.4}}, false},
		{"a move searched less than a fifth as much wins more often", [][2]float64{{1000, 0.6}, {199, 0.7}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := start
			s := rootWith(&now, tt.stats)
			s.start, s.target, s.deadline = start, start.Add(target), start.Add(deadline)
			if got := s.unclear(); got == tt.clear {
				t.Errorf("unclear() = %v, want %v", got, !tt.clear)
			}
			for _, step := range []struct {
				at   time.Duration
				want bool
			}{{target - time.Millisecond, false}, {target, tt.clear}, {deadline - time.Millisecond, tt.clear}, {deadline, true}} {
				now = start.Add(step.at)
				if got := s.timeUp(); got != step.want {
					t.Errorf("at %v: timeUp() = %v, want %v", step.at, got, step.want)
				}
			}
			// Without a target (a time a move: byo-yomi) the deadline alone.
			s.target = time.Time{}
			for _, step := range []struct {
				at   time.Duration
				want bool
			}{{target, false}, {deadline - time.Millisecond, false}, {deadline, true}} {
				now = start.Add(step.at)
				if got := s.timeUp(); got != step.want {
					t.Errorf("no target, at %v: timeUp() = %v, want %v", step.at, got, step.want)
				}
			}
		})
	}
}

// TestSettledCountsToTarget: the early stop counts the playouts left at
// the rate so far to the target when there is one (time saved in main time
// is kept for later moves), else to the deadline (a time a move without a
// clock: the search stops only when the choice cannot change).
func TestSettledCountsToTarget(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(100 * time.Millisecond)
	// 2,000 playouts in 100 ms: 2,000 more to a target at 200 ms, 10,000
	// to a deadline at 600 ms. The best leads by 3,000 visits.
	s := rootWith(&now, [][2]float64{{3500, 0.6}, {500, 0.5}})
	s.start, s.deadline = start, start.Add(600*time.Millisecond)
	if s.settled(2000) {
		t.Errorf("settled with 10,000 playouts left to the deadline and a lead of 3,000, want not")
	}
	s.target = start.Add(200 * time.Millisecond)
	if !s.settled(2000) {
		t.Errorf("not settled with 2,000 playouts left to the target and a lead of 3,000, want settled")
	}
	s.maxPlayouts = 4000
	s.target, s.deadline = time.Time{}, time.Time{}
	if !s.settled(2000) {
		t.Errorf("not settled with 2,000 playouts left of the budget and a lead of 3,000, want settled")
	}
}

// TestGenMoveTimed: with a fake clock that moves a millisecond each time
// the search reads it, a search of a clear position with a target stops at
// the target or earlier, well before its limit; a target not below the
// limit (byo-yomi: time not spent is lost) stops early on this forced
// answer once the choice cannot change, as GenMove with the same limit
// does (issue 34: it used to spend the whole limit), and with NoEarlyStop
// it runs to the limit.
func TestGenMoveTimed(t *testing.T) {
	g := gameFrom(t, 6.5, engine.Black, `
		. . . . . . .
		. . . . . . .
		O O O O O O O
		X X X X X X X
		X O O O O O X
		X X X X X . .
		. . . . . . .`)
	var now time.Time
	tick := func() time.Time { now = now.Add(time.Millisecond); return now }
	e := NewSearcher(Options{Seed: 1, Threads: 1})
	e.now = tick
	m, err := e.GenMoveTimed(context.Background(), g, 300*time.Millisecond, 3*time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if m.String() != "F2" || (st.Stopped != "target" && st.Stopped != "settled") || st.Elapsed > 400*time.Millisecond {
		t.Errorf("GenMoveTimed = %v after %v (%s), want the capture F2 by the target of 300 ms (%v)", m, st.Elapsed, st.Stopped, st)
	}
	for _, target := range []time.Duration{3 * time.Second, 300 * time.Millisecond} {
		e = NewSearcher(Options{Seed: 1, Threads: 1})
		e.now = tick
		m, err := e.GenMoveTimed(context.Background(), g, target, 300*time.Millisecond, 0)
		if err != nil {
			t.Fatal(err)
		}
		if st := e.Stats(); m.String() != "F2" || st.Stopped != "settled" || st.Elapsed >= 300*time.Millisecond {
			t.Errorf("target %v, limit 300 ms: %v after %v (%s), want the capture F2, settled before the limit", target, m, st.Elapsed, st.Stopped)
		}
		e = NewSearcher(Options{Seed: 1, Threads: 1, NoEarlyStop: true})
		e.now = tick
		if _, err := e.GenMoveTimed(context.Background(), g, target, 300*time.Millisecond, 0); err != nil {
			t.Fatal(err)
		}
		if st := e.Stats(); st.Stopped != "time" || st.Elapsed < 300*time.Millisecond || st.Elapsed > 400*time.Millisecond {
			t.Errorf("target %v, limit 300 ms, NoEarlyStop: stopped after %v (%s), want at the limit", target, st.Elapsed, st.Stopped)
		}
	}
	e = NewSearcher(Options{Seed: 1, Threads: 1})
	e.now = tick
	if _, err := e.GenMove(context.Background(), g, 300*time.Millisecond, 0); err != nil {
		t.Fatal(err)
	}
	if st := e.Stats(); st.Stopped != "settled" || st.Elapsed >= 300*time.Millisecond {
		t.Errorf("GenMove with 300 ms: stopped after %v (%s), want settled before the limit", st.Elapsed, st.Stopped)
	}
}

// TestSettledForcedOnly: in byo-yomi (forcedOnly) the early stop waits,
// besides the lead the playouts left cannot overturn, for a forced answer:
// the most visited move holding nine tenths of the root's visits, with
// every other move searched 50 times or more at a win rate at least 10
// points lower, unless the game is decided (the best move wins 95% or more, or
// 5% or less).
func TestSettledForcedOnly(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		stats  [][2]float64
		forced bool
	}{
		{[][2]float64{{3500, 0.6}, {500, 0.4}}, false},              // 87.5% of the visits
		{[][2]float64{{3700, 0.6}, {300, 0.45}}, true},              // 92.5%, the other 15% worse
		{[][2]float64{{3700, 0.6}, {260, 0.45}, {40, 0.7}}, true},   // the better one tried too little
		{[][2]float64{{3700, 0.6}, {240, 0.45}, {60, 0.55}}, false}, // a move nearly as good
		{[][2]float64{{3700, 0.85}, {300, 0.8}}, false},             // winning, not forced
		{[][2]float64{{3700, 0.97}, {300, 0.96}}, true},             // decided
		{[][2]float64{{3700, 0.03}, {300, 0.02}}, true},             // lost
	} {
		s := rootWith(&now, tt.stats)
		s.tree.at(s.root).visits.Store(4000)
		s.maxPlayouts = 4000 // 2,000 left after 2,000: the lead settles it
		if !s.settled(2000) {
			t.Errorf("%v: not settled without forcedOnly", tt.stats)
		}
		s.forcedOnly = true
		if got := s.settled(2000); got != tt.forced {
			t.Errorf("%v, forcedOnly: settled = %v, want %v", tt.stats, got, tt.forced)
		}
	}
}

// TestLateToCollect: a tree that fills with less time left before the
// deadline than a quarter of the time searched is not collected; without
// a deadline it always is.
func TestLateToCollect(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	s := &search{start: start, now: func() time.Time { return now }}
	if s.lateToCollect() {
		t.Errorf("late to collect without a deadline")
	}
	s.deadline = start.Add(5 * time.Second)
	for _, tt := range []struct {
		at   time.Duration
		late bool
	}{{time.Second, false}, {3900 * time.Millisecond, false}, {4100 * time.Millisecond, true}, {5 * time.Second, true}} {
		now = start.Add(tt.at)
		if got := s.lateToCollect(); got != tt.late {
			t.Errorf("at %v of 5 s: lateToCollect() = %v, want %v", tt.at, got, tt.late)
		}
	}
}
