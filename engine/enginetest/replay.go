package enginetest

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// A Position is what two programs playing the same game must agree on
// after each move: the stones of each colour as GTP's list_stones lists
// them (top row first, left to right), the stones each colour has captured,
// and who is to move.
type Position struct {
	Black, White    string
	CapturedByBlack int
	CapturedByWhite int
	ToPlay          engine.Color
}

// PositionOf returns g's current position.
func PositionOf(g *engine.Game) Position {
	b := g.Board()
	var black, white []string
	for row := g.Size() - 1; row >= 0; row-- {
		for col := 0; col < g.Size(); col++ {
			p := engine.Point{Col: col, Row: row}
			switch b.At(p) {
			case engine.Black:
				black = append(black, p.String())
			case engine.White:
				white = append(white, p.String())
			}
		}
	}
	return Position{
		Black: strings.Join(black, " "), White: strings.Join(white, " "),
		CapturedByBlack: g.Captures(engine.Black), CapturedByWhite: g.Captures(engine.White),
		ToPlay: g.ToPlay(),
	}
}

// Replay replays g's set-up and moves into a new game with the same rules,
// resuming play after two passes where the record goes on, and returns the
// position after each move (index 0 is the set-up). It fails tb, naming
// the game name, on a move the new game refuses.
func Replay(tb testing.TB, name string, g *engine.Game) []Position {
	tb.Helper()
	ng, err := g.Rebuild(g.Rules(), 0)
	if err != nil {
		tb.Fatalf("%s: set-up: %v", name, err)
	}
	pos := []Position{PositionOf(ng)}
	for i, m := range g.Moves() {
		if ng.PlayEnded() {
			if err := ng.Resume(); err != nil {
				tb.Fatalf("%s: resume before move %d: %v", name, i+1, err)
			}
		}
		if err := ng.Play(m); err != nil {
			tb.Fatalf("%s: replaying move %d (%s %v): %v", name, i+1, m.Color.Letter(), m, err)
		}
		pos = append(pos, PositionOf(ng))
	}
	return pos
}
