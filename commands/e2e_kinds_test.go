package commands_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EOtherKindFinishedHere: a channel where only a game of draughts
// has finished holds no finished game of Go: /go sgf, replay and review
// refuse, naming the draughts game and the commands that show it (they
// once attached its PDN, posted its replay or called it "a game of
// international draughts: reviews are only for Go"); /go board shows the
// board here, as it does a game of draughts in play. A move sent to a
// channel whose last Go game just ended is told about that game, even
// when a game of draughts ended there after it (it was once told "0-2
// (resignation). `/go board` shows it", the draughts game's result).
func TestE2EOtherKindFinishedHere(t *testing.T) { httpMode(t, testE2EOtherKindFinishedHere) }

func testE2EOtherKindFinishedHere(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")

	ch := e.d.GuildChannel("draughts-only")
	e.draughtsGame(ch, alice, bob, "none")
	g := e.game(ch.ID)
	e.do(e.draughtsCmd(ch, bob, "resign"))
	d := e.archived(ch.ID, g.ID)
	want := fmt.Sprintf("No game of Go has been played to the end in this channel yet. The last game finished here, `%s`, was a game of international draughts: `/draughts board` shows it, and `/draughts record game:%s` gives its record.", d.ID, d.ID)
	for _, sub := range []string{"sgf", "replay", "review"} {
		e.refused(e.slash(ch, alice, sub), want)
	}
	// /draughts' own commands find it, and /go board shows it.
	for _, it := range []*discordtest.Interaction{e.draughtsCmd(ch, alice, "board"), e.slash(ch, alice, "board")} {
		if m := e.do(it); m.Ephemeral || !strings.Contains(m.Text(), "Game over") {
			t.Errorf("board after the game = %q", m.Text())
		}
	}

	ch = e.d.GuildChannel("both")
	e.startGame(ch, alice, bob, 9)
	g = e.game(ch.ID)
	e.do(e.slash(ch, bob, "resign"))
	goGame := e.archived(ch.ID, g.ID)
	e.draughtsGame(ch, alice, bob, "none")
	e.do(e.draughtsCmd(ch, alice, "resign"))
	e.refused(e.play(ch, alice, "E5"), fmt.Sprintf("Your game here ended <t:%d:R>: %s. `/go board` shows it.", goGame.FinishedAt.Unix(), goGame.Result))
	e.refused(e.slash(ch, alice, "pass"), fmt.Sprintf("Your game here ended <t:%d:R>: %s.", goGame.FinishedAt.Unix(), goGame.Result))
	// And the other way round: no draughts game before the Go game here.
	ch = e.d.GuildChannel("go-only")
	e.startGame(ch, alice, bob, 9)
	g = e.game(ch.ID)
	e.do(e.slash(ch, bob, "resign"))
	e.refused(e.draughtsMove(ch, alice, "32-28"), "There is no game")
	e.refused(e.draughtsCmd(ch, alice, "record"), fmt.Sprintf("No game of international draughts has been played to the end in this channel yet. The last game finished here, `%s`, was a game of Go: `/go board` shows it, and `/go sgf game:%s` gives its record.", g.ID, g.ID))
}

// TestE2EReviewDuringDraughts: /go review in a channel whose first game,
// of draughts, is in play is told it takes a finished game of Go (it
// said to run it once the game is over, when it would refuse that game).
func TestE2EReviewDuringDraughts(t *testing.T) { httpMode(t, testE2EReviewDuringDraughts) }

func testE2EReviewDuringDraughts(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch := e.d.GuildChannel("draughts")
	e.draughtsGame(ch, alice, bob, "none")
	e.refused(e.slash(ch, alice, "review"), "The game in this channel is a game of international draughts, still being played, and `/go review` takes a finished game of Go: name one with `game:`.")
}
