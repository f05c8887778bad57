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
