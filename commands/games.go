package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// maxGamesListed is how many games /go games lists: a line each, the
// rest counted below them (an embed's description holds 4096
// characters).
const maxGamesListed = 20

// CmdGames answers /go games and /draughts games: the user's games in
// play, of every kind and everywhere (this server, others, DMs with
// gobot), each with where it is, whose move it is and the time left; the
// games where it is the user's move first, the soonest deadline first
// among them. It answers the user alone, so it may name places the
// channel's other people do not see.
func (a *App) CmdGames(ctx context.Context, r *Request) error {
	games, err := a.games.PlayerActiveGames(ctx, r.User.ID)
	if err != nil {
		return err
	}
	rm := a.commandRoom(r)
	if len(games) == 0 {
		return r.Reply(ctx, &Message{Ephemeral: true, AllowedMentions: NoMentions(),
			Content: fmt.Sprintf("You have no game in play. `/%s challenge` or `/%s bot` starts one.", rm.Command(), rm.Command())})
	}
	me := r.User.ID
	yours := func(g *storage.Game) bool { return yourMove(g, me) }
	deadline := func(g *storage.Game) time.Time {
		if g.Clock != nil && g.Clock.Running() {
			return g.Clock.Deadline()
		}
		return time.Time{}
	}
	slices.SortStableFunc(games, func(x, y *storage.Game) int {
		if yx, yy := yours(x), yours(y); yx != yy {
			if yx {
				return -1
			}
			return 1
		}
		dx, dy := deadline(x), deadline(y)
		switch {
		case dx.IsZero() != dy.IsZero():
			if dx.IsZero() {
				return 1
			}
			return -1
		case !dx.Equal(dy):
			return dx.Compare(dy)
		}
		return cmp.Compare(x.ID, y.ID)
	})
	var lines []string
	turns := 0
	for i, g := range games {
		if yours(g) {
			turns++
		}
		if i < maxGamesListed {
			lines = append(lines, a.myGameLine(g, me, r.Interaction.GuildID))
		}
	}
	if more := len(games) - len(lines); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %s more.", Plural(more, "game")))
	}
	title := "Your games in play: " + Plural(len(games), "game")
	switch turns {
	case 0:
	case len(games):
		title += ", your move in every one"
	default:
		title += fmt.Sprintf(", your move in %d", turns)
	}
	embed := &discordgo.MessageEmbed{Title: Clip(title, 256), Description: Clip(strings.Join(lines, "\n"), 4096), Color: ColorBlack}
	return r.Reply(ctx, &Message{Embeds: []*discordgo.MessageEmbed{embed}, Ephemeral: true, AllowedMentions: NoMentions()})
}

// myGameLine is g on the list of the games of the user me, asked on the
// server guild ("" in a DM): "**Your move** · ⚫ @ann vs ⚪ @bob · 9×9 ·
// move 12 · your time runs out <t:…:R> · <#c> ([board](…))".
func (a *App) myGameLine(g *storage.Game, me, guild string) string {
	players, board, move := a.roomOf(g).Line(g)
	turn, whose := Mention(g.Player(g.State.ToMove()))+" to play", "their time runs out"
	switch {
	case g.State.ToMove() == game.NoSide:
		turn = "counting: agree on the dead stones"
	case yourMove(g, me):
		turn, whose = "**Your move**", "your time runs out"
	}
	parts := []string{turn, players, board}
	if g.State.ToMove() != game.NoSide {
		parts = append(parts, fmt.Sprintf("move %d", move))
	}
	if g.Clock != nil && g.Clock.Running() {
		parts = append(parts, fmt.Sprintf("%s <t:%d:R>", whose, g.Clock.Deadline().Unix()))
	}
	return strings.Join(append(parts, a.whereGame(g, guild)), " · ")
}

// yourMove reports whether the user me is the player to move in g.
func yourMove(g *storage.Game, me string) bool {
	s := g.State.ToMove()
	return s != game.NoSide && g.Player(s).UserID == me
}

// whereGame says where g is played, for someone asking on the server
// guild: its channel, with a link to its newest board; "in a DM" for a
// DM (with gobot or a group); "on another server" beside the channel of
// one.
func (a *App) whereGame(g *storage.Game, guild string) string {
	if g.GuildID == consoleGuild {
		return "on the board page"
	}
	link := ""
	if url := boardURL(g); url != "" {
		link = " ([board](" + url + "))"
	}
	switch {
	case g.GuildID == "":
		return "in a DM" + link
	case g.GuildID != guild:
		return "<#" + g.ChannelID + "> on another server" + link
	}
	return "<#" + g.ChannelID + ">" + link
}

// boardURL is the address of g's newest board in Discord ("" when none is
// kept), which a link in a private answer or an admin's list opens.
func boardURL(g *storage.Game) string {
	id := NewestBoard(g)
	if id == "" {
		return ""
	}
	server := g.GuildID
	if server == "" {
		server = "@me"
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", server, g.ChannelID, id)
}
