package mcts

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestWhiteBonusTerritory: under territory scoring the area count's bonus
// for White is komi plus the stones Black placed more than White,
// captured ones included; under area scoring komi and the handicap
// compensation, whatever was placed.
func TestWhiteBonusTerritory(t *testing.T) {
	play := func(rules string, handicap int, moves ...string) *engine.Game {
		t.Helper()
		r, err := engine.Preset(rules)
		if err != nil {
			t.Fatal(err)
		}
		g, err := engine.NewGame(engine.Config{Size: 9, Rules: r, Handicap: handicap})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range moves {
			m := engine.PassMove(g.ToPlay())
			if s != "pass" {
				p, err := engine.ParsePoint(s, 9)
				if err != nil {
					t.Fatal(err)
				}
				m = engine.PlaceAt(g.ToPlay(), p)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		return g
	}
	// White's A1 is captured by B1 and A2: Black placed 3, White 2 (one
	// taken), and White's pass placed nothing.
	moves := []string{"B1", "A1", "A2", "pass", "E5", "D5"}
	for _, c := range []struct {
		rules    string
		handicap int
		moves    []string
		placed   int
		bonus    float64
	}{
		{"japanese", 0, moves, 1, 6.5 + 1},
		{"japanese", 0, moves[:5], 2, 6.5 + 2},
		{"japanese", 2, nil, 2, 6.5 + 2},
		{"chinese", 0, moves[:5], 2, 7.5},
		{"chinese", 2, nil, 2, 7.5 + 2},
	} {
		g := play(c.rules, c.handicap, c.moves...)
		if got := Placed(g); got != c.placed {
			t.Errorf("%s, handicap %d, %v: Placed = %d, want %d", c.rules, c.handicap, c.moves, got, c.placed)
		}
		if got := WhiteBonus(g); got != c.bonus {
			t.Errorf("%s, handicap %d, %v: WhiteBonus = %v, want %v", c.rules, c.handicap, c.moves, got, c.bonus)
		}
	}
}
