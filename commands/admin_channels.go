package commands

import (
	"context"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// channelLookup is what the game-channel setting needs from Discord
// beyond Discord: a channel's server and parent (a thread's channel),
// which interactions do not carry through discordgo. REST implements it;
// without it (the console) a channel is taken as it is named.
type channelLookup interface {
	Channel(ctx context.Context, id string) (*discordgo.Channel, error)
}

var _ channelLookup = (*REST)(nil)

// Channel fetches a channel (GET /channels/{id}); a channel gobot cannot
// see is ErrDiscordNotFound or ErrDiscordForbidden.
func (c *REST) Channel(ctx context.Context, id string) (*discordgo.Channel, error) {
	var out discordgo.Channel
	if err := c.send(ctx, http.MethodGet, discordgo.EndpointChannel(id), discordgo.EndpointChannel(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// guildChannelList is what the game-channel setting needs to find a
// channel by name, as "#go-games" typed out reaches gobot (only a channel
// picked from Discord's list becomes a mention). REST implements it.
type guildChannelList interface {
	GuildChannels(ctx context.Context, guildID string) ([]*discordgo.Channel, error)
}

var _ guildChannelList = (*REST)(nil)

// GuildChannels lists a server's channels, threads left out (GET
// /guilds/{id}/channels).
func (c *REST) GuildChannels(ctx context.Context, guildID string) ([]*discordgo.Channel, error) {
	var out []*discordgo.Channel
	ep := discordgo.EndpointGuildChannels(guildID)
	if err := c.send(ctx, http.MethodGet, ep, ep, nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}
