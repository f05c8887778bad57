package goroom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// goRoutes registers Go's handlers: /go and the buttons of Go's boards.
func (a *room) goRoutes(rt *commands.Router) {
	// The Go rules' refusals (engine's sentinels) get their sentences.
	explained := func(h commands.HandlerFunc) commands.HandlerFunc {
		return func(ctx context.Context, r *commands.Request) error { return engine.Refusal(h(ctx, r)) }
	}
	command := func(path string, h commands.HandlerFunc) { rt.Command(path, explained(h)) }
	component := func(pattern string, h commands.HandlerFunc) { rt.Component(pattern, explained(h)) }
	command("go/challenge", a.cmdChallenge)
	command("go/bot", a.cmdBot)
	command("go/rengo", a.cmdRengo)
	command("go/vote", a.cmdVote)
	command("go/play", a.OnGame(a.cmdPlay))
	command("go/pass", a.OnGame(a.pass))
	command("go/resign", a.OnGame(a.resign))
	command("go/undo", a.OnGame(a.undo))
	command("go/board", a.cmdBoard)
	command("go/sgf", a.CmdRecord)
	command("go/replay", a.CmdReplay)
	command("go/review", a.cmdReview)
	command("go/estimate", a.cmdEstimate)
	command("go/history", a.CmdHistory)
	command("go/games", a.CmdGames)
	command("go/dead", a.OnGame(a.cmdDead))
	command("go/stats", a.CmdStats)
	command("go/leaderboard", a.CmdLeaderboard)
	command("go/help", a.cmdHelp)
	command("go/abort", a.OnGame(a.CmdAbort))
	command("go/vacation", a.CmdVacation)

	rt.Autocomplete("go/play", a.completePlay)
	rt.Autocomplete("go/dead", a.completeDead)
	// The options of a new game that take suggestions: the clock, and the
	// bot's level (a rengo seat's "bot").
	setup := func(ctx context.Context, r *commands.Request) error {
		switch name, _ := r.Focused(); name {
		case "level", "bot":
			return a.CompleteLevel(ctx, r)
		}
		return a.CompleteClock(ctx, r)
	}
	for _, name := range []string{"go/challenge", "go/bot", "go/rengo", "go/vote"} {
		rt.Autocomplete(name, setup)
	}
	// Each suggests only games it takes: a replay or a review needs moves,
	// a review and an estimate a game of Go.
	rt.Autocomplete("go/sgf", a.CompleteFinishedGames)
	rt.Autocomplete("go/replay", a.CompleteFinishedGamesWhere(func(arc *storage.Archived) bool { return arc.Moves > 0 }))
	goWithMoves := a.CompleteFinishedGamesWhere(func(arc *storage.Archived) bool {
		return storage.KindOf(arc.Kind) == engine.KindName && arc.Moves > 0
	})
	rt.Autocomplete("go/review", goWithMoves)
	rt.Autocomplete("go/estimate", goWithMoves)

	component("rengo/{id}/join/{team}", a.btnRengoJoin)
	component("rengo/{id}/leave", a.btnRengoLeave)
	component("rengo/{id}/start", a.btnRengoStart)
	component("vote/{id}/{move}/{point}", a.btnVote)
	component("game/{id}/pass/{move}", a.OnBoard("game/", a.pass))
	component("game/{id}/board", a.BtnOpenBoard)
	component("game/{id}/resign/{move}", a.OnBoard("game/", a.btnResign))
	component("game/{id}/resign-yes/{move}", commands.Confirming(a.OnBoard("game/", a.resign)))
	component("game/{id}/abort-yes/{move}", commands.Confirming(a.OnBoard("game/", a.PlayerAbort)))
	component("game/{id}/undo/{move}", a.OnBoard("game/", a.undo))
	// {at}, not {move}: pendingUndo tells a lapsed request from an old board.
	// A lapsed question's press closes it (closingAsk).
	component("game/{id}/undo-yes/{at}", a.closingAsk(a.btnUndoYes))
	component("game/{id}/undo-no/{at}", a.closingAsk(a.btnUndoNo))
	component("game/{id}/score/{marking}/accept", a.btnScoreAccept)
	component("game/{id}/score/{marking}/resume", a.btnScoreResume)
}

// playerColor returns the colour of the side u plays on in g.
func playerColor(g *storage.Game, u *discordgo.User) (engine.Color, error) {
	if s, ok := g.SideOf(u.ID); ok {
		return engine.ColorOf(s), nil
	}
	return engine.Empty, commands.UserErr(commands.ErrNotPlayer, "You are not playing in this game: it is "+commands.WithSide(teamMention(g, engine.Black), "black")+" against "+commands.WithSide(teamMention(g, engine.White), "white")+".")
}

// canMove checks that u may move in g now: u's side is to move and, in a
// team game, it is u's turn on that side.
func canMove(g *storage.Game, u *discordgo.User) (engine.Color, error) {
	c, err := playerColor(g, u)
	if err != nil {
		return c, err
	}
	if _, over := goOf(g).Result(); over {
		return c, commands.ErrGameOver
	}
	if g.Scoring != nil {
		return c, commands.UserErr(commands.ErrNotYourTurn, "Play has ended and the dead stones are being agreed: mark groups with `/go dead`, then press Accept, or Resume play to keep playing.")
	}
	if g.Team() && !slices.ContainsFunc(g.InGame(engine.SideOf(c)), func(p storage.Player) bool { return p.UserID == u.ID }) {
		// Out of time with a casual clock, or banned on the server: their
		// turns are skipped, and "not your turn" would say one comes.
		return c, commands.StillPlaying(g.People(engine.SideOf(c)), u)
	}
	if t := goOf(g).ToPlay(); t != c || g.Player(engine.SideOf(t)).UserID != u.ID {
		return c, commands.UserErr(commands.ErrNotYourTurn, fmt.Sprintf("It is not your turn: %s %s is to play.", stoneEmoji(t), commands.Mention(g.Player(engine.SideOf(t)))))
	}
	return c, nil
}

func (a *room) cmdPlay(ctx context.Context, r *commands.Request, g *storage.Game) error {
	text, _ := r.String("move")
	if isVoteGame(g) {
		return a.castVote(ctx, r, g, text)
	}
	skipped, err := a.teamTurn(ctx, r, g)
	if err != nil {
		return err
	}
	c, err := canMove(g, r.User)
	if err != nil {
		return a.turnRefused(ctx, r, g, skipped, err)
	}
	m, err := parseMove(c, text, goOf(g).Size())
	if err != nil {
		return err
	}
	return a.move(ctx, r, g, m, skipped)
}

func (a *room) pass(ctx context.Context, r *commands.Request, g *storage.Game) error {
	if isVoteGame(g) {
		return a.castVote(ctx, r, g, "pass")
	}
	skipped, err := a.teamTurn(ctx, r, g)
	if err != nil {
		return err
	}
	c, err := canMove(g, r.User)
	if err != nil {
		return a.turnRefused(ctx, r, g, skipped, err)
	}
	return a.move(ctx, r, g, engine.PassMove(c), skipped)
}

// turnRefused answers r's move or pass, refused with err, after teamTurn
// skipped the banned players to move (skipped, the note that says so): the
// skip is saved and the board shows who plays on, a bot playing at once,
// instead of the refusal, which no longer holds. With nobody skipped it
// returns err, unless the player's last move was never announced
// (commands.PlayedAlready).
func (a *room) turnRefused(ctx context.Context, r *commands.Request, g *storage.Game, skipped string, err error) error {
	if skipped == "" || !errors.Is(err, commands.ErrNotYourTurn) {
		// The player's own move, played but never announced, is shown
		// rather than refused (PlayedAlready).
		return a.PlayedAlready(ctx, r, g, err)
	}
	if err := a.UpdateGame(ctx, g); err != nil {
		return err
	}
	return a.AnswerGame(ctx, r, g, skipped)
}

func (a *room) resign(ctx context.Context, r *commands.Request, g *storage.Game) error {
	if isVoteGame(g) {
		return errVoteNoResign
	}
	c, err := playerColor(g, r.User)
	if err != nil {
		return err
	}
	if _, over := goOf(g).Result(); over {
		return commands.ErrGameOver
	}
	skipped, err := a.teamTurn(ctx, r, g)
	if err != nil {
		return err
	}
	if g.Team() && (goOf(g).ToPlay() != c || g.Player(engine.SideOf(c)).UserID != r.User.ID) {
		return a.voteResign(ctx, r, g, c)
	}
	// The player to move resigns alone: a teammate's vote still open
	// decided nothing, and apply (resigners) would name its voters
	// instead of them.
	g.ResignVote = nil
	return a.move(ctx, r, g, engine.ResignMove(c), skipped)
}

// btnResign asks for confirmation: a misclick must not end a game. In a
// team game it says what the answer does: the player to move resigns for
// the team, another player votes (voteResign).
func (a *room) btnResign(ctx context.Context, r *commands.Request, g *storage.Game) error {
	c, err := playerColor(g, r.User)
	if err != nil {
		return err
	}
	if err := a.InTeam(ctx, g, r); err != nil {
		return err
	}
	question, yes := "Do you really want to resign this game?", "Yes, resign"
	if s := engine.SideOf(c); g.Team() && !isVoteGame(g) {
		if goOf(g).ToPlay() == c && g.Player(s).UserID == r.User.ID {
			question = fmt.Sprintf("Resign this game for %s %s (%s)? As the player to move, you resign for the team at once.", stoneEmoji(c), c, teamMention(g, c))
		} else {
			people, err := a.Deciders(ctx, g, s)
			if err != nil {
				return err
			}
			votes := 0
			if v := g.ResignVote; v != nil && v.Side == s && v.MoveCount == g.State.MoveCount() {
				votes = len(commands.Ballots(v.Voters, people))
			}
			question = fmt.Sprintf("Vote that %s %s resign? Yours would be vote %d of the %d needed (a majority of %s); the player to move resigns alone.",
				stoneEmoji(c), c, votes+1, len(people)/2+1, commands.JoinNames(people, commands.Mention))
			yes = "Yes, vote to resign"
		}
	}
	return r.Reply(ctx, &commands.Message{
		Content:   question,
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: yes, Style: discordgo.DangerButton, CustomID: "game/" + g.ID + "/resign-yes/" + r.Param("move")},
		}}},
		AllowedMentions: commands.NoMentions(),
	})
}

// move plays a player's move, commits it and answers with the new state,
// after the bot's reply when a bot is to move next; before, when not
// empty, is said before the move (a banned player skipped: teamTurn).
func (a *room) move(ctx context.Context, r *commands.Request, g *storage.Game, m engine.Move, before string) error {
	unposted := ""
	if before != "" {
		unposted = before + "\n"
	}
	if last, ok := goOf(g).LastMove(); ok && g.Delivery.Unposted {
		// The bot moved in the background and its board could not be
		// shown (apply clears the flag with this move).
		unposted += fmt.Sprintf("(%s %s played %s earlier, but its board could not be posted here.)\n", stoneEmoji(last.Color), commands.Mention(movedBy(g, g.State.MoveCount()-1)), moveName(last))
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
	shown, pending := g.Delivery, g.BotToMove()
	if f := commands.FollowupOf(r.Interaction, a.Now()); f != nil {
		g.Delivery.Followup = f
	}
	// An undo request still open lapses with this move: its question,
	// asking for the moves as they stand, is closed once the move is
	// committed, before its answer (by RetireBoard's closeEndedAsk when
	// the move ends the game), wherever it was asked: the write gives
	// back the message asking it, even one recorded after g was read. A
	// process killed before its answer has closed it all the same.
	ask, askN := openRequest(g), 0
	if ask != nil {
		askN = undoCount(goOf(g), engine.ColorOf(ask.By))
	}
	// The move's board is owed until its answer shows it (OweBoard): a
	// worker killed before answering leaves it to the scheduler.
	g.Delivery.Owed = a.OweBoard(g)
	n := g.State.MoveCount()
	note, err := a.apply(ctx, g, m)
	if errors.Is(err, commands.ErrConflict) {
		return a.sameMoveApplied(ctx, r, g, n, m, err)
	}
	if err != nil {
		return err
	}
	if _, over := goOf(g).Result(); over {
		// The board this move was made on (a resignation) takes no more.
		a.RetireBoard(ctx, g, shown, !pending)
	}
	if _, over := goOf(g).Result(); ask != nil && !over {
		if g.Undo.Same(ask) {
			ask = g.Undo // as the write gave it back
		}
		a.closeAsk(ctx, g, ask, askN, lapse(g, strconv.Itoa(ask.MoveCount)))
	}
	return a.AnswerGame(ctx, r, g, unposted+note)
}

// sameMoveApplied is the answer to r's move m, made on g with n moves and
// refused by err, a conflict: another write came first. When that write
// was the same move by the same player on the same board (a Pass pressed
// twice, a command sent twice), the player is told that their move was
// played: "try again" would invite a second pass. Otherwise err stands.
func (a *room) sameMoveApplied(ctx context.Context, r *commands.Request, g *storage.Game, n int, m engine.Move, err error) error {
	if m.Kind == engine.Resign || r.User == nil {
		return err
	}
	cur, lerr := a.LoadGame(ctx, g.ChannelID)
	if lerr != nil || cur.ID != g.ID {
		return err
	}
	if moves := goOf(cur).Moves(); len(moves) <= n || moves[n] != m || movedBy(cur, n).UserID != r.User.ID {
		return err
	}
	what := "pass"
	if m.Kind == engine.Place {
		what = "move at " + m.Point.String()
	}
	return commands.UserErr(err, fmt.Sprintf("Your %s was already played (you sent it twice); this second one changed nothing.", what))
}

// moveName is a move in bold as the notes print it.
func moveName(m engine.Move) string {
	if m.Kind == engine.Place {
		return "**" + m.Point.String() + "**"
	}
	return m.String()
}

// apply plays m on g and commits it: the archive when the game has a
// result, the scoring phase after two passes, an update otherwise. Nothing
// is written when the move is refused or the game changed in the meantime.
func (a *room) apply(ctx context.Context, g *storage.Game, m engine.Move) (string, error) {
	now := a.Now()
	if err := a.InTime(ctx, g, now); err != nil {
		return "", err
	}
	before, mover := goOf(g).Captures(m.Color), g.Player(engine.SideOf(m.Color))
	ownBefore := goOf(g).Captures(m.Color.Opponent()) // a suicide's stones go to the opponent
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
	// An undo request lapses with the move (openRequest: its move count
	// is no longer the game's) but stays with the game until the next
	// replaces it, so that the write gives back the message asking it
	// (storage.UndoRequest.MessageID) and the question can be closed.
	resigned, voted := resigners(g, m, mover)
	var decided *storage.LapsedVote // the vote this resignation carries out
	if voted {
		decided = &storage.LapsedVote{Vote: *g.ResignVote}
	}
	// A team's votes lapse with the next move: once it is written, their
	// messages say so (LapseTeamVotes: the write gives back the votes it
	// dropped, with their messages recorded after g was read).
	g.ResignVote, g.AbortVote = nil, nil
	g.Delivery.Unposted = false
	note := describeMove(g, m, goOf(g).Captures(m.Color)-before, goOf(g).Captures(m.Color.Opponent())-ownBefore)
	if m.Kind == engine.Resign && g.Team() {
		note = teamResigned(g, m.Color, resigned, voted)
	}
	if _, over := goOf(g).Result(); over {
		if err := a.Finish(ctx, g); err != nil {
			return "", err
		}
		a.LapseTeamVotes(ctx, g, decided, "")
		if rn := a.RatingNote(ctx, g); rn != "" {
			note += "\n" + rn
		}
		return note, nil
	}
	if goOf(g).PlayEnded() && g.Scoring == nil {
		a.startScoring(ctx, g)
		if isVoteGame(g) {
			// Nobody marks dead stones or accepts for a channel: the game
			// is counted at once, with the estimate's proposal, and never
			// shows a scoring phase nobody can answer.
			sc := goOf(g).Score(deadOf(g))
			if err := goOf(g).End(engine.Result{Winner: sc.Winner, Reason: engine.ByScore, Margin: sc.Margin}); err != nil {
				return "", err
			}
			g.Scoring.Settled = markingCounted
			if err := a.Finish(ctx, g); err != nil {
				return "", err
			}
			a.Logger().Info("game finished", "game", g.ID, "result", sc.Result())
			return note + "\n" + voteCountNote, nil
		}
	}
	skipped, err := a.skipBanned(ctx, g) // the next player, in a team game
	if err != nil {
		return "", err
	}
	if skipped != "" {
		note += "\n" + skipped
	}
	openVote(g, now, note)
	if err := a.UpdateGame(ctx, g); err != nil {
		return "", err
	}
	a.LapseTeamVotes(ctx, g, nil, "")
	return note, nil
}

// resigners are who resigned for the side of m, a resignation in a team
// game (others get nil): the members whose votes decided it (voted), or
// mover, the player to move, alone.
func resigners(g *storage.Game, m engine.Move, mover storage.Player) (by []storage.Player, voted bool) {
	if m.Kind != engine.Resign || !g.Team() {
		return nil, false
	}
	v := g.ResignVote
	if v == nil || v.Side != engine.SideOf(m.Color) || v.MoveCount != g.State.MoveCount() {
		return []storage.Player{mover}, false
	}
	for _, id := range v.Voters {
		team := g.TeamOf(v.Side)
		if i := slices.IndexFunc(team, func(p storage.Player) bool { return p.UserID == id }); i >= 0 {
			by = append(by, team[i])
		}
	}
	return by, true
}

// teamResigned is the note of colour c's team resigning: by the votes of
// its members, or by its player to move.
func teamResigned(g *storage.Game, c engine.Color, by []storage.Player, voted bool) string {
	team := fmt.Sprintf("%s The team of %s resigned", stoneEmoji(c), teamMention(g, c))
	switch {
	case voted && len(by) == 1:
		return fmt.Sprintf("%s, by the vote of %s.", team, commands.Mention(by[0]))
	case voted:
		return fmt.Sprintf("%s, by the votes of %s.", team, commands.JoinAnd(by, commands.Mention))
	}
	return fmt.Sprintf("%s: %s, the player to move, resigned for it.", team, commands.JoinNames(by, commands.Mention))
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

// gameSGF writes the record, with the final marking when scored, and with
// no result and a root comment saying why when annulled on time.
func gameSGF(g *storage.Game, dead []engine.Point, scored, annulled bool) ([]byte, error) {
	info := sgfInfo(g, dead, scored)
	if annulled {
		annulledOnTime(&info, g)
	}
	return writeSGF(g, info)
}

// annulledOnTime makes info the record of g, annulled on time
// (commands.Annulled): no result, RE[Void], as for an aborted game, since
// Sabaki, CGoban and any database or rating script read only RE and would
// count B+T as a win; and a root comment saying who ran out, which RE no
// longer says.
func annulledOnTime(info *engine.SGFInfo, g *storage.Game) {
	res, _ := goOf(g).Result() // a loss on time: it names a winner
	loser := res.Winner.Opponent()
	info.RE = "Void"
	rootComment(info, commands.AnnulledOnTime(teamName(g, loser), loser.String()))
}

// rootComment puts c at the head of the record's root comment, before
// what sgfInfo put there (the clock in words, when OT cannot say all of
// it).
func rootComment(info *engine.SGFInfo, c string) {
	if info.C != "" {
		c += "\n\n" + info.C
	}
	info.C = c
}

// sgfInfo is the record's game information: players and their ranks,
// date, result, clock and, when scored, the final marking.
func sgfInfo(g *storage.Game, dead []engine.Point, scored bool) engine.SGFInfo {
	info := engine.SGFInfo{
		PB: teamName(g, engine.Black), PW: teamName(g, engine.White),
		DT: g.CreatedAt.UTC().Format("2006-01-02"),
		GN: teamName(g, engine.Black) + " vs " + teamName(g, engine.White),
		PC: "Discord (gobot)",
	}
	if g.GuildID == commands.LocalGuild {
		info.PC = "gobot console" // or its board page: never on Discord
	}
	if len(g.Ranks) == len(g.Sides) {
		// The ranks as the game began (commands.App.StartRanks).
		info.BlackRank, info.WhiteRank = g.Ranks[engine.SideOf(engine.Black)], g.Ranks[engine.SideOf(engine.White)]
	}
	for n, voters := range g.VoteLog {
		if info.Comments == nil {
			info.Comments = map[int]string{}
		}
		info.Comments[n] = fmt.Sprintf("Voted by %s (%s).", strings.Join(voters, ", "), commands.Plural(len(voters), "vote"))
	}
	if g.Team() {
		// A team game's record says who played each move.
		info.Comments = map[int]string{}
		for i, m := range goOf(g).Moves() {
			info.Comments[i+1] = "Played by " + commands.PlainName(g.MovedBy(i, engine.SideOf(m.Color))) + "."
		}
	}
	if res, ok := goOf(g).Result(); ok {
		info.RE = res.String()
	}
	if k := g.Clock; k != nil {
		info.TM, info.OT = k.Control.SGF()
		if !k.Control.SGFExact() {
			// A Fischer maximum, which OT has no way to write (OGS reads
			// "5 fischer" alone): in words, where every reader shows it.
			info.C = "Time: " + k.Control.Describe() + "."
		}
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
		return nil, fmt.Errorf("goroom: write SGF of game %s: %w", g.ID, err)
	}
	return buf.Bytes(), nil
}

// activeSGF attaches the record of the game in play in this channel.
func (a *room) activeSGF(ctx context.Context, r *commands.Request, g *storage.Game) error {
	var dead []engine.Point
	if g.Scoring != nil {
		dead = deadOf(g)
	}
	f, err := a.LiveRecord(g)
	if err != nil {
		return err
	}
	return a.RecordInPlay(ctx, r, g, f, "SGF, opens in any Go editor",
		func() (commands.File, error) { return gameGIF(g, dead) })
}

// LiveRecord is the SGF of g, in play, with the dead stones marked at the
// count.
func (*room) LiveRecord(g *storage.Game) (commands.File, error) {
	var dead []engine.Point
	if g.Scoring != nil {
		dead = deadOf(g)
	}
	data, err := gameSGF(g, dead, g.Scoring != nil, false)
	if err != nil {
		return commands.File{}, err
	}
	return sgfFile(g.ID, title(g), data), nil
}

// gameGIF animates the game, ending on the marking when there is one.
func gameGIF(g *storage.Game, dead []engine.Point) (commands.File, error) {
	opts := render.GIFOptions{Size: 480}
	if g.Scoring != nil {
		v, _ := scoreView(g, dead)
		opts.Dead, opts.Owner = v.dead, v.owner
	}
	var buf bytes.Buffer
	if err := render.GIF(&buf, goOf(g), opts); err != nil {
		return commands.File{}, fmt.Errorf("goroom: animate game %s: %w", g.ID, err)
	}
	return commands.File{Name: "gobot-" + g.ID + ".gif", ContentType: "image/gif",
		Description: fmt.Sprintf("Animated replay of %s, %s.", title(g), commands.Plural(g.State.MoveCount(), "move")), Data: buf.Bytes()}, nil
}

// completePlay suggests legal points that start with what was typed, to
// the player to move (in a vote game, to anyone, who votes): a spectator
// or the player waiting gets none, as in draughts.
func (a *room) completePlay(ctx context.Context, r *commands.Request) error {
	_, typed := r.Focused()
	g, err := a.GameStore().Game(ctx, r.Interaction.ChannelID)
	if err != nil || goOf(g) == nil || goOf(g).Over() || g.Scoring != nil {
		return r.Choices(ctx, nil)
	}
	if _, err := canMove(g, r.User); err != nil && !isVoteGame(g) {
		return r.Choices(ctx, nil)
	}
	prefix := engine.TypedPoint(typed)
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

// clockShare is how long the bot to move in g may think by its clock
// (commands.ClockShare): a game of Go has as many moves still to come as a
// third of its empty points, at least 15.
func clockShare(g *storage.Game, now time.Time) (time.Duration, bool) {
	return commands.ClockShare(g.Clock, now, max(15, goOf(g).Board().EmptyCount()/3))
}
