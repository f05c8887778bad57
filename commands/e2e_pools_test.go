package commands_test

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EPoolsOffSaysSo: a game that no rating pool of its server counts
// says "unrated" from its start, and its end says why. Games against
// gobot count in the global pool only, so with the server's global
// ratings off a bot game is unrated although its own pool is on; with
// both pools off every game is. Before, /go bot and /draughts bot said
// "rated" then, and with only the global pool off the game ended with no
// rating line and no reason.
func TestE2EPoolsOffSaysSo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const (
		goFooter       = "\n-# 9×9 · chinese (area scoring, positional superko, komi 7.5) · unrated"
		draughtsFooter = "\n-# International draughts, 10×10 (FMJD rules) · unrated"
		botsOnly       = "Not rated: this server's admins turned off the global ratings, and games against bots count only there."
		allOff         = "Not rated: ratings are off on this server, as its admins chose."
	)
	ch := e.d.GuildChannel("general")
	ann, _, _ := e.admins()
	// goBot plays a /go bot game out in ch (five moves each, enough for a
	// rated game to be rated) and resigns it, checking each answer says
	// why it is unrated.
	goBot := func(why string) {
		t.Helper()
		dave := e.d.NewUser("dave")
		start := e.do(e.slash(ch, dave, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 9), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
		hasAll(t, "/go bot", start.Text(),
			"New game: "+dave.Mention()+" plays ⚪ white against gobot **tester** (9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; unrated). "+why+"\n", goFooter)
		for n, mv := range []string{"E5", "D4", "F6", "E3", "G7"} {
			hasAll(t, "/go play move:"+mv, e.do(e.play(ch, dave, mv)).Text(), goFooter)
			e.waitMoves("the bot's answer", ch.ID, 2*n+3)
		}
		// Undo is refused, as in a rated game (the admins may turn the
		// ratings on before it ends), but not for being rated.
		e.refused(e.slash(ch, dave, "undo"), "There is no undo in this game against the bot: it was started rated, and although this server's ratings settings leave it unrated now, its admins may turn them on before it ends. Start the game with `rated:false` to take back moves freely.")
		end := e.do(e.slash(ch, dave, "resign"))
		hasAll(t, "/go resign", end.Text(), "⚪ "+dave.Mention()+" resigned.\n"+why+"\n", goFooter)
		if strings.Contains(end.Text(), "📈") {
			t.Errorf("/go resign = %q, an unrated game moved ratings", end.Text())
		}
	}
	draughtsBot := func(why string) {
		t.Helper()
		kim := e.d.NewUser("kim")
		start := e.do(e.draughtsCmd(ch, kim, "bot", discordtest.Str("level", "beginner"), discordtest.Str("color", "white"), discordtest.Str("clock", "none")))
		hasAll(t, "/draughts bot", start.Text(),
			"New game of international draughts: "+kim.Mention()+" plays ⚪ white against gobot **beginner** (no clock; unrated). "+why+"\n", draughtsFooter)
		for n := 1; n <= 5; n++ {
			hasAll(t, "/draughts play", e.do(e.draughtsMove(ch, kim, string(draughtsOf(t, e.game(ch.ID)).Legal()[0]))).Text(), draughtsFooter)
			e.waitMoves("the bot's answer", ch.ID, 2*n)
		}
		end := e.do(e.draughtsCmd(ch, kim, "resign"))
		hasAll(t, "/draughts resign", end.Text(), "🏳️ ⚪ white "+kim.Mention()+" resigned.\n"+why+"\n", draughtsFooter)
	}

	// The global pool off: bot games are unrated, games between people
	// count on this server.
	e.do(e.set(ch, ann, "global_ratings", "off"))
	goBot(botsOnly)
	draughtsBot(botsOnly)
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	inv := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Str("clock", "none")))
	if want := bob.Mention() + ", " + alice.Mention() + " challenges you to a game of Go: 9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; " + alice.Mention() + " plays black."; !strings.Contains(inv.Text(), want) {
		t.Errorf("challenge with only the global pool off = %q, want %q", inv.Text(), want)
	}
	e.do(e.click(bob, inv, "decline"))

	// Both off: every game is unrated, and its challenge says so.
	e.do(e.set(ch, ann, "ratings", "off"))
	goBot(allOff)
	draughtsBot(allOff)
	inv = e.newChallenge(e.slash(ch, alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Str("clock", "none")))
	if want := bob.Mention() + ", " + alice.Mention() + " challenges you to a game of Go: 9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; " + alice.Mention() + " plays black; unrated."; !strings.Contains(inv.Text(), want) {
		t.Errorf("challenge with both pools off = %q, want %q", inv.Text(), want)
	}
	e.do(e.click(bob, inv, "accept"))
	e.waitBoard(ch.ID, goFooter)
	inv = e.newChallenge(e.draughtsCmd(e.d.GuildChannel("draughts"), alice, "challenge", discordtest.UserOpt("opponent", bob), discordtest.Str("clock", "none")))
	hasAll(t, "/draughts challenge with both pools off", inv.Text(), "; unrated.")
}
