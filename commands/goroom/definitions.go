package goroom

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
)

// definition is /go with all its subcommands. Its level options suggest
// the bot levels as one types (commands.CompleteLevel).
func definition() *discordgo.ApplicationCommand {
	contexts, integrations := commands.CommandContexts(), commands.CommandIntegrations()
	sizeOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionInteger, Name: "size",
		Description: "Board size (default 19)",
	}
	for _, n := range commands.BoardSizes {
		sizeOpt.Choices = append(sizeOpt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(n) + "×" + strconv.Itoa(n), Value: n})
	}
	rulesOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "ruleset",
		Description: "Rules and scoring (default chinese: area scoring, komi 7.5)",
	}
	for _, name := range engine.PresetNames {
		rules, _ := engine.Preset(name)
		rulesOpt.Choices = append(rulesOpt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: commands.Clip(rules.String(), 100), Value: name})
	}
	minKomi, maxKomi := -150.0, 150.0
	komiOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionNumber, Name: "komi",
		Description: "Points White receives (default from the ruleset; 0.5 with handicap)",
		MinValue:    &minKomi, MaxValue: maxKomi,
	}
	minHandicap := 0.0
	handicapOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionInteger, Name: "handicap",
		Description: "Handicap stones for Black, 0–9 (default 0)",
		MinValue:    &minHandicap, MaxValue: 9,
	}
	colorOpt := func(desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: desc,
			Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "black (you move first)", Value: "black"},
				{Name: "white", Value: "white"},
				{Name: "nigiri (random)", Value: "nigiri"},
			},
		}
	}
	// Levels are suggested as one types (commands.CompleteLevel), with how
	// each plays, not listed as choices: /go would pass Discord's size.
	levelOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "level",
		Description:  "How strong the bot plays (default: the easiest); the list says how each plays",
		Autocomplete: true, MaxLength: 100,
	}
	botSeatOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "bot",
		Description: "A bot level to take a seat on a team", Autocomplete: true, MaxLength: 100,
	}
	minPage := 1.0
	clockOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: "clock",
		Description:  "Time control: correspondence (default), daily, live, blitz, none, or e.g. byoyomi 10m 5x30s",
		Autocomplete: true, MaxLength: 100,
	}
	minDays := 1.0
	ratedOpt := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated",
		Description: "Whether the game changes ratings (default true)",
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	goCmd := &discordgo.ApplicationCommand{
		Type:             discordgo.ChatApplicationCommand,
		Name:             commands.CommandName,
		Description:      "Play Go (baduk, weiqi) against friends or the bot",
		Contexts:         &contexts,
		IntegrationTypes: &integrations,
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "Challenge someone to a game in this channel",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who you want to play (leave out to let anyone here accept)"},
				sizeOpt, colorOpt("Your colour (default nigiri: random)"), rulesOpt, komiOpt, handicapOpt, clockOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "thread", Description: "Play in a new thread, so this channel can hold many games"},
				ratedOpt),
			sub("bot", "Play against the bot, starting at once", levelOpt, sizeOpt, colorOpt("Your colour (default black)"), rulesOpt, komiOpt, handicapOpt, clockOpt, ratedOpt),
			sub("rengo", "Team Go: open a game for two teams of 2 to 4, who join by button",
				sizeOpt, rulesOpt, komiOpt, handicapOpt, clockOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "mode", Description: "Clock: strict (one a team, default) or casual (one a player; who runs out is skipped)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "strict: one clock a team", Value: "strict"}, {Name: "casual: a clock a player", Value: "casual"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "thread", Description: "Play in a new thread (default true where one can be started)"},
				botSeatOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "bot_team", Description: "The team the bot joins (default white)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "black", Value: "black"}, {Name: "white", Value: "white"}}}),
			sub("vote", "This channel against gobot: everyone here votes on each move",
				levelOpt, sizeOpt,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "period", Description: "How long each vote lasts, 1m to 1d (default 1h), like 10m or 2h", MaxLength: 20},
				colorOpt("The channel's colour (default black)"), rulesOpt, komiOpt, handicapOpt),
			sub("play", "Place a stone", &discordgo.ApplicationCommandOption{
				Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "Where, like D4 (columns skip I); also pass",
				Required: true, Autocomplete: true, MaxLength: 6}),
			sub("pass", "Pass your turn (two passes in a row end play)"),
			sub("resign", "Resign the game"),
			sub("undo", "Take back your last move (asks your opponent)"),
			sub("board", "Show the current board again"),
			sub("sgf", "Get a game record as an SGF file (this channel's game, or its last finished one)",
				gameOpt(),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "animation", Description: "Also attach an animated replay of the game (GIF)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "review", Description: "Include the game's review as comments and variations (after /go review)"}),
			sub("replay", "Animated replay (GIF) of a finished game (default: the last one in this channel)", gameOpt()),
			sub("review", "Review a finished game: win-rate graph, each player's biggest mistakes (default: the last one here)", gameOpt()),
			sub("estimate", "Score estimate with ownership: the game here (spectators; players after the game or if unrated)", gameOpt()),
			sub("history", "Someone's finished games, with their records",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "player", Description: "Whose games (default: yours)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "page", Description: "Page, from 1 (newest games first)", MinValue: &minPage}),
			sub("games", "Your games in play, Go and draughts: where each is, your move first, the time left"),
			sub("dead", "Scoring phase: mark or unmark a group as dead", &discordgo.ApplicationCommandOption{
				Type: discordgo.ApplicationCommandOptionString, Name: "point", Description: "Any stone of the group, like C3",
				Required: true, Autocomplete: true, MaxLength: 6}),
			sub("stats", "Someone's rating and record: rank, wins and losses, streak, latest games",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "player", Description: "Whose record (default: yours)"}),
			sub("leaderboard", "The best established players of this server, or of all servers",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "scope", Description: "Whose ratings (default: this server's)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "this server", Value: "server"}, {Name: "global", Value: "global"}}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "page", Description: "Page, from 1", MinValue: &minPage}),
			sub("help", "How to play with gobot: commands, levels, rules, coordinates"),
			sub("abort", "Abort the game here: a player before two moves each, a moderator (Manage Messages) at any time",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason", Description: "A moderator's reason (kept in the server's log)", MaxLength: commands.MaxReason}),
			sub("vacation", "Pause your correspondence clocks for some days (30 days a year), or come back early",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "days", Description: "How many days, from now (1–30)", MinValue: &minDays, MaxValue: commands.MaxVacationDays},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "end", Description: "End your vacation now; unused days go back to your allowance"}),
		},
	}
	return goCmd
}

// gameOpt is the game: option naming a finished game by ID, with the
// user's recent games as suggestions (see finishedGameOption).
func gameOpt() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: commands.GameOption,
		Description:  "A finished game (suggests your recent ones; default: the last one here)",
		Autocomplete: true, MaxLength: 40,
	}
}
