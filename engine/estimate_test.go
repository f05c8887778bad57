package engine

import (
	"context"
	"strings"
	"testing"
)

// estDiagramGame builds a game whose board is drawn as rows from the top, one
// character per point: X black, O white, anything else empty. Black is to
// move. Stones marked x and o are also black and white stones, and are the
// ones the test expects to be dead.
func estDiagramGame(t testing.TB, diagram string, rules Rules) (*Game, []Point) {
	t.Helper()
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(diagram), "\n") {
		if line = strings.ReplaceAll(strings.TrimSpace(line), " ", ""); line != "" {
			rows = append(rows, line)
		}
	}
	size := len(rows)
	g, err := NewGame(Config{Size: size, Rules: rules, Seed: 1})
	if err != nil {
		t.Fatalf("NewGame(%d): %v", size, err)
	}
	var stones []Stone
	var dead []Point
	for i, row := range rows {
		if len(row) != size {
			t.Fatalf("diagram row %d has %d points, want %d", i+1, len(row), size)
		}
		for col, ch := range row {
			p := Point{col, size - 1 - i}
			switch ch {
			case 'X', 'x':
				stones = append(stones, Stone{p, Black})
			case 'O', 'o':
				stones = append(stones, Stone{p, White})
			}
			if ch == 'x' || ch == 'o' {
				dead = append(dead, p)
			}
		}
	}
	if err := g.SetupStones(stones, Black, 0); err != nil {
		t.Fatalf("SetupStones: %v", err)
	}
	estSortPoints(dead)
	return g, dead
}

func estPointList(ps []Point) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

func TestEstimateDeadDiagrams(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		seki    int // stones expected in seki
	}{
		{"empty board", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. . . . .`, 0},
		{"dead stones in territory", `
			. . X O . . . . .
			. o X O . . x . .
			. . X O . . . . .
			X X X O . . . . .
			. . X O O O O O O
			. X X X X X X X X
			. X . . . . X . .
			X . . o . X . . .
			. . . . . X . . .`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, want := estDiagramGame(t, tc.diagram, DefaultRules())
			e := EstimateDead(context.Background(), g, EstimateOptions{})
			if got := estPointList(e.Dead); got != estPointList(want) {
				t.Errorf("Dead = %s, want %s\nuncertain %s\n%v\n%s", got, estPointList(want), estPointList(e.Uncertain), g.Board(), estOwnership(e, g.Size()))
			}
			if len(e.Seki) != tc.seki {
				t.Errorf("Seki = %s, want %d stones", estPointList(e.Seki), tc.seki)
			}
		})
	}
}

func estOwnership(e Estimate, size int) string {
	var sb strings.Builder
	for r := size - 1; r >= 0; r-- {
		for c := 0; c < size; c++ {
			estFmtInt(&sb, int(e.Ownership[r*size+c]*100))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func estFmtInt(sb *strings.Builder, v int) {
	s := strings.Repeat(" ", 5) + itoa(estAbs(v))
	if v < 0 {
		s = strings.Repeat(" ", 5) + "-" + itoa(-v)
	}
	sb.WriteString(s[len(s)-5:])
}

func estAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
