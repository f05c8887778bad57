package bots

import (
	"context"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// testBudget is a small budget for each built-in level in tests: 2000
// playouts for medium, the own budget of casual, steady and keen, searches of the given number
// of playouts for strong, tough, hard and max, and nothing for the levels that do
// not search.
func testBudget(level string, search int) Budget {
	switch level {
	case "medium":
		return Budget{Playouts: 2000}
	case "casual", "steady", "keen":
		return Budget{Playouts: casualPlayouts}
	case "strong", "tough", "hard", "max":
		return Budget{Playouts: search}
	}
	return Budget{}
}

// settledClose is a finished 9×9 game: Black 40 points, White 41; with komi
// 0.5 White wins by 1.5. Everything is settled.
const settledClose = `
		. . . X O . . . .
		. . . X O . . . .
		. . . X O . . . .
		. . . X O . . . .
		. . . X O O . . .
		. . . X X O . . .
		. . . . X O . . .
		. . . . X O . . .
		. . . . X O . . .`

// Every level ends a game like a person: it passes when its opponent has
// passed and nothing is left to gain, resigns only a game lost beyond
// doubt, and never plays inside settled territory.
func TestEndsLikeAPerson(t *testing.T) {
	// Black has a living corner of 20 points, White the rest: Black loses
	// by about 40.
	const lost = `
		. . . O . . . O .
		. . . O . . . O .
		O O O O O O O O O
		. . . O . . . O .
		O O O O O O . O .
		X X X X X O O O O
		. X . . X O . . .
		X X X X X O . . .
		. X . . X O . . .`
	// Column E is open between the walls: 36 points each, and komi 0.5.
	const dame = `
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .
		. . . X . O . . .`
	// The same walls for White without Black's corner: 29 stones, fewer
	// than half the board's 81 points, so the game is young.
	const young = `
		. . . O . . . O .
		. . . O . . . O .
		O O O O O O O O O
		. . . O . . . O .
		O O O O O O . O .
		. . . . . O O O O
		. . . . . O . . .
		. . . . . O . . .
		. . . . . O . . .`
	tests := []struct {
		name       string
		diagram    string
		toPlay     engine.Color
		passedLast bool // the opponent has just passed
		want       string
	}{
		{"behind by 1.5 after a pass: pass", settledClose, engine.Black, true, "pass"},
		{"behind by 1.5, all settled: pass", settledClose, engine.Black, false, "pass"},
		{"ahead after a pass: pass", settledClose, engine.White, true, "pass"},
		{"ahead, all settled: pass", settledClose, engine.White, false, "pass"},
		{"lost by 40: resign", lost, engine.Black, false, "resign"},
		{"lost by 40 after a pass: resign", lost, engine.Black, true, "resign"},
		{"won by 40 after a pass: pass", lost, engine.White, true, "pass"},
		{"open points after a pass: take one", dame, engine.Black, true, "column E"},
		{"hopeless but young: play on", young, engine.Black, false, "no resignation"},
	}
	for _, l := range Builtin() {
		t.Run(l.Name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					g := position(t, tt.diagram, tt.toPlay)
					if tt.passedLast {
						g = position(t, tt.diagram, tt.toPlay.Opponent())
						if err := g.Play(engine.PassMove(tt.toPlay.Opponent())); err != nil {
							t.Fatal(err)
						}
					}
					// A blend of two bots is tested as each of them too,
					// whichever its seed draws.
					bots := []Bot{l.New(7)}
					if b, ok := bots[0].(*Blend); ok {
						bots = append(bots, b.strong, b.weak)
					}
					for _, bot := range bots {
						m, err := bot.GenMove(context.Background(), g.Clone(), testBudget(l.Name, 1500))
						if err != nil {
							t.Fatalf("%s: GenMove: %v", bot.Name(), err)
						}
						var got string
						switch m.Kind {
						case engine.Pass:
							got = "pass"
						case engine.Resign:
							got = "resign"
						default:
							got = m.Point.String()
							if m.Point.Col == 4 {
								got = "column E"
							}
						}
						if tt.want == "no resignation" && got != "resign" {
							got = tt.want
						}
						if got != tt.want {
							t.Errorf("%s: GenMove = %v, want %s\n%v", bot.Name(), m, tt.want, g.Board())
						}
					}
				})
			}
		})
	}
}
