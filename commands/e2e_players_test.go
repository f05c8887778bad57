package commands_test

// End-to-end tests of what players meet around a finished game (issue
// 32, "Players"): /go replay and /go estimate refuse a game without moves
// as /go review does; /go board shows the game that ended here.

import (
	"strings"
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

// TestE2EBoardAfterTheGame: /go board after the game here ended shows
// its final position and result; in a channel where no game has ended it
// still says there is no game.
func TestE2EBoardAfterTheGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, bob := e.d.NewUser("alice"), e.d.NewUser("bob")
	e.refused(e.slash(ch, alice, "board"), "There is no game")
	e.startGame(ch, alice, bob, 9)
	e.playOut(ch, alice, bob, opening9)
	id := e.game(ch.ID).ID
	e.do(e.slash(ch, alice, "resign"))
	m := e.do(e.slash(ch, e.d.NewUser("carol"), "board"))
	if m.Ephemeral {
		t.Fatalf("/go board after the game = %q, private", m.Text())
	}
	for _, want := range []string{
		"The last game of Go in this channel ended <t:",
		"after 10 moves; `/go challenge` or `/go bot` starts a new one.",
		"**Game over: ⚪ <@" + bob.ID + "> wins by resignation · W+R**",
		"Last move: ⚪ D7 · Captures: ⚫ 0 · ⚪ 0",
		"-# 9×9 · chinese",
	} {
		if !strings.Contains(m.Text(), want) {
			t.Errorf("/go board after the game = %q, want it to say %q", m.Text(), want)
		}
	}
	png, ok := m.PNG()
	if !ok || !strings.Contains(png.Filename, id) || !strings.Contains(png.Description, "alice") {
		t.Errorf("/go board after the game: picture %+v, want game %s's final position", png, id)
	}
	if len(m.Buttons()) != 0 {
		t.Errorf("/go board after the game has buttons: %+v", m.Buttons())
	}
}

// TestE2EStatsOfABot: /go stats and /go history of gobot point to its
// levels, and of another bot account say it plays nothing here, each
// privately, for Go and draughts, instead of "has not finished a game".
func TestE2EStatsOfABot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.d.GuildChannel("general")
	alice, robot := e.d.NewUser("alice"), e.d.NewUser("robot")
	robot.Bot = true
	gobot := discordtest.User{ID: e.d.BotUserID, Username: "gobot", Bot: true}
	for _, cmd := range []string{"stats", "history"} {
		e.refused(e.slash(ch, alice, cmd, discordtest.UserOpt("player", gobot)),
			"I play at levels, each rated on its own and with its own rank: `/go help` lists them. Games against me count in your own `/go stats` and `/go history`.")
		e.refused(e.draughtsCmd(ch, alice, cmd, discordtest.UserOpt("player", gobot)),
			"I play at levels, each rated on its own and with its own rank: `/draughts help` lists them. Games against me count in your own `/draughts stats` and `/draughts history`.")
		e.refused(e.slash(ch, alice, cmd, discordtest.UserOpt("player", robot)),
			"<@"+robot.ID+"> is a bot account and plays no games here, so it has no record.")
	}
}

// TestE2ELastGameElsewhere: /go sgf or /go review in a channel where no
// game ended, by a player whose last game was played in another channel of
// the server (a thread:true game's thread, most often), names that game and
// its channel; someone who has played nothing gets the general answer.
func TestE2ELastGameElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	games, general := e.d.GuildChannel("games"), e.d.GuildChannel("general")
	alice, bob, cid := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("cid")
	id := e.resignedGame(games, alice, bob)
	want := "No game has been played to the end in this channel itself: your last game, `" + id + "`, was played in <#" + games.ID + ">. Name it with `game:" + id + "`, or run the command there."
	for _, cmd := range []string{"sgf", "review"} {
		e.refused(e.slash(general, alice, cmd), want)
	}
	e.refused(e.slash(general, cid, "sgf"), "No game has been played to the end in this channel yet: name one with `game:` (it suggests your recent games), or see `/go history`.")
}

// TestE2EGamesElsewhere: a game command sent where no game is, by someone
// who plays in other channels of the server, says where their games of
// that kind are (not those of another server, nor of the other game).
func TestE2EGamesElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	general, lobby, quiet := e.d.GuildChannel("general"), e.d.GuildChannel("lobby"), e.d.GuildChannel("quiet")
	elsewhere := e.d.OtherGuildChannel("900000000000000001", "far")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.startGame(general, alice, bob, 9)
	e.startGame(lobby, carol, alice, 9)
	e.startGame(elsewhere, alice, carol, 9)
	e.do(e.click(bob, e.newChallenge(e.draughtsCmd(quiet, alice, "challenge", discordtest.UserOpt("opponent", bob))), "accept"))
	draughts := e.d.GuildChannel("draughts")
	e.do(e.click(carol, e.newChallenge(e.draughtsCmd(draughts, bob, "challenge", discordtest.UserOpt("opponent", carol))), "accept"))

	empty := e.d.GuildChannel("empty")
	e.refused(e.slash(empty, alice, "pass"), "There is no game in this channel. Your games are in <#"+general.ID+"> and <#"+lobby.ID+">: run the command there.")
	e.refused(e.slash(empty, bob, "resign"), "There is no game in this channel. Your game is in <#"+general.ID+">: run the command there.")
	e.refused(e.draughtsCmd(empty, carol, "resign"), "There is no game in this channel. Your game is in <#"+draughts.ID+">: run the command there.")
	e.refused(e.draughtsCmd(empty, e.d.NewUser("dave"), "resign"), "There is no game in this channel. Start one with `/draughts challenge` or `/draughts bot`.")
}
