package commands_test

// Rematches: the Rematch button of a finished game's board asks for the
// same game again, the colours changed in an even game, through the
// command that would start it: a challenge to a person, a new game at once
// against a bot. The harness is in e2e_harness_test.go.

import (
	"context"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

func TestE2ERematchChallenge(t *testing.T) { bothModes(t, testE2ERematchChallenge) }

func testE2ERematchChallenge(t *testing.T, e *env) {
	ch, alice, bob := e.guildGame(discordtest.Str("ruleset", "japanese"), discordtest.Num("komi", 5.5),
		discordtest.Str("clock", "byoyomi 10m 5x30s"), discordtest.Bool("rated", false))
	e.do(e.play(ch, alice, "E5"))
	final := e.do(e.slash(ch, bob, "resign"))
	if final.Ephemeral || !strings.Contains(final.Text(), "resign") {
		t.Fatalf("resign answered %q", final.Text())
	}
	if _, ok := final.Button("Rematch"); !ok {
		t.Fatalf("the final board has no Rematch button: %+v", final.Buttons())
	}
	old := e.game(ch.ID)
	if old != nil {
		t.Fatalf("the game is still in play after the resignation")
	}

	// Only its players may ask for it; the answer changes nothing.
	carol := e.d.NewUser("carol")
	e.refused(e.click(carol, final, "Rematch"), "Only the players of this game can ask for its rematch: to play one of them, use `/go challenge`.")

	// Bob asks: a challenge to alice, with the game's options and the
	// colours changed.
	it := e.click(bob, final, "Rematch")
	msg := e.do(it)
	want := alice.Mention() + ", " + bob.Mention() + " challenges you to a game of Go: 9×9, japanese rules: territory scoring, simple ko, komi 5.5, byo-yomi: 10 min, then 5 periods of 30 s; " + bob.Mention() + " plays black; unrated."
	if msg.Ephemeral || !strings.HasPrefix(msg.Text(), want+"\nThe challenge expires <t:") {
		t.Fatalf("rematch answered %q\nwant %q", msg.Text(), want)
	}
	c, err := e.store.Challenge(context.Background(), it.ID)
	if err != nil {
		t.Fatalf("the rematch's challenge is not stored: %v", err)
	}
	if c.Size != 9 || c.Rules.Name != "japanese" || c.Rules.Komi != 5.5 || c.Color != "black" || !c.Unrated || c.Thread ||
		c.Challenger.UserID != bob.ID || c.Opponent.UserID != alice.ID || c.Clock == nil || c.Clock.String() != "byoyomi 10m 5x30s" {
		t.Fatalf("challenge = %+v", c)
	}
	// A second click, by either player, posts no second challenge.
	e.refused(e.click(bob, final, "Rematch"), "You have challenged "+alice.Mention()+" here already: your challenge above waits for them to accept it (Decline withdraws it).")
	e.refused(e.click(alice, final, "Rematch"), bob.Mention()+" has asked you for a rematch already: press Accept on their challenge above.")
	e.do(e.click(alice, msg, "accept"))
	var g *storage.Game
	e.d.WaitFor("the rematch to start", func() bool { g = e.game(ch.ID); return g != nil })
	if g.First(engine.SideOf(engine.Black)).UserID != bob.ID || g.First(engine.SideOf(engine.White)).UserID != alice.ID || !g.Unrated {
		t.Fatalf("rematch: black %s, white %s, unrated %v; want bob black, alice white, unrated", g.First(0).UserID, g.First(1).UserID, g.Unrated)
	}

	e.d.WaitFor("the rematch's first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && !m.Deferred && boardOf(m, g.ID) {
				return true
			}
		}
		return false
	})
	// The old board's button now meets a game in play here.
	e.refused(e.click(alice, final, "Rematch"), "A game is already running in this channel.")
}

func TestE2ERematchBot(t *testing.T) { bothModes(t, testE2ERematchBot) }

func testE2ERematchBot(t *testing.T, e *env) {
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	if m := e.do(e.botGame(dm, dave, "tester")); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	final := e.do(e.slash(dm, dave, "resign"))
	if final.Ephemeral {
		t.Fatalf("resign refused: %q", final.Text())
	}
	// A rematch against the bot starts at once, dave now black (the bot
	// white answers his moves), rated as the first game was.
	m := e.do(e.click(dave, final, "Rematch"))
	if m.Ephemeral || !strings.Contains(m.Text(), "New game: "+dave.Mention()+" plays ⚫ black against gobot **tester**") {
		t.Fatalf("rematch answered %q", m.Text())
	}
	g := e.game(dm.ID)
	if g == nil || g.First(engine.SideOf(engine.Black)).UserID != dave.ID || g.First(engine.SideOf(engine.White)).Level != "tester" ||
		goOf(g).Size() != 9 || g.Unrated || g.State.MoveCount() != 0 {
		t.Fatalf("rematch game = %+v, want dave black against tester on 9×9, rated, no move yet", g)
	}
}

func TestE2ERematchDraughts(t *testing.T) { httpMode(t, testE2ERematchDraughts) }

func testE2ERematchDraughts(t *testing.T, e *env) {
	dave := e.d.NewUser("dave")
	dm := e.d.DM(dave)
	if m := e.do(e.draughtsCmd(dm, dave, "bot", discordtest.Str("color", "white"), discordtest.Bool("rated", false))); m.Ephemeral {
		t.Fatalf("/draughts bot refused: %q", m.Text())
	}
	final := e.do(e.draughtsCmd(dm, dave, "resign"))
	if final.Ephemeral {
		t.Fatalf("resign refused: %q", final.Text())
	}
	m := e.do(e.click(dave, final, "Rematch"))
	if m.Ephemeral {
		t.Fatalf("rematch refused: %q", m.Text())
	}
	g := e.game(dm.ID)
	if g == nil || g.Kind != "draughts" || g.First(1).UserID != dave.ID || !g.First(0).IsBot() || !g.Unrated {
		t.Fatalf("rematch game = %+v, want draughts with dave black against the bot, unrated", g)
	}
}
