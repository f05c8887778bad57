package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/config"
)

const unregisterUsage = `usage: gobot unregister

removes gobot's slash commands from the server GOBOT_GUILD_ID names, or
without it the global ones (gobot registers them again when it starts);
configured by the environment (DISCORD_TOKEN), it takes no arguments
`

// unregister removes gobot's slash commands from the server GOBOT_GUILD_ID
// names, or without it the global ones, and says which. An operator who
// tried gobot in a test server (GOBOT_GUILD_ID) and then registered it
// globally has each command twice in that server until its copy is
// removed: run once with GOBOT_GUILD_ID set to that server. The global
// list keeps the Activity's Launch command, which Discord refuses to
// drop; the commands come back when gobot next starts.
func unregister(ctx context.Context, args []string, stdout io.Writer) (err error) {
	if len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprint(stdout, unregisterUsage)
			return nil
		}
		return &usageError{err: fmt.Errorf("unregister takes no arguments (GOBOT_GUILD_ID names the server), not %q", args)}
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	defer redactErr(cfg, &err)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rest := commands.NewREST(cfg.APIURL, cfg.Token.Reveal(), nil)
	appID, err := applicationID(ctx, cfg, rest, slog.New(slog.DiscardHandler), false)
	if err != nil {
		return err
	}
	err = rest.OverwriteCommands(ctx, appID, cfg.GuildID, []*discordgo.ApplicationCommand{})
	if refused := commandsRefused(cfg, appID, err); refused != nil {
		return refused
	}
	switch {
	case err != nil:
		return fmt.Errorf("remove the commands: %w", err)
	case cfg.GuildID != "":
		fmt.Fprintf(stdout, "Removed gobot's commands from the server %s. Global commands, if registered, still show there.\n", cfg.GuildID)
	default:
		fmt.Fprintln(stdout, "Removed gobot's global commands (Discord keeps the Activity's Launch command, if any). They come back when gobot next starts without GOBOT_GUILD_ID.")
	}
	return nil
}
