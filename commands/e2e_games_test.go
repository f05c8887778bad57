package commands_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EMyGames: /go games lists the user's games in play everywhere, a
// server's channels and a DM with gobot, privately, the games where it is
// their move first, each with its players, board, move, time and place;
// a command in a channel without a game, on another server, points at it
// (it said only how to start a game), and /go board in a channel without
// one says where the user's games are.
func TestE2EMyGames(t *testing.T) { httpMode(t, testE2EMyGames) }

func testE2EMyGames(t *testing.T, e *env) {
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	general, lobby, random := e.d.GuildChannel("general"), e.d.GuildChannel("lobby"), e.d.GuildChannel("random")
	e.startGame(general, alice, bob, 9) // alice Black, to move
	dm := e.d.DM(alice)
	e.do(e.botGame(dm, alice, "tester")) // alice White: the bot moves first
	e.waitMoves("the bot's first move", dm.ID, 1)
	e.startGame(lobby, carol, alice, 13) // carol Black, to move
	for _, ch := range []string{general.ID, dm.ID, lobby.ID} {
		e.d.WaitFor("the board kept", func() bool { g := e.game(ch); return g != nil && commands.NewestBoard(g) != "" })
	}

	m := e.do(e.slash(random, alice, "games"))
	if !m.Ephemeral || len(m.Embeds) != 1 {
		t.Fatalf("/go games = %+v, want one private embed", m)
	}
	if got, want := m.Embeds[0].Title, "Your games in play: 3 games, your move in 2"; got != want {
		t.Errorf("title %q, want %q", got, want)

	}
	lines := strings.Split(m.Embeds[0].Description, "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %q", len(lines), m.Embeds[0].Description)
	}
	g1, g2, g3 := e.game(general.ID), e.game(dm.ID), e.game(lobby.ID)
	board := func(guild, ch, msg string) string {
		return fmt.Sprintf("([board](https://discord.com/channels/%s/%s/%s))", guild, ch, msg)
	}
	var mine []string
	for _, l := range lines[:2] {
		if !strings.HasPrefix(l, "**Your move** · ") {
			t.Errorf("line %q: want alice's move first", l)
		}
		mine = append(mine, l)
	}
	joined := strings.Join(mine, "\n")
	if want := "⚫ " + alice.Mention() + " vs ⚪ " + bob.Mention() + " · 9×9 · move 1 · your time runs out <t:"; !strings.Contains(joined, want) {
		t.Errorf("alice's lines %q: want %q", joined, want)
	}
	if want := "<#" + general.ID + "> " + board(general.GuildID, general.ID, commands.NewestBoard(g1)); !strings.Contains(joined, want) {
		t.Errorf("alice's lines %q: want the general game's place %q", joined, want)
	}
	if want := "⚫ gobot (tester) vs ⚪ " + alice.Mention() + " · 9×9 · move 2"; !strings.Contains(joined, want) {
		t.Errorf("alice's lines %q: want %q", joined, want)
	}
	if !strings.Contains(joined, " · in a DM ([board](https://discord.com/channels/@me/"+dm.ID+"/") || g2 == nil {
		t.Errorf("alice's lines %q: want the DM game in a DM", joined)
	}
	if want := carol.Mention() + " to play · ⚫ " + carol.Mention() + " vs ⚪ " + alice.Mention() + " · 13×13 · move 1 · their time runs out <t:"; !strings.HasPrefix(lines[2], want) ||
		!strings.HasSuffix(lines[2], "<#"+lobby.ID+"> "+board(lobby.GuildID, lobby.ID, commands.NewestBoard(g3))) {
		t.Errorf("last line %q: want carol's move in lobby", lines[2])
	}
	// /draughts games is the same list.
	if d := e.do(e.draughtsCmd(random, alice, "games")); len(d.Embeds) != 1 || d.Embeds[0].Description != m.Embeds[0].Description {
		t.Errorf("/draughts games = %+v, want /go games' list", d)
	}
	// Someone who plays none is told how to start.
	e.said(e.slash(random, dave, "games"), "You have no game in play. `/go challenge` or `/go bot` starts one.")
	if b := e.do(e.slash(random, bob, "games")); len(b.Embeds) != 1 || b.Embeds[0].Title != "Your games in play: 1 game" {
		t.Errorf("bob's /go games = %+v", b)
	}

	// Where nothing nearer says where the games are, /go games does.
	other := e.d.OtherGuildChannel("900000000000000001", "elsewhere")
	e.refused(e.slash(other, alice, "pass"), "There is no game in this channel. You play 3 games elsewhere: `/go games` lists them, with where each is and your move first.")
	e.refused(e.slash(other, bob, "pass"), "There is no game in this channel. You play a game elsewhere: `/go games` says where.")
	// /go board in a channel of the server without a game names them.
	e.refused(e.slash(random, alice, "board"), "There is no game in this channel. Your games are in <#"+general.ID+"> and <#"+lobby.ID+">: run the command there.")
}

// TestE2EHintsNameWorkingCommands: a hint names a command that works where
// it sends the user: the record of a game of draughts named from /go sgf
// is /draughts record (it said to run /go sgf there, which points
// elsewhere again), /go estimate of one is only for Go, and in a DM with
// gobot only /go bot starts a game (it suggested /go challenge, which is
// refused there).
func TestE2EHintsNameWorkingCommands(t *testing.T) { httpMode(t, testE2EHintsNameWorkingCommands) }

func testE2EHintsNameWorkingCommands(t *testing.T, e *env) {
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	ch, random := e.d.GuildChannel("draughts"), e.d.GuildChannel("random")
	e.draughtsGame(ch, alice, bob, "none")
	id := e.game(ch.ID).ID
	e.refused(e.slash(random, alice, "sgf", discordtest.Str("game", id)), "Game `"+id+"` is not over yet: it is being played in <#"+ch.ID+">. Run `/draughts record` there without `game:`.")
	e.refused(e.slash(random, alice, "estimate", discordtest.Str("game", id)), "Game `"+id+"` is a game of international draughts, still being played in <#"+ch.ID+">: `/go estimate` is only for Go.")

	carol := e.d.NewUser("carol")
	dm := e.d.DM(carol)
	e.refused(e.slash(dm, carol, "pass"), "There is no game in this DM. Start one against me with `/go bot`.")
	e.do(e.botGame(dm, carol, "tester"))
	e.waitMoves("the bot's first move", dm.ID, 1)
	e.do(e.slash(dm, carol, "resign"))
	if m := e.do(e.slash(dm, carol, "board")); !strings.Contains(m.Text(), "; `/go bot` starts a new one.") {
		t.Errorf("/go board in the DM after the game = %q, want only /go bot suggested", m.Text())
	}
}
