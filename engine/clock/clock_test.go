package clock

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// at is t0 plus d: the fake clock of these tests.
func at(d time.Duration) time.Time { return t0.Add(d) }

func mustParse(t *testing.T, spec string) Control {
	t.Helper()
	c, err := Parse(spec)
	if err != nil {
		t.Fatalf("Parse(%q) = %v", spec, err)
	}
	return c
}

// wantShow checks what k shows for c at now.
func wantShow(t *testing.T, k *Clock, c Side, now time.Time, want string) {
	t.Helper()
	if got := k.Show(c, now); got != want {
		t.Errorf("Show(%v) at t0+%v = %q, want %q", c, now.Sub(t0), got, want)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec, canonical, describe string
		correspondence            bool
	}{
		{"correspondence", "fischer 3d +1d max 7d", "Fischer: 3 days, +1 day per move, at most 7 days", true},
		{"daily", "simple 1d", "simple: 1 day per move", true},
		{"live", "byoyomi 10m 5x30s", "byo-yomi: 10 min, then 5 periods of 30 s", false},
		{"blitz", "byoyomi 3m 5x10s", "byo-yomi: 3 min, then 5 periods of 10 s", false},
		{"none", "none", "no clock", false},
		{"fischer 3d +1d max 7d", "fischer 3d +1d max 7d", "Fischer: 3 days, +1 day per move, at most 7 days", true},
		{"Fischer 10m +20s", "fischer 10m +20s max 10m", "Fischer: 10 min, +20 s per move, at most 10 min", false},
		// No max and an increment above the starting time: the max is the
		// increment, never below what one move adds.
		{"fischer 1m +2m", "fischer 1m +2m max 2m", "Fischer: 1 min, +2 min per move, at most 2 min", false},
		// Blitz as OGS and lidraughts play it, the + spaced or not.
		{"fischer 5m +3s", "fischer 5m +3s max 5m", "Fischer: 5 min, +3 s per move, at most 5 min", false},
		{"fischer 3m+2s", "fischer 3m +2s max 3m", "Fischer: 3 min, +2 s per move, at most 3 min", false},
		{"fischer 3m + 2s", "fischer 3m +2s max 3m", "Fischer: 3 min, +2 s per move, at most 3 min", false},
		{"fischer 10m+10s max 20m", "fischer 10m +10s max 20m", "Fischer: 10 min, +10 s per move, at most 20 min", false},
		{"fischer 10s +1s", "fischer 10s +1s max 10s", "Fischer: 10 s, +1 s per move, at most 10 s", false},
		// As lidraughts and lichess write clocks: minutes + seconds per
		// move, with no maximum, as there; no increment is absolute time.
		{"5+3", "5+3", "Fischer: 5 min, +3 s per move, no maximum", false},
		{" 3 + 2 ", "3+2", "Fischer: 3 min, +2 s per move, no maximum", false},
		{"90+30", "90+30", "Fischer: 1 h 30 min, +30 s per move, no maximum", false},
		{"1+0", "absolute 1m", "absolute: 1 min for the whole game", false},
		{"43200+86400", "43200+86400", "Fischer: 30 days, +1 day per move, no maximum", true},
		{"  byoyomi   10m 5x30s ", "byoyomi 10m 5x30s", "byo-yomi: 10 min, then 5 periods of 30 s", false},
		{"byo-yomi 1h 1x1h", "byoyomi 1h 1x1h", "byo-yomi: 1 h, then 1 period of 1 h", true},
		{"canadian 10m 25/5m", "canadian 10m 25/5m", "Canadian: 10 min, then 25 moves every 5 min", false},
		{"canadian 10m 1/30s", "canadian 10m 1/30s", "Canadian: 10 min, then 1 move every 30 s", false},
		// Overtime alone, as OGS allows.
		{"byoyomi 0 5x30s", "byoyomi 0s 5x30s", "byo-yomi: no main time, 5 periods of 30 s", false},
		{"byoyomi 0m 1x1d", "byoyomi 0s 1x1d", "byo-yomi: no main time, 1 period of 1 day", true},
		{"canadian 0s 25/5m", "canadian 0s 25/5m", "Canadian: no main time, 25 moves every 5 min", false},
		{"simple 1d", "simple 1d", "simple: 1 day per move", true},
		{"absolute 20m", "absolute 20m", "absolute: 20 min for the whole game", false},
		{"absolute 1h30m", "absolute 1h30m", "absolute: 1 h 30 min for the whole game", false},
		{"absolute 90m", "absolute 1h30m", "absolute: 1 h 30 min for the whole game", false},
		{"absolute 15s", "absolute 15s", "absolute: 15 s for the whole game", false},
		{"absolute 30d", "absolute 30d", "absolute: 30 days for the whole game", true},
	} {
		c := mustParse(t, tc.spec)
		if got := c.String(); got != tc.canonical {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.spec, got, tc.canonical)
		}
		if got := c.Describe(); got != tc.describe {
			t.Errorf("Parse(%q).Describe() = %q, want %q", tc.spec, got, tc.describe)
		}
		if got := c.Correspondence(); got != tc.correspondence {
			t.Errorf("Parse(%q).Correspondence() = %v, want %v", tc.spec, got, tc.correspondence)
		}
		if back := mustParse(t, c.String()); back != c {
			t.Errorf("Parse(%q) = %+v, read back from %q as %+v", tc.spec, c, c.String(), back)
		}
	}
	if Default() != mustParse(t, "fischer 3d +1d max 7d") {
		t.Errorf("Default() = %v, want the correspondence preset", Default())
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", "empty"},
		{"quick", `unknown system or preset "quick"`},
		{"live extra", "the preset live takes nothing after it"},
		{"correspondence 3d", "the preset correspondence takes nothing after it"},
		{"5m+3s", "\"5m+3s\" is not a system or preset: write minutes + seconds per move as `5+3`, or a system and its times, as `fischer 5m +3s`"},
		{"10m", "\"10m\" is not a system or preset"},
		{"0+1", "in 0+1 the starting time is in minutes, from 1 to 43200 (30 days), not 0"},
		{"43201+0", "in 43201+0 the starting time is in minutes, from 1 to 43200 (30 days), not 43201"},
		{"5+2592001", "in 5+2592001 the increment is in seconds, from 0 to 2592000 (30 days), not 2592001"},
		{"5+3+2", "\"5+3+2\" is not a system or preset"},
		{"5+-3", "\"5+-3\" is not a system or preset"},
		{"absolute", "absolute takes one time"},
		{"absolute 5s", "out of range"},
		{"absolute 31d", "out of range"},
		{"absolute 20", "not a number with a unit"},
		{"absolute 20y", `unit "y"`},
		{"absolute 1.5h", `the time "1.5h" has a fraction: write whole numbers of s, m, h or d, as 1h30m for an hour and a half`},
		{"byoyomi 10m 5x2,5s", `has a fraction`},
		{"-5+3", `"-5+3": a time cannot be negative`},
		{"absolute -5m", "not a number with a unit"},
		{"absolute 99999999999d", "not a number with a unit"},
		{"simple", "simple takes one time per move"},
		{"fischer 3d 1d", "must start with +"},
		{"fischer 3d +1d 7d", "fischer takes"},
		{"fischer 3d +1d cap 7d", "expected max"},
		{"fischer 3d +1d max 1d", "maximum 1d is less than the starting time 3d"},
		{"fischer 1m +2m max 1m", "maximum 1m is less than the increment 2m"},
		{"fischer 5s +3s", "the starting time 5s is out of range: every time is from 10s to 30d"},
		{"fischer 5m +0s", "the increment 0s is out of range: it is from 1s to 30d"},
		{"fischer 5m+", "the increment is missing"},
		{"fischer 5m ++3s", `the increment "+3s" is not a number with a unit`},
		{"byoyomi 10m 30s", "expected NxTIME"},
		{"byoyomi 10m 0x30s", "number of periods must be from 1 to 30"},
		{"byoyomi 10m 5x1s", "out of range"},
		{"canadian 10m 25x5m", "expected N/TIME"},
		{"canadian 10m 101/5m", "moves per period must be from 1 to 100"},
		{"none 5m", "none takes nothing"},
	} {
		_, err := Parse(tc.spec)
		var se *SpecError
		if !errors.Is(err, ErrSpec) || !errors.As(err, &se) || !strings.Contains(se.Reason, tc.want) || se.Spec != tc.spec {
			t.Errorf("Parse(%q) = %v, want a SpecError saying %q", tc.spec, err, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"}, {999 * time.Millisecond, "0 s"}, {45 * time.Second, "45 s"},
		{150 * time.Second, "2 min 30 s"}, {10 * time.Minute, "10 min"},
		{3*day + 4*time.Hour + 5*time.Minute, "3 days 4 h"}, {day, "1 day"}, {day + 29*time.Minute, "1 day"},
		// Rounded to the smaller unit written: a turn a moment old still
		// shows its three days.
		{3*day - time.Second, "3 days"}, {day + 31*time.Minute, "1 day 1 h"}, {day - 20*time.Second, "1 day"},
		{59600 * time.Millisecond, "1 min"}, {149400 * time.Millisecond, "2 min 29 s"},
	} {
		if got := Format(tc.d); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// play makes moves on k at the given times, failing the test on error.
func play(t *testing.T, k *Clock, times ...time.Duration) {
	t.Helper()
	for _, d := range times {
		if err := k.Play(at(d)); err != nil {
			t.Fatalf("Play(t0+%v) = %v", d, err)
		}
	}
}

func TestAbsolute(t *testing.T) {
	k := New(mustParse(t, "absolute 1m"))
	k.Start(First, t0)
	if got, want := k.Deadline(), at(time.Minute); !got.Equal(want) {
		t.Fatalf("Deadline() = %v, want %v", got, want)
	}
	play(t, k, 20*time.Second, 30*time.Second) // black 20 s, white 10 s
	if got := k.Time(First).Main; got != 40*time.Second {
		t.Errorf("black has %v, want 40s", got)
	}
	if got := k.Time(Second).Main; got != 50*time.Second {
		t.Errorf("white has %v, want 50s", got)
	}
	// Black to move with 40 s from t0+30s: the flag falls at t0+70s.
	if got := k.Deadline(); !got.Equal(at(70 * time.Second)) {
		t.Errorf("Deadline() = %v, want t0+70s", got)
	}
	if k.Flagged(at(69*time.Second)) || !k.Flagged(at(70*time.Second)) {
		t.Errorf("Flagged around the deadline is wrong")
	}
	before := *k
	if err := k.Play(at(70 * time.Second)); !errors.Is(err, ErrFlagged) {
		t.Errorf("a move at the deadline = %v, want ErrFlagged", err)
	}
	if !reflect.DeepEqual(*k, before) {
		t.Errorf("a flagged move changed the clock: %+v, want %+v", *k, before)
	}
}

func TestSimple(t *testing.T) {
	k := New(mustParse(t, "simple 1d"))
	k.Start(First, t0)
	play(t, k, 23*time.Hour) // nothing carries over
	if got, want := k.Deadline(), at(47*time.Hour); !got.Equal(want) {
		t.Errorf("Deadline() = %v, want %v", got, want)
	}
	wantShow(t, k, Second, at(35*time.Hour), "12 h for this move")
	wantShow(t, k, First, at(35*time.Hour), "1 day per move")
}

// TestSimpleEnd: a game over with simple time shows the side that ran out
// with 0 s, as the other systems do; it showed "10 s per move", a whole
// period, as if nothing had run out. A game stopped in time (a
// resignation, the scoring phase) shows the time per move for both.
func TestSimpleEnd(t *testing.T) {
	k := New(mustParse(t, "simple 10s"))
	k.Start(First, t0)
	play(t, k, 4*time.Second)
	k.Stop(at(14 * time.Second)) // White's deadline: a loss on time
	wantShow(t, k, Second, at(time.Hour), "0 s")
	wantShow(t, k, First, at(time.Hour), "10 s per move")

	k = New(mustParse(t, "simple 10s"))
	k.Start(First, t0)
	play(t, k, 4*time.Second)
	k.Stop(at(9 * time.Second)) // White resigns with 5 s left
	wantShow(t, k, Second, at(time.Hour), "10 s per move")
	k.Start(Second, at(time.Hour)) // play resumes after the scoring phase
	wantShow(t, k, Second, at(time.Hour+3*time.Second), "7 s for this move")
}

func TestFischer(t *testing.T) {
	k := New(mustParse(t, "fischer 3d +1d max 4d"))
	k.Start(First, t0)
	play(t, k, time.Hour) // black: 3d - 1h + 1d = 4d - 1h
	if got, want := k.Time(First).Main, 4*day-time.Hour; got != want {
		t.Errorf("black after a quick move has %v, want %v", got, want)
	}
	play(t, k, 2*time.Hour, 3*time.Hour) // white: 3d - 1h + 1d; black: 4d - 1h - 1h + 1d, capped at 4d
	if got := k.Time(Second).Main; got != 4*day-time.Hour {
		t.Errorf("white has %v, want 4d - 1h", got)
	}
	if got := k.Time(First).Main; got != 4*day {
		t.Errorf("black has %v, want the 4d maximum", got)
	}
	wantShow(t, k, Second, at(3*time.Hour+day), "2 days 23 h") // a day into the turn

	// 5+3 has no maximum, as on lidraughts: quick moves build time up
	// past the starting five minutes.
	k = New(mustParse(t, "5+3"))
	k.Start(First, t0)
	play(t, k, time.Second, 2*time.Second, 3*time.Second) // black: 5m - 1s + 3s - 1s + 3s
	if got, want := k.Time(First).Main, 5*time.Minute+4*time.Second; got != want {
		t.Errorf("5+3: black after two quick moves has %v, want %v", got, want)
	}
}

func TestByoYomiPeriods(t *testing.T) {
	k := New(mustParse(t, "byoyomi 1m 3x30s"))
	k.Start(First, t0)
	// Black spends the main minute and 40 s: one period used up, the
	// second one started (and reset by the move).
	play(t, k, 100*time.Second)
	if got := k.Time(First); got.Main != 0 || got.Periods != 2 {
		t.Errorf("black after 100 s = %+v, want no main time and 2 periods", got)
	}
	play(t, k, 110*time.Second) // white: 10 s of main time
	// Black has 2 periods: 60 s from t0+110s. A move 29 s in keeps both.
	if got := k.Deadline(); !got.Equal(at(170 * time.Second)) {
		t.Errorf("Deadline() = %v, want t0+170s", got)
	}
	// 10 s into a period: 20 s of it, then one more (not "2×30 s left",
	// which read as 20 s and two more).
	wantShow(t, k, First, at(120*time.Second), "byo-yomi 20 s + 1×30 s")
	play(t, k, 139*time.Second)
	if got := k.Time(First).Periods; got != 2 {
		t.Errorf("a move within a period left %d periods, want 2 (the period resets)", got)
	}
	play(t, k, 140*time.Second)
	// Black uses the last but one period and 29 s of the last.
	play(t, k, 199*time.Second)
	if got := k.Time(First).Periods; got != 1 {
		t.Errorf("black has %d periods, want 1", got)
	}
	wantShow(t, k, First, at(200*time.Second), "byo-yomi 30 s (last period)")
	play(t, k, 200*time.Second)
	if err := k.Play(at(230 * time.Second)); !errors.Is(err, ErrFlagged) {
		t.Errorf("a move after the last period = %v, want ErrFlagged", err)
	}
	wantShow(t, k, Second, at(230*time.Second), "48 s + 3×30 s")
}

func TestCanadianPeriodReset(t *testing.T) {
	k := New(mustParse(t, "canadian 1m 3/1m"))
	k.Start(Second, t0)
	// White spends the main minute and 10 s: overtime, 50 s for 2 more.
	play(t, k, 70*time.Second)
	if got := k.Time(Second); got.Main != 0 || got.Stones != 2 || got.Period != 50*time.Second {
		t.Errorf("white entering overtime = %+v, want 2 moves in 50 s", got)
	}
	wantShow(t, k, Second, at(70*time.Second), "50 s for 2 moves")
	play(t, k, 71*time.Second) // black
	play(t, k, 91*time.Second) // white: 20 s, 30 s for 1 more
	wantShow(t, k, Second, at(91*time.Second), "30 s for 1 move")
	play(t, k, 92*time.Second)  // black
	play(t, k, 121*time.Second) // white: 29 s, the block's last move: a fresh period
	if got := k.Time(Second); got.Stones != 3 || got.Period != time.Minute {
		t.Errorf("white after the period's last move = %+v, want a fresh 3 moves in 1 min", got)
	}
	play(t, k, 122*time.Second) // black
	if got := k.Deadline(); !got.Equal(at(182 * time.Second)) {
		t.Errorf("Deadline() = %v, want t0+182s", got)
	}
	if err := k.Play(at(182 * time.Second)); !errors.Is(err, ErrFlagged) {
		t.Errorf("a move after the period = %v, want ErrFlagged", err)
	}
}

func TestNone(t *testing.T) {
	k := New(Control{})
	k.Start(First, t0)
	if k.Running() || !k.Deadline().IsZero() || !k.Next().IsZero() {
		t.Errorf("a clock without control runs: %+v", k)
	}
	play(t, k, 1000*day)
	var nilClock *Clock
	if !nilClock.Next().IsZero() || nilClock.Running() {
		t.Errorf("a nil clock has an event")
	}
}

func TestReminder(t *testing.T) {
	k := New(Default())
	k.Start(First, t0)
	// 3 days for the move: reminded with 18 h left.
	if got, want := k.ReminderAt(), at(3*day-18*time.Hour); !got.Equal(want) {
		t.Errorf("ReminderAt() = %v, want %v", got, want)
	}
	if got := k.Next(); !got.Equal(k.ReminderAt()) {
		t.Errorf("Next() = %v, want the reminder", got)
	}
	k.Reminded = true
	if !k.ReminderAt().IsZero() || !k.Next().Equal(k.Deadline()) {
		t.Errorf("after the reminder, Next() = %v, want the deadline %v", k.Next(), k.Deadline())
	}
	play(t, k, time.Hour) // a new move: a new reminder
	if k.Reminded || k.ReminderAt().IsZero() {
		t.Errorf("the next turn has no reminder")
	}
	live := New(mustParse(t, "live"))
	live.Start(First, t0)
	if !live.ReminderAt().IsZero() {
		t.Errorf("a live clock has a reminder")
	}
}

func TestPauseAndCredit(t *testing.T) {
	k := New(mustParse(t, "simple 1d"))
	k.Start(First, t0)
	// 6 h in, black goes on vacation for 2 days.
	k.PauseUntil(at(6*time.Hour), at(6*time.Hour+2*day))
	if !k.Paused(at(day)) || k.Paused(at(3*day)) {
		t.Errorf("Paused is wrong")
	}
	if got, want := k.Deadline(), at(2*day+day); !got.Equal(want) {
		t.Errorf("Deadline() after a 2-day pause = %v, want %v", got, want)
	}
	wantShow(t, k, First, at(day), "18 h for this move") // during the pause
	// Back a day early.
	k.ResumeAt(at(30 * time.Hour))
	if got, want := k.Deadline(), at(30*time.Hour+18*time.Hour); !got.Equal(want) {
		t.Errorf("Deadline() after resuming = %v, want %v", got, want)
	}
	// The server was down from 40 h to 50 h: those 10 h are not charged.
	k.Credit(at(40*time.Hour), at(50*time.Hour))
	if got, want := k.Deadline(), at(58*time.Hour); !got.Equal(want) {
		t.Errorf("Deadline() after a 10 h outage = %v, want %v", got, want)
	}
	play(t, k, 57*time.Hour)
	if k.ToMove != Second || !k.Since.Equal(at(57*time.Hour)) || k.Used != 0 {
		t.Errorf("after the move the clock is %+v", k)
	}
}

// TestCanadianEnd: a player whose Canadian period ran out, in play past
// the deadline or stopped there (a loss on time), shows 0 s, as byo-yomi
// and simple time do; it showed "0 s for 3 moves", as if moves were
// still owed. A player stopped in time (a resignation, the scoring phase)
// keeps their period and its moves.
func TestCanadianEnd(t *testing.T) {
	k := New(mustParse(t, "canadian 1m 3/1m"))
	k.Start(First, t0)
	wantShow(t, k, First, at(2*time.Minute), "0 s") // main time and the first period used up
	wantShow(t, k, First, at(time.Hour), "0 s")
	k.Stop(at(2 * time.Minute)) // Black's deadline: a loss on time
	wantShow(t, k, First, at(time.Hour), "0 s")
	wantShow(t, k, Second, at(time.Hour), "1 min + 3/1 min")

	k = New(mustParse(t, "canadian 1m 3/1m"))
	k.Start(Second, t0)
	play(t, k, 70*time.Second)    // white: 50 s for 2 more moves
	play(t, k, 71*time.Second)    // black
	k.Stop(at(121 * time.Second)) // White's deadline, a move short
	wantShow(t, k, Second, at(time.Hour), "0 s")

	k = New(mustParse(t, "canadian 1m 3/1m"))
	k.Start(Second, t0)
	play(t, k, 70*time.Second)    // white
	play(t, k, 71*time.Second)    // black
	k.Stop(at(101 * time.Second)) // the scoring phase, 20 s left
	wantShow(t, k, Second, at(time.Hour), "20 s for 2 moves")
}

func TestStop(t *testing.T) {
	k := New(mustParse(t, "byoyomi 1m 2x30s"))
	k.Start(First, t0)
	k.Stop(at(75 * time.Second)) // the scoring phase: 15 s into the first period
	if k.Running() || !k.Deadline().IsZero() || !k.Next().IsZero() {
		t.Errorf("a stopped clock runs: %+v", k)
	}
	if got := k.Time(First); got.Main != 0 || got.Periods != 2 {
		t.Errorf("black after stopping = %+v, want 2 fresh periods", got)
	}
	k.Start(First, at(time.Hour))
	if got := k.Deadline(); !got.Equal(at(time.Hour + time.Minute)) {
		t.Errorf("Deadline() after resuming play = %v", got)
	}
}

func TestRecordAndSGF(t *testing.T) {
	k := New(mustParse(t, "byoyomi 1m 3x30s"))
	k.Start(First, t0)
	play(t, k, 20*time.Second)
	k.Record(1, First)
	play(t, k, 30*time.Second)
	k.Record(2, Second)
	play(t, k, 100*time.Second) // black: 40 s of main time, then 40 s: one period used up
	k.Record(3, First)
	want := []Mark{
		{Move: 1, Left: 40 * time.Second, Color: First},
		{Move: 2, Left: 50 * time.Second, Color: Second},
		{Move: 3, Left: 30 * time.Second, Periods: 2, Color: First},
	}
	if !reflect.DeepEqual(k.Log, want) {
		t.Errorf("Log = %v, want %v", k.Log, want)
	}
	k.Unwind(1) // two moves taken back
	if len(k.Log) != 1 || k.Log[0].Move != 1 {
		t.Errorf("Log after Unwind(1) = %v", k.Log)
	}
	for _, tc := range []struct {
		spec string
		tm   float64
		ot   string
	}{
		{"byoyomi 10m 5x30s", 600, "5x30 byo-yomi"},
		{"canadian 10m 25/5m", 600, "25/300 Canadian"},
		{"fischer 3d +1d max 7d", 259200, "86400 fischer"},
		{"fischer 10s +5s max 20s", 10, "5 fischer"},
		{"5+3", 300, "3 fischer"},
		{"simple 1d", 0, "86400 simple"},
		{"simple 10s", 0, "10 simple"},
		{"absolute 20m", 1200, ""},
		{"none", 0, ""},
	} {
		c := mustParse(t, tc.spec)
		tm, ot := c.SGF()
		if tm != tc.tm || ot != tc.ot {
			t.Errorf("%s: SGF() = %v, %q; want %v, %q", tc.spec, tm, ot, tc.tm, tc.ot)
		}
		// OGS reads an OT only in these forms (its goban library's
		// parseSGFOvertime); any other it ignores.
		if ot != "" && !ogsOT.MatchString(ot) {
			t.Errorf("%s: OT %q is not in a form OGS reads", tc.spec, ot)
		}
		if exact := c.System != Fischer || c.Max == 0; c.SGFExact() != exact {
			t.Errorf("%s: SGFExact() = %v, want %v", tc.spec, c.SGFExact(), exact)
		}
	}
}

// ogsOT is every OT that OGS reads: Canadian, Fischer, byo-yomi and
// simple time, as its goban library's parseSGFOvertime matches them.
var ogsOT = regexp.MustCompile(`(?i)^(\d+/\d+(\.\d+)? canadian|\d+(\.\d+)? fischer|\d+x\d+(\.\d+)? byo-yomi|\d+(\.\d+)? simple)$`)

// playRecord makes moves 1, 2, ... at the given times with Move.
func playRecord(t *testing.T, k *Clock, times ...time.Duration) {
	t.Helper()
	for _, d := range times {
		if err := k.Move(len(k.Log)+1, at(d)); err != nil {
			t.Fatalf("Move at t0+%v = %v", d, err)
		}
		if m := k.Log[len(k.Log)-1]; m.Spent <= 0 && d > 0 {
			t.Fatalf("Move at t0+%v logged %+v: no time spent", d, m)
		}
	}
}

// TestTakeBack: taking moves back restores both players' time to what it
// was after the last move each kept (their full time before their first),
// and charges the player to move with the time their own taken-back turns
// used, and the running turn when it is theirs: never the opponent's.
func TestTakeBack(t *testing.T) {
	for _, tc := range []struct {
		spec         string
		times        []time.Duration // moves 1, 2, ... made at t0 + these
		n            int             // back to after move n
		now          time.Duration
		black, white Time // as the turn starts, before the charge
		used         time.Duration
	}{
		// The QA case: Fischer refilled by undo. Black plays at 10 s, white
		// at 11 s; undone at 15 s: both back at 30 s (no increment kept),
		// black charged the 10 s of move 1 and the 4 s of the running turn.
		{"fischer 30s +20s max 5m", []time.Duration{10 * time.Second, 11 * time.Second}, 0, 15 * time.Second,
			Time{Main: 30 * time.Second}, Time{Main: 30 * time.Second}, 14 * time.Second},
		// Back to after move 1: black keeps 40 s, white (to move) is charged
		// the second of move 2 and the 3 s since; not black's move 3.
		{"fischer 30s +20s max 5m", []time.Duration{10 * time.Second, 11 * time.Second, 12 * time.Second}, 1, 15 * time.Second,
			Time{Main: 40 * time.Second}, Time{Main: 30 * time.Second}, 4 * time.Second},
		// White to move is charged move 4's 10 s, not black's running 30 s.
		{"byoyomi 1m 3x30s", []time.Duration{20 * time.Second, 50 * time.Second, 130 * time.Second, 140 * time.Second}, 3, 170 * time.Second,
			Time{Periods: 2}, Time{Main: 30 * time.Second, Periods: 3}, 10 * time.Second},
		{"canadian 1m 2/1m", []time.Duration{70 * time.Second, 71 * time.Second, 80 * time.Second}, 1, 90 * time.Second,
			Time{Period: 50 * time.Second, Stones: 1}, Time{Main: time.Minute}, 11 * time.Second},
		{"simple 30s", []time.Duration{10 * time.Second, 20 * time.Second}, 0, 25 * time.Second,
			Time{}, Time{}, 15 * time.Second},
		// The opponent thought two days: none of it is the undoer's.
		{"fischer 3d +1d max 7d", []time.Duration{48 * time.Hour, 96 * time.Hour}, 0, 98 * time.Hour,
			Time{Main: 72 * time.Hour}, Time{Main: 72 * time.Hour}, 50 * time.Hour},
	} {
		k := New(mustParse(t, tc.spec))
		k.Start(First, t0)
		playRecord(t, k, tc.times...)
		to := First
		if tc.n%2 == 1 {
			to = Second
		}
		k.TakeBack(tc.n, to, at(tc.now))
		if k.First != tc.black || k.Second != tc.white || k.ToMove != to || !k.Since.Equal(at(tc.now)) || k.Used != tc.used {
			t.Errorf("%s, %d moves, back to %d: black %+v, white %+v, %v to move since %v having used %v; want %+v, %+v, %v since %v having used %v",
				tc.spec, len(tc.times), tc.n, k.First, k.Second, k.ToMove, k.Since.Sub(t0), k.Used, tc.black, tc.white, to, tc.now, tc.used)
		}
		if len(k.Log) != tc.n {
			t.Errorf("%s: log after taking back to %d = %v", tc.spec, tc.n, k.Log)
		}
	}
	// Nothing to take back: the clock is left as it is.
	k := New(mustParse(t, "fischer 30s +20s max 5m"))
	k.Start(First, t0)
	playRecord(t, k, 10*time.Second)
	before := *k
	k.TakeBack(1, Second, at(20*time.Second))
	if !reflect.DeepEqual(*k, before) {
		t.Errorf("TakeBack with nothing to take back changed the clock: %+v, was %+v", *k, before)
	}
}

// TestNoMainTime: byo-yomi and Canadian with no main time start in
// overtime: each move gets its period (byo-yomi), each block of moves its
// period (Canadian).
func TestNoMainTime(t *testing.T) {
	k := New(mustParse(t, "byoyomi 0 2x30s"))
	k.Start(First, t0)
	wantShow(t, k, First, t0, "byo-yomi 30 s + 1×30 s")
	if got := k.Deadline(); !got.Equal(at(60 * time.Second)) {
		t.Errorf("byo-yomi deadline = t0+%v, want t0+60s", got.Sub(t0))
	}
	play(t, k, 20*time.Second) // black: within the period, both kept
	if got := k.Time(First).Periods; got != 2 {
		t.Errorf("black has %d periods after 20 s, want 2", got)
	}
	play(t, k, 25*time.Second) // white
	play(t, k, 65*time.Second) // black: 40 s, one period used up
	if got := k.Time(First).Periods; got != 1 {
		t.Errorf("black has %d periods after 40 s, want 1", got)
	}

	k = New(mustParse(t, "canadian 0 2/60s"))
	k.Start(First, t0)
	wantShow(t, k, Second, t0, "1 min for 2 moves")
	if got := k.Deadline(); !got.Equal(at(60 * time.Second)) {
		t.Errorf("Canadian deadline = t0+%v, want t0+60s", got.Sub(t0))
	}
	play(t, k, 10*time.Second) // black: 50 s left for 1 more
	if got := k.Time(First); got.Stones != 1 || got.Period != 50*time.Second {
		t.Errorf("black after 10 s = %+v, want 1 move in 50 s", got)
	}
	play(t, k, 11*time.Second) // white
	play(t, k, 51*time.Second) // black: 40 s, the block's last move: a fresh period
	if got := k.Time(First); got.Stones != 2 || got.Period != time.Minute {
		t.Errorf("black after the block = %+v, want a fresh 2 moves in 1 min", got)
	}
}

// TestPGN: the TimeControl tag of PDN records, in PGN's notation where it
// has one.
func TestPGN(t *testing.T) {
	for _, tt := range []struct {
		spec, want string
	}{
		{"none", "-"},
		{"absolute 20m", "1200"},
		{"correspondence", "259200+86400"},
		{"fischer 3m +10s", "180+10"},
		{"5+3", "300+3"},
		{"5+0", "300"},
		{"daily", "1/86400"},
		{"live", "?"},
		{"canadian 10m 25/5m", "?"},
	} {
		c, err := Parse(tt.spec)
		if err != nil {
			t.Fatalf("Parse(%q) = %v", tt.spec, err)
		}
		if got := c.PGN(); got != tt.want {
			t.Errorf("Parse(%q).PGN() = %q, want %q", tt.spec, got, tt.want)
		}
		// The tag has no way to write a maximum, nor byo-yomi and
		// Canadian time: a record says those in words too.
		exact := tt.want != "?" && (c.System != Fischer || tt.spec == "5+3")
		if got := c.PGNExact(); got != exact {
			t.Errorf("Parse(%q).PGNExact() = %v, want %v", tt.spec, got, exact)
		}
	}
}

// TestDraughtsPresets: draughts' blitz and live are Fischer clocks as on
// lidraughts (3+2 and 10+5, written "180+2" and "600+5" in a PDN), its
// other presets Go's; a server's Go preset is draughts' own preset of that
// name, a spec stays itself; and a clock's name in draughts reads back as
// the same clock there (Go's byo-yomi blitz is no draughts preset).
func TestDraughtsPresets(t *testing.T) {
	for _, c := range []struct {
		name, pgn string
		exact     bool // correspondence's maximum is not in its PGN
	}{{"blitz", "180+2", true}, {"live", "600+5", true}, {"correspondence", "259200+86400", false}, {"daily", "1/86400", true}, {"none", "-", true}} {
		d, err := ParseIn(c.name, DraughtsPresets)
		if err != nil || d.PGN() != c.pgn || d.PGNExact() != c.exact {
			t.Errorf("draughts' %s = %v (%v), PGN %q (exact %v); want %q (exact %v)", c.name, d, err, d.PGN(), d.PGNExact(), c.pgn, c.exact)
		}
		g, _ := Parse(c.name)
		if got := g.In(DraughtsPresets); got != d {
			t.Errorf("Go's %s in draughts = %v, want draughts' %v", c.name, got, d)
		}
		if d.NameIn(DraughtsPresets) != c.name {
			t.Errorf("draughts' %s is named %q there", c.name, d.NameIn(DraughtsPresets))
		}
	}
	if g, _ := Parse("blitz"); g.System != ByoYomi {
		t.Errorf("Go's blitz = %v, want byo-yomi as before", g)
	}
	byo, _ := Parse("byoyomi 3m 5x10s")
	name := byo.NameIn(DraughtsPresets)
	if back, err := ParseIn(name, DraughtsPresets); err != nil || back != byo {
		t.Errorf("byo-yomi 3m 5×10s named %q in draughts reads back as %v (%v)", name, back, err)
	}
	spec, _ := Parse("fischer 5m +3s")
	if got := spec.In(DraughtsPresets); got != spec {
		t.Errorf("a spec in draughts = %v, want it unchanged", got)
	}
}
