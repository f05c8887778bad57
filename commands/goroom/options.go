package goroom

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
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

// parseSetup reads size, color, ruleset, komi, handicap and clock.
// defaultColor is used when color is not given; the server's settings st
// (nil for none) give the size, ruleset, komi and clock the challenger
// leaves out (the komi only with the server's ruleset and no handicap).
func parseSetup(r *commands.Request, defaultColor string, st *storage.Settings) (setup, error) {
	if st == nil {
		st = &storage.Settings{}
	}
	s := setup{Size: 19, Color: defaultColor}
	if st.Size != 0 {
		s.Size = st.Size
	}
	if n, ok, err := r.Int("size"); err != nil {
		return s, err
	} else if ok {
		if !slices.Contains(commands.BoardSizes, n) {
			return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("The board size must be 9, 13 or 19, not %d.", n))
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
			return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("The colour must be black, white or nigiri, not %s.", commands.Quote(c)))
		}
		s.Color = c
	}
	name := engine.PresetNames[0]
	if st.Ruleset != "" {
		name = st.Ruleset
	}
	_, ownRules := r.String("ruleset")
	if v, ok := r.String("ruleset"); ok {
		name = strings.ToLower(strings.TrimSpace(v))
	}
	rules, err := engine.Preset(name)
	if err != nil {
		return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Unknown ruleset %s: choose %s.", commands.Quote(name), strings.Join(engine.PresetNames, ", ")))
	}
	s.Rules = rules
	if st.Komi != nil && !ownRules {
		s.Rules.Komi = *st.Komi // a handicap below sets 0.5, a komi: its own
	}
	if h, ok, err := r.Int("handicap"); err != nil {
		return s, err
	} else if ok {
		switch {
		case h < 0 || h > 9:
			return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("The handicap must be from 0 to 9 stones, not %d.", h))
		case h > engine.MaxHandicap(s.Size):
			return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("A %d×%d board takes at most %d handicap stones.", s.Size, s.Size, engine.MaxHandicap(s.Size)))
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
			return s, commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Komi must be from -150 to 150 in steps of 0.5, not %v.", k))
		}
		if k == 0 {
			k = 0 // -0 is 0, and shows and records so (KM[0], not KM[-0])
		}
		s.Rules.Komi = k
	}
	if s.Clock, err = commands.ClockOption(r); err != nil {
		return s, err
	}
	if s.Clock == nil {
		s.Clock = st.Clock
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

// parseMove reads a move typed by a player with the engine's one reader
// of moves (engine.ReadMove): a point such as "D4", or "pass". Its
// refusals say what is wrong and, for points off the board, which are
// valid.
func parseMove(c engine.Color, s string, size int) (engine.Move, error) {
	m, err := engine.ReadMove(c, s, size)
	if errors.Is(err, engine.ErrResignTyped) {
		return m, commands.UserErr(err, "To resign, use `/go resign` (or the Resign button).")
	}
	return m, refusal(err)
}

// parsePoint reads a point (not a pass) as parseMove does.
func parsePoint(s string, size int) (engine.Point, error) {
	m, err := parseMove(engine.Black, s, size)
	if err != nil {
		return engine.NoPoint, err
	}
	if m.Kind != engine.Place {
		return engine.NoPoint, commands.UserErr(engine.ErrInvalidCoordinates, fmt.Sprintf("Give a point such as D4 (valid on this board: %s).", engine.CoordRange(size)))
	}
	return m.Point, nil
}

// refusal turns a kind's refusal (game.Refusal) into the user error shown
// privately; other errors pass through.
func refusal(err error) error {
	if text, ok := game.Explain(err); ok {
		return commands.UserErr(err, text)
	}
	return err
}
