package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MarshalText writes "area" or "territory".
func (s Scoring) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "area" or "territory".
func (s *Scoring) UnmarshalText(b []byte) error {
	switch string(b) {
	case "area":
		*s = AreaScoring
	case "territory":
		*s = TerritoryScoring
	default:
		return fmt.Errorf("scoring %q: %w", b, ErrInvalidRules)
	}
	return nil
}

// MarshalText writes "simple", "positional" or "situational".
func (k KoRule) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (k *KoRule) UnmarshalText(b []byte) error {
	r, err := ParseKoRule(string(b))
	*k = r
	return err
}

// MarshalText writes "none", "n" or "n-1".
func (h HandicapBonus) MarshalText() ([]byte, error) {
	switch h {
	case BonusN:
		return []byte("n"), nil
	case BonusNMinus1:
		return []byte("n-1"), nil
	}
	return []byte("none"), nil
}

// UnmarshalText reads what MarshalText writes.
func (h *HandicapBonus) UnmarshalText(b []byte) error {
	switch string(b) {
	case "none", "":
		*h = NoBonus
	case "n":
		*h = BonusN
	case "n-1":
		*h = BonusNMinus1
	default:
		return fmt.Errorf("handicap bonus %q: %w", b, ErrInvalidRules)
	}
	return nil
}

// MarshalText writes "B", "W" or "" (empty).
func (c Color) MarshalText() ([]byte, error) {
	if c == Black || c == White {
		return []byte(c.Letter()), nil
	}
	return []byte{}, nil
}

// UnmarshalText reads "B", "W", "black", "white" or "".
func (c *Color) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = Empty
		return nil
	}
	col, err := ParseColor(string(b))
	*c = col
	return err
}

// MarshalText writes "score", "resign", "time" or "forfeit".
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// String returns "score", "resign", "time" or "forfeit".
func (r Reason) String() string {
	switch r {
	case ByResignation:
		return "resign"
	case ByTime:
		return "time"
	case ByForfeit:
		return "forfeit"
	}
	return "score"
}

// UnmarshalText reads what MarshalText writes.
func (r *Reason) UnmarshalText(b []byte) error {
	switch string(b) {
	case "score":
		*r = ByScore
	case "resign":
		*r = ByResignation
	case "time":
		*r = ByTime
	case "forfeit":
		*r = ByForfeit
	default:
		return fmt.Errorf("result reason %q: %w", b, ErrInvalidState)
	}
	return nil
}

type gameJSON struct {
	Size     int      `json:"size"`
	Rules    Rules    `json:"rules"`
	Handicap int      `json:"handicap"`
	Seed     int64    `json:"seed"`
	Setup    []string `json:"setup,omitempty"` // "B D4", "W Q16", "E C3"
	First    Color    `json:"first"`
	Moves    []string `json:"moves"` // "B D4", "W pass"
	Resumes  []int    `json:"resumes,omitempty"`
	Result   *Result  `json:"result,omitempty"`
}

// MarshalJSON writes the game as its configuration, set-up, moves and
// result; the position is rebuilt from them when it is read back.
func (g *Game) MarshalJSON() ([]byte, error) {
	j := gameJSON{
		Size: g.cfg.Size, Rules: g.cfg.Rules, Handicap: g.handicap, Seed: g.cfg.Seed,
		First: g.first, Moves: make([]string, len(g.moves)), Resumes: g.resumes, Result: g.result,
	}
	for _, s := range g.setup {
		letter := s.Color.Letter()
		if s.Color == Empty {
			letter = "E"
		}
		j.Setup = append(j.Setup, letter+" "+s.Point.String())
	}
	for i, m := range g.moves {
		j.Moves[i] = m.Color.Letter() + " " + m.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a game written by MarshalJSON and replays every
// move through the rules; a record that does not replay is an error wrapping
// ErrInvalidState, and leaves g unchanged.
func (g *Game) UnmarshalJSON(data []byte) error {
	var j gameJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidState, err)
	}
	if j.Size < MinSize || j.Size > MaxSize {
		return fmt.Errorf("%w: size %d", ErrInvalidState, j.Size)
	}
	if !ValidKomi(j.Rules.Komi) {
		return fmt.Errorf("%w: komi %v", ErrInvalidState, j.Rules.Komi)
	}
	if j.First != Black && j.First != White {
		return fmt.Errorf("%w: first player %q", ErrInvalidState, j.First)
	}
	n := &Game{cfg: Config{Size: j.Size, Rules: j.Rules, Seed: j.Seed}, first: j.First, handicap: j.Handicap}
	if j.Handicap >= 2 {
		n.cfg.Handicap = j.Handicap
	}
	for _, s := range j.Setup {
		col, pt, ok := strings.Cut(s, " ")
		c := Empty
		if col != "E" {
			var err error
			if c, err = ParseColor(col); err != nil {
				return fmt.Errorf("%w: set-up %q", ErrInvalidState, s)
			}
		}
		p, err := ParsePoint(pt, j.Size)
		if !ok || err != nil {
			return fmt.Errorf("%w: set-up %q", ErrInvalidState, s)
		}
		n.setup = append(n.setup, Stone{p, c})
	}
	moves := make([]Move, len(j.Moves))
	for i, s := range j.Moves {
		col, v, ok := strings.Cut(s, " ")
		c, err := ParseColor(col)
		if !ok || err != nil {
			return fmt.Errorf("%w: move %d %q", ErrInvalidState, i+1, s)
		}
		m, err := ParseMove(c, v, j.Size)
		if err != nil || m.Kind == Resign {
			return fmt.Errorf("%w: move %d %q", ErrInvalidState, i+1, s)
		}
		moves[i] = m
	}
	for i, r := range j.Resumes {
		if r < 0 || r > len(moves) || (i > 0 && r < j.Resumes[i-1]) {
			return fmt.Errorf("%w: resumes %v", ErrInvalidState, j.Resumes)
		}
	}
	n.reset()
	if err := n.replay(moves, j.Resumes); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidState, err)
	}
	if j.Result != nil {
		r := *j.Result
		n.result = &r
	}
	*g = *n
	return nil
}
