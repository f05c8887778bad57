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
// changes no point's owner costs a point; while the opponent passes, a
// level plays only what still changes the count and passes back.
//   - filled.sgf, tough's 9×9 game as Black (a review's): White passed at
//     move 38 with Black 3.5 points ahead by territory and Black's J9 in
//     atari. The levels then filled their own territory stone by stone
//     while White passed (A5 B5 C5 D5 E5 F5 A6 B6 A7 C7 D6, a point each,
//     free by area): strong, tough and hard lost by 4.5 to 8.5 a game that
//     GNU Go (--japanese-rules) counts B+2.5 once J9 is saved at H9.
//   - behind.sgf, tough's 9×9 game as White giving two stones, from move
//     46, where passing back loses by 1.5: the levels captured the dead
//     black stones inside their own area one by one (C1 E1 D1 D2 C5 E3)
//     before passing, and lost by 5.5 to 7.5. The scoring phase takes
//     dead stones off; capturing them costs a point a stone.
func TestJapaneseEndgame(t *testing.T) {
	for _, c := range []struct {
		record string
		moves  int
		want   []string
		result string
	}{
		{"filled.sgf", 38, []string{"H9", "pass"}, "B+2.5"},
		{"behind.sgf", 46, []string{"pass"}, "B+1.5"},
	} {
		data, err := os.ReadFile("testdata/japanese/" + c.record)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"keen", "medium", "strong", "tough", "hard"} {
			t.Run(c.record+"/"+name, func(t *testing.T) {
				t.Parallel()
				l, _ := Lookup(name)
				for seed := int64(1); seed <= 2; seed++ {
					g, err := rec.Rebuild(rec.Rules(), c.moves)
					if err != nil {
						t.Fatal(err)
					}
					if g.Rules().Scoring != engine.TerritoryScoring {
						t.Fatalf("the record's rules score by %v", g.Rules().Scoring)
					}
					me := g.ToPlay()
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
							if err := g.Play(engine.PassMove(me.Opponent())); err != nil {
								t.Fatal(err)
							}
						}
					}
					e := estimate.Dead(context.Background(), g, estimate.Options{})
					got := g.Score(e.Dead).Result()
					if !slices.Equal(moves, c.want) || got != c.result {
						t.Errorf("seed %d: %s played %v while %v passed, ending %s; want %v, %s", seed, name, moves, me.Opponent(), got, c.want, c.result)
					}
				}
			})
		}
	}
}
