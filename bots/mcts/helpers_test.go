package mcts

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// gameFrom builds a game from a diagram (see enginetest.Diagram) with
// toPlay to move, under chinese rules with the given komi.
func gameFrom(t testing.TB, komi float64, toPlay engine.Color, diagram string) *engine.Game {
	t.Helper()
	return enginetest.Game(t, diagram, enginetest.Komi(komi), enginetest.ToPlay(toPlay))
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
