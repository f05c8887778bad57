package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Rematches: the final board of a game between two players, at least one
// of them a person, carries a Rematch button. A player's click asks for
// the same game again, in the channel of the click, as the command that
// started it would have: the room's bot command against a bot level (the
// game starts at once), its challenge command against a person (who
// accepts or declines). The click runs that command, so that every check
// of a new game applies (bans, limits, the server's settings, a game
// already in the channel). The room decides the options (Room.Rematch):
// the same board, rules and clock, the colours changed in an even game.

// RematchLabel is the Rematch button's label.
const RematchLabel = "Rematch"

// RematchRow is the row of buttons of g's final board: the Rematch button
// when g can be played again (Rematchable), else nil. A room puts it on
// the message that shows g over.
func RematchRow(g *storage.Game) []discordgo.MessageComponent {
	if !Rematchable(g) {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: RematchLabel, Emoji: &discordgo.ComponentEmoji{Name: "🔁"}, Style: discordgo.PrimaryButton, CustomID: "rematch/" + g.ID},
	}}}
}

// Rematchable reports whether g is played by two players, one a side and
// at least one a person: not a team game, not a vote game, and not an
// abandoned or aborted one (an annulled game's rematch is a new challenge
// like any other).
func Rematchable(g *storage.Game) bool {
	if len(g.Sides) != 2 || g.Team() {
		return false
	}
	people := 0
	for _, p := range g.Players() {
		switch {
		case p.IsCrowd():
			return false
		case !p.IsBot():
			people++
		}
	}
	return people > 0
}

// archivedRematchable reports whether arc, a finished game, is one of two
// players (not a team game, nor a vote game): one that its players may
// ask for again.
func archivedRematchable(arc *storage.Archived) bool {
	return len(arc.BlackTeam) == 0 && len(arc.WhiteTeam) == 0 && !arc.Black.IsCrowd() && !arc.White.IsCrowd()
}

// btnRematch answers a click on a finished game's Rematch button: it runs
// the command the game's room gives for the clicker (Room.Rematch) as if
// they had typed it here.
func (a *App) btnRematch(ctx context.Context, r *Request) error {
	arc, err := a.archivedGame(ctx, r, r.Param("id"))
	if err != nil {
		return err
	}
	rm := a.RoomOfKind(arc.Kind)
	if !archivedRematchable(arc) {
		return UserErr(ErrBadOption, "A team game has no rematch: open a new one with its command.")
	}
	by, played := arc.SideOf(r.User.ID)
	if !played {
		return UserErr(ErrForbidden, fmt.Sprintf("Only the players of this game can ask for its rematch: to play one of them, use `/%s challenge`.", rm.Command()))
	}
	opp := arc.Team(1 - by)[0]
	if err := a.rematchAsked(ctx, r, arc, opp); err != nil {
		return err
	}
	data := rm.Rematch(arc, by)
	if !opp.IsBot() {
		// The opponent played here: a user option names them, as Discord
		// resolves it for a member of the server.
		u := &discordgo.User{ID: opp.UserID, Username: opp.Name}
		data.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{
			Users:   map[string]*discordgo.User{u.ID: u},
			Members: map[string]*discordgo.Member{u.ID: {User: u}},
		}
	}
	// Answered as a command from here on: a new message, never an edit
	// of the final board the button is on. Deferred now, while the
	// interaction is still the click, so that the HTTP endpoint's own
	// deferral (after 2 s, of the kind its payload says: a click's, which
	// edits the clicked message) can never come first.
	if err := r.Defer(ctx, false); err != nil {
		return err
	}
	it := *r.Interaction
	it.Type, it.Data, it.Message = discordgo.InteractionApplicationCommand, data, nil
	r.Interaction = &it
	a.log.Info("rematch", "game", arc.ID, "user", r.User.ID, "command", data.Name)
	return a.router.Dispatch(ctx, r)
}

// rematchAsked refuses a rematch of arc against the person opp when one
// was asked for already, by either player, and is still open in this
// channel: a double click, or both players pressing Rematch, would post two
// challenges for one game. The second player is pointed at the first's
// challenge instead. (Challenges are listed by server: in a DM it is not
// checked.)
func (a *App) rematchAsked(ctx context.Context, r *Request, arc *storage.Archived, opp storage.Player) error {
	it := r.Interaction
	if opp.IsBot() || it.GuildID == "" {
		return nil
	}
	list, err := a.admin.GuildChallenges(ctx, it.GuildID)
	if err != nil {
		return nil // the challenge's own checks follow
	}
	now := a.Now()
	for _, c := range list {
		if c.ChannelID != it.ChannelID || c.Expired(now) || c.Team() || storage.KindOf(c.Kind) != storage.KindOf(arc.Kind) {
			continue
		}
		switch {
		case c.Challenger.UserID == r.User.ID && c.Opponent.UserID == opp.UserID:
			return UserErr(ErrBadOption, fmt.Sprintf("You have challenged %s here already: your challenge above waits for them to accept it (Decline withdraws it).", Mention(opp)))
		case c.Challenger.UserID == opp.UserID && c.Opponent.UserID == r.User.ID:
			return UserErr(ErrBadOption, fmt.Sprintf("%s has asked you for a rematch already: press Accept on their challenge above.", Mention(opp)))
		}
	}
	return nil
}

// IntOption is an integer option of a command the bot runs itself (a
// rematch), as Discord sends it: a JSON number.
func IntOption(name string, n int) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(n)}
}

// NumberOption is a number option, as IntOption.
func NumberOption(name string, f float64) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionNumber, Value: f}
}

// BoolOption is a boolean option, as IntOption.
func BoolOption(name string, b bool) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: b}
}

// UserIDOption is a user option naming the user with that ID, as
// IntOption (the caller resolves the user).
func UserIDOption(name, id string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: id}
}

// Subcommand is the data of command's subcommand sub with opts, as
// Discord sends a slash command.
func Subcommand(command, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordgo.ApplicationCommandInteractionData {
	return discordgo.ApplicationCommandInteractionData{Name: command, CommandType: discordgo.ChatApplicationCommand,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
}

// RematchClock is the clock option of a rematch of arc: the game's own
// (its preset's name, or its spec), "none" for a game without a clock.
func RematchClock(arc *storage.Archived) *discordgo.ApplicationCommandInteractionDataOption {
	return RematchClockIn(arc, clock.Presets)
}

// RematchClockIn is RematchClock for a game whose named controls are
// presets (clock.DraughtsPresets): the clock is named as that game reads
// it, so that the rematch has the same one.
func RematchClockIn(arc *storage.Archived, presets []clock.Preset) *discordgo.ApplicationCommandInteractionDataOption {
	if arc.Clock == nil {
		return StringOption("clock", "none")
	}
	return StringOption("clock", arc.Clock.Control.NameIn(presets))
}

// RematchOpponent is the option naming the opponent of a rematch of arc
// for its player of side by: the bot's level (level option) or the
// person (opponent option), and whether it is a bot.
func RematchOpponent(arc *storage.Archived, by game.Side) (*discordgo.ApplicationCommandInteractionDataOption, bool) {
	opp := arc.Team(1 - by)[0]
	if opp.IsBot() {
		return StringOption("level", opp.Level), true
	}
	return UserIDOption("opponent", opp.UserID), false
}
