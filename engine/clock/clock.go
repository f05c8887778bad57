package clock

import (
	"fmt"
	"time"
)

// Time is one player's time as it stood when their last turn ended (or the
// game began).
type Time struct {
	// Main is the main time left: the whole game's (absolute), the clock's
	// (Fischer), or before overtime (byo-yomi, Canadian).
	Main time.Duration `json:"main,omitempty"`
	// Periods is how many byo-yomi periods are left.
	Periods int `json:"periods,omitempty"`
	// Period is the time left in the current Canadian period; Stones the
	// moves still to play in it. Both are zero until overtime begins.
	Period time.Duration `json:"period,omitempty"`
	Stones int           `json:"stones,omitempty"`
	// Out says the player ran out of time, stopping the clock: simple
	// time keeps nothing between moves (Main is zero), so without it the
	// loser would show a whole period left (see Stop).
	Out bool `json:"out,omitempty"`
}

// Clock is a game's clock: its control, both players' time and the turn
// that is running. A turn runs from Since; Used is time already charged to
// it before a pause (a vacation, or an outage of the server), so the time
// the player to move has spent at t is Used + (t - Since), never counting
// time before Since. Since may lie in the future: the turn is paused until
// then. The zero Clock has no control and never runs.
type Clock struct {
	Control Control `json:"control"`
	First   Time    `json:"black"`
	Second  Time    `json:"white"`
	// ToMove is whose time runs; Empty while the clock is stopped (before
	// the game, during the scoring phase, after it).
	ToMove Side          `json:"to_move,omitempty"`
	Since  time.Time     `json:"since,omitzero"`
	Used   time.Duration `json:"used,omitempty"`
	// Reminded says the player to move has had their reminder this turn.
	Reminded bool `json:"reminded,omitempty"`
	// Log is the time each player had left after their moves, for the
	// game record (SGF BL/WL, OB/OW) and for TakeBack.
	Log []Mark `json:"log,omitempty"`
}

// Mark is a player's time left after a move.
type Mark struct {
	Move int `json:"m"` // the move's number, from 1
	// Left is the main time left, or in overtime the time of the period
	// (byo-yomi) or left in it (Canadian); for simple time, the time per
	// move.
	Left time.Duration `json:"l"`
	// Periods is, in overtime, the byo-yomi periods or the Canadian
	// moves left; zero before.
	Periods int `json:"p,omitempty"`
	// Color is who made the move; Spent is the time their turn used
	// (pauses not counted). Both are zero in marks logged before they
	// were kept.
	Color Side          `json:"c,omitempty"`
	Spent time.Duration `json:"s,omitempty"`
}

// Record logs the time colour c has left after move n, which they have
// just made (after Play).
func (k *Clock) Record(n int, c Side) {
	if k == nil || k.Control.System == None {
		return
	}
	t := *k.player(c)
	m := Mark{Move: n, Left: t.Main, Color: c}
	switch k.Control.System {
	case Simple:
		m.Left = k.Control.Period
	case ByoYomi:
		if t.Main == 0 {
			m.Left, m.Periods = k.Control.Period, t.Periods
		}
	case Canadian:
		if t.Stones > 0 {
			m.Left, m.Periods = t.Period, t.Stones
		}
	}
	k.Unwind(n - 1)
	k.Log = append(k.Log, m)
}

// Move is Play and Record for move n, made at now by the player to move,
// with the time their turn used in the mark (for TakeBack).
func (k *Clock) Move(n int, now time.Time) error {
	if !k.Running() {
		return nil
	}
	c, spent := k.ToMove, k.spent(now)
	if err := k.Play(now); err != nil {
		return err
	}
	k.Record(n, c)
	k.Log[len(k.Log)-1].Spent = spent
	return nil
}

// Unwind forgets the marks of the moves after move n (taken back).
func (k *Clock) Unwind(n int) {
	if k == nil {
		return
	}
	for len(k.Log) > 0 && k.Log[len(k.Log)-1].Move > n {
		k.Log = k.Log[:len(k.Log)-1]
	}
}

// TakeBack takes the clock back to after move n when the moves after it
// are taken back, with colour to to move at now: both players' time
// becomes what it was after the last move each kept (their full time
// before their first), so what the taken-back moves added (Fischer's
// increments) is gone, and to's turn starts at now charged with the time
// to's own taken-back turns used, and the running turn when it is to's
// (pauses not counted): no one gains time by an undo, and no one pays for
// the opponent's thinking. The opponent's own turns in between are given
// back with their moves. With no move after n in the log, TakeBack does
// nothing. A player whose time cannot be found in the log (marks kept
// before they had a colour) keeps their time.
func (k *Clock) TakeBack(n int, to Side, now time.Time) {
	if k == nil || k.Control.System == None || len(k.Log) == 0 || k.Log[len(k.Log)-1].Move <= n {
		return
	}
	var used time.Duration
	if k.Running() && k.ToMove == to {
		used = k.spent(now)
	}
	for _, m := range k.Log {
		if m.Move > n && m.Color == to {
			used += m.Spent
		}
	}
	k.Unwind(n)
	for _, c := range []Side{First, Second} {
		if t, ok := k.timeAfter(c); ok {
			*k.player(c) = t
		}
	}
	k.Start(to, now)
	k.Used = used
}

// timeAfter is the time colour c had after their last move in the log,
// their full time when they have none; false when the log cannot tell
// (marks without a colour).
func (k *Clock) timeAfter(c Side) (Time, bool) {
	for i := len(k.Log) - 1; i >= 0; i-- {
		m := k.Log[i]
		if m.Color == NoSide {
			return Time{}, false
		}
		if m.Color != c {
			continue
		}
		cc := k.Control
		switch {
		case cc.System == Simple:
			return Time{}, true
		case cc.System == ByoYomi && m.Periods > 0:
			return Time{Periods: m.Periods}, true
		case cc.System == ByoYomi:
			return Time{Main: m.Left, Periods: cc.Periods}, true
		case cc.System == Canadian && m.Periods > 0:
			return Time{Period: m.Left, Stones: m.Periods}, true
		}
		return Time{Main: m.Left}, true
	}
	return New(k.Control).Time(c), true
}

// New returns a stopped clock for c with both players' full time.
func New(c Control) *Clock {
	t := Time{Main: c.Main}
	switch c.System {
	case ByoYomi:
		t.Periods = c.Periods
	case Simple:
		t.Main = 0
	}
	return &Clock{Control: c, First: t, Second: t}
}

// Player returns a pointer to the time of colour c.
func (k *Clock) player(c Side) *Time {
	if c == Second {
		return &k.Second
	}
	return &k.First
}

// Time returns the time of colour c as it stood when their last turn
// ended (see Left for the time as of now).
func (k *Clock) Time(c Side) Time { return *k.player(c) }

// Swap sets the time of colour c to t and returns the time it had: in a
// team game with a clock a player, the side's next player's time comes on
// the clock and the last one's is kept aside.
func (k *Clock) Swap(c Side, t Time) Time {
	p := k.player(c)
	old := *p
	*p = t
	return old
}

// Running reports whether a player's time runs (or will, after a pause).
func (k *Clock) Running() bool {
	return k != nil && k.Control.System != None && k.ToMove != NoSide
}

// Start starts the turn of colour c at now: their time runs from now.
func (k *Clock) Start(c Side, now time.Time) {
	k.ToMove, k.Since, k.Used, k.Reminded = c, now, 0, false
}

// spent is what the running turn has used at now.
func (k *Clock) spent(now time.Time) time.Duration {
	if now.After(k.Since) {
		return k.Used + now.Sub(k.Since)
	}
	return k.Used
}

// budget is what a player with time t has for their next move before the
// flag falls.
func (c Control) budget(t Time) time.Duration {
	switch c.System {
	case Absolute, Fischer:
		return t.Main
	case Simple:
		return c.Period
	case ByoYomi:
		return t.Main + time.Duration(t.Periods)*c.Period
	case Canadian:
		if t.Stones == 0 { // still in main time: main plus a whole period
			return t.Main + c.Period
		}
		return t.Period
	}
	return 0
}

// TurnBudget is what the player to move had for this move when their turn
// began (zero when no turn runs).
func (k *Clock) TurnBudget() time.Duration {
	if !k.Running() {
		return 0
	}
	return k.Control.budget(*k.player(k.ToMove))
}

// Deadline is when the player to move runs out of time; zero when no turn
// runs.
func (k *Clock) Deadline() time.Time {
	if !k.Running() {
		return time.Time{}
	}
	return k.Since.Add(k.TurnBudget() - k.Used)
}

// Flagged reports whether the player to move has run out of time at now.
func (k *Clock) Flagged(now time.Time) bool {
	return k.Running() && !now.Before(k.Deadline())
}

// ReminderAt is when the player to move should be reminded: when a
// quarter of their time for this move is left. Zero when there is no
// reminder to send: no turn runs, the clock is a live one, or it was sent.
func (k *Clock) ReminderAt() time.Time {
	if !k.Running() || k.Reminded || !k.Control.Correspondence() {
		return time.Time{}
	}
	return k.Deadline().Add(-k.TurnBudget() / 4)
}

// Next is when something next happens on this clock: the reminder, else
// the flag's fall. Zero when nothing will.
func (k *Clock) Next() time.Time {
	if k == nil {
		return time.Time{}
	}
	if r := k.ReminderAt(); !r.IsZero() {
		return r
	}
	return k.Deadline()
}

// Left returns the time of colour c as of now: for the player to move,
// their time less what this turn has used so far (overtime entered as the
// rules say); for the other, as their last move left it.
func (k *Clock) Left(c Side, now time.Time) Time {
	t := *k.player(c)
	if !k.Running() || k.ToMove != c {
		return t
	}
	e := k.spent(now)
	cc := k.Control
	switch cc.System {
	case Absolute, Fischer:
		t.Main = max(t.Main-e, 0)
	case Simple:
		t.Main = max(cc.Period-e, 0) // what is left for this move
	case ByoYomi:
		if e < t.Main {
			t.Main -= e
			break
		}
		over := e - t.Main
		t.Main = 0
		used := int(over / cc.Period)
		t.Periods = max(t.Periods-used, 0)
		if t.Periods > 0 {
			t.Period = cc.Period - (over - time.Duration(used)*cc.Period) // left in the current period
		}
	case Canadian:
		if t.Stones == 0 {
			if e < t.Main {
				t.Main -= e
				break
			}
			t.Period, t.Stones = cc.Period-(e-t.Main), cc.Stones
			t.Main = 0
		} else {
			t.Period -= e
		}
		t.Period = max(t.Period, 0)
	}
	return t
}

// Play ends the turn of the player to move at now, charging its time by
// the rules of the control (Fischer adds the increment, byo-yomi spends the
// periods used up, Canadian counts the move and resets its period after the
// last one), and starts the opponent's turn. A move made at or after the
// deadline fails with ErrFlagged and changes nothing. On a clock that is
// not running, Play does nothing.
func (k *Clock) Play(now time.Time) error {
	if !k.Running() {
		return nil
	}
	if k.Flagged(now) {
		return fmt.Errorf("%w: the %s side's deadline was %s", ErrFlagged, k.ToMove, k.Deadline().UTC().Format(time.RFC3339))
	}
	c := k.ToMove
	t := k.Left(c, now) // the time this turn used charged, overtime entered
	cc := k.Control
	switch cc.System {
	case Simple:
		t.Main, t.Out = 0, false // nothing carries over
	case Fischer:
		t.Main += cc.Increment
		if cc.Max > 0 { // none, as lidraughts' 5+3: the time may grow
			t.Main = min(t.Main, cc.Max)
		}
	case ByoYomi:
		t.Period = 0 // a period not used up starts afresh
	case Canadian:
		if t.Stones == 0 {
			break // still in main time
		}
		if t.Stones--; t.Stones == 0 { // the period's moves are made: a fresh period
			t.Period, t.Stones = cc.Period, cc.Stones
		}
	}
	*k.player(c) = t
	k.Start(c.Opponent(), now)
	return nil
}

// Stop charges the running turn up to now and stops the clock (the scoring
// phase): no time runs until Start. A player who has run out of time is
// not saved by it; check Flagged first.
func (k *Clock) Stop(now time.Time) {
	if !k.Running() {
		return
	}
	c := k.ToMove
	t := k.Left(c, now)
	switch k.Control.System {
	case Simple:
		// Nothing carries over, but a player stopped at or past their
		// deadline (a loss on time) has no time left: 0 s at the end, as
		// the other systems show theirs.
		t.Main, t.Out = 0, t.Main == 0
	case ByoYomi:
		t.Period = 0 // the period resets, as after a move
	}
	*k.player(c) = t
	k.ToMove, k.Since, k.Used, k.Reminded = NoSide, time.Time{}, 0, false
}

// PauseUntil pauses the running turn from now until until (a vacation):
// the time used so far stays used, and the turn runs again from until.
// A turn already paused beyond until stays so.
func (k *Clock) PauseUntil(now, until time.Time) {
	if !k.Running() || !until.After(k.Since) {
		return
	}
	k.Used = k.spent(now)
	k.Since = until
}

// ResumeAt ends a pause early: a turn paused until after now runs from now.
func (k *Clock) ResumeAt(now time.Time) {
	if k.Running() && k.Since.After(now) {
		k.Since = now
	}
}

// Credit excuses the time from from to to (an outage of the server): the
// turn is charged up to from and runs again from to, as if no time had
// passed in between. A turn paused past to is left alone.
func (k *Clock) Credit(from, to time.Time) {
	if !k.Running() || !to.After(from) || !k.Since.Before(to) {
		return
	}
	if from.After(k.Since) {
		k.Used += from.Sub(k.Since)
	}
	k.Since = to
}

// Paused reports whether the running turn is paused at now (it starts
// again at Since).
func (k *Clock) Paused(now time.Time) bool { return k.Running() && k.Since.After(now) }

// Show writes the time of colour c as of now for a board message: "2 days
// 23 h", "4 min 10 s + 5×30 s", "1 min 30 s for 12 moves"; "0 s" once
// they ran out.
func (k *Clock) Show(c Side, now time.Time) string {
	t := k.Left(c, now)
	cc := k.Control
	switch cc.System {
	case None:
		return "no clock"
	case Absolute, Fischer:
		return Format(t.Main)
	case Simple:
		if k.ToMove == c {
			return Format(t.Main) + " for this move"
		}
		if t.Out {
			return "0 s"
		}
		return Format(cc.Period) + " per move"
	case ByoYomi:
		if t.Main > 0 {
			return fmt.Sprintf("%s + %d×%s", Format(t.Main), t.Periods, Format(cc.Period))
		}
		if t.Periods == 0 {
			return "0 s"
		}
		left := cc.Period
		if k.ToMove == c && t.Period > 0 {
			left = t.Period
		}
		return "byo-yomi " + Format(left) + ByoYomiAfter(t.Periods, cc.Period)
	case Canadian:
		if t.Stones == 0 && t.Main == 0 { // no main time: the first period, not begun
			t.Stones, t.Period = cc.Stones, cc.Period
		}
		if t.Stones == 0 {
			return fmt.Sprintf("%s + %d/%s", Format(t.Main), cc.Stones, Format(cc.Period))
		}
		if t.Period == 0 {
			// The period ran out before its moves were made: the player is
			// out of time (a loss on time), and the moves they owed no
			// longer count, as byo-yomi's last period and simple time show.
			return "0 s"
		}
		return Format(t.Period) + " for " + count(t.Stones, "move")
	}
	return ""
}

// ByoYomiAfter is what follows the time left in a byo-yomi period when
// periods are left, the current one included: the periods after it, as
// main time is followed ("byo-yomi 20 s + 2×30 s"), or that it is the
// last (" (last period)"). A count of the periods left with the current
// one in it ("20 s (3×30 s left)") read as 20 s and three more.
func ByoYomiAfter(periods int, period time.Duration) string {
	if periods <= 1 {
		return " (last period)"
	}
	return fmt.Sprintf(" + %d×%s", periods-1, Format(period))
}
