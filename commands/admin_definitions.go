package commands

import (
	"github.com/bwmarrin/discordgo"
)

// AdminCommandName is the server admins' command.
const AdminCommandName = "go-admin"

// adminSettings are the settings /go-admin settings sets and resets, in
// the order they are shown.
var adminSettings = []struct{ name, label, help string }{
	{"channels", "Game channels", "channels where games may start, like #go-games #go-club (threads count by their channel); reset: anywhere"},
	{"clock", "Default clock", "like live, correspondence or byoyomi 10m 5x30s"},
	{"size", "Default size", "9, 13 or 19"},
	{"ruleset", "Default ruleset", "chinese, japanese, …"},
	{"komi", "Default komi", "-150 to 150 in steps of 0.5, for games with the default ruleset and no handicap"},
	{"ratings", "Server ratings", "on or off: this server's rating pool"},
	{"global_ratings", "Global ratings", "on or off: this server's games in the global pool"},
	{"leaderboard", "Leaderboard", "shown or hidden"},
	{"bot_levels", "Bot levels allowed", "level names of either game, like beginner easy novice; reset: all"},
	{"max_games", "Games at once per player", "1 to 100; reset: no limit"},
	{"challenge_ttl", "Challenge TTL", "10m to 30d, like 2h or 3d"},
}

// adminDefinition is /go-admin: registered for Manage Server by default
// (server settings can give it to other roles or channels) and only in
// servers, since it acts on one server.
func AdminDefinition() *discordgo.ApplicationCommand {
	perms := int64(discordgo.PermissionManageGuild)
	dm := false
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	integrations := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	var settingChoices []*discordgo.ApplicationCommandOptionChoice
	for _, s := range adminSettings {
		settingChoices = append(settingChoices, &discordgo.ApplicationCommandOptionChoice{Name: s.label, Value: s.name})
	}
	setting := func() *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "setting", Description: "Which setting", Required: true, Choices: settingChoices}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	game := func(desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: desc, Required: true, MaxLength: 40}
	}
	reason := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason", Description: "Why (kept in the log; told to the players where it concerns a game)", Required: true, MaxLength: MaxReason}
	minPage, minDays := 1.0, 1.0
	page := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "page", Description: "Page, from 1", MinValue: &minPage}
	return &discordgo.ApplicationCommand{
		Type:                     discordgo.ChatApplicationCommand,
		Name:                     AdminCommandName,
		Description:              "gobot for this server's admins: settings, games, moderation, log",
		DefaultMemberPermissions: &perms,
		DMPermission:             &dm,
		Contexts:                 &contexts,
		IntegrationTypes:         &integrations,
		Options: []*discordgo.ApplicationCommandOption{
			sub("help", "What each /go-admin command does"),
			{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "settings", Description: "This server's gobot settings",
				Options: []*discordgo.ApplicationCommandOption{
					sub("show", "Show this server's settings"),
					sub("set", "Change a setting", setting(),
						&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "value", Description: "The new value (see /go-admin settings show)", Required: true, MaxLength: 1000}),
					sub("reset", "Put a setting back to gobot's default", setting()),
				}},
			sub("games", "Games in play and open challenges on this server", page),
			sub("adjudicate", "Decide a game in play (award it to a side, or annul it), or withdraw a challenge",
				game("The game's or challenge's ID (see /go-admin games)"),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "result", Description: "The decision", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "Black wins", Value: "black"}, {Name: "White wins", Value: "white"}, {Name: "annul (recorded, never rated; a challenge: withdraw)", Value: "annul"},
					}},
				reason),
			sub("annul", "Take a finished game out of the statistics and ratings (its record stays)", game("The finished game's ID (see /go history)"), reason),
			sub("ban", "Keep a user from playing on this server",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Who", Required: true},
				reason, // required: before the optional days, as Discord wants
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "days", Description: "For how many days (default: until unbanned)", MinValue: &minDays, MaxValue: maxBanDays}),
			sub("unban", "Lift a user's ban on this server",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Who", Required: true},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason", Description: "Why (kept in the log)", MaxLength: MaxReason}),
			sub("bans", "Who is banned on this server now: until when, by whom, why", page),
			sub("log", "What this server's admins and moderators did, newest first", page,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Only the entries by or about this user (their bans, their games)"}),
		},
	}
}
