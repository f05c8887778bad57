package bots

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// position builds a game from a diagram, top row first: X black, O white,
// . empty; spaces are ignored. toPlay moves next. Komi is 0.5, so that
// the fate of the groups in the diagram decides the game.
func position(t testing.TB, diagram string, toPlay engine.Color) *engine.Game {
	t.Helper()
	rules := engine.DefaultRules()
	rules.Komi = 0.5
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(diagram), "\n") {
		if line = strings.ReplaceAll(strings.TrimSpace(line), " ", ""); line != "" {
			rows = append(rows, line)
		}
	}
	size := len(rows)
	g, err := engine.NewGame(engine.Config{Size: size, Rules: rules})
	if err != nil {
		t.Fatalf("NewGame(%d): %v", size, err)
	}
	var stones []engine.Stone
	for i, row := range rows {
		if len(row) != size {
			t.Fatalf("diagram row %d has %d points, want %d", i+1, len(row), size)
		}
		for col, ch := range row {
			p := engine.Point{Col: col, Row: size - 1 - i}
			switch ch {
			case 'X':
				stones = append(stones, engine.Stone{Point: p, Color: engine.Black})
			case 'O':
				stones = append(stones, engine.Stone{Point: p, Color: engine.White})
			case '.':
			default:
				t.Fatalf("diagram row %d: unknown point %q", i+1, ch)
			}
		}
	}
	if err := g.SetupStones(stones, toPlay, 0); err != nil {
		t.Fatalf("SetupStones: %v", err)
	}
	b := g.Board()
	for _, s := range stones {
		if b.Liberties(b.Vertex(s.Point), 1) == 0 {
			t.Fatalf("diagram: the chain at %v has no liberty\n%v", s.Point, b)
		}
	}
	return g
}

// point parses a GTP coordinate for a game of the given size.
func point(t testing.TB, s string, size int) engine.Point {
	t.Helper()
	p, err := engine.ParsePoint(s, size)
	if err != nil {
		t.Fatalf("ParsePoint(%q): %v", s, err)
	}
	return p
}
