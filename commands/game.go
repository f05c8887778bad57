package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// routes registers every handler: the core's, then each room's.
func (a *App) routes() *Router {
	rt := NewRouter()
	rt.Component("challenge/{id}/accept", a.btnAccept)
	rt.Component("challenge/{id}/decline", a.btnDecline)
	rt.Component("history/{player}/{page}", a.btnHistory)
	rt.Component("sgf/{id}", a.btnSGF)
	rt.Component("leaderboard/{pool}/{page}", a.btnLeaderboard)
	a.adminRoutes(rt)
	for _, rm := range a.rooms.list {
		rm.Routes(rt)
	}
	return rt
}

// goRoutes registers Go's handlers: /go and the buttons of Go's boards.
func (a *App) goRoutes(rt *Router) {
	// The Go rules' refusals (engine's sentinels) get their sentences.
	explained := func(h HandlerFunc) HandlerFunc {
		return func(ctx context.Context, r *Request) error { return engine.Refusal(h(ctx, r)) }
	}
	command := func(path string, h HandlerFunc) { rt.Command(path, explained(h)) }
	component := func(pattern string, h HandlerFunc) { rt.Component(pattern, explained(h)) }
	command("go/challenge", a.cmdChallenge)
	command("go/bot", a.cmdBot)
	command("go/rengo", a.cmdRengo)
	command("go/vote", a.cmdVote)
	command("go/play", a.OnGame(a.cmdPlay))
	command("go/pass", a.OnGame(a.pass))
	command("go/resign", a.OnGame(a.resign))
	command("go/undo", a.OnGame(a.undo))
	command("go/board", a.CmdBoardHere)
	command("go/sgf", a.CmdRecord)
	command("go/replay", a.cmdReplay)
	command("go/review", a.cmdReview)
	command("go/estimate", a.cmdEstimate)
	command("go/history", a.CmdHistory)
	command("go/dead", a.OnGame(a.cmdDead))
	command("go/stats", a.CmdStats)
	command("go/leaderboard", a.CmdLeaderboard)
	command("go/help", a.cmdHelp)
	command("go/abort", a.OnGame(a.CmdAbort))
	command("go/vacation", a.cmdVacation)

	rt.Autocomplete("go/play", a.completePlay)
	rt.Autocomplete("go/dead", a.completeDead)
	for _, name := range []string{"go/challenge", "go/bot", "go/rengo"} {
		rt.Autocomplete(name, a.CompleteClock)
	}
	for _, name := range []string{"go/sgf", "go/replay", "go/review", "go/estimate"} {
		rt.Autocomplete(name, a.CompleteFinishedGames)
	}

	component("rengo/{id}/join/{team}", a.btnRengoJoin)
	component("rengo/{id}/leave", a.btnRengoLeave)
	component("rengo/{id}/start", a.btnRengoStart)
	component("vote/{id}/{move}/{point}", a.btnVote)
	component("game/{id}/pass/{move}", a.OnBoard("game/", a.pass))
	component("game/{id}/board", a.btnOpenBoard)
	component("game/{id}/resign/{move}", a.OnBoard("game/", a.btnResign))
	component("game/{id}/resign-yes/{move}", a.OnBoard("game/", a.resign))
	component("game/{id}/abort-yes/{move}", a.OnBoard("game/", a.PlayerAbort))
	component("game/{id}/undo/{move}", a.OnBoard("game/", a.undo))
	// {at}, not {move}: pendingUndo tells a lapsed request from an old board.
	component("game/{id}/undo-yes/{at}", a.OnBoard("game/", a.btnUndoYes))
	component("game/{id}/undo-no/{at}", a.OnBoard("game/", a.btnUndoNo))
	component("game/{id}/score/{marking}/accept", a.btnScoreAccept)
	component("game/{id}/score/{marking}/resume", a.btnScoreResume)
}

// GameHandler handles an interaction about g, the game it concerns.
type GameHandler func(ctx context.Context, r *Request, g *storage.Game) error

// OnGame is a command handler for the channel's active game (see
// loadGame), which must be of the command's room: /go play in a channel
// whose game is draughts is told to use /draughts.
func (a *App) OnGame(h GameHandler) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		rm := a.commandRoom(r)
		g, err := a.loadGame(ctx, r.Interaction.ChannelID)
		if err == ErrNoGame {
			return UserErr(ErrNoGame, fmt.Sprintf("There is no game in this channel. Start one with `/%s challenge` or `/%s bot`.", rm.Command(), rm.Command()))
		}
		if err != nil {
			return err
		}
		if in := a.roomOf(g); in != rm {
			return UserErr(ErrWrongGame, fmt.Sprintf("The game in this channel is %s: play it with `/%s play` (`/%s help` says how).", in.Name(), in.Command(), in.Command()))
		}
		return h(ctx, r, g)
	}
}

// OnBoard is a button handler for the game of the newest board (see
// buttonGame), which must belong to the room whose buttons begin with
// prefix (Room.ButtonPrefix).
func (a *App) OnBoard(prefix string, h GameHandler) HandlerFunc {
	return func(ctx context.Context, r *Request) error {
		g, err := a.buttonGame(ctx, r)
		if err != nil {
			return err
		}
		if a.roomOf(g).ButtonPrefix() != prefix {
			return UserErr(ErrWrongGame, "This button belongs to another game.")
		}
		return h(ctx, r, g)
	}
}

// loadGame returns the active game in a channel. A record that cannot be
// read is set aside the first time it is read (see quarantine): the error
// is then ErrQuarantined, with the notice for the channel, and the channel
// is free.
func (a *App) loadGame(ctx context.Context, channelID string) (*storage.Game, error) {
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
const quarantineNotice = "⚠️ The game in this channel could not be read: its stored record is damaged. " +
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
	return UserErr(ErrQuarantined, quarantineNotice)
}

// setAside is quarantine outside an interaction (a start-up scan, a bot
// move in the background): the notice is posted in the channel.
func (a *App) setAside(ctx context.Context, channelID string) {
	if _, err := a.loadGame(ctx, channelID); errors.Is(err, ErrQuarantined) {
		a.tellSetAside(ctx, channelID)
	}
}

// tellSetAside posts quarantineNotice in a channel.
func (a *App) tellSetAside(ctx context.Context, channelID string) {
	if _, err := a.opts.Discord.SendMessage(ctx, channelID, &Message{Content: quarantineNotice, AllowedMentions: NoMentions()}); err != nil {
		a.log.Warn("could not tell the channel its game was set aside", "channel", channelID, "err", err)
	}
}

// buttonGame loads the game a button belongs to and checks that the button
// is from the newest board: same game, same move number.
func (a *App) buttonGame(ctx context.Context, r *Request) (*storage.Game, error) {
	g, err := a.loadGame(ctx, r.Interaction.ChannelID)
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
		return nil, ErrStale
	}
	return g, nil
}

// playerColor returns the colour of the side u plays on in g.
func playerColor(g *storage.Game, u *discordgo.User) (engine.Color, error) {
	if s, ok := g.SideOf(u.ID); ok {
		return engine.ColorOf(s), nil
	}
	return engine.Empty, UserErr(ErrNotPlayer, fmt.Sprintf("You are not playing in this game: it is %s (black) against %s (white).", teamMention(g, engine.Black), teamMention(g, engine.White)))
}

// canMove checks that u may move in g now: u's side is to move and, in a
// team game, it is u's turn on that side.
func canMove(g *storage.Game, u *discordgo.User) (engine.Color, error) {
	c, err := playerColor(g, u)
	if err != nil {
		return c, err
	}
	if _, over := goOf(g).Result(); over {
		return c, ErrGameOver
	}
	if g.Scoring != nil {
		return c, UserErr(ErrNotYourTurn, "Play has ended and the dead stones are being agreed: mark groups with `/go dead`, then press Accept, or Resume play to keep playing.")
	}
	if t := goOf(g).ToPlay(); t != c || g.Player(engine.SideOf(t)).UserID != u.ID {
		return c, UserErr(ErrNotYourTurn, fmt.Sprintf("It is not your turn: %s %s is to play.", stoneEmoji(t), Mention(g.Player(engine.SideOf(t)))))
	}
	return c, nil
}

// UserPlayer is the storage player for a Discord user.
func UserPlayer(u *discordgo.User) storage.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return storage.Player{UserID: u.ID, Name: name}
}

func (a *App) cmdPlay(ctx context.Context, r *Request, g *storage.Game) error {
	text, _ := r.String("move")
	if isVoteGame(g) {
		return a.castVote(ctx, r, g, text)
	}
	c, err := canMove(g, r.User)
	if err != nil {
		return err
	}
	m, err := parseMove(c, text, goOf(g).Size())
	if err != nil {
		return err
	}
	return a.move(ctx, r, g, m)
}

func (a *App) pass(ctx context.Context, r *Request, g *storage.Game) error {
	if isVoteGame(g) {
		return a.castVote(ctx, r, g, "pass")
	}
	c, err := canMove(g, r.User)
	if err != nil {
		return err
	}
	return a.move(ctx, r, g, engine.PassMove(c))
}

func (a *App) resign(ctx context.Context, r *Request, g *storage.Game) error {
	if isVoteGame(g) {
		return UserErr(ErrNotPlayer, "Nobody resigns for the channel in a vote game: vote `pass`, and two passes end the game with a count. A moderator may abort it.")
	}
	c, err := playerColor(g, r.User)
	if err != nil {
		return err
	}
	if _, over := goOf(g).Result(); over {
		return ErrGameOver
	}
	if g.Team() && (goOf(g).ToPlay() != c || g.Player(engine.SideOf(c)).UserID != r.User.ID) {
		return a.voteResign(ctx, r, g, c)
	}
	return a.move(ctx, r, g, engine.ResignMove(c))
}

// btnResign asks for confirmation: a misclick must not end a game.
func (a *App) btnResign(ctx context.Context, r *Request, g *storage.Game) error {
	if _, err := playerColor(g, r.User); err != nil {
		return err
	}
	return r.Reply(ctx, &Message{
		Content:   "Do you really want to resign this game?",
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Yes, resign", Style: discordgo.DangerButton, CustomID: "game/" + g.ID + "/resign-yes/" + r.Param("move")},
		}}},
	})
}

// move plays a player's move, commits it and answers with the new state,
// after the bot's reply when a bot is to move next.
func (a *App) move(ctx context.Context, r *Request, g *storage.Game, m engine.Move) error {
	unposted := ""
	if last, ok := goOf(g).LastMove(); ok && g.Delivery.Unposted {
		// The bot moved in the background and its board could not be
		// shown (apply clears the flag with this move).
		unposted = fmt.Sprintf("(%s %s played %s earlier, but its board could not be posted here.)\n", stoneEmoji(last.Color), Mention(movedBy(g, g.State.MoveCount()-1)), moveName(last))
	}
	// A move after the deadline ends the game on time, announced through
	// the game's stored follow-up, not this interaction's (still unanswered).
	if err := a.InTime(ctx, g, a.Now()); err != nil {
		return err
	}
	// This interaction's token is how a bot move made later in the
	// background reaches the players (see postBoard); it is stored with
	// the move at no extra cost.
	// A board page's click (web.go) has no token: the game keeps the
	// follow-up it had.
	if f := FollowupOf(r.Interaction, a.Now()); f != nil {
		g.Delivery.Followup = f
	}
	note, err := a.apply(ctx, g, m)
	if err != nil {
		return err
	}
	return a.AnswerGame(ctx, r, g, unposted+note)
}

// moveName is a move in bold as the notes print it.
func moveName(m engine.Move) string {
	if m.Kind == engine.Place {
		return "**" + m.Point.String() + "**"
	}
	return m.String()
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

// InTime checks that the player to move in g still has time at now. When
// they have not, the move does not count: the game is lost on time (unless
// the scheduler, or another process, is ending it already) and the error
// says so.
func (a *App) InTime(ctx context.Context, g *storage.Game, now time.Time) error {
	if !g.Clock.Flagged(now) {
		return nil
	}
	deadline, loser := g.Clock.Deadline(), g.Clock.ToMove
	out := g.Player(loser.Game())
	if err := a.timeUp(ctx, g); err != nil && !errors.Is(err, ErrConflict) {
		return err
	}
	if _, over := g.State.Result(); !over && g.TeamClock == storage.TeamClockCasual {
		return UserErr(ErrNotYourTurn, fmt.Sprintf("⌛ Too late: %s's time ran out <t:%d:R>, so they are out of this game; %s plays on for %s.",
			Mention(out), deadline.Unix(), Mention(g.Player(loser.Game())), strings.Fields(a.sideLabel(g, loser.Game()))[1]))
	}
	return UserErr(ErrGameOver, fmt.Sprintf("⌛ Too late: %s's time ran out <t:%d:R>, so the game is over.", a.sideLabel(g, loser.Game()), deadline.Unix()))
}

// apply plays m on g and commits it: the archive when the game has a
// result, the scoring phase after two passes, an update otherwise. Nothing
// is written when the move is refused or the game changed in the meantime.
func (a *App) apply(ctx context.Context, g *storage.Game, m engine.Move) (string, error) {
	now := a.Now()
	if err := a.InTime(ctx, g, now); err != nil {
		return "", err
	}
	before, mover := goOf(g).Captures(m.Color), g.Player(engine.SideOf(m.Color))
	if err := goOf(g).Play(m); err != nil {
		return "", moveError(err, m, g)
	}
	if m.Kind != engine.Resign {
		g.Moved(mover)
	}
	if g.Clock.Running() && clock.Side(m.Color) == g.Clock.ToMove && m.Kind != engine.Resign {
		if err := g.Clock.Move(g.State.MoveCount(), now); err != nil {
			return "", err // not flagged (checked above): cannot happen
		}
		nextOnClock(g, m.Color, mover)
	}
	g.Undo = nil
	g.ResignVote = nil // a team's vote lapses with the next move
	g.Delivery.Unposted = false
	note := describeMove(g, m, goOf(g).Captures(m.Color)-before)
	if _, over := goOf(g).Result(); over {
		if err := a.Finish(ctx, g); err != nil {
			return "", err
		}
		if rn := a.RatingNote(ctx, g); rn != "" {
			note += "\n" + rn
		}
		return note, nil
	}
	if goOf(g).PlayEnded() && g.Scoring == nil {
		if unsure := a.startScoring(ctx, g); len(unsure) > 0 {
			note += "\n" + uncertainNote(unsure)
		}
	}
	if err := a.UpdateGame(ctx, g); err != nil {
		return "", err
	}
	return note, nil
}

// uncertainNote asks the players to check groups the dead-stone estimate
// left alive without being sure.
func uncertainNote(ps []engine.Point) string {
	them := "them"
	if len(ps) == 1 {
		them = "it"
	}
	return "⚠️ Please check " + pointList(ps, 30) + ": I left " + them + " alive without being sure."
}

// pointList names points, at most limit of them.
func pointList(ps []engine.Point, limit int) string {
	var names []string
	for i, p := range ps {
		if i == limit {
			names = append(names, fmt.Sprintf("and %d more", len(ps)-limit))
			break
		}
		names = append(names, p.String())
	}
	return strings.Join(names, " ")
}

// moveError explains a refused move with the rules' own sentence for it
// (engine.RefuseMove).
func moveError(err error, m engine.Move, g *storage.Game) error {
	return refusal(engine.RefuseMove(err, m, goOf(g)))
}

// UpdateGame writes g, checking its version, with its clock brought in line
// with the game (syncClock); the scheduler then looks at the deadlines
// again.
func (a *App) UpdateGame(ctx context.Context, g *storage.Game) error {
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
	return a.archiveGame(ctx, g, false)
}

// archiveGame archives a game with a result, with its SGF record; an annulled
// game is recorded but never counted.
func (a *App) archiveGame(ctx context.Context, g *storage.Game, annulled bool) error {
	arc, err := a.archiveEntry(g, annulled, "")
	if err != nil {
		return err
	}
	if err := a.serverPools(ctx, g.Kind, &arc); err != nil {
		return err
	}
	return writeError(a.games.FinishGame(ctx, g, arc))
}

// archiveEntry is g's archive entry: what its room records (players,
// result, record; void, with the reason, when void is not empty) and what
// every kind shares.
func (a *App) archiveEntry(g *storage.Game, annulled bool, void string) (storage.Archived, error) {
	arc, err := a.roomOf(g).Archived(g, annulled || void != "", void)
	if err != nil {
		return storage.Archived{}, err
	}
	arc.ID, arc.GuildID, arc.ChannelID, arc.Kind = g.ID, g.GuildID, g.ChannelID, g.Kind
	arc.Moves, arc.Annulled = g.State.MoveCount(), annulled || void != ""
	arc.StartedAt, arc.FinishedAt = g.CreatedAt, a.Now()
	arc.Rated = !g.Unrated // storage rates only games with a winner or a tie
	return arc, nil
}

// annulledComment is the root comment of an annulled game's record.
const annulledComment = "Annulled: a player ran out of time before making two moves of their own; the game is recorded but does not count."

// gameSGF writes the record, with the final marking when scored and a
// root comment saying so when annulled.
func gameSGF(g *storage.Game, dead []engine.Point, scored, annulled bool) ([]byte, error) {
	info := sgfInfo(g, dead, scored)
	if annulled {
		info.C = annulledComment
	}
	return writeSGF(g, info)
}

// sgfInfo is the record's game information: players, date, result, clock
// and, when scored, the final marking.
func sgfInfo(g *storage.Game, dead []engine.Point, scored bool) engine.SGFInfo {
	info := engine.SGFInfo{
		PB: teamName(g, engine.Black), PW: teamName(g, engine.White),
		DT: g.CreatedAt.UTC().Format("2006-01-02"),
		GN: teamName(g, engine.Black) + " vs " + teamName(g, engine.White),
		PC: "Discord (gobot)",
	}
	for n, voters := range g.VoteLog {
		if info.Comments == nil {
			info.Comments = map[int]string{}
		}
		info.Comments[n] = fmt.Sprintf("Voted by %s (%s).", strings.Join(voters, ", "), Plural(len(voters), "vote"))
	}
	if g.Team() {
		// A team game's record says who played each move.
		info.Comments = map[int]string{}
		for i, m := range goOf(g).Moves() {
			info.Comments[i+1] = "Played by " + PlainName(g.MovedBy(i, engine.SideOf(m.Color))) + "."
		}
	}
	if res, ok := goOf(g).Result(); ok {
		info.RE = res.String()
	}
	if k := g.Clock; k != nil {
		info.TM, info.OT = k.Control.SGF()
		info.Times = map[int]engine.SGFTime{}
		for _, m := range k.Log {
			info.Times[m.Move] = engine.SGFTime{Left: m.Left.Seconds(), Periods: m.Periods}
		}
	}
	if scored {
		info.Dead = append([]engine.Point{}, dead...)
	}
	return info
}

// writeSGF writes g's record with info.
func writeSGF(g *storage.Game, info engine.SGFInfo) ([]byte, error) {
	var buf bytes.Buffer
	if err := engine.WriteSGF(&buf, goOf(g), info); err != nil {
		return nil, fmt.Errorf("commands: write SGF of game %s: %w", g.ID, err)
	}
	return buf.Bytes(), nil
}

// botToMove reports whether a bot is to move in g: the store has queued
// its move.
func botToMove(g *storage.Game) bool { return g.BotToMove() }

// AnswerGame replies with the game's state after a change. When a bot is to
// move (the change queued its move), it defers the reply and waits for a
// worker to make the move first (see awaitBot).
func (a *App) AnswerGame(ctx context.Context, r *Request, g *storage.Game, note string) error {
	if botToMove(g) {
		if err := r.Defer(ctx, false); err != nil {
			return err
		}
		moved, botNote, err := a.awaitBot(ctx, r, g)
		if err != nil {
			return a.answerBotFailure(ctx, r, g, note, err)
		}
		g = moved
		if note != "" {
			note += "\n"
		}
		note += botNote
	}
	m, err := a.stateMessage(ctx, g, a.Now(), note)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
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
// ever; the move is made after the restart.
func (a *App) answerBotFailure(ctx context.Context, r *Request, g *storage.Game, note string, moveErr error) error {
	shutdown := ctx.Err() != nil || errors.Is(moveErr, errRestarting)
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), replyTimeout)
		defer cancel()
	}
	stored, err := a.loadGame(ctx, g.ChannelID)
	switch {
	case errors.Is(err, ErrNoGame) || (err == nil && stored.ID != g.ID):
		return r.Reply(ctx, &Message{Content: strings.TrimSpace(note + "\nThis game was ended or aborted while gobot was thinking, so its move was not played."), AllowedMentions: NoMentions()})
	case err != nil:
		return err
	}
	switch {
	case !botToMove(stored):
		// Someone else changed the game meanwhile (an undo, a resignation):
		// the stored state says what happened.
		note += "\nThe game changed while gobot was thinking; here it is as it stands."
	case shutdown:
		note += "\n🔄 gobot is restarting and will play its move as soon as it is back."
	case errors.Is(moveErr, errStillQueued):
		note += "\n" + queuedNote(a.queuePosition(ctx, g.ChannelID))
	case errors.Is(moveErr, errPanic):
		note += "\n⚠️ Sorry, something went wrong on my side while gobot chose its move; it will try again shortly."
	default:
		note += "\n⚠️ gobot could not choose its move just now and will try again shortly."
	}
	m, err := a.stateMessage(ctx, stored, a.Now(), note)
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
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
func (a *App) postBoard(ctx context.Context, g *storage.Game, m *Message) error {
	sent, err := a.post(ctx, g, m)
	if err == nil {
		if p := a.phases(g); p != nil {
			p.Posted(ctx, g, sent)
		}
	}
	return err
}

// post posts m about g outside any handler, as postBoard says, and returns
// the message posted.
func (a *App) post(ctx context.Context, g *storage.Game, m *Message) (*discordgo.Message, error) {
	f := g.Delivery.Followup
	if f != nil && a.Now().Sub(f.At) < tokenLifetime {
		it := &discordgo.Interaction{ID: f.InteractionID, AppID: f.AppID, Token: f.Token, ChannelID: g.ChannelID}
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

// postBotMove posts the board after a bot move no handler answered with
// (see postBoard). When it cannot be posted, the game is marked Unposted
// and the next move's answer says what the bot played.
func (a *App) postBotMove(ctx context.Context, g *storage.Game, note string) {
	m, err := a.stateMessage(ctx, g, a.Now(), note)
	if err == nil {
		err = a.postBoard(ctx, g, m)
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

// stateMessage is the message for the game's state: the board in play, the
// marked board in the scoring phase, the final board when over.
func (a *App) stateMessage(ctx context.Context, g *storage.Game, now time.Time, note string) (*Message, error) {
	return a.roomOf(g).Message(ctx, g, now, note)
}

func (a *App) CmdBoard(ctx context.Context, r *Request, g *storage.Game) error {
	if botToMove(g) {
		// The bot's move is owed (queued, or failed once and waiting to
		// be tried again): wait for it, then show the board.
		return a.AnswerGame(ctx, r, g, "")
	}
	m, err := a.stateMessage(ctx, g, a.Now(), "")
	if err != nil {
		return err
	}
	return r.Reply(ctx, m)
}

// activeSGF attaches the record of the game in play in this channel.
func (a *App) activeSGF(ctx context.Context, r *Request, g *storage.Game) error {
	var dead []engine.Point
	if g.Scoring != nil {
		dead = deadOf(g)
	}
	data, err := gameSGF(g, dead, g.Scoring != nil, false)
	if err != nil {
		return err
	}
	animate, _, err := r.Bool("animation")
	if err != nil {
		return err
	}
	m := &Message{
		Content: fmt.Sprintf("Game record after %s (SGF, opens in any Go editor).", Plural(g.State.MoveCount(), "move")),
		Files:   []File{sgfFile(g.ID, title(g), data)},
	}
	if animate {
		attached, err := WithAnimation(ctx, r, m, func() (File, error) { return gameGIF(g, dead) })
		if err != nil {
			return err
		}
		if attached {
			m.Content = fmt.Sprintf("Game record and animated replay after %s.", Plural(g.State.MoveCount(), "move"))
		}
	}
	return r.Reply(ctx, m)
}

// WithAnimation attaches an animated replay to m, made by gif, after
// deferring the answer (drawing every move takes a while); one larger than
// Discord accepts is left out, and m says so. It reports whether the
// replay was attached.
func WithAnimation(ctx context.Context, r *Request, m *Message, gif func() (File, error)) (bool, error) {
	if err := r.Defer(ctx, false); err != nil {
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

// gameGIF animates the game, ending on the marking when there is one.
func gameGIF(g *storage.Game, dead []engine.Point) (File, error) {
	opts := render.GIFOptions{Size: 480}
	if g.Scoring != nil {
		v, _ := scoreView(g, dead)
		opts.Dead, opts.Owner = v.dead, v.owner
	}
	var buf bytes.Buffer
	if err := render.GIF(&buf, goOf(g), opts); err != nil {
		return File{}, fmt.Errorf("commands: animate game %s: %w", g.ID, err)
	}
	return File{Name: "gobot-" + g.ID + ".gif", ContentType: "image/gif",
		Description: fmt.Sprintf("Animated replay of %s, %s.", title(g), Plural(g.State.MoveCount(), "move")), Data: buf.Bytes()}, nil
}

func (a *App) CmdAbort(ctx context.Context, r *Request, g *storage.Game) error {
	if err := a.IsPlayer(g, r.User); err == nil && (a.earlyAbort(g) || !moderator(r)) {
		return a.askAbort(ctx, r, g) // a player's abort (see abort.go)
	}
	if m := r.Interaction.Member; m != nil && r.Interaction.GuildID != "" {
		if m.Permissions&discordgo.PermissionManageMessages == 0 {
			return ErrForbidden
		}
	} else if err := a.IsPlayer(g, r.User); err != nil {
		return UserErr(ErrForbidden, "Only the players can abort a game outside a server.")
	}
	return a.moderatorAbort(ctx, r, g) // with a reason, recorded and logged (admin_moderation.go)
}

// completePlay suggests legal points that start with what was typed.
func (a *App) completePlay(ctx context.Context, r *Request) error {
	_, typed := r.Focused()
	g, err := a.games.Game(ctx, r.Interaction.ChannelID)
	if err != nil || goOf(g) == nil || goOf(g).Over() || g.Scoring != nil {
		return r.Choices(ctx, nil)
	}
	prefix := strings.ToUpper(strings.TrimSpace(typed))
	var names []string
	for _, p := range goOf(g).Legal() {
		if s := p.String(); strings.HasPrefix(s, prefix) {
			names = append(names, s)
		}
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	if strings.HasPrefix("PASS", prefix) && prefix != "" {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: "pass", Value: "pass"})
	}
	return r.Choices(ctx, pointChoices(choices, names, func(n string) string { return n }))
}

// pointChoices adds the points named to choices in board order, up to the
// 25 choices Discord shows, each labelled by label.
func pointChoices(choices []*discordgo.ApplicationCommandOptionChoice, names []string, label func(name string) string) []*discordgo.ApplicationCommandOptionChoice {
	sortPoints(names)
	for _, n := range names {
		if len(choices) == 25 {
			break
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label(n), Value: n})
	}
	return choices
}

// sortPoints orders point names by column, then row numerically.
func sortPoints(names []string) {
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		x, _ := strconv.Atoi(a[1:])
		y, _ := strconv.Atoi(b[1:])
		return x < y
	})
}

// goOf is the game of Go that g holds (engine.GameOf): changing it
// changes g, which the handler then writes back. Nil for another kind.
func goOf(g *storage.Game) *engine.Game { return engine.GameOf(g.State) }

// movedBy returns who made move n (from 0) of g, a game of Go.
func movedBy(g *storage.Game, n int) storage.Player {
	moves := goOf(g).Moves()
	if n < 0 || n >= len(moves) {
		return storage.Player{}
	}
	return g.MovedBy(n, engine.SideOf(moves[n].Color))
}

// lastMover returns who made g's last move.
func (a *App) lastMover(g *storage.Game) storage.Player { return a.roomOf(g).LastMover(g) }
