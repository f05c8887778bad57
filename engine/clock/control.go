package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// System is a kind of time control.
type System int8

// The time systems, as OGS models them.
const (
	None     System = iota // no clock: the game waits for ever
	Absolute               // Main for the whole game
	Simple                 // Period for every move, nothing carried over
	Fischer                // Main to start, Increment added per move, never above Max (when set)
	ByoYomi                // Main, then Periods periods of Period; a period used up is lost
	Canadian               // Main, then Stones moves in every Period
)

var systemNames = [...]string{None: "none", Absolute: "absolute", Simple: "simple", Fischer: "fischer", ByoYomi: "byoyomi", Canadian: "canadian"}

// String is the system's name as the spec syntax writes it.
func (s System) String() string {
	if s < 0 || int(s) >= len(systemNames) {
		return "system(" + strconv.Itoa(int(s)) + ")"
	}
	return systemNames[s]
}

// Limits on what a spec may ask for.
const (
	MinPeriod  = 10 * time.Second    // the shortest time of any part of a control but an increment
	MaxPeriod  = 30 * 24 * time.Hour // the longest
	MaxPeriods = 30                  // byo-yomi periods
	MaxStones  = 100                 // moves in a Canadian period
	// MinIncrement is the shortest Fischer increment: the starting time,
	// at least MinPeriod, absorbs a move's round trip, and blitz such as
	// 5m +3s or 3m +2s is common on OGS and lidraughts.
	MinIncrement = time.Second
)

// Control is a time control: the system and its parameters. The zero value
// is no clock. Which fields a system uses:
//
//	Absolute  Main (the whole game)
//	Simple    Period (every move)
//	Fischer   Main (to start), Increment (per move), Max (cap; 0 for none, as `5+3`)
//	ByoYomi   Main, Periods × Period
//	Canadian  Main, then Stones moves in Period
type Control struct {
	System    System        `json:"system"`
	Main      time.Duration `json:"main,omitempty"`
	Increment time.Duration `json:"increment,omitempty"`
	Max       time.Duration `json:"max,omitempty"`
	Period    time.Duration `json:"period,omitempty"`
	Periods   int           `json:"periods,omitempty"`
	Stones    int           `json:"stones,omitempty"`
}

// Preset is a named time control offered to players.
type Preset struct {
	Name    string
	Control Control
}

const day = 24 * time.Hour

// Presets are the named controls, the default first.
var Presets = []Preset{
	{"correspondence", Control{System: Fischer, Main: 3 * day, Increment: day, Max: 7 * day}},
	{"daily", Control{System: Simple, Period: day}},
	{"live", Control{System: ByoYomi, Main: 10 * time.Minute, Periods: 5, Period: 30 * time.Second}},
	{"blitz", Control{System: ByoYomi, Main: 3 * time.Minute, Periods: 5, Period: 10 * time.Second}},
	{"none", Control{}},
}

// DraughtsPresets are the named controls of draughts: Go's, but live and
// blitz are Fischer clocks with no maximum, as a lidraughts player knows
// them (lidraughts has no byo-yomi; its blitz pools include 3+2), and as
// a PDN's TimeControl tag writes them whole ("180+2").
var DraughtsPresets = []Preset{
	Presets[0],
	Presets[1],
	{"live", Control{System: Fischer, Main: 10 * time.Minute, Increment: 5 * time.Second}},
	{"blitz", Control{System: Fischer, Main: 3 * time.Minute, Increment: 2 * time.Second}},
	Presets[4],
}

// In is c as a game whose named controls are presets has it: when c is
// one of Go's presets (Presets), the preset of the same name in presets,
// else c. A server's default clock, set as "blitz", is each game's own
// blitz so.
func (c Control) In(presets []Preset) Control {
	for _, p := range Presets {
		if p.Control != c {
			continue
		}
		for _, q := range presets {
			if q.Name == p.Name {
				return q.Control
			}
		}
	}
	return c
}

// Default is the control of a game whose players chose none: correspondence.
func Default() Control { return Presets[0].Control }

// Examples are one spec of each system, as Syntax shows them and as
// suggestions offer them to a player who has typed part of a system's name.
var Examples = []string{"fischer 3d +1d max 7d", "byoyomi 10m 5x30s", "canadian 10m 25/5m", "simple 1d", "absolute 20m", "none"}

// Syntax is what Parse accepts, for error messages and help.
var Syntax = "a preset (correspondence, daily, live, blitz, none), minutes + seconds per move as on lidraughts and lichess (`5+3`, no cap), or `fischer 5m +3s` (capped at the main time unless `max` says more), `" +
	strings.Join(Examples, "`, `") + "`; units s, m, h, d; every time from 10s to 30d, but a Fischer increment from 1s"

// Parse reads a time control: a preset name or a spec.
//
//	MINUTES+SECONDS                     (lidraughts' and lichess's 5+3: Fischer with no maximum; 5+0 is absolute 5m)
//	fischer MAIN +INCREMENT [max MAX]   (max defaults to the larger of MAIN and INCREMENT; it is at least both)
//	byoyomi MAIN PERIODSxPERIOD
//	canadian MAIN STONES/PERIOD
//	simple PERIOD
//	absolute MAIN
//	none
//
// Times are a number and a unit (s, m, h, d), or several (1h30m). Case and
// spacing do not matter ("fischer 5m+3s" too). Every time is from
// MinPeriod to MaxPeriod, but an increment from MinIncrement. An
// error is a *SpecError saying what is wrong; it wraps ErrSpec.
func Parse(spec string) (Control, error) {
	return ParseIn(spec, Presets)
}

// ParseIn is Parse for a game whose named controls are presets
// (DraughtsPresets for draughts).
func ParseIn(spec string, presets []Preset) (Control, error) {
	c, err := parse(spec, presets)
	if err != nil {
		return Control{}, &SpecError{Spec: spec, Reason: strings.TrimPrefix(err.Error(), ErrSpec.Error()+": ")}
	}
	return c, nil
}

func parse(spec string, presets []Preset) (Control, error) {
	s := strings.ToLower(strings.TrimSpace(spec))
	if s == "" {
		return Control{}, fmt.Errorf("%w: empty", ErrSpec)
	}
	for _, p := range presets {
		if s == p.Name {
			return p.Control, nil
		}
	}
	if c, ok, err := parseShort(s); ok {
		return c, err
	}
	f := strings.Fields(s)
	var c Control
	var err error
	switch f[0] {
	case "none":
		if len(f) != 1 {
			return Control{}, fmt.Errorf("%w: none takes nothing after it", ErrSpec)
		}
		return Control{}, nil
	case "absolute":
		c.System = Absolute
		if len(f) != 2 {
			return Control{}, fmt.Errorf("%w: absolute takes one time, like `absolute 20m`", ErrSpec)
		}
		c.Main, err = parseTime("time", f[1])
	case "simple":
		c.System = Simple
		if len(f) != 2 {
			return Control{}, fmt.Errorf("%w: simple takes one time per move, like `simple 1d`", ErrSpec)
		}
		c.Period, err = parseTime("time per move", f[1])
	case "fischer":
		c.System = Fischer
		// "10m+5s" as OGS and lidraughts write it: the increment is
		// what follows the +, spaced or not.
		// "10m+5s" and "10m + 5s" read as "10m +5s".
		spaced := strings.ReplaceAll(strings.Join(f[1:], " "), "+", " +")
		err = c.parseFischer(strings.Fields(strings.ReplaceAll(spaced, "+ ", "+")))
	case "byoyomi", "byo-yomi":
		c.System = ByoYomi
		err = c.parseOvertime(f[1:], "x", "byoyomi 10m 5x30s", "periods", MaxPeriods, &c.Periods)
	case "canadian":
		c.System = Canadian
		err = c.parseOvertime(f[1:], "/", "canadian 10m 25/5m", "moves per period", MaxStones, &c.Stones)
	default:
		if f[0][0] >= '0' && f[0][0] <= '9' {
			// "5m+3s", "10m": a time where the system's name goes.
			return Control{}, fmt.Errorf("%w: %q is not a system or preset: write minutes + seconds per move as `5+3`, or a system and its times, as `fischer 5m +3s`", ErrSpec, f[0])
		}
		for _, p := range presets {
			if f[0] == p.Name {
				// "live extra": a preset is its name alone.
				return Control{}, fmt.Errorf("%w: the preset %s takes nothing after it", ErrSpec, p.Name)
			}
		}
		if f[0][0] == '-' {
			return Control{}, fmt.Errorf("%w: %q: a time cannot be negative", ErrSpec, f[0])
		}
		return Control{}, fmt.Errorf("%w: unknown system or preset %q", ErrSpec, f[0])
	}
	if err != nil {
		return Control{}, err
	}
	return c, nil
}

// parseShort reads the clock as lidraughts and lichess write it,
// MINUTES+SECONDS ("5+3", "5 + 3"): MINUTES to start and SECONDS added
// per move, with no maximum, so that a player's time may grow as it does
// there (and as the TimeControl tag of a PDN or PGN record, "300+3",
// says: it has no way to write a maximum). With no increment ("5+0") it
// is absolute time. ok is false for a spec of another form.
func parseShort(s string) (c Control, ok bool, err error) {
	mins, secs, found := strings.Cut(s, "+")
	mins, secs = strings.TrimSpace(mins), strings.TrimSpace(secs)
	if !found || !digits(mins) || !digits(secs) {
		return Control{}, false, nil
	}
	m, errM := strconv.Atoi(mins)
	if errM != nil || m < 1 || time.Duration(m)*time.Minute > MaxPeriod {
		return Control{}, true, fmt.Errorf("%w: in %s+%s the starting time is in minutes, from 1 to %d (30 days), not %s", ErrSpec, mins, secs, MaxPeriod/time.Minute, mins)
	}
	n, errS := strconv.Atoi(secs)
	if errS != nil || time.Duration(n)*time.Second > MaxPeriod {
		return Control{}, true, fmt.Errorf("%w: in %s+%s the increment is in seconds, from 0 to %d (30 days), not %s", ErrSpec, mins, secs, MaxPeriod/time.Second, secs)
	}
	if n == 0 {
		return Control{System: Absolute, Main: time.Duration(m) * time.Minute}, true, nil
	}
	return Control{System: Fischer, Main: time.Duration(m) * time.Minute, Increment: time.Duration(n) * time.Second}, true, nil
}

// digits reports whether s is a number of 1 to 9 digits (more could
// overflow, and are out of range anyway).
func digits(s string) bool {
	return s != "" && len(s) <= 9 && strings.Trim(s, "0123456789") == ""
}

func (c *Control) parseFischer(f []string) error {
	const example = "like `fischer 3d +1d max 7d`"
	if len(f) != 2 && len(f) != 4 {
		return fmt.Errorf("%w: fischer takes a starting time and +increment, then optionally max and a time, %s", ErrSpec, example)
	}
	var err error
	if c.Main, err = parseTime("starting time", f[0]); err != nil {
		return err
	}
	inc, ok := strings.CutPrefix(f[1], "+")
	if !ok {
		return fmt.Errorf("%w: the increment %q must start with +, %s", ErrSpec, f[1], example)
	}
	if c.Increment, err = parseTimeFrom("increment", inc, MinIncrement); err != nil {
		return err
	}
	c.Max = max(c.Main, c.Increment)
	if len(f) == 4 {
		if f[2] != "max" {
			return fmt.Errorf("%w: expected max after the increment, not %q, %s", ErrSpec, f[2], example)
		}
		if c.Max, err = parseTime("maximum", f[3]); err != nil {
			return err
		}
		if c.Max < c.Main {
			return fmt.Errorf("%w: the maximum %s is less than the starting time %s", ErrSpec, formatSpec(c.Max), formatSpec(c.Main))
		}
		if c.Max < c.Increment {
			return fmt.Errorf("%w: the maximum %s is less than the increment %s, which a move could then never add in full", ErrSpec, formatSpec(c.Max), formatSpec(c.Increment))
		}
	}
	return nil
}

// parseOvertime reads "MAIN N<sep>PERIOD" for byo-yomi and Canadian.
func (c *Control) parseOvertime(f []string, sep, example, what string, most int, n *int) error {
	if len(f) != 2 {
		return fmt.Errorf("%w: expected a main time and N%sTIME, like `%s`", ErrSpec, sep, example)
	}
	var err error
	// Overtime alone (`byoyomi 0 5x30s`, as OGS allows): no main time.
	if !zeroTime(f[0]) {
		if c.Main, err = parseTime("main time", f[0]); err != nil {
			return err
		}
	}
	count, period, ok := strings.Cut(f[1], sep)
	if !ok {
		return fmt.Errorf("%w: expected N%sTIME after the main time, not %q, like `%s`", ErrSpec, sep, f[1], example)
	}
	v, err := strconv.Atoi(count)
	if err != nil || v < 1 || v > most {
		return fmt.Errorf("%w: the number of %s must be from 1 to %d, not %q", ErrSpec, what, most, count)
	}
	*n = v
	c.Period, err = parseTime("period", period)
	return err
}

// zeroTime reports whether s is a time of zero: "0", "0s", "00m".
func zeroTime(s string) bool {
	digits := strings.TrimRight(s, "smhd")
	return digits != "" && len(s)-len(digits) <= 1 && strings.Trim(digits, "0") == ""
}

// units are the spec's time units, largest first.
var units = []struct {
	letter byte
	d      time.Duration
	name   string
}{{'d', day, "day"}, {'h', time.Hour, "h"}, {'m', time.Minute, "min"}, {'s', time.Second, "s"}}

// parseTime reads a time such as 30s, 10m, 1d or 1h30m, within the limits.
func parseTime(what, s string) (time.Duration, error) {
	return parseTimeFrom(what, s, MinPeriod)
}

// parseTimeFrom is parseTime with least as the shortest time allowed.
func parseTimeFrom(what, s string, least time.Duration) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: the %s is missing", ErrSpec, what)
	}
	var total time.Duration
	rest := s
	for rest != "" {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rest) || i > 6 {
			return 0, fmt.Errorf("%w: the %s %q is not a number with a unit (s, m, h, d), like 30s or 3d", ErrSpec, what, s)
		}
		n, _ := strconv.Atoi(rest[:i])
		unit := time.Duration(0)
		for _, u := range units {
			if rest[i] == u.letter {
				unit = u.d
			}
		}
		if unit == 0 && (rest[i] == '.' || rest[i] == ',') {
			return 0, fmt.Errorf("%w: the %s %q has a fraction: write whole numbers of s, m, h or d, as 1h30m for an hour and a half", ErrSpec, what, s)
		}
		if unit == 0 {
			return 0, fmt.Errorf("%w: the %s %q has unit %q; use s, m, h or d", ErrSpec, what, s, rest[i:i+1])
		}
		total += time.Duration(n) * unit
		if total > MaxPeriod {
			break
		}
		rest = rest[i+1:]
	}
	if total < least || total > MaxPeriod {
		if least != MinPeriod {
			return 0, fmt.Errorf("%w: the %s %s is out of range: it is from %s to 30d", ErrSpec, what, s, formatSpec(least))
		}
		return 0, fmt.Errorf("%w: the %s %s is out of range: every time is from 10s to 30d", ErrSpec, what, s)
	}
	return total, nil
}

// String writes c in the spec syntax Parse reads: `fischer 3d +1d max 7d`.
func (c Control) String() string {
	switch c.System {
	case Absolute:
		return "absolute " + formatSpec(c.Main)
	case Simple:
		return "simple " + formatSpec(c.Period)
	case Fischer:
		if c.Max == 0 {
			// Parse gives no maximum only to MINUTES+SECONDS.
			return fmt.Sprintf("%d+%d", c.Main/time.Minute, c.Increment/time.Second)
		}
		return fmt.Sprintf("fischer %s +%s max %s", formatSpec(c.Main), formatSpec(c.Increment), formatSpec(c.Max))
	case ByoYomi:
		return fmt.Sprintf("byoyomi %s %dx%s", formatSpec(c.Main), c.Periods, formatSpec(c.Period))
	case Canadian:
		return fmt.Sprintf("canadian %s %d/%s", formatSpec(c.Main), c.Stones, formatSpec(c.Period))
	}
	return "none"
}

// PGN is the control as the TimeControl tag of PGN and PDN records
// writes it (PGN's section 9.6.1, which PDN 3.0 and lidraughts follow):
// "-" for no clock, "1200" for absolute time, "259200+86400" for Fischer
// (seconds and increment; a maximum cannot be written, and readers take
// the time as growing without one), "1/86400" for simple time (one move
// a period). Byo-yomi and Canadian time have no such form (after the
// main time, a period that starts again on every move or every few
// moves): "?", PGN's unknown, which readers accept. Where PGN does not
// say all of c (PGNExact), a record says it in words (Describe) in a tag
// of its own.
func (c Control) PGN() string {
	secs := func(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) }
	switch c.System {
	case None:
		return "-"
	case Absolute:
		return secs(c.Main)
	case Fischer:
		return secs(c.Main) + "+" + secs(c.Increment)
	case Simple:
		return "1/" + secs(c.Period)
	}
	return "?"
}

// PGNExact reports whether PGN says all of c: not for byo-yomi and
// Canadian time ("?"), nor for a Fischer clock with a maximum, which the
// TimeControl tag has no way to write.
func (c Control) PGNExact() bool {
	switch c.System {
	case ByoYomi, Canadian:
		return false
	case Fischer:
		return c.Max == 0
	}
	return true
}

// Describe says what c means, in words: "byo-yomi: 10 min, then 5 periods
// of 30 s".
func (c Control) Describe() string {
	switch c.System {
	case Absolute:
		return fmt.Sprintf("absolute: %s for the whole game", Format(c.Main))
	case Simple:
		return fmt.Sprintf("simple: %s per move", Format(c.Period))
	case Fischer:
		if c.Max == 0 {
			return fmt.Sprintf("Fischer: %s, +%s per move, no maximum", Format(c.Main), Format(c.Increment))
		}
		return fmt.Sprintf("Fischer: %s, +%s per move, at most %s", Format(c.Main), Format(c.Increment), Format(c.Max))
	case ByoYomi, Canadian:
		main := Format(c.Main) + ", then"
		if c.Main == 0 {
			main = "no main time,"
		}
		if c.System == ByoYomi {
			return fmt.Sprintf("byo-yomi: %s %s of %s", main, count(c.Periods, "period"), Format(c.Period))
		}
		return fmt.Sprintf("Canadian: %s %s every %s", main, count(c.Stones, "move"), Format(c.Period))
	}
	return "no clock"
}

// count says n of a thing: "1 move", "25 moves".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// Name is the preset's name when c is one, else its spec.
func (c Control) Name() string { return c.NameIn(Presets) }

// NameIn is Name for a game whose named controls are presets: Go's byo-yomi
// blitz is no preset of draughts, and its name there would read as 3+2.
func (c Control) NameIn(presets []Preset) string {
	for _, p := range presets {
		if p.Control == c {
			return p.Name
		}
	}
	return c.String()
}

// Correspondence reports whether c is a correspondence clock (days per
// move) rather than a live one (minutes): when its main time spread over
// 20 moves, plus the time each move gets after it, comes to an hour or
// more. Correspondence players get a reminder and may take a vacation;
// live clocks have neither.
func (c Control) Correspondence() bool {
	var perMove time.Duration
	switch c.System {
	case None:
		return false
	case Simple:
		perMove = c.Period
	case Fischer:
		perMove = c.Increment
	case ByoYomi:
		perMove = c.Period
	case Canadian:
		perMove = c.Period / time.Duration(c.Stones)
	}
	return c.Main/20+perMove >= time.Hour
}

// formatSpec writes d in the spec's units, largest first: 1h30m, 3d.
func formatSpec(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	var sb strings.Builder
	for _, u := range units {
		if n := d / u.d; n > 0 {
			fmt.Fprintf(&sb, "%d%c", n, u.letter)
			d -= n * u.d
		}
	}
	if d > 0 { // below a second: not written by specs
		fmt.Fprintf(&sb, "%dms", d.Milliseconds())
	}
	return sb.String()
}

// Format writes a duration for people, in at most its two largest units,
// rounded to the smaller of them: "3 days", "1 day 4 h", "10 min",
// "2 min 30 s", "45 s" (so 3 days less a second is "3 days", not "2 days
// 23 h"). Below a second it says "0 s".
func Format(d time.Duration) string {
	if d < time.Second {
		return "0 s"
	}
	for i, u := range units {
		if d >= u.d {
			d = d.Round(units[min(i+1, len(units)-1)].d)
			break
		}
	}
	var parts []string
	for _, u := range units {
		n := d / u.d
		if n == 0 {
			if len(parts) > 0 {
				break
			}
			continue
		}
		d -= n * u.d
		name := u.name
		if u.letter == 'd' && n != 1 {
			name = "days"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, name))
		if len(parts) == 2 {
			break
		}
	}
	return strings.Join(parts, " ")
}

// SGF returns the control as a game record writes it, in the forms OGS
// writes and reads (its goban library's parseSGFOvertime): TM, each
// player's main time in seconds (0 for simple time, which has none), and
// OT, the overtime: "5x30 byo-yomi", "25/300 Canadian", "3 fischer" (the
// increment) and "86400 simple" (the time per move). A Fischer maximum
// has no place in OT (OGS's readers take "N fischer" alone): where
// SGFExact is false, a record says the control in words (Describe)
// elsewhere, as gobot's does in its root comment.
func (c Control) SGF() (tm float64, ot string) {
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch c.System {
	case Absolute:
		return c.Main.Seconds(), ""
	case Simple:
		return 0, sec(c.Period) + " simple"
	case Fischer:
		return c.Main.Seconds(), sec(c.Increment) + " fischer"
	case ByoYomi:
		return c.Main.Seconds(), fmt.Sprintf("%dx%s byo-yomi", c.Periods, sec(c.Period))
	case Canadian:
		return c.Main.Seconds(), fmt.Sprintf("%d/%s Canadian", c.Stones, sec(c.Period))
	}
	return 0, ""
}

// SGFExact reports whether TM and OT (SGF) say all of c: not for a
// Fischer clock with a maximum, which OT has no way to write.
func (c Control) SGFExact() bool {
	return c.System != Fischer || c.Max == 0
}
