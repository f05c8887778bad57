package commands_test

// Open challenges: /go challenge and /draughts challenge without an
// opponent, which anyone in the channel but the challenger may accept.
// The harness is in e2e_harness_test.go.

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

func TestE2EOpenChallenge(t *testing.T) { bothModes(t, testE2EOpenChallenge) }

func testE2EOpenChallenge(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	msg := e.newChallenge(e.slash(ch, alice, "challenge", discordtest.Int("size", 9), discordtest.Str("color", "black"), discordtest.Str("clock", "none")))
	want := "⚔️ " + alice.Mention() + " is looking for a game of Go, open to anyone here: 9×9, chinese rules: area scoring, positional superko, komi 7.5, no clock; " +
		alice.Mention() + " plays black. The first to press Accept plays.\nThe challenge expires <t:"
	if msg.Ephemeral || !strings.HasPrefix(msg.Text(), want) {
		t.Fatalf("open challenge = %q\nwant %q…", msg.Text(), want)
	}
	e.refused(e.click(alice, msg, "accept"), "This is your own open challenge: anyone else here may accept it. Press Decline to withdraw it.")
	e.refused(e.click(carol, msg, "decline"), "Only "+alice.Mention()+" can withdraw this open challenge: press Accept to play them, or leave it for someone else.")

	e.do(e.click(bob, msg, "accept"))
	var g *storage.Game
	e.d.WaitFor("the game to start", func() bool { g = e.game(ch.ID); return g != nil })
	if g.First(engine.SideOf(engine.Black)).UserID != alice.ID || g.First(engine.SideOf(engine.White)).UserID != bob.ID || g.Clock != nil {
		t.Fatalf("game: black %s, white %s, clock %v; want alice black, bob white, no clock", g.First(0).UserID, g.First(1).UserID, g.Clock)
	}
	closed, _ := e.d.Message(msg.ID)
	if !strings.HasPrefix(closed.Text(), "⚔️ "+alice.Mention()+" is looking for a game of Go, open to anyone here:") ||
		!strings.Contains(closed.Text(), "✅ "+bob.Mention()+" accepted: "+alice.Mention()+" ⚫ black, "+bob.Mention()+" ⚪ white.") {
		t.Errorf("the accepted challenge reads %q", closed.Text())
	}
	e.d.WaitFor("the game's first board", func() bool {
		for _, m := range e.d.Public(ch.ID) {
			if _, ok := m.PNG(); ok && !m.Deferred && boardOf(m, g.ID) {
				return true
			}
		}
		return false
	})
	// A second taker is too late; nothing changes.
	e.refused(e.d.Click(carol, msg, mustButton(t, msg, "accept").CustomID), "no longer open")
	if g2 := e.game(ch.ID); g2 == nil || g2.ID != g.ID || g2.First(1).UserID != bob.ID {
		t.Errorf("a late Accept changed the game: %+v", g2)
	}

	// Accepted while a game runs in its channel: it stays open, and the
	// taker is told what to do.
	room := e.d.GuildChannel("busy")
	busy := e.newChallenge(e.slash(room, carol, "challenge", discordtest.Int("size", 9)))
	dave, eve := e.d.NewUser("dave"), e.d.NewUser("eve")
	if m := e.do(e.botGame(room, eve, "tester")); m.Ephemeral {
		t.Fatalf("/go bot refused: %q", m.Text())
	}
	e.refused(e.click(dave, busy, "accept"), "A game is already running in this channel, so this challenge cannot start yet: accept it once that game is over (the challenge expires <t:")
	e.refused(e.click(dave, busy, "accept"), ", or ask "+carol.Mention()+" to open it again with `/go challenge ... thread:true` to play in a thread.")

	// Once a game of carol's begins in a channel, her other open
	// challenges there are withdrawn (one in a new thread stays), and so
	// are those of whoever accepted; other people's stay.
	seeks := e.d.GuildChannel("seeks")
	frank := e.d.NewUser("frank")
	taken := e.newChallenge(e.slash(seeks, carol, "challenge", discordtest.Int("size", 9)))
	again := e.newChallenge(e.draughtsCmd(seeks, carol, "challenge"))
	inThread := e.newChallenge(e.slash(seeks, carol, "challenge", discordtest.Int("size", 13), discordtest.Bool("thread", true)))
	davesOwn := e.newChallenge(e.slash(seeks, dave, "challenge", discordtest.Int("size", 19)))
	franks := e.newChallenge(e.slash(seeks, frank, "challenge", discordtest.Int("size", 19)))
	e.do(e.click(dave, taken, "accept"))
	e.d.WaitFor("the game's first board", func() bool { return len(e.publicWith(seeks.ID, "The game begins")) > 0 })
	// withdrawn waits for challenge m to be closed with the note, then
	// checks that u's Accept is refused; kept checks that none of ms was.
	withdrawn := func(m discordtest.Message, note string, u discordtest.User) {
		t.Helper()
		e.d.WaitFor("a challenge of players whose game began to close", func() bool {
			got, _ := e.d.Message(m.ID)
			return strings.HasSuffix(got.Text(), "\n"+note) && len(got.Buttons()) > 0 && got.Buttons()[0].Disabled
		})
		e.refused(e.d.Click(u, m, mustButton(t, m, "accept").CustomID), "no longer open")
	}
	kept := func(ms ...discordtest.Message) {
		t.Helper()
		for _, m := range ms {
			if got, _ := e.d.Message(m.ID); strings.Contains(got.Text(), "Withdrawn") {
				t.Errorf("a challenge that could still be played was withdrawn: %q", got.Text())
			}
		}
	}
	for _, m := range []discordtest.Message{again, davesOwn} {
		withdrawn(m, "⌛ Withdrawn: "+carol.Mention()+"'s game with "+dave.Mention()+" began in this channel.", frank)
	}
	kept(inThread, franks)

	// Two crossing challenges: once one starts the pair's game, the other
	// of the same game is withdrawn; one to another game, or to someone
	// else, stays.
	cross := e.d.GuildChannel("cross")
	mine := e.newChallenge(e.slash(cross, carol, "challenge", discordtest.UserOpt("opponent", dave), discordtest.Int("size", 9)))
	toDraughts := e.newChallenge(e.draughtsCmd(cross, carol, "challenge", discordtest.UserOpt("opponent", dave)))
	toFrank := e.newChallenge(e.slash(cross, carol, "challenge", discordtest.UserOpt("opponent", frank), discordtest.Int("size", 9)))
	theirs := e.newChallenge(e.slash(cross, dave, "challenge", discordtest.UserOpt("opponent", carol), discordtest.Int("size", 13)))
	for _, m := range []discordtest.Message{mine, toDraughts, toFrank, theirs} {
		if m.Ephemeral {
			t.Fatalf("a challenge was refused: %q", m.Text())
		}
	}
	e.do(e.click(carol, theirs, "accept"))
	e.d.WaitFor("the game's first board", func() bool { return len(e.publicWith(cross.ID, "The game begins")) > 0 })
	withdrawn(mine, "⌛ Withdrawn: "+dave.Mention()+"'s game with "+carol.Mention()+" began in this channel.", dave)
	kept(toDraughts, toFrank)

	// Withdrawn by its challenger.
	other := e.d.GuildChannel("other")
	msg = e.newChallenge(e.slash(other, carol, "challenge", discordtest.Int("size", 13)))
	if m := e.do(e.click(carol, msg, "decline")); !strings.Contains(m.Text(), "↩️ "+carol.Mention()+" withdrew the challenge.") {
		t.Errorf("withdrawing answered %q", m.Text())
	}

	// Not in a DM, where nobody else would see it.
	dm := e.d.DM(alice)
	e.refused(e.slash(dm, alice, "challenge", discordtest.Int("size", 9)), "Choose who to challenge with `opponent:`: a challenge open to anyone is for server channels. To play me here, use `/go bot`.")
}

func TestE2EOpenChallengeDraughts(t *testing.T) { httpMode(t, testE2EOpenChallengeDraughts) }

func testE2EOpenChallengeDraughts(t *testing.T, e *env) {
	ch := e.d.GuildChannel("draughts")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	msg := e.newChallenge(e.draughtsCmd(ch, alice, "challenge", discordtest.Str("color", "black")))
	if want := "⚔️ " + alice.Mention() + " is looking for a game of international draughts (10×10), open to anyone here:"; msg.Ephemeral || !strings.HasPrefix(msg.Text(), want) {
		t.Fatalf("open challenge = %q, want %q…", msg.Text(), want)
	}
	e.do(e.click(bob, msg, "accept"))
	var g *storage.Game
	e.d.WaitFor("the game to start", func() bool { g = e.game(ch.ID); return g != nil })
	if g.Kind != "draughts" || g.First(0).UserID != bob.ID || g.First(1).UserID != alice.ID {
		t.Fatalf("game %q: white %s, black %s; want bob white, alice black", g.Kind, g.First(0).UserID, g.First(1).UserID)
	}
}
