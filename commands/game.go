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
	"github.com/gobot-dev/gobot/storage"
)

// routes registers every handler: the core's, then each room's.
func (a *App) routes() *Router {
	rt := NewRouter()
	rt.Component("challenge/{id}/accept", a.btnAccept)
	rt.Component("challenge/{id}/decline", a.btnDecline)
	rt.Component("history/{player}/{page}", a.btnHistory)
	rt.Component("sgf/{id}", a.btnSGF)
	rt.Component("rematch/{id}", a.btnRematch)
	rt.Component("leaderboard/{pool}/{page}", a.btnLeaderboard)
	a.adminRoutes(rt)
	for _, rm := range a.rooms.list {
		rm.Routes(rt)
	}
	return rt
}

// GameHandler handles an interaction about g, the game it concerns.
type GameHandler func(ctx context.Context, r *Request, g *storage.Game) error

// OnGame is a command handler for the channel's active game (see
// loadGame), which must be of the command's room: /go play in a channel
// whose game is draughts is told to use /draughts.
func (a *App) OnGame(h GameHandler) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		rm := a.commandRoom(r)
		g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
		if err == ErrNoGame {
			if og := a.followConsole(ctx, r); og != nil {
				return a.OnGame(h)(ctx, r) // in og's channel now, read with the usual checks
			}
			// A player of the game that just ended here is told so first,
			// and where their game in a thread is: the command was most
			// likely meant for the game that ended (an opponent's
			// resignation, a loss on time), not for the thread's.
			games := a.userGames(ctx, r) // read once, for the threads and the other channels
			ended, threads := a.justEnded(ctx, r, rm), threadsOf(games, r.Interaction.ChannelID)
			var ue *UserError
			if where := threadsNote(threads); ended != nil && where != "" && errors.As(ended, &ue) {
				return UserErr(ErrGameOver, ue.Msg+" "+where)
			}
			if err := inThread(threads); err != nil {
				return err
			}
			// On a busy server the command was most likely meant for the
			// user's game in another channel: say where it is, before
			// another pair's challenge here.
			elsewhere := a.gamesElsewhere(r, rm, games)
			if ue := (*UserError)(nil); ended != nil && elsewhere != "" && errors.As(ended, &ue) {
				return UserErr(ErrGameOver, ue.Msg+" "+elsewhere)
			}
			if elsewhere != "" {
				return UserErr(ErrNoGame, "There is no game in this channel. "+elsewhere)
			}
			if err := a.openChallenge(ctx, r); err != nil {
				return err
			}
			if ended != nil {
				return ended
			}
			return a.noGameHere(r, rm, games)
		}
		if err != nil {
			return err
		}
		if in := a.roomOf(g); in != rm {
			// The same command of the channel's game where it has one
			// (/draughts resign for /go resign), else its play.
			use := "play it with `/" + in.Command() + " play`"
			if _, sub, ok := strings.Cut(r.Path, "/"); ok && r.Interaction.Type == discordgo.InteractionApplicationCommand &&
				sub != "play" && a.router.HasCommand(in.Command()+"/"+sub) {
				use = "use `/" + in.Command() + " " + strings.ReplaceAll(sub, "/", " ") + "`"
			} else if w, ok := in.(Without); ok && w.Without(sub) != "" {
				// /go undo in a game of draughts: it has none.
				return UserErr(ErrWrongGame, fmt.Sprintf("The game in this channel is %s, which %s.", in.Name(), w.Without(sub)))
			}
			return UserErr(ErrWrongGame, fmt.Sprintf("The game in this channel is %s: %s (`/%s help` says how).", in.Name(), use, in.Command()))
		}
		return a.notPlayerHere(ctx, r, h(ctx, r, g))
	}
}

// noGameHere is ErrNoGame for a channel without a game, where the
// user plays games (theirs in play) elsewhere that nothing more precise
// named (gamesElsewhere: in DMs, on other servers, of another kind):
// /go games lists them. With none it says how to start one.
func (a *App) noGameHere(r *Request, rm Room, games []*storage.Game) error {
	if len(games) == 1 {
		return UserErr(ErrNoGame, fmt.Sprintf("There is no game in this channel. You play a game elsewhere: `/%s games` says where.", rm.Command()))
	}
	if len(games) > 0 {
		return UserErr(ErrNoGame, fmt.Sprintf("There is no game in this channel. You play %s elsewhere: `/%s games` lists them, with where each is and your move first.", Plural(len(games), "game"), rm.Command()))
	}
	if r.Interaction.GuildID == "" && r.Interaction.Context == discordgo.InteractionContextBotDM {
		// Nobody else sees a DM with gobot: no challenge is played here.
		return UserErr(ErrNoGame, fmt.Sprintf("There is no game in this DM. Start one against me with `/%s bot`.", rm.Command()))
	}
	return UserErr(ErrNoGame, fmt.Sprintf("There is no game in this channel. Start one with `/%s challenge` or `/%s bot`.", rm.Command(), rm.Command()))
}

// inThread is ErrNoGame, saying where the user of a command plays, when
// its channel has no game but the user plays in threads of it (threads,
// see userThreads): a command for their game sent in the thread's channel
// finds none there. It is nil when the user plays in none.
func inThread(threads []string) error {
	switch len(threads) {
	case 0:
		return nil
	case 1:
		return UserErr(ErrNoGame, "There is no game in this channel itself: your game is in its thread "+threads[0]+". Run the command there.")
	default:
		return UserErr(ErrNoGame, "There is no game in this channel itself: your games are in its threads "+joinAnd(threads)+". Run the command there.")
	}
}

// openChallenge is ErrNoGame, saying so, when r's channel has no game
// but a challenge posted there is still open: its game starts once it is
// accepted, here or, for a challenge with thread:true, in a new thread of
// this channel. It is nil when none is (or they cannot be read).
func (a *App) openChallenge(ctx context.Context, r *Request) error {
	it := r.Interaction
	if it.GuildID == "" {
		return nil
	}
	list, err := a.admin.GuildChallenges(ctx, it.GuildID)
	if err != nil {
		return nil
	}
	now := a.Now()
	for _, c := range list {
		if c.ChannelID != it.ChannelID || c.Expired(now) {
			continue
		}
		// "a game of Go": "your challenge to Go" read as if Go had been
		// challenged.
		what := "a game of " + a.RoomOfKind(c.Kind).Name()
		// "In play", not "yet": a game may have just ended here. A
		// challenge with thread:true will not bring its game here.
		none, there := "There is no game in play in this channel: ", ""
		if c.Thread {
			none, there = "There is no game in this channel: ", " in a new thread of this channel"
		}
		var text string
		switch mine := r.User != nil && c.Challenger.UserID == r.User.ID; {
		case c.Team() && c.Thread:
			text = fmt.Sprintf("%s's team game of %s is still gathering its players, and it will be played%s.", Mention(c.Challenger), a.RoomOfKind(c.Kind).Name(), there)
		case c.Team():
			text = fmt.Sprintf("%s's team game of %s is still gathering its players.", Mention(c.Challenger), a.RoomOfKind(c.Kind).Name())
		case r.User != nil && c.Opponent.UserID == r.User.ID:
			text = fmt.Sprintf("%s challenged you to %s. Accept with the button on the challenge to start it%s.", Mention(c.Challenger), what, there)
		case mine && c.Open():
			text = fmt.Sprintf("your challenge to %s is open, and the game starts%s when someone accepts it.", what, there)
		case mine && c.Thread:
			text = fmt.Sprintf("your challenge to %s is waiting for %s to accept it; the game will then start%s.", what, Mention(c.Opponent), there)
		case mine:
			text = fmt.Sprintf("your challenge to %s is waiting for %s to accept it.", what, Mention(c.Opponent))
		case c.Open():
			text = fmt.Sprintf("%s's challenge to %s is open to anyone; the game starts%s when someone accepts it.", Mention(c.Challenger), what, there)
		default:
			text = fmt.Sprintf("%s challenged %s to %s, and the game starts%s when they accept.", Mention(c.Challenger), Mention(c.Opponent), what, there)
		}
		return UserErr(ErrNoGame, none+text)
	}
	return nil
}

// justEndedWindow is how long after a game ended a player's command for it
// in its channel is told that it ended, rather than that there is no game.
const justEndedWindow = 15 * time.Minute

// justEnded is ErrGameOver, saying when and how, when the user of r played
// the last game of rm's kind finished in r's channel and it ended in the last
// justEndedWindow: a move sent just after losing on time finds no game,
// and the player should learn why. Everyone in the channel played its
// vote game: a vote sent just after it was counted is told so. It is nil
// otherwise.
func (a *App) justEnded(ctx context.Context, r *Request, rm Room) error {
	games, err := a.archive.ChannelGames(ctx, r.Interaction.ChannelID, lastGamesLooked)
	if err != nil {
		return nil
	}
	// The command's own kind: /go pass after a game of draughts ended here
	// is not told about that game.
	i := slices.IndexFunc(games, func(g *storage.Archived) bool { return storage.KindOf(g.Kind) == rm.Kind() })
	if i < 0 || a.Now().Sub(games[i].FinishedAt) > justEndedWindow {
		return nil
	}
	arc := games[i]
	if arc.Black.IsCrowd() || arc.White.IsCrowd() {
		cmd := a.RoomOfKind(arc.Kind).Command() // a vote game's, whatever r's command
		return UserErr(ErrGameOver, fmt.Sprintf("This channel's vote game ended <t:%d:R>: %s. `/%s board` shows it; `/%s vote` starts another.",
			arc.FinishedAt.Unix(), a.resultCounted(arc), cmd, cmd))
	}
	played := false
	for _, p := range append([]storage.Player{arc.Black, arc.White}, append(arc.BlackTeam, arc.WhiteTeam...)...) {
		played = played || p.UserID == r.User.ID
	}
	if !played {
		return nil
	}
	how := ""
	if a.notation(arc.Kind) == nil && strings.HasSuffix(arc.Result, "+T") && !AnnulledOnTimeArc(arc) {
		how = " on time" // Go's "B+T" does not say it; draughts' "2-0 (time)" does
	}
	return UserErr(ErrGameOver, fmt.Sprintf("Your game here ended%s <t:%d:R>: %s. `/%s board` shows it.", how, arc.FinishedAt.Unix(), a.resultCounted(arc), rm.Command()))
}

// notPlayerHere adds to err, the ErrNotPlayer of a command in a channel
// whose game the user does not play, where their own game is when it is
// in a thread of that channel: their command for it was sent in the
// parent, which holds another game. Any other error is returned as it is.
func (a *App) notPlayerHere(ctx context.Context, r *Request, err error) error {
	if !errors.Is(err, ErrNotPlayer) {
		return err
	}
	where := ""
	switch threads := a.userThreads(ctx, r); len(threads) {
	case 0:
		return err
	case 1:
		where = "Your game is in this channel's thread " + threads[0] + ": run the command there."
	default:
		where = "Your games are in this channel's threads " + joinAnd(threads) + ": run the command there."
	}
	msg := "You are not playing in this game."
	var ue *UserError
	if errors.As(err, &ue) {
		msg = ue.Msg
	}
	return UserErr(ErrNotPlayer, msg+" "+where)
}

// userThreads returns the threads of r's channel in which the user of r
// plays, as mentions.
func (a *App) userThreads(ctx context.Context, r *Request) []string {
	return threadsOf(a.userGames(ctx, r), r.Interaction.ChannelID)
}

// userGames are the games in play of the user of r; those that could be
// read when the store fails (the error is logged): they still say where
// to go.
func (a *App) userGames(ctx context.Context, r *Request) []*storage.Game {
	games, err := a.games.PlayerActiveGames(ctx, r.User.ID)
	if err != nil {
		a.log.Info("the user's games in play, for where they are", "user", r.User.ID, "err", err)
	}
	return games
}

// threadsOf mentions the threads of channel in which games are played.
func threadsOf(games []*storage.Game, channel string) []string {
	var threads []string
	for _, g := range games {
		if g.ParentChannelID == channel {
			threads = append(threads, "<#"+g.ChannelID+">")
		}
	}
	return threads
}

// gamesElsewhere says where the user of r plays games of rm's kind (of
// games, theirs in play) on r's server outside r's channel and its
// threads (inThread names those):
// "Your game is in #lobby: run the command there." In the console, whose
// one channel these are not, it names the opponents of the games on the
// board page (followConsole follows a user with one). It is "" when they
// play none, and in a DM, where no other channel of a server is theirs to
// be sent to.
func (a *App) gamesElsewhere(r *Request, rm Room, games []*storage.Game) string {
	it := r.Interaction
	if it.GuildID == "" || r.User == nil {
		return ""
	}
	var where []string
	for _, g := range games {
		if g.GuildID != it.GuildID || g.ChannelID == it.ChannelID || g.ParentChannelID == it.ChannelID || a.roomOf(g) != rm {
			continue
		}
		if it.GuildID == consoleGuild {
			others := slices.DeleteFunc(g.Players(), func(p storage.Player) bool { return p.UserID == r.User.ID })
			where = append(where, "against "+JoinNames(others, ShownName))
		} else {
			where = append(where, "<#"+g.ChannelID+">")
		}
	}
	switch {
	case len(where) == 0:
		return ""
	case it.GuildID == consoleGuild && len(where) == 1:
		return "Your game on the board page is " + where[0] + ": play it there."
	case it.GuildID == consoleGuild:
		return "Your games on the board page are " + joinAnd(where) + ": play them there."
	case len(where) == 1:
		return "Your game is in " + where[0] + ": run the command there."
	}
	return "Your games are in " + joinAnd(where) + ": run the command there."
}

// joinAnd joins two or more names as a sentence lists them: "a, b and c".
func joinAnd(names []string) string {
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// OnBoard is a button handler for the game of the newest board (see
// buttonGame), which must belong to the room whose buttons begin with
// prefix (Room.ButtonPrefix).
func (a *App) OnBoard(prefix string, h GameHandler) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		g, err := a.ButtonGame(ctx, r)
		if err != nil {
			return err
		}
		if a.roomOf(g).ButtonPrefix() != prefix {
			return UserErr(ErrWrongGame, "This button belongs to another game.")
		}
		return h(ctx, r, g)
	}
}

// Confirming is the handler of a confirmation's button ("Yes, resign",
// "Yes, abort", and a team's "Yes, vote to …"), pressed on the private
// question that asked it. The question is answered first with an update
// that takes its button away, as Discord's practice is: left pressable,
// a second press would only answer that the game has ended, or that the
// vote was cast. h's answer (the board, a vote's note, a refusal) then
// follows as a message of its own, public or private as before. A press
// without the question (the board page's abort) is h's alone.
func Confirming(h HandlerFunc) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		if r.IsComponent() && r.Interaction.Message != nil {
			if err := r.Update(ctx, &Message{ClearComponents: true}); err != nil {
				return err
			}
		}
		return h(ctx, r)
	}
}

// loadGame returns the active game in a channel. A record that cannot be
// read is set aside the first time it is read (see quarantine): the error
// is then ErrQuarantined, with the notice for the channel, and the channel
// is free. The first read after the store failed gives the outage back
// to the clocks first (creditAfterOutage): a move made as soon as the
// database answers again is judged on the clocks credited; read before
// the scheduler's next heartbeat credited them, it was charged the whole
// outage, and its player never got that time back.
func (a *App) LoadGame(ctx context.Context, channelID string) (*storage.Game, error) {
	a.creditAfterOutage(ctx)
	g, err := a.games.Game(ctx, channelID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, ErrNoGame
	case errors.Is(err, storage.ErrCorrupt):
		return nil, a.quarantine(ctx, channelID, err)
	case err != nil:
		return nil, err
	}
	return g, nil
}

// quarantineNotice tells a channel that its game's record was set aside.
const QuarantineNotice = "⚠️ The game in this channel could not be read: its stored record is damaged. " +
	"It has been set aside for the bot's operator (nothing was deleted), and this channel is free for a new game: " +
	"`/go challenge` or `/go bot`."

// quarantine sets the damaged record of the game in a channel aside
// (storage keeps it for `gobot doctor`), so that the channel is free again.
// The caller that wins logs it, once, and gets ErrQuarantined to tell the
// players; one that finds it already done gets ErrNoGame.
func (a *App) quarantine(ctx context.Context, channelID string, cause error) error {
	err := a.games.QuarantineGame(ctx, channelID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return ErrNoGame
	case err != nil:
		return fmt.Errorf("commands: set aside the damaged game in channel %s: %w", channelID, err)
	}
	a.log.Error("damaged game record quarantined; the channel is free (gobot doctor lists it)", "channel", channelID, "err", cause)
	return UserErr(ErrQuarantined, QuarantineNotice)
}

// setAside is quarantine outside an interaction (a start-up scan, a bot
// move in the background): the notice is posted in the channel.
func (a *App) setAside(ctx context.Context, channelID string) {
	if _, err := a.LoadGame(ctx, channelID); errors.Is(err, ErrQuarantined) {
		a.tellSetAside(ctx, channelID)
	}
}

// tellSetAside posts quarantineNotice in a channel.
func (a *App) tellSetAside(ctx context.Context, channelID string) {
	if _, err := a.opts.Discord.SendMessage(ctx, channelID, &Message{Content: QuarantineNotice, AllowedMentions: NoMentions()}); err != nil {
		a.log.Warn("could not tell the channel its game was set aside", "channel", channelID, "err", err)
	}
}

// buttonGame loads the game a button belongs to and checks that the button
// is from the newest board: same game, same move number.
func (a *App) ButtonGame(ctx context.Context, r *Request) (*storage.Game, error) {
	g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
	if errors.Is(err, ErrNoGame) {
		return nil, UserErr(ErrStale, "That game has ended; this button no longer does anything.")
	}
	if err != nil {
		return nil, err
	}
	if g.ID != r.Param("id") {
		return nil, UserErr(ErrStale, "That button belongs to an earlier game in this channel.")
	}
	if n, err := strconv.Atoi(r.Param("move")); r.Param("move") != "" && (err != nil || n != g.State.MoveCount()) {
		if g.Team() && r.IsComponent() && strings.Contains(r.Interaction.MessageComponentData().CustomID, "/abort-yes/") {
			// A team's votes lapse with the next move (voteAbort).
			return nil, UserErr(ErrStale, fmt.Sprintf("A move was played since: that vote lapsed. Use `/%s abort` again to vote.", a.roomOf(g).Command()))
		}
		return nil, UserErr(ErrStale, fmt.Sprintf("That button belongs to an old board. Use the buttons on the newest board, or `/%s board`.", a.roomOf(g).Command()))
	}
	return g, nil
}

// Opponent is the player a challenge names: u, or the zero Player, which
// stands for anyone, when the challenge names nobody (ChallengeGate).
func Opponent(u *discordgo.User) storage.Player {
	if u == nil {
		return storage.Player{}
	}
	return UserPlayer(u)
}

// UserPlayer is the storage player for a Discord user.
func UserPlayer(u *discordgo.User) storage.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return storage.Player{UserID: u.ID, Name: name}
}

// FollowupOf is the follow-up handle of an interaction received at at.
func FollowupOf(it *discordgo.Interaction, at time.Time) *storage.Followup {
	if it == nil || it.Token == "" {
		return nil
	}
	// app_permissions are gobot's in the channel; a user install's
	// private channel grants no Send Messages. Zero means not told (the
	// console): try the channel.
	const send = discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads
	posts := it.AppPermissions == 0 || it.AppPermissions&send != 0
	return &storage.Followup{InteractionID: it.ID, AppID: it.AppID, Token: it.Token, At: at, ChannelPosts: posts}
}

// MayPostInChannel reports whether gobot may post in the channel of r
// outside any interaction (a message of its own, long after the
// interaction's token has expired), as its app_permissions tell: Send
// Messages in a channel, Send Messages in Threads in a thread. When the
// permissions hold only one of the two, the channel the payload describes
// (Request.Channel) says which it is, or when the payload says nothing the
// channel is looked up; a lookup that fails takes the interaction's word
// for it. Zero permissions mean not told (the console): it may.
func (a *App) MayPostInChannel(ctx context.Context, r *Request) bool {
	it := r.Interaction
	if it == nil || it.AppPermissions == 0 {
		return true
	}
	send := it.AppPermissions&discordgo.PermissionSendMessages != 0
	inThreads := it.AppPermissions&discordgo.PermissionSendMessagesInThreads != 0
	if send == inThreads {
		return send
	}
	if r.Channel != nil {
		if r.Channel.IsThread() {
			return inThreads
		}
		return send
	}
	if look, ok := DiscordAs[channelLookup](a.opts.Discord); ok {
		if ch, err := look.Channel(ctx, it.ChannelID); err == nil {
			if ch.IsThread() {
				return inThreads
			}
			return send
		}
	}
	return true
}

// InTime checks that the player to move in g still has time at now. When
// they have not, the move does not count: the game is lost on time (unless
// the scheduler, or another process, is ending it already) and the error
// says so; unless the store was down meanwhile (creditAfterOutage), when
// the clocks are given that time back first.
func (a *App) InTime(ctx context.Context, g *storage.Game, now time.Time) error {
	if !g.Clock.Flagged(now) {
		return nil
	}
	if a.creditAfterOutage(ctx) {
		// The store was down, and its time has just been given back to
		// the clocks: g is stale.
		return UserErr(ErrConflict, "gobot could not reach its database for a while, and the clocks have just been given that time back: look at the new board and try again.")
	}
	deadline, loser := g.Clock.Deadline(), g.Clock.ToMove
	out := g.Player(loser.Game())
	if err := a.timeUp(ctx, g); err != nil {
		if !errors.Is(err, ErrConflict) {
			return err
		}
		// Another change was stored first: the scheduler ending the game
		// on time, or the clocks given back an outage's time (by another
		// worker, or this one's heartbeat), when the move may count.
		if cur, err := a.LoadGame(ctx, g.ChannelID); err == nil && cur.ID == g.ID && !cur.Clock.Flagged(now) {
			if _, over := cur.State.Result(); !over {
				return UserErr(ErrConflict, "The clocks of this game changed while your move was on its way (gobot gave back time it could not reach its database): look at the new board and try again.")
			}
		}
	}
	if _, over := g.State.Result(); !over && g.TeamClock == storage.TeamClockCasual {
		return UserErr(ErrNotYourTurn, fmt.Sprintf("⌛ Too late: %s's time ran out <t:%d:R>, so they are out of this game; %s plays on for %s.",
			Mention(out), deadline.Unix(), Mention(g.Player(loser.Game())), strings.Fields(a.sideLabel(g, loser.Game()))[1]))
	}
	return UserErr(ErrGameOver, fmt.Sprintf("⌛ Too late: %s's time ran out <t:%d:R>, so the game is over.", a.sideLabel(g, loser.Game()), deadline.Unix()))
}

// UpdateGame writes g, checking its version, with its clock brought in line
// with the game (syncClock) and without an owed board when a bot is to
// move (OweBoard); the scheduler then looks at the deadlines again.
func (a *App) UpdateGame(ctx context.Context, g *storage.Game) error {
	if g.BotToMove() {
		// The bot's move is owed in the queue, and its board is posted
		// by whoever makes it: the person's move it answers owes none.
		g.Delivery.Owed = nil
	}
	a.syncClock(ctx, g)
	if p := a.phases(g); p != nil {
		p.Sync(g, a.Now())
	}
	if err := a.games.UpdateGame(ctx, g); err != nil {
		return writeError(err)
	}
	a.KickClocks()
	return nil
}

// writeError is the error of a version-checked write of a game: ErrConflict
// when the game changed or ended in the meantime.
func writeError(err error) error {
	switch {
	case errors.Is(err, storage.ErrConflict):
		return ErrConflict
	case errors.Is(err, storage.ErrNotFound):
		return UserErr(ErrConflict, "This game was ended or aborted in the meantime; nothing was changed.")
	}
	return err
}

// Finish archives a game with a result, with its SGF record.
func (a *App) Finish(ctx context.Context, g *storage.Game) error {
	return a.archiveGame(ctx, g, false, "")
}

// archiveGame archives a game with a result, with its record (note at its
// root, when not empty); an annulled game is recorded but never counted.
func (a *App) archiveGame(ctx context.Context, g *storage.Game, annulled bool, note string) error {
	return a.archiveGameAt(ctx, g, annulled, note, a.Now(), false)
}

// archiveGameAt is archiveGame for a game that ended at at, before now: a
// game lost on time ended at its deadline, whenever the loss was found
// (the scheduler a moment later, or a late move), and its history, its
// board afterwards and the answer to a late move say so, as the loss's
// announcement does. Ratings keep their own order (RatingSeq). A game a
// server's admin decided (adjudicated) counts in that server's ratings
// only (storage.Archived.Adjudicated).
func (a *App) archiveGameAt(ctx context.Context, g *storage.Game, annulled bool, note string, at time.Time, adjudicated bool) error {
	arc, err := a.archiveEntry(g, annulled, "", note)
	if err != nil {
		return err
	}
	arc.Adjudicated = adjudicated
	if at.Before(arc.FinishedAt) && !at.Before(arc.StartedAt) {
		arc.FinishedAt = at
	}
	// Storage decides the limit in the transaction that rates the game,
	// so that games between the same two people ending together cannot
	// all pass it; one it holds back is recorded and counted, not rated,
	// and RatingNote says why.
	arc.PairLimit = storage.PairLimit{Games: PairRatedLimit, Window: PairWindow}
	if err := a.serverPools(ctx, g.Kind, &arc); err != nil {
		return err
	}
	return a.finishGame(ctx, g, arc, nil, "")
}

// finishGame writes arc, the archive entry that ends g. A team's votes
// to resign or to abort that g still holds end with it: once it is
// written, their messages say that they lapsed, and why (why, or as g
// then stands: LapseTeamVotes), all but decided's, the vote that ended the
// game, if any. (A move that ends the game drops g's votes before it is
// archived, and its room says so itself, knowing the vote it carried out.)
func (a *App) finishGame(ctx context.Context, g *storage.Game, arc storage.Archived, decided *storage.LapsedVote, why string) error {
	resign, abort := g.ResignVote, g.AbortVote
	g.ResignVote, g.AbortVote = nil, nil
	if err := writeError(a.games.FinishGame(ctx, g, arc)); err != nil {
		g.ResignVote, g.AbortVote = resign, abort
		return err
	}
	if resign != nil || abort != nil {
		a.LapseTeamVotes(ctx, g, decided, why)
	}
	return nil
}

// PairRatedLimit rated games between the same two people in PairWindow
// are the most that count: the next one is recorded unrated, so that
// nobody can farm a rating from a friend's or a second account's
// resignations (KGS, too, weighs repeated opponents less). Games against
// a bot are not limited: a level's rating is anchored to its rank; nor are
// team games and games against oneself, which are never rated.
const (
	PairRatedLimit = 3
	PairWindow     = 24 * time.Hour
)

// archiveEntry is g's archive entry: what its room records (players,
// result, record; void, with the reason, when void is not empty) and what
// every kind shares.
func (a *App) archiveEntry(g *storage.Game, annulled bool, void, note string) (storage.Archived, error) {
	arc, err := a.roomOf(g).Archived(g, annulled || void != "", void, note)
	if err != nil {
		return storage.Archived{}, err
	}
	arc.ID, arc.GuildID, arc.ChannelID, arc.ParentChannelID, arc.Kind = g.ID, g.GuildID, g.ChannelID, g.ParentChannelID, g.Kind
	arc.Moves, arc.Annulled = g.State.MoveCount(), annulled || void != ""
	arc.StartedAt, arc.FinishedAt = g.CreatedAt, a.Now()
	arc.Clock = FinalClock(g.Clock, arc.FinishedAt)
	arc.Rated = !g.Unrated // storage rates only games with a winner or a tie
	arc.Unrated = g.Unrated
	return arc, nil
}

// botToMove reports whether a bot is to move in g: the store has queued
// its move.
func botToMove(g *storage.Game) bool { return g.BotToMove() }

// AnswerGame replies with the game's state after a change. When a bot is to
// move (the change queued its move), it defers the reply and waits for a
// worker to make the move first (see awaitBot). When another process made
// the move and answered the command with it already, that answer stands.
func (a *App) AnswerGame(ctx context.Context, r *Request, g *storage.Game, note string) error {
	if botToMove(g) {
		// The deferral goes out with a fresh short deadline, as
		// answerBotFailure's answer does: a shutdown whose grace ran
		// out before it (the handler slow to get here) would otherwise
		// leave the interaction unanswered, where answerBotFailure can
		// still say that gobot restarts.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
		err := r.Defer(dctx, false)
		cancel()
		if err != nil {
			return err
		}
		moved, botNote, err := a.awaitBot(ctx, r, g)
		if errors.Is(err, errAnsweredElsewhere) {
			return nil
		}
		if err != nil {
			return a.answerBotFailure(ctx, r, g, note, err)
		}
		g = moved
		if note != "" && botNote != "" {
			note += "\n"
		}
		note += botNote // empty when another process announced the move
	}
	m, err := a.StateMessage(ctx, g, a.Now(), note)
	if err != nil {
		return err
	}
	m.ClearContent = true // the queue notice the wait may have shown
	if err := a.ReplyBoard(ctx, r, g, m); err != nil {
		return a.answerLost(ctx, r, g, m, err)
	}
	return nil
}

// answerLost is the answer to r when Discord did not take its answer, m,
// the board of g after a change that is committed (a move and the bot's
// reply, a pass, a resignation): the default "nothing was changed" would
// be false, and the player trying again would be refused ("It is not
// your turn"). The board is posted separately (postBoard: the game's follow-up,
// else the channel), and r is told so. When that fails too, the game is
// marked Unposted, so that the next answer in it says the last move, and
// r is pointed to /go board.
func (a *App) answerLost(ctx context.Context, r *Request, g *storage.Game, m *Message, err error) error {
	log := a.log.With("channel", g.ChannelID, "game", g.ID, "err", err)
	// The handler's deadline may be what failed the answer.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
	defer cancel()
	perr := a.postBoard(pctx, g, m, nil)
	if perr == nil {
		log.Warn("answer: Discord did not take the board of a committed change; posted it separately")
		return UserErr(err, "Done, but Discord did not take my answer to this command: the board is posted separately.")
	}
	log.Warn("answer: Discord did not take the board of a committed change, nor a post of it", "post_err", perr)
	// A person's move owes its board (OweBoard): the scheduler posts it
	// once Discord answers again, and marks the game Unposted itself if
	// it cannot; marked here too, the next answer would say the board was
	// never posted after it was.
	if _, over := g.State.Result(); !over && g.Delivery.Owed == nil {
		g.Delivery.Unposted = true
		if uerr := a.UpdateGame(pctx, g); uerr != nil && !errors.Is(uerr, ErrConflict) {
			log.Warn("answer: mark the move unposted", "update_err", uerr)
		}
	}
	return UserErr(err, fmt.Sprintf("Done, but Discord did not take my answer to this command: `/%s board` shows the game as it stands.", a.roomOf(g).Command()))
}

// ReplyBoard answers r with m, a board of g. When it is public, it keeps
// its message's ID (KeepBoardID: the game's newest board) and tells g's
// room of it when Discord says which it is (a vote game shows its votes on
// its newest board).
func (a *App) ReplyBoard(ctx context.Context, r *Request, g *storage.Game, m *Message) error {
	sent, err := r.ReplyMessage(ctx, m)
	if err == nil && !m.Ephemeral {
		a.KeepBoardID(ctx, g, sent)
		if p := a.poster(g); p != nil && sent != nil {
			p.Posted(ctx, g, sent)
		}
	}
	return err
}

// replyTimeout bounds an answer sent after the handler's own context ended
// (the shutdown's grace period ran out while the bot was thinking).
const replyTimeout = 5 * time.Second

// answerBotFailure answers when the bot's move was not made while the
// handler waited: it failed (and stays queued, to be tried again), the App
// is shutting down, the wait lasted too long, or the game changed. The
// answer shows the stored game: the interaction must never show a move
// that did not happen. When ctx has ended (shutdown), the answer goes out
// with a fresh short deadline so the "thinking…" message does not stay for
// ever; the move is made after the restart. When the stored game cannot
// be read either, the answer shows g, which was stored (the move that made
// the bot's move owed is in it), and says the bot will move when it can.
func (a *App) answerBotFailure(ctx context.Context, r *Request, g *storage.Game, note string, moveErr error) error {
	// A shutdown cancels the workers' searches and the handlers' contexts
	// at the end of the same grace period: the worker's error may come
	// first, the handler's context ending as it answers, so Shutdown
	// having started counts too.
	shutdown := ctx.Err() != nil || errors.Is(moveErr, errRestarting) || a.shuttingDown()
	if shutdown {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
		defer cancel()
	}
	stored, err := a.LoadGame(ctx, g.ChannelID)
	switch {
	case errors.Is(err, ErrNoGame) || (err == nil && stored.ID != g.ID):
		return r.Reply(ctx, &Message{Content: strings.TrimSpace(note + "\n" + a.endedMeanwhile(ctx, g)), AllowedMentions: NoMentions()})
	case errors.Is(err, ErrQuarantined):
		return err
	case err != nil:
		// The store does not answer (the database is down): g is the game
		// as this handler last read or wrote it, the player's move
		// included, and the bot's move stays owed.
		a.log.Warn("bot move: the game could not be read again; answered with the game as written", "channel", g.ChannelID, "game", g.ID, "err", err)
		stored = g
		note += "\n⚠️ gobot cannot reach its database just now; it will play its move as soon as it can."
	case !botToMove(stored) || stored.State.MoveCount() != g.State.MoveCount():
		// Someone else changed the game meanwhile (an undo, a resignation,
		// moves after the bot's): the stored state says what happened.
		note += "\nThe game changed while gobot was thinking; here it is as it stands."
	case shutdown:
		note += "\n🔄 gobot is restarting and will play its move as soon as it is back."
	case errors.Is(moveErr, errStillQueued):
		note += "\n" + queuedNote(a.queuePosition(ctx, g))
	case errors.Is(moveErr, errPanic):
		note += "\n⚠️ Sorry, something went wrong on my side while gobot chose its move; it will try again shortly."
	default:
		note += "\n⚠️ gobot could not choose its move just now and will try again shortly."
	}
	m, err := a.StateMessage(ctx, stored, a.Now(), note)
	if err != nil {
		return err
	}
	m.ClearContent = true // the queue notice the wait may have shown
	return a.ReplyBoard(ctx, r, stored, m)
}

// endedMeanwhile says that g, whose bot move a command waited for, left
// its channel meanwhile, with its result when it was archived. It does not
// say whether the bot's move was played: the game may have ended before it
// (a resignation, the bot's own clock), or after it, when the process that
// made it announced it.
func (a *App) endedMeanwhile(ctx context.Context, g *storage.Game) string {
	arc, err := a.archive.ArchivedGame(ctx, g.ID)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			a.log.Warn("bot move: read the game that ended meanwhile", "game", g.ID, "err", err)
		}
		return "This game was ended or aborted while gobot was thinking."
	}
	return fmt.Sprintf("This game ended while gobot was thinking: **%s**.", a.resultCounted(arc))
}

// botMove asks the bot to move in g and commits its move (see apply). The
// Players contract has GenMove return a legal move (bots.Registry checks
// it against the rules); apply's play refuses any other, as for a person.
func (a *App) botMove(ctx context.Context, g *storage.Game) (string, error) {
	return a.roomOf(g).BotMove(ctx, g)
}

// tokenLifetime is how long Discord accepts an interaction token, less a
// margin for the time the post takes.
const tokenLifetime = 14 * time.Minute

// postBoard posts a message about g outside any handler: as a follow-up of
// the game's last interaction while its token is valid (the only way in a
// user-install private channel, where gobot is no member and Discord
// answers a channel post with 403), else in the channel if gobot may
// post there.
func (a *App) PostBoard(ctx context.Context, g *storage.Game, m *Message) error {
	return a.postBoard(ctx, g, m, nil)
}

// postBoard is PostBoard; answer says that m may answer the game's last
// interaction when its answer is still "thinking…" (see post).
func (a *App) postBoard(ctx context.Context, g *storage.Game, m *Message, answer func() *Message) error {
	sent, err := a.post(ctx, g, m, answer)
	if err == nil {
		if len(m.Files) > 0 { // a board, not a note
			a.KeepBoardID(ctx, g, sent)
		}
		if p := a.poster(g); p != nil {
			p.Posted(ctx, g, sent)
		}
	}
	return err
}

// post posts m about g outside any handler, as postBoard says, and returns
// the message posted.
func (a *App) Post(ctx context.Context, g *storage.Game, m *Message) (*discordgo.Message, error) {
	return a.post(ctx, g, m, nil)
}

// post is Post. With answer set (a bot move that no handler answered),
// when the game's last interaction is still "thinking…" (its handler
// died with its process: the interaction that owed the move, stored
// with it), the message answer returns becomes that interaction's answer
// instead of m as a message of its own: the player's command would
// otherwise stay "thinking…" for ever.
func (a *App) post(ctx context.Context, g *storage.Game, m *Message, answer func() *Message) (*discordgo.Message, error) {
	f := g.Delivery.Followup
	if f != nil && a.Now().Sub(f.At) < tokenLifetime {
		it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: g.ChannelID}
		if answer != nil {
			if sent, ok := a.answerThinking(ctx, it, answer); ok {
				return sent, nil
			}
		}
		sent, err := a.opts.Discord.Followup(ctx, it, m)
		if err == nil {
			return sent, nil
		}
		a.log.Info("post board as a follow-up failed", "channel", g.ChannelID, "err", err)
	}
	if f != nil && !f.ChannelPosts {
		return nil, ErrNoChannelPosts
	}
	return a.opts.Discord.SendMessage(ctx, g.ChannelID, m)
}

// answerThinking edits the answer of it into m when that answer is still
// "thinking…" (Discord's loading flag) or only the queue notice its
// handler showed while it waited (see waitOutcome), and reports whether
// it did.
func (a *App) answerThinking(ctx context.Context, it *discordgo.Interaction, answer func() *Message) (*discordgo.Message, bool) {
	orig, err := a.opts.Discord.Original(ctx, it)
	if err != nil || !unanswered(orig) {
		return nil, false
	}
	edit := *answer()
	edit.ClearContent = true
	sent, err := a.opts.Discord.EditOriginal(ctx, it, &edit)
	if err != nil {
		a.log.Info("answer a command left thinking by its handler failed", "channel", it.ChannelID, "err", err)
		return nil, false
	}
	return sent, true
}

// unanswered reports whether orig, the answer of a command that waits
// for a bot move, is still "thinking…" (Discord's loading flag) or only
// the queue notice its handler showed while it waited (see waitOutcome).
func unanswered(orig *discordgo.Message) bool {
	waiting := len(orig.Embeds) == 0 && len(orig.Attachments) == 0 && strings.HasPrefix(orig.Content, queuePromise)
	return orig.Flags&discordgo.MessageFlagsLoading != 0 || waiting
}

// postBotMove posts the board after a bot move no handler answered with
// (see postBoard), as the answer of the command that owed the move when
// that is still "thinking…" (see post): then, as the handler would have,
// it says the person's move that the bot answered before the bot's own.
// When it cannot be posted, the game is marked Unposted and the next
// move's answer says what the bot played.
func (a *App) postBotMove(ctx context.Context, g *storage.Game, note string) {
	now := a.Now()
	m, err := a.StateMessage(ctx, g, now, note)
	answer := func() *Message {
		line := a.answeredMove(g)
		if line == "" {
			return m
		}
		am, err := a.StateMessage(ctx, g, now, line+"\n"+note)
		if err != nil {
			return m
		}
		return am
	}
	if err == nil {
		err = a.postBoard(ctx, g, m, answer)
	}
	if err == nil {
		return
	}
	log := a.log.With("channel", g.ChannelID, "game", g.ID)
	log.Warn("bot move: post board; the next answer in the game will say what the bot played", "err", err)
	g.Delivery.Unposted = true
	if err := a.UpdateGame(ctx, g); err != nil {
		log.Warn("bot move: mark the move unposted", "err", err)
	}
}

// moveLiner is a room that can say again what a person's move of its
// game was, as the answer to that move said it: "⚪ white @lou played
// **32-28**." (empty for a bot's move).
type moveLiner interface {
	MoveLine(g *storage.Game, ply int) string
}

// answeredMove is the line of the person's move that g's last move, a
// bot's, answered; empty when there is none (the bot opened the game, or
// answered another bot) or the room cannot say it.
func (a *App) answeredMove(g *storage.Game) string {
	ml, ok := a.roomOf(g).(moveLiner)
	n := g.State.MoveCount()
	if !ok || n < 2 || !a.lastMover(g).IsBot() {
		return ""
	}
	return ml.MoveLine(g, n-2)
}

// stateMessage is the message for the game's state: the board in play, the
// marked board in the scoring phase, the final board when over.
func (a *App) StateMessage(ctx context.Context, g *storage.Game, now time.Time, note string) (*Message, error) {
	return a.roomOf(g).Message(ctx, g, now, note)
}

// askedBoarder is a room whose board asked for (/go board) differs from
// the board of its game's state: at Go's count, the state's board is the
// one the pass that ended play drew, which names everyone it waits for
// but that passer; the board asked for names them all.
type askedBoarder interface {
	AskedMessage(ctx context.Context, g *storage.Game, now time.Time, viewer string) (*Message, error)
}

func (a *App) CmdBoard(ctx context.Context, r *Request, g *storage.Game) error {
	if botToMove(g) {
		// The bot's move is owed (queued, or failed once and waiting to
		// be tried again): wait for it, then show the board.
		return a.AnswerGame(ctx, r, g, "")
	}
	var m *Message
	var err error
	if ab, ok := a.roomOf(g).(askedBoarder); ok {
		viewer := ""
		if r.User != nil {
			viewer = r.User.ID
		}
		m, err = ab.AskedMessage(ctx, g, a.Now(), viewer)
	} else {
		m, err = a.StateMessage(ctx, g, a.Now(), "")
	}
	if err != nil {
		return err
	}
	// A board asked for, by anyone, pings nobody: its "your move" names
	// the player to move, whom only a move (StateMessage's boards after
	// one) notifies; else anyone could ping a player at will.
	m.AllowedMentions = NoMentions()
	return a.ReplyBoard(ctx, r, g, m)
}

// RecordInPlay answers r with the record of g, the game in play (file, in
// format: "SGF, opens in any Go editor"), and its animated replay when the
// animation: option asks for one (gif draws it).
func (a *App) RecordInPlay(ctx context.Context, r *Request, g *storage.Game, file File, format string, gif func() (File, error)) error {
	animate, _, err := r.Bool("animation")
	if err != nil {
		return err
	}
	moves := a.movesText(g.Kind, g.State.MoveCount())
	m := &Message{Content: fmt.Sprintf("Game record after %s (%s).", moves, format), Files: []File{file}}
	if animate {
		attached, err := WithAnimation(ctx, r, m, gif)
		if err != nil {
			return err
		}
		if attached {
			m.Content = fmt.Sprintf("Game record and animated replay after %s.", moves)
		}
	}
	return r.Reply(ctx, m)
}

// WithAnimation attaches an animated replay to m, made by gif, after
// deferring the answer (drawing every move takes a while); one larger than
// Discord accepts is left out, and m says so. It reports whether the
// replay was attached.
func WithAnimation(ctx context.Context, r *Request, m *Message, gif func() (File, error)) (bool, error) {
	if err := r.Defer(ctx, m.Ephemeral); err != nil {
		return false, err
	}
	f, err := gif()
	switch {
	case err != nil:
		return false, err
	case len(f.Data) > maxUpload:
		m.Content += " The animation is too large to attach."
		return false, nil
	}
	m.Files = append(m.Files, f)
	return true, nil
}

// maxUpload is the largest attachment Discord accepts from bots everywhere.
const maxUpload = 8 << 20

// CmdAbort is /go abort (and /draughts abort): a player's abort by the
// players' rules, or a moderator's of a game they do not play in.
func (a *App) CmdAbort(ctx context.Context, r *Request, g *storage.Game) error {
	notPlayer := a.IsPlayer(g, r.User)
	if notPlayer == nil {
		// A player who is also a moderator aborts as a player: nobody
		// rules on their own game.
		return a.askAbort(ctx, r, g) // a player's abort (see abort.go)
	}
	if !moderator(r) {
		return a.notAborter(r, g, notPlayer)
	}
	return a.moderatorAbort(ctx, r, g) // with a reason, recorded and logged (admin_moderation.go)
}

// notAborter is the refusal of /go abort (or /draughts abort) for r's
// user, who does not play in g and is no moderator. It says first that
// they do not play, as their resignation's refusal does (notPlayer, or
// for a vote game that nobody aborts for the channel), and then who can
// abort: in a server a moderator, with a reason; elsewhere only the
// players. "You need the Manage Messages permission" alone told a
// spectator nothing of the game.
func (a *App) notAborter(r *Request, g *storage.Game, notPlayer error) error {
	text := "This is the channel's vote game, which no player aborts."
	if ue := (*UserError)(nil); g.VotePeriod == 0 && errors.As(notPlayer, &ue) {
		text = ue.Msg
	}
	if r.Interaction.GuildID == "" {
		return UserErr(ErrNotPlayer, text+" Outside a server only the players can abort a game.")
	}
	return UserErr(ErrNotPlayer, fmt.Sprintf("%s A moderator (with the Manage Messages permission) can abort it, with a reason: `/%s abort reason:…`.", text, a.roomOf(g).Command()))
}

// lastMover returns who made g's last move.
func (a *App) lastMover(g *storage.Game) storage.Player { return a.roomOf(g).LastMover(g) }
