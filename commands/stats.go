package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// recentGames is how many finished games /go stats lists.
const recentGames = 5

func (b *Bot) cmdStats(ctx context.Context, r *Request) error {
	u := r.User
	if o, ok := r.UserOption("player"); ok {
		u = o
	}
	p := userPlayer(u)
	st, err := b.opts.Store.PlayerStats(ctx, u.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return r.ReplyText(ctx, fmt.Sprintf("%s has not finished a game yet.", mention(p)), true)
	}
	if err != nil {
		return err
	}
	games, err := b.opts.Store.PlayerGames(ctx, u.ID, recentGames)
	if err != nil {
		return err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "**%s**: %d won, %d lost", plural(st.Games, "game"), st.Wins, st.Losses)
	if st.Ties > 0 {
		fmt.Fprintf(&sb, ", %d jigo", st.Ties)
	}
	if st.NoResult > 0 {
		fmt.Fprintf(&sb, ", %d without result", st.NoResult)
	}
	sb.WriteString("\n")
	if len(games) > 0 {
		sb.WriteString("\n**Latest games**\n")
	}
	for _, a := range games {
		c, opp := engine.Black, a.White
		if a.White.UserID == u.ID {
			c, opp = engine.White, a.Black
		}
		outcome := "jigo"
		switch a.Winner {
		case c:
			outcome = "won"
		case c.Opponent():
			outcome = "lost"
		}
		fmt.Fprintf(&sb, "%s %s vs %s, %d×%d, %s %s, <t:%d:d>\n", stoneEmoji(c), outcome, mention(opp), a.Size, a.Size, a.Result, plural(a.Moves, "move"), a.FinishedAt.Unix())
	}
	return r.Reply(ctx, &Message{
		Ephemeral: true,
		Embeds: []*discordgo.MessageEmbed{{
			Title:       clip("Go record of "+plainName(st.Player), 256),
			Description: clip(sb.String(), 4096),
			Color:       colorBlack,
		}},
	})
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
