package bots

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// position builds a game from a diagram (see enginetest.Diagram) with
// toPlay to move. Komi is 0.5, so that the fate of the groups in the
// diagram decides the game.
func position(t testing.TB, diagram string, toPlay engine.Color) *engine.Game {
	t.Helper()
	return enginetest.Game(t, diagram, enginetest.Komi(0.5), enginetest.ToPlay(toPlay))
}
