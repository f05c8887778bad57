package commands

import (
	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
)

// CommandName is the one top-level slash command.
const CommandName = "go"

// Board sizes offered by the commands.
var BoardSizes = []int{9, 13, 19}

// Definitions returns the App's commands: each room's (Room.Definition,
// given the first room's subcommands to share), then /go-admin, for
// server admins, in servers only (admin_definitions.go).
func (a *App) Definitions() []*discordgo.ApplicationCommand {
	var cmds []*discordgo.ApplicationCommand
	shared := map[string]*discordgo.ApplicationCommandOption{}
	for _, rm := range a.rooms.list {
		c := rm.Definition(shared)
		if len(cmds) == 0 {
			for _, o := range c.Options {
				shared[o.Name] = o
			}
		}
		cmds = append(cmds, c)
	}
	return append(cmds, AdminDefinition())
}

// CommandContexts are where the rooms' commands may be used: server
// channels and threads, gobot's DM and private channels.
func CommandContexts() []discordgo.InteractionContextType {
	return []discordgo.InteractionContextType{
		discordgo.InteractionContextGuild,
		discordgo.InteractionContextBotDM,
		discordgo.InteractionContextPrivateChannel,
	}
}

// CommandIntegrations are how the rooms' commands may be installed: to a
// server or to a user.
func CommandIntegrations() []discordgo.ApplicationIntegrationType {
	return []discordgo.ApplicationIntegrationType{
		discordgo.ApplicationIntegrationGuildInstall,
		discordgo.ApplicationIntegrationUserInstall,
	}
}

func Clip(s string, n int) string { return game.Clip(s, n) }
