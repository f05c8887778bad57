package commands

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
)

// setup is a new game's configuration as the challenge and bot commands
// read it from their options.
type setup struct {
	Size     int
	Color    string // the requester's colour: "black", "white" or "nigiri"
	Rules    engine.Rules
	Handicap int
	// Handicapped says a handicap was asked for: Handicap stones, or for
	// handicap 1 none (Black simply moves first at komi 0.5).
	Handicapped bool
	Clock       *clock.Control // the clock option; nil when not given (Options.DefaultClock)
}

// parseSetup reads size, color, ruleset, komi and handicap. defaultColor is
// used when color is not given.
func parseSetup(r *Request, defaultColor string) (setup, error) {
	s := setup{Size: 19, Color: defaultColor}
	if n, ok, err := r.Int("size"); err != nil {
		return s, err
	} else if ok {
		if !slices.Contains(boardSizes, n) {
			return s, userErr(ErrBadOption, fmt.Sprintf("The board size must be 9, 13 or 19, not %d.", n))
		}
		s.Size = n
	}
	if c, ok := r.String("color"); ok {
		c = strings.ToLower(strings.TrimSpace(c))
		switch c {
		case "b", "black":
			c = "black"
		case "w", "white":
			c = "white"
		case "nigiri", "random":
			c = "nigiri"
		default:
			return s, userErr(ErrBadOption, fmt.Sprintf("The colour must be black, white or nigiri, not %s.", quote(c)))
		}
		s.Color = c
	}
	name := engine.PresetNames[0]
	if v, ok := r.String("ruleset"); ok {
		name = strings.ToLower(strings.TrimSpace(v))
	}
	rules, err := engine.Preset(name)
	if err != nil {
		return s, userErr(ErrBadOption, fmt.Sprintf("Unknown ruleset %s: choose %s.", quote(name), strings.Join(engine.PresetNames, ", ")))
	}
	s.Rules = rules
	if h, ok, err := r.Int("handicap"); err != nil {
		return s, err
	} else if ok {
		switch {
		case h < 0 || h > 9:
			return s, userErr(ErrBadOption, fmt.Sprintf("The handicap must be from 0 to 9 stones, not %d.", h))
		case h > engine.MaxHandicap(s.Size):
			return s, userErr(ErrBadOption, fmt.Sprintf("A %d×%d board takes at most %d handicap stones.", s.Size, s.Size, engine.MaxHandicap(s.Size)))
		}
		s.Handicap, s.Handicapped = h, h > 0
		if h > 0 {
			// Handicap games give White half a point by custom; a
			// one-stone handicap is Black moving first at that komi.
			s.Rules.Komi = 0.5
		}
		if h == 1 {
			s.Handicap = 0
		}
	}
	if k, ok, err := r.Float("komi"); err != nil {
		return s, err
	} else if ok {
		if !engine.ValidKomi(k) {
			return s, userErr(ErrBadOption, fmt.Sprintf("Komi must be from -150 to 150 in steps of 0.5, not %v.", k))
		}
		s.Rules.Komi = k
	}
	if s.Clock, err = clockOption(r); err != nil {
		return s, err
	}
	return s, nil
}

// colors decides who takes Black: the requester when they asked for black,
// the other side for white, a coin toss for nigiri. With a handicap the
// requester's choice still decides who receives it.
func (s setup) requesterBlack(rnd *rand.Rand) bool {
	switch s.Color {
	case "black":
		return true
	case "white":
		return false
	}
	return rnd.IntN(2) == 0
}

// parseMove reads a move typed by a player: a point such as "D4", or "pass".
// Errors say what is wrong and, for points off the board, which are valid.
func parseMove(c engine.Color, s string, size int) (engine.Move, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "pass") {
		return engine.PassMove(c), nil
	}
	if strings.EqualFold(t, "resign") {
		return engine.Move{}, userErr(ErrBadOption, "To resign, use `/go resign` (or the Resign button).")
	}
	p, err := parsePoint(t, size)
	if err != nil {
		return engine.Move{}, err
	}
	return engine.PlaceAt(c, p), nil
}

// parsePoint reads a point on a board of the given size with a message
// naming the valid range when it is off the board or malformed. Leading
// zeros in the row are read: E05 is E5.
func parsePoint(s string, size int) (engine.Point, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	n := t
	if len(t) >= 3 && isDigits(t[1:]) && t[1] == '0' {
		// Leading zeros in the row: E05 is E5 (E00 stays row 0, off the board).
		n = t[:1] + strings.TrimLeft(t[1:len(t)-1], "0") + t[len(t)-1:]
	}
	p, err := engine.ParsePoint(n, size)
	if err == nil {
		return p, nil
	}
	rng := engine.CoordRange(size)
	switch {
	case t == "":
		return p, userErr(engine.ErrInvalidCoordinates, fmt.Sprintf("Give a point such as D4 (valid on this board: %s).", rng))
	case strings.HasPrefix(t, "I") && len(t) > 1 && isDigits(t[1:]):
		return p, userErr(engine.ErrInvalidCoordinates, fmt.Sprintf("Go coordinates skip the letter I: after H comes J. Valid points here: %s.", rng))
	case len(t) >= 2 && t[0] >= 'A' && t[0] <= 'Z' && isDigits(t[1:]):
		return p, userErr(engine.ErrInvalidCoordinates, fmt.Sprintf("%s is off this %d×%d board: valid points are %s.", clip(t, maxQuoted), size, size, rng))
	}
	return p, userErr(engine.ErrInvalidCoordinates, fmt.Sprintf("I can't read %s as a point: write a column letter and a row number, like D4 (valid here: %s).", quote(s), rng))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
