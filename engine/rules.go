package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Scoring is the way a finished game is counted.
type Scoring int8

// The scoring methods.
const (
	// AreaScoring counts stones on the board plus empty regions that reach
	// only one colour (Chinese and Tromp–Taylor rules).
	AreaScoring Scoring = iota
	// TerritoryScoring counts surrounded empty points plus prisoners
	// (captures and dead stones), with no points in seki (Japanese rules).
	TerritoryScoring
)

// String returns "area" or "territory".
func (s Scoring) String() string {
	if s == TerritoryScoring {
		return "territory"
	}
	return "area"
}

// KoRule is the rule against repeating positions.
type KoRule int8

// The ko rules.
const (
	// SimpleKo forbids recreating the position as it stood before the
	// opponent's last move (retaking a ko at once).
	SimpleKo KoRule = iota
	// PositionalSuperko forbids recreating any earlier board position.
	PositionalSuperko
	// SituationalSuperko forbids recreating an earlier board position with
	// the same player to move.
	SituationalSuperko
)

// String returns "simple", "positional" or "situational".
func (k KoRule) String() string {
	switch k {
	case PositionalSuperko:
		return "positional"
	case SituationalSuperko:
		return "situational"
	}
	return "simple"
}

// ParseKoRule reads "simple", "positional" or "situational" (also
// "superko", meaning positional).
func ParseKoRule(s string) (KoRule, error) {
	switch lower(strings.TrimSpace(s)) {
	case "simple":
		return SimpleKo, nil
	case "positional", "superko", "psk":
		return PositionalSuperko, nil
	case "situational", "ssk":
		return SituationalSuperko, nil
	}
	return SimpleKo, fmt.Errorf("ko rule %q (want simple, positional or situational): %w", s, ErrInvalidRules)
}

// HandicapBonus is what White receives for Black's handicap stones under
// area scoring, on top of komi.
type HandicapBonus int8

// The handicap compensations.
const (
	// NoBonus gives White nothing (Japanese and Tromp–Taylor rules: under
	// territory scoring the stones earn nothing, and Tromp–Taylor counts
	// the stones on the board as they are).
	NoBonus HandicapBonus = iota
	// BonusN gives White one point per handicap stone (Chinese rules).
	BonusN
	// BonusNMinus1 gives White one point per handicap stone after the
	// first (AGA rules).
	BonusNMinus1
)

// Points returns White's compensation for n handicap stones.
func (h HandicapBonus) Points(n int) float64 {
	if n < 2 {
		return 0
	}
	switch h {
	case BonusN:
		return float64(n)
	case BonusNMinus1:
		return float64(n - 1)
	}
	return 0
}

// Rules is a complete ruleset: a named preset with any overrides applied.
type Rules struct {
	Name     string        `json:"name"`
	Scoring  Scoring       `json:"scoring"`
	Ko       KoRule        `json:"ko"`
	Suicide  bool          `json:"suicide"` // multi-stone suicide allowed
	Komi     float64       `json:"komi"`
	Handicap HandicapBonus `json:"handicap_bonus"`
}

// Presets are the named rulesets. Default for new games is "chinese".
//   - chinese: area scoring, positional superko, komi 7.5, White receives one
//     point per handicap stone.
//   - japanese: territory scoring, simple ko, komi 6.5.
//   - tromp-taylor: area scoring, positional superko, suicide allowed,
//     komi 7.5.
//   - simple: area scoring, simple ko, komi 6.5: the rules of the 9×9
//     specification the project started from.
var presets = map[string]Rules{
	"chinese":      {Name: "chinese", Scoring: AreaScoring, Ko: PositionalSuperko, Komi: 7.5, Handicap: BonusN},
	"japanese":     {Name: "japanese", Scoring: TerritoryScoring, Ko: SimpleKo, Komi: 6.5, Handicap: NoBonus},
	"tromp-taylor": {Name: "tromp-taylor", Scoring: AreaScoring, Ko: PositionalSuperko, Suicide: true, Komi: 7.5, Handicap: NoBonus},
	"simple":       {Name: "simple", Scoring: AreaScoring, Ko: SimpleKo, Komi: 6.5, Handicap: NoBonus},
}

// PresetNames lists the named rulesets, default first.
var PresetNames = []string{"chinese", "japanese", "tromp-taylor", "simple"}

// DefaultRules returns the default ruleset for new games (chinese).
func DefaultRules() Rules { return presets["chinese"] }

// Preset returns the named ruleset ("chinese", "japanese", "tromp-taylor",
// "simple"; "tt" and "aga"-free aliases are not accepted).
func Preset(name string) (Rules, error) {
	r, ok := presets[lower(strings.TrimSpace(name))]
	if !ok {
		return Rules{}, fmt.Errorf("ruleset %q (want %s): %w", name, strings.Join(PresetNames, ", "), ErrInvalidRules)
	}
	return r, nil
}

// ValidKomi reports whether komi is within -150..150 in steps of 0.5: the
// komi a game on gobot, a stored game or a record may have.
func ValidKomi(komi float64) bool {
	return komi >= -150 && komi <= 150 && komi*2 == math.Trunc(komi*2)
}

// ParseKomi reads a komi a person typed, such as 6.5, -3 or 0: spaces
// around it are ignored, and the minus sign may be typed as U+2212 or as
// an en dash, as text copied from documents and phones often has it. Only
// plain decimals are komi: strconv.ParseFloat alone would also take
// "1e1", "0x14" or "Inf", which no one means as a komi. It does not check
// the range; see ValidKomi.
func ParseKomi(s string) (float64, error) {
	s = strings.TrimSpace(s)
	for _, minus := range []string{"\u2212", "\u2013"} {
		if rest, ok := strings.CutPrefix(s, minus); ok {
			s = "-" + rest
		}
	}
	if !plainDecimal(s) {
		return 0, fmt.Errorf("engine: komi %q is not a plain decimal number", s)
	}
	return strconv.ParseFloat(s, 64)
}

// plainDecimal reports whether s is a decimal number as people write one:
// a sign perhaps, digits, and a point with digits after it perhaps
// ("6.5", "-3", "+0.5", ".5"; not "1e1", "0x14", "6.", "Inf").
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, point := strings.Cut(s, ".")
	digits := func(d string) bool {
		return d != "" && strings.Trim(d, "0123456789") == ""
	}
	if !point {
		return digits(whole)
	}
	return (whole == "" || digits(whole)) && digits(frac)
}

// MaxAnyKomi bounds AnyKomi.
const MaxAnyKomi = 1e6

// AnyKomi reports whether a game can be played and counted with komi: any
// finite number up to MaxAnyKomi either way. The GTP spec has engines
// accept any komi a controller sets ("even if it should be ridiculous"),
// so NewGame takes these; what players choose is checked with ValidKomi.
func AnyKomi(komi float64) bool {
	return !math.IsNaN(komi) && math.Abs(komi) <= MaxAnyKomi
}

// String describes the rules: "chinese (area, positional superko, komi 7.5)".
func (r Rules) String() string {
	ko := r.Ko.String() + " superko"
	if r.Ko == SimpleKo {
		ko = "simple ko"
	}
	s := fmt.Sprintf("%s (%s scoring, %s, komi %s", r.Name, r.Scoring, ko, FormatKomi(r.Komi))
	if r.Suicide {
		s += ", suicide allowed"
	}
	return s + ")"
}

// FormatKomi prints komi (or a margin) without trailing zeros: 7.5, 6,
// -3.5, 0.75.
func FormatKomi(k float64) string {
	return strconv.FormatFloat(k, 'f', -1, 64)
}
