package goroom

import (
	"context"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
)

// Players is what the App needs from the AI opponents: the levels on offer
// and a move for one of them. GenMove must not modify g, returns a legal
// move for g.ToPlay() (Place, Pass or Resign), and returns when ctx ends.
type Players interface {
	Levels() []commands.Level
	GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error)
}
