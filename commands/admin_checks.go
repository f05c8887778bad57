package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// How a server's settings (/go-admin settings) take effect: where games
// may start, who may play (bans), how many games a player may play at
// once, which bot levels are offered, the defaults of a new game, the
// challenge TTL, the rating pools a finished game counts in, and whether
// /go leaderboard shows. In DMs there is no server and gobot's own
// defaults hold.

// serverSettings returns the settings of a server; gobot's defaults for a
// DM (guildID "").
func (a *App) Settings(ctx context.Context, guildID string) (*storage.Settings, error) {
	if guildID == "" {
		return &storage.Settings{}, nil
	}
	return a.admin.Settings(ctx, guildID)
}

// startGate checks that r's user may start a game (a challenge, a bot
// game, a rengo lobby, a vote game) where r comes from: a game channel of
// the server, not banned there, under the server's limit of games at
// once. It returns the server's settings, whose defaults the game takes.
func (a *App) StartGate(ctx context.Context, r *Request) (*storage.Settings, error) {
	it := r.Interaction
	st, err := a.Settings(ctx, it.GuildID)
	if err != nil || it.GuildID == "" {
		return st, err
	}
	if err := a.InGameChannel(ctx, st, it.ChannelID, a.commandRoom(r).Command()); err != nil {
		return nil, err
	}
	if err := a.MayPlay(ctx, st, UserPlayer(r.User), true); err != nil {
		return nil, err
	}
	return st, nil
}

// InGameChannel refuses a game in channel when it is outside the game
// channels of st's server; a thread counts as its parent channel. A game
// starts where its challenge was made, so Accept and a rengo lobby's
// Start check the challenge's channel again: the admins may have
// restricted the game channels since. command is the game's (go,
// draughts): the refusal names its commands that work everywhere.
func (a *App) InGameChannel(ctx context.Context, st *storage.Settings, channel, command string) error {
	if st.GameChannel(channel, "") {
		return nil
	}
	if look, ok := DiscordAs[channelLookup](a.opts.Discord); ok {
		ch, err := look.Channel(ctx, channel)
		if err == nil && ch.IsThread() && st.GameChannel(channel, ch.ParentID) {
			return nil
		}
		if err != nil && !errors.Is(err, ErrDiscordNotFound) && !errors.Is(err, ErrDiscordForbidden) {
			a.log.Info("game channels: could not look the channel up; taken as it is", "channel", channel, "err", err)
		}
	}
	var names []string
	for _, c := range st.GameChannels {
		names = append(names, "<#"+c+">")
	}
	everywhere := fmt.Sprintf("`/%[1]s stats`, `/%[1]s help` and `/%[1]s history`", command)
	if command == CommandName {
		everywhere = fmt.Sprintf("`/%[1]s stats`, `/%[1]s help`, `/%[1]s history` and `/%[1]s review`", command)
	}
	return UserErr(ErrForbidden, fmt.Sprintf("Games start only in %s on this server, as its admins chose (threads there count too). "+
		"%s work everywhere.", strings.Join(names, ", "), everywhere))
}

// mayPlay checks that p may take part in a new game on the server of st:
// not banned, and under its limit of games at once. self says whether p
// is the user asking (the refusals speak to them) or another player.
func (a *App) MayPlay(ctx context.Context, st *storage.Settings, p storage.Player, self bool) error {
	if st.GuildID == "" || p.UserID == "" {
		return nil
	}
	if err := a.NotBanned(ctx, st.GuildID, p, self); err != nil {
		return err
	}
	if st.MaxGames == 0 {
		return nil
	}
	games, err := a.games.PlayerActiveGames(ctx, p.UserID)
	if err != nil && len(games) == 0 {
		return err
	}
	n := 0
	for _, g := range games {
		if g.GuildID == st.GuildID {
			n++
		}
	}
	if n < st.MaxGames {
		return nil
	}
	return limitRefusal(p, n, st.MaxGames, self)
}

// limitRefusal is the refusal of a game to p, who plays n games on the
// server, which allows max at once: by MayPlay, or by the store when two
// games started at the same moment both passed MayPlay
// (storage.LimitError). It names the limit, which n exceeds when the
// admins lowered it.
func limitRefusal(p storage.Player, n, max int, self bool) error {
	switch {
	case self && n == max:
		return UserErr(ErrForbidden, fmt.Sprintf("You already play %s on this server, the most its admins allow at once: finish one first.", Plural(n, "game")))
	case self:
		return UserErr(ErrForbidden, fmt.Sprintf("You already play %s on this server; its admins allow %d at once: finish one first.", Plural(n, "game"), max))
	case n == max:
		return UserErr(ErrForbidden, fmt.Sprintf("%s already plays %s on this server, the most its admins allow at once.", Mention(p), Plural(n, "game")))
	}
	return UserErr(ErrForbidden, fmt.Sprintf("%s already plays %s on this server; its admins allow %d at once.", Mention(p), Plural(n, "game"), max))
}

// notBanned refuses a player banned on the server.
func (a *App) NotBanned(ctx context.Context, guildID string, p storage.Player, self bool) error {
	if guildID == "" || p.UserID == "" {
		return nil
	}
	b, err := a.activeBan(ctx, guildID, p.UserID)
	if b == nil {
		return err
	}
	return banRefusal(b, self)
}

// activeBan is the ban of user on the server that holds now; nil (and no
// error) when there is none, or it lapsed or was lifted.
func (a *App) activeBan(ctx context.Context, guildID, userID string) (*storage.Ban, error) {
	b, err := a.admin.Ban(ctx, guildID, userID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case !b.Active(a.Now()):
		return nil, nil
	}
	return b, nil
}

// banRefusal is the refusal of a game to the user of ban b: by NotBanned,
// or by the store when the ban was stored after NotBanned read none
// (storage.BanError). self says whether they are the user asking.
func banRefusal(b *storage.Ban, self bool) error {
	if self {
		return UserErr(ErrForbidden, fmt.Sprintf("You are banned from gobot games on this server %s. Reason: %s", banUntil(b), b.Reason))
	}
	return UserErr(ErrForbidden, fmt.Sprintf("%s is banned from gobot games on this server and cannot play here.", Mention(b.User)))
}

// BotGate is startGate for a game against the bot of level, which the
// server's admins must offer. When the user named no level (level is the
// room's default, its weakest) and the admins do not offer that one, the
// game is against the weakest level they offer, which BotGate returns.
func (a *App) BotGate(ctx context.Context, r *Request, level string) (*storage.Settings, string, error) {
	st, err := a.StartGate(ctx, r)
	if err != nil {
		return nil, "", err
	}
	if _, named := r.String("level"); !named && !st.BotLevel(level) {
		if here := offeredLevels(st, a.commandRoom(r)); len(here) > 0 {
			return st, here[0], nil
		}
	}
	return st, level, a.BotAllowed(r, st, level)
}

// BotAllowed refuses a bot level of the room of r's command that the
// server's admins do not offer, naming the room's levels they do; when
// they offer none of the room's, it says the server has no such bot (the
// levels they allow are other games').
func (a *App) BotAllowed(r *Request, st *storage.Settings, level string) error {
	if st.BotLevel(level) {
		return nil
	}
	rm := a.commandRoom(r)
	here := offeredLevels(st, rm)
	if len(here) == 0 {
		return UserErr(ErrForbidden, fmt.Sprintf("No %s bot is offered on this server: the bot levels its admins allow (%s) are all another game's.", rm.Name(), strings.Join(st.BotLevels, ", ")))
	}
	return UserErr(ErrForbidden, fmt.Sprintf("The bot level %s is not offered on this server: its admins allow %s.", Quote(level), strings.Join(here, ", ")))
}

// OfferedLevels are those of levels that the admins of st's server offer,
// in their order (weakest first).
func OfferedLevels(st *storage.Settings, levels []Level) []Level {
	var out []Level
	for _, l := range levels {
		if st.BotLevel(l.Name) {
			out = append(out, l)
		}
	}
	return out
}

// offeredLevels are the names of rm's bot levels that the admins of st's
// server offer, weakest first.
func offeredLevels(st *storage.Settings, rm Room) []string {
	var out []string
	for _, l := range OfferedLevels(st, rm.Levels()) {
		out = append(out, l.Name)
	}
	return out
}

// ChallengeTTL is how long a challenge posted on the server of st stays
// open.
func (a *App) ChallengeTTL(st *storage.Settings) time.Duration {
	if st != nil && st.ChallengeTTL > 0 {
		return st.ChallengeTTL
	}
	return a.opts.ChallengeTTL
}

// serverPools keeps a finished game of a kind out of the rating pools its
// server's admins turned off.
func (a *App) serverPools(ctx context.Context, kind string, arc *storage.Archived) error {
	if arc.GuildID == "" || !arc.Rated {
		return nil
	}
	st, err := a.admin.Settings(ctx, arc.GuildID)
	if err != nil {
		return err
	}
	if st.ServerRatingsOff {
		arc.NoPools = append(arc.NoPools, storage.KindPool(kind, storage.GuildPool(arc.GuildID)))
	}
	if st.GlobalRatingsOff {
		arc.NoPools = append(arc.NoPools, storage.KindPool(kind, storage.GlobalPool))
	}
	return nil
}

// leaderboardShown refuses a leaderboard of rm's game (/go leaderboard,
// /draughts leaderboard) on a server whose admins hid it, naming the
// stats command of the same game.
func (a *App) leaderboardShown(ctx context.Context, guildID string, rm Room) error {
	st, err := a.Settings(ctx, guildID)
	if err != nil {
		return err
	}
	if st.LeaderboardHidden {
		return UserErr(ErrForbidden, fmt.Sprintf("The leaderboard is hidden on this server by its admins. `/%s stats` still shows your rating.", rm.Command()))
	}
	return nil
}
