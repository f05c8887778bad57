package goroom

import (
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// clockStatus is ClockStatus for a game of Go, which also says when its
// clocks stopped for the scoring phase.
func clockStatus(g *storage.Game, now time.Time) string {
	s := commands.ClockStatus(g, now, func(s game.Side) string { return (*room)(nil).SideLabel(g, s) })
	if s != "" && !g.Clock.Running() && g.Scoring != nil {
		s += " · stopped while the dead stones are agreed"
	}
	return s
}
