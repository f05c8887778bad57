package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/storage"
	"github.com/gobot-dev/gobot/storage/glicko"
)

// humanDuration says a time limit in words: "a day", "3 days", "12 hours",
// "90 minutes".
func HumanDuration(d time.Duration) string {
	switch {
	case d == 24*time.Hour:
		return "a day"
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d == time.Hour:
		return "an hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d == time.Minute:
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", (d+time.Minute-1)/time.Minute)
}

// establishing says when a rating stops being provisional, as the
// Glicko-2 arithmetic has it (glicko.GamesToEstablish).
func Establishing() string {
	return fmt.Sprintf("%d games for new players who win in turn; one-sided results take longer, or never get there",
		glicko.GamesToEstablish())
}

// HelpUnread is what a help says above itself when the server's settings
// could not be read (see HelpSettings).
const HelpUnread = "⚠️ This server's settings could not be read just now, so this help shows gobot's own defaults; the server's admins may have chosen others."

// HelpTerms says, above a help, what the admins of st's server chose
// that bears on every game there: first the game's own terms (Go's
// default ruleset, draughts' clock; "" for none), then where games start,
// how many each player may play at once, which rating pools count (as
// PoolsNote) and whether the leaderboard shows: "**On this server**, as
// its admins chose: games start only in <#1>, <#2> (threads there count
// too); each player may play at most 3 games at once; …". It is "" when
// they chose none of it (in a DM too).
func HelpTerms(st *storage.Settings, first ...string) string {
	var parts []string
	for _, f := range first {
		if f != "" {
			parts = append(parts, f)
		}
	}
	if len(st.GameChannels) > 0 {
		chans := make([]string, len(st.GameChannels))
		for i, c := range st.GameChannels {
			chans[i] = "<#" + c + ">"
		}
		parts = append(parts, "games start only in "+strings.Join(chans, ", ")+" (threads there count too)")
	}
	if st.MaxGames > 0 {
		parts = append(parts, "each player may play at most "+Plural(st.MaxGames, "game")+" at once")
	}
	switch {
	case st.ServerRatingsOff && st.GlobalRatingsOff:
		parts = append(parts, "no game is rated (both rating pools are off; games in a DM with me are rated globally)")
	case st.GlobalRatingsOff:
		parts = append(parts, "games count in this server's ratings only, not the global ones, so games against bots are unrated")
	case st.ServerRatingsOff:
		parts = append(parts, "games count in the global ratings only, not in this server's own")
	}
	if st.LeaderboardHidden {
		parts = append(parts, "the leaderboard is hidden")
	}
	if len(parts) == 0 {
		return ""
	}
	return "**On this server**, as its admins chose: " + strings.Join(parts, "; ") + "."
}

// HelpSettings returns the settings of the server guildID, for the
// defaults and bot levels a help command shows. A help needs no game, so
// when they cannot be read (the database is down) it returns gobot's own
// defaults, and ok false: the help then says so (HelpUnread).
func (a *App) HelpSettings(ctx context.Context, guildID string) (st *storage.Settings, ok bool) {
	st, err := a.Settings(ctx, guildID)
	if err != nil {
		a.log.Warn("help: the server's settings could not be read; gobot's defaults shown", "guild", guildID, "err", err)
		return &storage.Settings{GuildID: guildID}, false
	}
	return st, true
}
