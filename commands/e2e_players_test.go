package commands_test

// End-to-end tests of what players meet around a finished game (issue
// 32, "Players"): /go replay and /go estimate refuse a game without moves
// as /go review does.

import (
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EZeroMoveGame: a game resigned before any move has nothing to
// replay, estimate or review; each command says so privately.
func TestE2EZeroMoveGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	id := e.resignedGame(ch, alice, bob)
	// Asked in another channel, where the game's own late messages (its
	// end is announced in the background) cannot count as the answer's.
	other := e.d.GuildChannel("other")
	for cmd, want := range map[string]string{
		"replay":   "That game has no moves to replay.",
		"estimate": "That game has no moves to estimate.",
		"review":   "That game has no moves to review.",
	} {
		e.refused(e.slash(other, bob, cmd, discordtest.Str("game", id)), want)
	}
}
