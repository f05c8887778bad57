package render

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// Games of GNU Go 3.8 against itself at level 1, as GTP vertices,
// Black first: realistic positions for pictures and benchmarks.
var (
	game9  = "F6 C4 F3 D7 F7 D3 D6 C7 C6 B6 B5 B7 C5 B4 A4 B2 E8 A8 A3 F2 E2 E3 G2 D2 F1 A2 D8 C8 F4 D5 E5 B3 A5 A6 D4 E4 E7 D5 E6 D9"
	game13 = "L11 D4 K4 H10 L8 H3 C6 D11 C9 F10 B4 K2 C3 L3 L4 F4 H5 B10 B9 C10 E2 E7 J11 H11 H7 F2 D3 E3 D1 M3 M4 H12 J12 N4 N5 N3 M6 J13 K13 H13 L12 F1 A10 A11 A9 B12 E9 C7 B7 D6 C5 G6 H6 J10 K10 J9 K9 J8 C8 D7 J7 D5 G7 G5 J4 E1 D2 K8 K7 E10"
	game19 = "Q16 C4 Q4 D17 E4 E3 F3 D3 F4 C6 K4 C15 K17 R6 R8 P6 O4 N6 M4 Q14 O16 R16 R17 R15 S17 R10 R5 S7 Q9 O9 G17 Q5 R4 C10 O14 F14 F8 Q12 F10 E12 T14 S12 L6 O13 L8 M11 E18 D8 E6 D18 K11 F18 G18 E17 F2 E2 M13 H14 G11 S5 S4 T4 T3 T5 S2 G19 H19 F19 K15 N13 N14 P14 H17 S14 F16 E16 P5 Q6 O6 O7 O5 T15 N7 N8 M7 M8 L9 P15 P16 F1 G1 E1 H2 M12 L13 F17 P7 S8 O8 N10 Q10 R9 P9 F15 O11 N11 R7 Q11 Q7 S6 P10 S16 T17 E11 G16 E9 F9 G12 H12 H13"
)

// playGame plays the moves (GTP vertices or "pass", alternating colours
// from the side to move) on a new game of the given size and handicap.
func playGame(tb testing.TB, size, handicap int, moves string) *engine.Game {
	tb.Helper()
	return enginetest.NewGame(tb, engine.Config{Size: size, Rules: engine.DefaultRules(), Handicap: handicap}, strings.Fields(moves)...)
}
