package mcts

import (
	"context"
	"fmt"
	"math"
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

// TestTerritoryWallsAgree: a 9×9 board split by a black wall on the E
// line and a white one on F, Black to move, komi 6.5: Black leads by 2.5
// under either rules (45 − 36 − 6.5 by area, 36 − 27 − 6.5 by territory),
// and the search judges it alike. Charging the playouts' random stones
// after the tree to their players, as territory scoring charges real
// ones, read it 59% for Black and W+2.1 under Japanese rules (87% and
// B+2.8 under Chinese): their fills and captures, which a real count
// takes off without a move, are noise.
func TestTerritoryWallsAgree(t *testing.T) {
	var got [2]Analysis
	for i, rules := range []string{"chinese", "japanese"} {
		r, err := engine.Preset(rules)
		if err != nil {
			t.Fatal(err)
		}
		r.Komi = 6.5
		g, err := engine.NewGame(engine.Config{Size: 9, Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		for row := 1; row <= 9; row++ {
			for _, col := range "EF" {
				p, err := engine.ParsePoint(fmt.Sprintf("%c%d", col, row), 9)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(engine.PlaceAt(g.ToPlay(), p)); err != nil {
					t.Fatal(err)
				}
			}
		}
		a, err := Analyze(context.Background(), g, 4000, 1)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = a
	}
	for i, a := range got {
		if a.Winrate < 0.75 || math.Abs(a.Score-2.5) > 1.5 {
			t.Errorf("%s: Black's winning chance %.2f, lead %.1f; want at least 0.75 and about 2.5", []string{"chinese", "japanese"}[i], a.Winrate, a.Score)
		}
	}
}
