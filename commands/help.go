package commands

import (
	"context"
	"fmt"
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
