package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Finished games: /go sgf and /go replay for a game that has ended,
// /go history, and the game: option that names a finished game.

// historyPageSize is how many games a /go history page lists (two rows of
// five SGF buttons).
const historyPageSize = 10

// gameOption is the name of the option that names a finished game.
const GameOption = "game"

// viewer decides which finished games the user of a request may see: one
// they played, or one played on the server the request comes from, in a
// channel they may view. A private channel (@everyone denied View
// Channel) is viewed by the members its permission overwrites let in, by
// role or by name, and by the server's administrators; asked in the
// channel itself, the asker is one of them. Make one per request
// (App.viewer); it reads the server's channels once, when first needed,
// and remembers what it learnt of each.
type viewer struct {
	a        *App
	ctx      context.Context
	r        *Request
	listed   bool
	channels map[string]channelView
}

// channelView is what a viewer knows of a channel: whether @everyone is
// kept out, and if so the overwrites that may let a member in.
type channelView struct {
	private    bool
	overwrites []*discordgo.PermissionOverwrite
}

func (a *App) viewer(ctx context.Context, r *Request) *viewer {
	return &viewer{a: a, ctx: ctx, r: r, channels: map[string]channelView{}}
}

// canSee reports whether the user may see arc.
func (v *viewer) canSee(arc *storage.Archived) bool {
	if _, played := arc.SideOf(v.r.User.ID); played {
		return true
	}
	if arc.GuildID == "" || arc.GuildID != v.r.Interaction.GuildID {
		return false
	}
	if arc.ChannelID == v.r.Interaction.ChannelID {
		return true
	}
	cv := v.channel(arc.GuildID, arc.ChannelID, 0)
	return !cv.private || v.letIn(arc.GuildID, cv.overwrites)
}

// shownPrivately reports whether arc, which the user may see, is shown to
// them alone: a game of a DM or of another server (Elsewhere), or of a
// private channel asked for in another channel, where the others may not
// see it.
func (v *viewer) shownPrivately(arc *storage.Archived) bool {
	return Elsewhere(arc, v.r) || (arc.ChannelID != v.r.Interaction.ChannelID && v.channel(arc.GuildID, arc.ChannelID, 0).private)
}

// letIn reports whether a private channel's overwrites let the member of
// the request view it, as Discord applies them to View Channel: the
// @everyone overwrite, then the member's roles' (an allow among them wins
// over a deny), then the member's own; an administrator views every
// channel. The roles' own permissions on the server are not read: that
// @everyone may view channels is taken as given, as it is by default.
func (v *viewer) letIn(guild string, overwrites []*discordgo.PermissionOverwrite) bool {
	m := v.r.Interaction.Member
	if m == nil {
		return false
	}
	if m.Permissions&discordgo.PermissionAdministrator != 0 {
		return true
	}
	if len(overwrites) == 0 {
		return false // a private thread, or a channel closed to gobot: nobody is let in by name
	}
	const view = discordgo.PermissionViewChannel
	may := true
	var roleAllow, roleDeny bool
	for _, o := range overwrites {
		switch {
		case o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == guild:
			if o.Deny&view != 0 {
				may = false
			}
			if o.Allow&view != 0 {
				may = true
			}
		case o.Type == discordgo.PermissionOverwriteTypeRole && slices.Contains(m.Roles, o.ID):
			roleDeny = roleDeny || o.Deny&view != 0
			roleAllow = roleAllow || o.Allow&view != 0
		}
	}
	if roleDeny {
		may = false
	}
	if roleAllow {
		may = true
	}
	for _, o := range overwrites {
		if o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == v.r.User.ID {
			if o.Deny&view != 0 {
				may = false
			}
			if o.Allow&view != 0 {
				may = true
			}
		}
	}
	return may
}

// channel is what the viewer knows of channel id of guild: private when it
// is a private thread (which nobody but its members, and gobot's players,
// is taken to view), a thread of a private channel (its channel's
// overwrites), or a channel whose overwrites deny @everyone View Channel
// (Discord's "Private Channel"). The server's channels are read in one
// call; a thread, or a channel not among them, alone. A channel closed to
// gobot (403) counts as private, with no overwrites: its games stay their
// players' and the administrators'. One that cannot be read otherwise
// (deleted, or Discord failing) is taken as it was before channels were
// looked at, open to its server: a deleted channel has no members left to
// keep its games for. The console (one server of one channel, and the
// board page's games) has none.
func (v *viewer) channel(guild, id string, depth int) channelView {
	if guild == consoleGuild {
		return channelView{}
	}
	if !v.listed {
		v.listed = true
		if list, ok := DiscordAs[guildChannelList](v.a.opts.Discord); ok {
			channels, err := list.GuildChannels(v.ctx, guild)
			if err != nil {
				v.a.log.Info("the server's channels, for who may see its games", "guild", guild, "err", err)
			}
			for _, ch := range channels {
				v.channels[ch.ID] = viewOf(ch, guild)
			}
		}
	}
	if cv, ok := v.channels[id]; ok {
		return cv
	}
	look, ok := DiscordAs[channelLookup](v.a.opts.Discord)
	if !ok || id == "" {
		return channelView{}
	}
	var cv channelView
	ch, err := look.Channel(v.ctx, id)
	switch {
	case err != nil:
		v.a.log.Info("a game's channel, for who may see its games", "channel", id, "err", err)
		cv.private = errors.Is(err, ErrDiscordForbidden)
	case ch.Type == discordgo.ChannelTypeGuildPrivateThread:
		cv.private = true
	case ch.IsThread() && depth == 0:
		cv = v.channel(guild, ch.ParentID, depth+1)
	default:
		cv = viewOf(ch, guild)
	}
	v.channels[id] = cv
	return cv
}

// viewOf is what ch's permission overwrites say of who may view it.
func viewOf(ch *discordgo.Channel, guild string) channelView {
	private := slices.ContainsFunc(ch.PermissionOverwrites, func(o *discordgo.PermissionOverwrite) bool {
		return o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == guild && o.Deny&discordgo.PermissionViewChannel != 0
	})
	if !private {
		return channelView{}
	}
	return channelView{private: true, overwrites: ch.PermissionOverwrites}
}

// ShownPrivately is viewer.shownPrivately for one game: whether r's answer
// about arc, a game the user may see, goes to them alone.
func (a *App) ShownPrivately(ctx context.Context, r *Request, arc *storage.Archived) bool {
	return a.viewer(ctx, r).shownPrivately(arc)
}

// hiddenGames counts the finished games of the player keyed key (those
// ofKind, or all with nil) that the one asking cannot see here (viewer):
// played without them on other servers, in DMs or in private channels.
// visible is how many they can see; a failed count hides nothing.
func (a *App) hiddenGames(ctx context.Context, arch Archive, key string, visible int, ofKind func(*storage.Archived) bool) int {
	_, all, err := arch.PlayerGamesPage(ctx, key, 0, 0, ofKind)
	if err != nil {
		return 0
	}
	return max(all-visible, 0)
}

// hiddenNote says that n games are not listed: "2 games on other
// servers, in DMs or in private channels are not listed to you." (a
// record of wins and losses counts them).
func hiddenNote(n int) string {
	verb := "are"
	if n == 1 {
		verb = "is"
	}
	return fmt.Sprintf("%s on other servers, in DMs or in private channels %s not listed to you.", Plural(n, "game"), verb)
}

// Elsewhere reports whether a finished game was played neither in the
// channel nor on the server the request comes from: a game in private
// messages, or on another server. The user may see it (canSee), but the
// people here may not, so what shows it (its record, replay, review or
// estimate) is answered to the user alone.
func Elsewhere(a *storage.Archived, r *Request) bool {
	return a.ChannelID != r.Interaction.ChannelID && (a.GuildID == "" || a.GuildID != r.Interaction.GuildID)
}

// commandOf is the slash command r came with ("go", "draughts"), for
// answers that name another of its subcommands; Go's for a button.
func commandOf(r *Request) string {
	name, _, _ := strings.Cut(r.Path, "/")
	if name == "" || r.Interaction.Type != discordgo.InteractionApplicationCommand {
		return CommandName
	}
	return name
}

// archivedGame loads a finished game by ID for the user of r, with its
// SGF, refusing with a specific message a game that does not exist or
// that the user may not see (viewer).
func (a *App) archivedGame(ctx context.Context, r *Request, id string) (*storage.Archived, error) {
	id = strings.TrimSpace(id)
	arc, err := a.archive.ArchivedGame(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && id == ""):
		return nil, UserErr(ErrBadOption, fmt.Sprintf("There is no finished game with ID `%s`: pick one of the suggestions, or find it with `/%s history`.", Clip(id, 40), commandOf(r)))
	case err != nil:
		return nil, err
	}
	if a.viewer(ctx, r).canSee(arc) {
		return arc, nil
	}
	yours := "you can get the games you played and the games of this server"
	if r.Interaction.GuildID == "" {
		yours = "you can get the games you played, and on a server that server's games"
	}
	switch {
	case arc.GuildID != "" && arc.GuildID == r.Interaction.GuildID:
		return nil, UserErr(ErrForbidden, fmt.Sprintf("Game `%s` was played in a private channel of this server that you cannot read, and not by you: its games are shown to those who can read it.", arc.ID))
	case arc.GuildID != "" && r.Interaction.GuildID != "":
		return nil, UserErr(ErrForbidden, fmt.Sprintf("Game `%s` was played on another server: %s.", arc.ID, yours))
	case arc.GuildID != "":
		return nil, UserErr(ErrForbidden, fmt.Sprintf("Game `%s` was played on a server: %s.", arc.ID, yours))
	}
	return nil, UserErr(ErrForbidden, fmt.Sprintf("Game `%s` was played in private messages, and not by you: %s.", arc.ID, yours))
}

// lastGamesLooked is how many of a channel's last finished games
// FinishedGameOption looks through for one of its command's kind.
const lastGamesLooked = 20

// FinishedGameOption resolves the game: option of r to a finished game
// the user may see (with its SGF): the game named, or without the option
// the last game finished in this channel (of the command's kind, if one
// is among the last lastGamesLooked). It is shared by every command
// that takes a finished game (/go sgf, /go replay, /go review, /go
// estimate). A game of the user's still in play is no finished game, but
// it is not missing either: named, or where nothing has finished here
// while the user plays in a thread of this channel, the refusal says
// where it is played (as /go board does) rather than that there is none.
func (a *App) FinishedGameOption(ctx context.Context, r *Request) (*storage.Archived, error) {
	if id, ok := r.String(GameOption); ok {
		arc, err := a.archivedGame(ctx, r, id)
		if errors.Is(err, ErrBadOption) { // no finished game has that ID
			if g := a.gameInPlay(ctx, r, strings.TrimSpace(id)); g != nil {
				return nil, UserErr(ErrNoGame, a.namedInPlay(r, g))
			}
		}
		return arc, err
	}
	games, err := a.archive.ChannelGames(ctx, r.Interaction.ChannelID, lastGamesLooked)
	if err != nil {
		return nil, err
	}
	if len(games) > 0 {
		arc, err := a.lastOfCommand(r, games)
		if err != nil {
			return nil, err
		}
		return a.archivedGame(ctx, r, arc.ID)
	}
	if g, err := a.games.Game(ctx, r.Interaction.ChannelID); err == nil {
		// /go review and /go replay, run during the channel's first game.
		if in, own := a.roomOf(g), a.commandRoom(r); in != own {
			// Not worth waiting for: its end brings no game of own's.
			return nil, UserErr(ErrNoGame, fmt.Sprintf("The game in this channel is a game of %s, still being played, and `%s` takes a finished game of %s: name one with `game:`.", in.Name(), subcommand(r), own.Name()))
		}
		return nil, UserErr(ErrNoGame, fmt.Sprintf("The game in this channel is still being played, and `%s` takes a finished game: run it once the game is over, or name another with `game:`.", subcommand(r)))
	}
	last := lastGameElsewhere(ctx, a.archive, r)
	if threads := a.userThreads(ctx, r); len(threads) > 0 {
		return nil, UserErr(ErrNoGame, a.threadsInPlay(r, threads, last))
	}
	if last != nil {
		return nil, UserErr(ErrNoGame, fmt.Sprintf("No game has been played to the end in this channel itself: your last game, `%s`, was played in <#%s>. Name it with `game:%s`, or run the command there.", last.ID, last.ChannelID, last.ID))
	}
	return nil, UserErr(ErrNoGame, fmt.Sprintf("No game has been played to the end in this channel yet: name one with `game:` (it suggests your recent games), or see `/%s history`.", commandOf(r)))
}

// lastOfCommand is the newest of games (newest first, not empty) of
// the kind of r's command: /go review right after a game of draughts here
// reviews the Go game before it. With none of that kind among them it
// refuses, naming the newest game here and the command that shows it:
// `/go sgf` in a channel that has finished only draughts games gives no
// PDN, as the help's "the last Go game finished here" promises.
func (a *App) lastOfCommand(r *Request, games []*storage.Archived) (*storage.Archived, error) {
	if i := slices.IndexFunc(games, func(g *storage.Archived) bool { return a.RoomOfKind(g.Kind).Command() == commandOf(r) }); i >= 0 {
		return games[i], nil
	}
	last := games[0]
	other := a.RoomOfKind(last.Kind)
	return nil, UserErr(ErrNoGame, fmt.Sprintf("No game of %s has been played to the end in this channel yet. The last game finished here, `%s`, was a game of %s: `/%s board` shows it, and %s gives its record.",
		a.commandRoom(r).Name(), last.ID, other.Name(), other.Command(), a.recordHint(last.Kind, last.ID)))
}

// gameInPlay is the game in play whose ID is id among the user of r's
// games and, on a server, that server's (a spectator's game: named, it is
// not over, rather than missing); nil when there is none.
func (a *App) gameInPlay(ctx context.Context, r *Request, id string) *storage.Game {
	if id == "" {
		return nil
	}
	games, err := a.games.PlayerActiveGames(ctx, r.User.ID)
	if err != nil {
		a.log.Info("the user's games, for a game: option", "user", r.User.ID, "err", err)
	}
	for _, g := range games {
		if g.ID == id {
			return g
		}
	}
	if guild := r.Interaction.GuildID; guild != "" {
		if g, err := a.admin.GuildGame(ctx, guild, id); err == nil {
			return g
		}
	}
	return nil
}

// takesGameInPlay reports whether r's command, run without game: in the
// channel of a game in play, answers for that game: the record
// (/go sgf, /draughts record) and /go estimate do; /go replay and /go
// review take finished games only.
func (a *App) takesGameInPlay(r *Request) bool {
	_, sub, _ := strings.Cut(r.Path, "/")
	return sub == a.commandRoom(r).RecordCommand() || sub == "estimate"
}

// subcommand is r's command as typed: "/go sgf".
func subcommand(r *Request) string { return "/" + strings.ReplaceAll(r.Path, "/", " ") }

// namedInPlay is the refusal of a finished game's command for g, a game
// still in play (the user's, or one of the server's), named with game:.
func (a *App) namedInPlay(r *Request, g *storage.Game) string {
	where, there := "in <#"+g.ChannelID+">", "there"
	if g.ChannelID == r.Interaction.ChannelID {
		where, there = "here", "here"
	}
	if a.takesGameInPlay(r) {
		cmd := subcommand(r)
		if in, own := a.roomOf(g), a.commandRoom(r); in != own {
			// A game of the other kind: its own record command, which
			// takes it there (/go sgf there answers with /draughts
			// record); no estimate but Go's.
			if _, sub, _ := strings.Cut(r.Path, "/"); sub != own.RecordCommand() {
				return fmt.Sprintf("Game `%s` is a game of %s, still being played %s: `%s` is only for %s.", g.ID, in.Name(), where, cmd, own.Name())
			}
			cmd = "/" + in.Command() + " " + in.RecordCommand()
		}
		return fmt.Sprintf("Game `%s` is not over yet: it is being played %s. Run `%s` %s without `game:`.", g.ID, where, cmd, there)
	}
	return fmt.Sprintf("Game `%s` is not over yet: it is being played %s, and `%s` takes a finished game. Run it once the game has ended.", g.ID, where, subcommand(r))
}

// threadsInPlay is the refusal of a finished game's command, without
// game:, in a channel where no game has finished but the user plays in
// threads of it (threads, as mentions); last is the user's last finished
// game elsewhere on the server, if any.
func (a *App) threadsInPlay(r *Request, threads []string, last *storage.Archived) string {
	yours := "your game in its thread " + threads[0] + " is still being played"
	if len(threads) > 1 {
		yours = "your games in its threads " + joinAnd(threads) + " are still being played"
	}
	text := "No game has been played to the end in this channel itself: " + yours
	if a.takesGameInPlay(r) {
		text += fmt.Sprintf(". Run `%s` there.", subcommand(r))
	} else {
		text += fmt.Sprintf(", and `%s` takes a finished game.", subcommand(r))
	}
	if last != nil {
		return text + fmt.Sprintf(" Your last finished game, `%s`, was played in <#%s>: name it with `game:%s`.", last.ID, last.ChannelID, last.ID)
	}
	if !a.takesGameInPlay(r) {
		text += fmt.Sprintf(" Name one with `game:` (it suggests your recent games), or see `/%s history`.", commandOf(r))
	}
	return text
}

// lastGameElsewhere is the user's last finished game when it was played
// in another channel of the same server (a thread of this channel, most
// often, where a game with thread:true was played), nil otherwise.
func lastGameElsewhere(ctx context.Context, arch Archive, r *Request) *storage.Archived {
	mine, err := arch.PlayerGames(ctx, r.User.ID, 1)
	if err != nil || len(mine) == 0 {
		return nil
	}
	last := mine[0]
	if r.Interaction.GuildID == "" || last.GuildID != r.Interaction.GuildID || last.ChannelID == r.Interaction.ChannelID {
		return nil
	}
	return last
}

// CompleteFinishedGames suggests the user's recent finished games for the
// game: option, labelled like "vs bob · 19×19 · B+3.5 · 2 d ago", filtered
// by what was typed (matched against the label and the ID).
func (a *App) CompleteFinishedGames(ctx context.Context, r *Request) error {
	return a.completeGames(ctx, r, nil)
}

// CompleteFinishedGamesWhere is CompleteFinishedGames for a command that
// takes only the games keep accepts (a review, a game of its kind with
// moves): it suggests no game the command would refuse.
func (a *App) CompleteFinishedGamesWhere(keep func(*storage.Archived) bool) HandlerFunc {
	return func(ctx context.Context, r *Request) error { return a.completeGames(ctx, r, keep) }
}

func (a *App) completeGames(ctx context.Context, r *Request, keep func(*storage.Archived) bool) error {
	_, typed := r.Focused()
	typed = strings.ToLower(strings.TrimSpace(typed))
	games, err := a.archive.PlayerGames(ctx, r.User.ID, 100)
	if err != nil && len(games) == 0 {
		return r.Choices(ctx, nil)
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, arc := range games {
		if keep != nil && !keep(arc) {
			continue
		}
		// Counted nowhere, as /go sgf and /go stats say: "B+R, annulled",
		// and a game annulled on time has no score at all.
		result := a.resultCounted(arc)
		if arc.Result == "Void" {
			result = a.resultText(arc)
		}
		label := gameLabel(arc, a.archivedSetup(arc), result, r.User.ID, a.Now())
		if typed != "" && !strings.Contains(strings.ToLower(label), typed) && !strings.HasPrefix(arc.ID, typed) {
			continue
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: Clip(label, 100), Value: arc.ID})
		if len(choices) == 25 {
			break
		}
	}
	return r.Choices(ctx, choices)
}

// gameLabel describes a finished game in one line, from the point of view
// of the user with userID when they played it: "vs @bob · 19×19 · B+3.5 ·
// 2 d ago" ("vs gobot hard · …" against a bot, which is no user to
// mention), otherwise "alice vs bob · …".
func gameLabel(a *storage.Archived, setup, result, userID string, now time.Time) string {
	names := func(side game.Side, at string) string {
		return JoinNames(a.Team(side), func(p storage.Player) string {
			if p.IsBot() {
				return PlainName(p) // no user to mention
			}
			return at + PlainName(p)
		})
	}
	who := names(0, "") + " vs " + names(1, "")
	if side, played := a.SideOf(userID); played && userID != "" {
		who = "vs " + names(side.Opponent(), "@")
	}
	return fmt.Sprintf("%s · %s · %s · %s", who, setup, result, ago(now.Sub(a.FinishedAt)))
}

// ago says how long ago something happened, briefly: "just now", "5 min
// ago", "3 h ago", "2 d ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%d d ago", int(d/(24*time.Hour)))
}

// ArchivedTitle names the players of a finished game.
func ArchivedTitle(a *storage.Archived) string {
	return fmt.Sprintf("⚫ %s vs ⚪ %s", JoinNames(a.Team(0), ShownName), JoinNames(a.Team(1), ShownName))
}

// CmdRecord attaches a game's record: the active game's in this channel, or a
// finished game's (game:, or the last one finished here).
func (a *App) CmdRecord(ctx context.Context, r *Request) error {
	withReview, _, err := r.Bool("review")
	if err != nil {
		return err
	}
	var other Room // the room of a game of another kind in play here
	if _, named := r.String(GameOption); !named && !withReview {
		g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
		if err == nil {
			if in := a.roomOf(g); in != a.commandRoom(r) {
				other = in
			} else {
				return in.ActiveRecord(ctx, r, g)
			}
		} else if !errors.Is(err, ErrNoGame) {
			return err
		}
	}
	arc, err := a.FinishedGameOption(ctx, r)
	if other != nil && (err != nil || a.RoomOfKind(arc.Kind) != a.commandRoom(r)) {
		// /go sgf beside a game of draughts in play takes the last Go
		// game finished here, or else says whose record the game in
		// play has: never the other game's record under this command.
		rm := a.commandRoom(r)
		return UserErr(ErrWrongGame, fmt.Sprintf("The game in this channel is %s: `/%s %s` gives its record. No game of %s has been played to the end here; name one with `game:`.",
			other.Name(), other.Command(), other.RecordCommand(), rm.Name()))
	}
	if err != nil {
		return err
	}
	animate, _, err := r.Bool("animation")
	if err != nil {
		return err
	}
	m := &Message{
		Content:   fmt.Sprintf("Record of %s, %s, %s, finished <t:%d:d> (%s).", a.titleOf(arc), a.archivedSetup(arc), a.resultCounted(arc), arc.FinishedAt.Unix(), a.recordFormat(arc)),
		Files:     []File{a.recordFile(arc)},
		Ephemeral: a.ShownPrivately(ctx, r, arc),
	}
	if withReview {
		rv, ok := a.RoomOfKind(arc.Kind).(Reviewed)
		if !ok {
			return a.OnlyFor(a.commandRoom(r), arc, "reviews are")
		}
		data, content, err := rv.ReviewedRecord(ctx, arc)
		if err != nil {
			return err
		}
		m.Files[0].Data, m.Content = data, content
	}
	if animate {
		if _, err := WithAnimation(ctx, r, m, func() (File, error) { return a.RoomOfKind(arc.Kind).Animation(arc) }); err != nil {
			return err
		}
	}
	return r.Reply(ctx, m)
}

// cmdReplay posts the animated replay of a finished game (game:, or the
// last one finished here). A game without moves is refused, as /go review
// refuses it: there is nothing to replay.
func (a *App) CmdReplay(ctx context.Context, r *Request) error {
	arc, err := a.FinishedGameOption(ctx, r)
	if err != nil {
		return err
	}
	if arc.Moves == 0 {
		return UserErr(ErrBadOption, "That game has no moves to replay.")
	}
	// Drawing every move takes a while: answer "thinking" first.
	private := a.ShownPrivately(ctx, r, arc)
	if err := r.Defer(ctx, private); err != nil {
		return err
	}
	f, err := a.RoomOfKind(arc.Kind).Animation(arc)
	if err != nil {
		return err
	}
	if len(f.Data) > maxUpload {
		return UserErr(ErrBadOption, fmt.Sprintf("The replay of game `%s` is larger than Discord accepts; %s has the record.", arc.ID, a.recordHint(arc.Kind, arc.ID)))
	}
	return r.Reply(ctx, &Message{
		Content:   fmt.Sprintf("Replay of %s, %s, %s, %s.", a.titleOf(arc), a.archivedSetup(arc), a.resultCounted(arc), a.movesText(arc.Kind, arc.Moves)),
		Files:     []File{f},
		Ephemeral: private,
	})
}

// CmdHistory lists a player's finished games that the caller may see.
func (a *App) CmdHistory(ctx context.Context, r *Request) error {
	u, err := a.playerOption(r)
	if err != nil {
		return err
	}
	page, given, err := r.Int("page")
	if err != nil {
		return err
	}
	if !given {
		page = 1
	}
	m, err := a.historyMessage(ctx, a.archive, r, UserPlayer(u), page)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
}

// btnHistory turns a /go history page.
func (a *App) btnHistory(ctx context.Context, r *Request) error {
	page, err := strconv.Atoi(r.Param("page"))
	if err != nil || page < 1 {
		return ErrStale
	}
	st, err := a.stats.PlayerStats(ctx, r.Param("player"))
	p := storage.Player{UserID: r.Param("player")}
	if err == nil {
		p = st.Player
	}
	m, err := a.historyMessage(ctx, a.archive, r, p, page)
	if err != nil {
		return err
	}
	return r.Update(ctx, m)
}

// historyMessage is page page of p's games in arch that the user of r may
// see, with an SGF button for each and Previous / Next buttons.
func (a *App) historyMessage(ctx context.Context, arch Archive, r *Request, p storage.Player, page int) (*Message, error) {
	if page < 1 {
		return nil, UserErr(ErrBadOption, "Pages start at 1.")
	}
	var keep func(*storage.Archived) bool
	if p.UserID != r.User.ID {
		keep = a.viewer(ctx, r).canSee
	}
	games, total, err := arch.PlayerGamesPage(ctx, p.Key(), (page-1)*historyPageSize, historyPageSize, keep)
	if err != nil && len(games) == 0 {
		return nil, err
	}
	pages := (total + historyPageSize - 1) / historyPageSize
	hidden := 0
	if keep != nil {
		hidden = a.hiddenGames(ctx, arch, p.Key(), total, nil)
	}
	switch {
	case total == 0 && p.UserID == r.User.ID:
		return nil, UserErr(ErrBadOption, "You have not finished a game yet.")
	case total == 0 && r.Interaction.GuildID == "":
		return nil, UserErr(ErrBadOption, fmt.Sprintf("%s has no finished game you can see here (your own games with them; in a server, its games too).", Mention(p)))
	case total == 0:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("%s has no finished game you can see (your own games with them, or games of this server outside its private channels).", Mention(p)))
	case page > pages:
		return nil, UserErr(ErrBadOption, fmt.Sprintf("There is no page %d: %s has %s of games you can see.", page, Mention(p), Plural(pages, "page")))
	}
	var sb strings.Builder
	var buttons []discordgo.MessageComponent
	for i, arc := range games {
		n := (page-1)*historyPageSize + i + 1
		sb.WriteString(a.historyLine(arc, p.Key(), n) + "\n")
		format, _, _ := strings.Cut(a.recordFormat(arc), ",") // the record's format, as the button attaches it
		buttons = append(buttons, discordgo.Button{Label: format + " " + strconv.Itoa(n), Style: discordgo.SecondaryButton, CustomID: "sgf/" + arc.ID})
	}
	rm := a.commandRoom(r) // /go history, /draughts history (and their pages' buttons: Go's)
	fmt.Fprintf(&sb, "\nPage %d of %d · the numbered buttons attach each game's record; `/%s %s game:ID` takes the IDs.", page, pages, rm.Command(), rm.RecordCommand())
	if hidden > 0 {
		sb.WriteString("\n-# " + hiddenNote(hidden))
	}
	var rows []discordgo.MessageComponent
	for len(buttons) > 0 {
		n := min(5, len(buttons))
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n]})
		buttons = buttons[n:]
	}
	key := p.Key()
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Previous", Style: discordgo.PrimaryButton, CustomID: "history/" + key + "/" + strconv.Itoa(page-1), Disabled: page <= 1},
		discordgo.Button{Label: "Next", Style: discordgo.PrimaryButton, CustomID: "history/" + key + "/" + strconv.Itoa(page+1), Disabled: page >= pages},
	}})
	return &Message{
		Ephemeral: true,
		Embeds: []*discordgo.MessageEmbed{{
			Title:       Clip("Games of "+ShownName(p), 256),
			Description: Clip(sb.String(), 4096),
			Color:       ColorBlack,
		}},
		Components: rows,
	}, nil
}

// btnSGF attaches the record of a finished game, privately, for whoever
// pressed the button (if they may see it).
func (a *App) btnSGF(ctx context.Context, r *Request) error {
	arc, err := a.archivedGame(ctx, r, r.Param("id"))
	if err != nil {
		return err
	}
	return r.Reply(ctx, &Message{
		Ephemeral: true,
		Content:   fmt.Sprintf("Record of %s, %s, %s, finished <t:%d:d>.", a.titleOf(arc), a.archivedSetup(arc), a.resultCounted(arc), arc.FinishedAt.Unix()),
		Files:     []File{a.recordFile(arc)},
	})
}
