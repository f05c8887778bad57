package bots

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// TestJapaneseEndgame: under Japanese rules every stone placed where it
// changes no point's owner costs a point. In a 9×9 game of tough's as
// Black (testdata/japanese/filled.sgf, a review's game), White passed at
// move 38 with Black 3.5 points ahead by territory; Black's J9 was in
// atari. The levels then filled their own territory stone by stone while
// White passed (A5 B5 C5 D5 E5 F5 A6 B6 A7 C7 D6, costing a point each,
// free by area), and strong, tough and hard lost by 4.5 to 8.5 points a
// game that GNU Go (--japanese-rules) counts B+2.5 once J9 is saved. Now
// each saves it at H9 and passes back.
func TestJapaneseEndgame(t *testing.T) {
	data, err := os.ReadFile("testdata/japanese/filled.sgf")
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := engine.ParseSGF(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"keen", "medium", "strong", "tough", "hard"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, _ := Lookup(name)
			for seed := int64(1); seed <= 2; seed++ {
				g, err := rec.Rebuild(rec.Rules(), 38)
				if err != nil {
					t.Fatal(err)
				}
				if g.Rules().Scoring != engine.TerritoryScoring {
					t.Fatalf("the record's rules score by %v", g.Rules().Scoring)
				}
				bot := l.New(seed)
				var moves []string
				for len(moves) < 20 && !g.Over() {
					m, err := bot.GenMove(context.Background(), g, l.Budget)
					if err != nil {
						t.Fatal(err)
					}
					moves = append(moves, m.String())
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
					if !g.Over() {
						if err := g.Play(engine.PassMove(engine.White)); err != nil {
							t.Fatal(err)
						}
					}
				}
				e := estimate.Dead(context.Background(), g, estimate.Options{})
				got := g.Score(e.Dead).Result()
				if want := []string{"H9", "pass"}; !slices.Equal(moves, want) || got != "B+2.5" {
					t.Errorf("seed %d: %s played %v while White passed, ending %s; want %v, B+2.5", seed, name, moves, got, want)
				}
			}
		})
	}
}
