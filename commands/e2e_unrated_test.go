package commands_test

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EUnratedSaysSo: a game says whether it is rated from its start
// to its end. The answer starting a bot game ends its setup with "rated"
// or "unrated" (as a challenge's invitation does); every board of an
// unrated game says so in its last line; and its final answer says why no
// rating moved, as a rated game's shows the changes. Before, a newcomer
// was never told that /go bot was rated, nor a player who chose
// rated:false that it was not.
func TestE2EUnratedSaysSo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const (
		goFooter       = "\n-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · unrated"
		draughtsFooter = "\n-# International draughts, 10×10 (FMJD rules) · unrated"
		notRated       = "\nNot rated: the game was started unrated.\n"
	)

	t.Run("go bot", func(t *testing.T) {
		dave := e.d.NewUser("dave")
		dm := e.d.DM(dave)
		start := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Bool("rated", false), discordtest.Str("clock", "none")))
		hasAll(t, "/go bot rated:false", start.Text(),
			"New game: "+dave.Mention()+" plays ⚪ white against gobot **tester** (9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; unrated).\n",
			goFooter)
		// Five moves each, enough for a rated game to be rated.
		for _, mv := range []string{"E5", "D4", "F6", "E3", "G7"} {
			hasAll(t, "/go play move:"+mv, e.do(e.play(dm, dave, mv)).Text(), goFooter)
		}
		end := e.do(e.slash(dm, dave, "resign"))
		hasAll(t, "/go resign", end.Text(), "⚪ "+dave.Mention()+" resigned."+notRated, goFooter)
		if b := e.do(e.slash(dm, dave, "board")).Text(); !strings.HasSuffix(b, goFooter) {
			t.Errorf("/go board after the game = %q, want it to end with %q", b, goFooter)
		}

		rated := e.do(e.slash(dm, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
		hasAll(t, "/go bot", rated.Text(), "New game: "+dave.Mention()+" plays ⚪ white against gobot **tester** (9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; rated).\n")
		if strings.Contains(rated.Text(), "unrated") {
			t.Errorf("/go bot = %q, a rated game said unrated", rated.Text())
		}
	})

	t.Run("draughts bot", func(t *testing.T) {
		kim := e.d.NewUser("kim")
		dm := e.d.DM(kim)
		start := e.do(e.draughtsCmd(dm, kim, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "white"), discordtest.Str("clock", "none"), discordtest.Bool("rated", false)))
		hasAll(t, "/draughts bot rated:false", start.Text(),
			"New game of international draughts: "+kim.Mention()+" plays ⚪ white against gobot **beginner** (no clock; unrated).\n", draughtsFooter)
		for n := 1; n <= 5; n++ {
			hasAll(t, "/draughts play", e.do(e.draughtsMove(dm, kim, string(draughtsOf(t, e.game(dm.ID)).Legal()[0]))).Text(), draughtsFooter)
			e.waitMoves("the bot's answer", dm.ID, 2*n)
		}
		end := e.do(e.draughtsCmd(dm, kim, "resign"))
		hasAll(t, "/draughts resign", end.Text(), "🏳️ ⚪ white "+kim.Mention()+" resigned."+notRated, draughtsFooter)
		// The finished board's last line says it too (it had none).
		if b := e.do(e.draughtsCmd(dm, kim, "board")).Text(); !strings.HasSuffix(b, draughtsFooter) {
			t.Errorf("/draughts board after the game = %q, want it to end with %q", b, draughtsFooter)
		}
	})

	t.Run("go challenge", func(t *testing.T) {
		ch := e.d.GuildChannel("casual")
		ann, bob := e.d.NewUser("ann"), e.d.NewUser("bob")
		first := e.challenge(ch, ann, bob, discordtest.Bool("rated", false), discordtest.Str("clock", "none"))
		hasAll(t, "the first board of an unrated challenge", first.Text(), goFooter)
	})
}

// hasAll checks that what's text has each of want.
func hasAll(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s = %q, want %q", what, text, w)
		}
	}
}
