package mcts

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// gameFrom builds a game from a diagram (top row first; X black, O white,
// '.' empty) with toPlay to move, under chinese rules with the given komi.
func gameFrom(t testing.TB, komi float64, toPlay engine.Color, diagram string) *engine.Game {
	t.Helper()
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(diagram), "\n") {
		rows = append(rows, strings.ReplaceAll(strings.TrimSpace(line), " ", ""))
	}
	size := len(rows)
	r := engine.DefaultRules()
	r.Komi = komi
	g, err := engine.NewGame(engine.Config{Size: size, Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	var stones []engine.Stone
	for i, row := range rows {
		if len(row) != size {
			t.Fatalf("diagram row %d has %d points, want %d", i, len(row), size)
		}
		for col, ch := range row {
			p := engine.Point{Col: col, Row: size - 1 - i}
			switch ch {
			case 'X':
				stones = append(stones, engine.Stone{Point: p, Color: engine.Black})
			case 'O':
				stones = append(stones, engine.Stone{Point: p, Color: engine.White})
			}
		}
	}
	if err := g.SetupStones(stones, toPlay, 0); err != nil {
		t.Fatal(err)
	}
	return g
}

// newGame returns an empty game of the given size under chinese rules.
func newGame(t testing.TB, size int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(engine.Config{Size: size, Rules: engine.DefaultRules()})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
