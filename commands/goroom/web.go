package goroom

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Go's games on the board page (WebRoom): the view the page draws and
// the page's actions as the slash commands and buttons they are.

func (r *room) WebAction(g *storage.Game, u commands.WebUser, s game.Side, act commands.Action) (*discordgo.Interaction, string) {
	if c := engine.ColorOf(s); act.Seat != c.String() {
		return nil, fmt.Sprintf("You are not playing %s in this game: you play %s.", seatName(act.Seat), c)
	}
	// Every click is made on the position the page showed, at the version
	// it states: a move, an undo request or a marking since makes it stale.
	// In a vote game a vote is for the position shown: the votes cast
	// since (each a new version) leave it as it was.
	switch {
	case isVoteGame(g) && act.Moves != g.State.MoveCount():
		return nil, commands.StaleClick
	case !isVoteGame(g) && act.Version != g.Version:
		return nil, commands.StaleClick
	}
	var it *discordgo.Interaction
	switch act.Kind {
	case commands.ActPlay, commands.ActPass, commands.ActResign, commands.ActUndo, commands.ActDead:
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		switch act.Kind {
		case commands.ActPlay:
			opts = append(opts, commands.StringOption("move", act.Point))
		case commands.ActDead:
			opts = append(opts, commands.StringOption("point", act.Point))
		}
		it = r.WebInteraction(g, u, discordgo.InteractionApplicationCommand)
		it.Data = discordgo.ApplicationCommandInteractionData{ID: "300000000000000001", Name: "go", CommandType: discordgo.ChatApplicationCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: act.Kind, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
	case commands.ActUndoYes, commands.ActUndoNo:
		at := "none"
		if g.Undo != nil {
			at = strconv.Itoa(g.Undo.MoveCount)
		}
		it = r.WebInteraction(g, u, discordgo.InteractionMessageComponent)
		it.Data = discordgo.MessageComponentInteractionData{CustomID: "game/" + g.ID + "/" + act.Kind + "/" + at, ComponentType: discordgo.ButtonComponent}
		if u := openRequest(g); u != nil && u.MessageID != "" {
			// A click on the request's message: the answer edits it.
			it.Message = &discordgo.Message{ID: u.MessageID, ChannelID: g.ChannelID}
		}
	case commands.ActAccept, commands.ActResume:
		if g.Scoring == nil {
			// The page showed no scoring phase either (its version is
			// the game's): nothing to accept, nor play to resume.
			if act.Kind == commands.ActResume {
				return nil, "The game is not in its scoring phase: play goes on already, there is nothing to resume."
			}
			return nil, "The game is not in its scoring phase: there is no marking to accept, and play goes on."
		}
		key := markingKey(g)
		it = r.WebInteraction(g, u, discordgo.InteractionMessageComponent)
		it.Data = discordgo.MessageComponentInteractionData{CustomID: "game/" + g.ID + "/score/" + key + "/" + act.Kind, ComponentType: discordgo.ButtonComponent}
	case commands.ActDraw:
		return nil, "Go has no draw offers: a game ends by passes and the count, or by resignation."
	default:
		return nil, "gobot does not know that action."
	}
	return it, ""
}

func (r *room) FinishedView(arc *storage.Archived, channelID string) (*commands.GameView, error) {
	eg, info, err := engine.ParseSGF(arc.SGF)
	if err != nil {
		return nil, fmt.Errorf("goroom: read the record of game %s: %w", arc.ID, err)
	}
	g := &storage.Game{ID: arc.ID, ChannelID: channelID, Kind: engine.KindName, Sides: arc.GoSides(), State: engine.Own(eg)}
	v := r.LiveView(g)
	v.Over, v.ToPlay, v.Ko, v.Version = true, "", "", 0
	v.Rules = archivedSetupLine(g, arc)
	// Each side's time as the game ended, as OGS and KGS keep showing it
	// (none in games archived before it was kept).
	v.Black.Clock = commands.FinalClockView(arc.Clock, engine.SideOf(engine.Black))
	v.White.Clock = commands.FinalClockView(arc.Clock, engine.SideOf(engine.White))
	v.Result = arc.Result
	res, ok := eg.Result()
	if !ok {
		res, err = engine.ParseResult(arc.Result)
		ok = err == nil
	}
	switch {
	case arc.Annulled && arc.Result == "Void" && !arc.AnnulledInPlay:
		v.Result = "aborted, not counted" // as the history calls it
	case arc.Annulled && ok && res.Reason == engine.ByTime && r.OwnMoves(g, engine.SideOf(res.Winner.Opponent())) < 2:
		v.Result = "annulled on time, not counted" // no score, as the board in Discord says
	case arc.Annulled:
		// Recorded, never counted: no winner to name (as the board in
		// Discord says).
		v.Result = "annulled, not counted · " + arc.Result
	case ok:
		v.Result = r.Plain(resultSentence(g, res), commands.PlayerNames(g))
	}
	v.Status = "Game over: " + v.Result + ranOut(g, res, ok)
	if ok && res.Reason == engine.ByScore {
		var dead []engine.Point
		if info != nil {
			dead = info.Dead
		}
		v.Scoring = scoringView(g, dead, map[engine.Color]bool{engine.Black: true, engine.White: true})
	}
	return v, nil
}

func (*room) Summary(g *storage.Game) (string, int) { return plainTitle(g), goOf(g).Size() }

// liveView is the view of a game in play.
func (r *room) LiveView(g *storage.Game) *commands.GameView {
	a := r
	now := a.Now()
	eg := goOf(g)
	v := &commands.GameView{Kind: goKind, Channel: g.ChannelID, ID: g.ID, Version: g.Version, Title: plainTitle(g), Size: eg.Size(), Rules: setupLine(g, r.ShownUnrated(context.Background(), g)),
		Board: boardRows(eg), Moves: eg.MoveCount(), Vote: isVoteGame(g), NoUndo: !undoOffered(g), ServerMS: now.UnixMilli()}
	names := commands.PlayerNames(g)
	for _, c := range []engine.Color{engine.Black, engine.White} {
		sv := commands.SideView{Captures: eg.Captures(c), Moves: r.OwnMoves(g, engine.SideOf(c))}
		for _, p := range g.TeamOf(engine.SideOf(c)) {
			sv.Players = append(sv.Players, commands.PlayerView{ID: p.UserID, Name: commands.PlainName(p), Bot: p.IsBot()})
		}
		if k := g.Clock; k != nil && k.Control.System != clock.None {
			sv.Clock = clockView(k, c, now)
			if eg.Over() {
				sv.Clock = commands.FinalClockView(commands.FinalClock(k, now), engine.SideOf(c))
			}
		}
		if c == engine.Black {
			v.Black = sv
		} else {
			v.White = sv
		}
	}
	moves := eg.Moves()
	for i := max(0, len(moves)-8); i < len(moves); i++ {
		m := moves[i]
		v.Recent = append(v.Recent, commands.LastMove{N: i + 1, Color: m.Color.String(), Kind: moveKind(m), Point: m.Point.String(), By: commands.PlainName(g.MovedBy(i, engine.SideOf(m.Color)))})
	}
	saidOfRecent(eg, v.Recent)
	if len(v.Recent) > 0 {
		v.Last = &v.Recent[len(v.Recent)-1]
	}
	res, over := eg.Result()
	switch {
	case over:
		v.Over, v.Result = true, a.Plain(resultSentence(g, res), names)
		v.Status = "Game over: " + v.Result + ranOut(g, res, true)
	case g.Scoring != nil:
		v.Status = "Play has ended: agree on the dead stones, then accept."
	default:
		c := eg.ToPlay()
		v.ToPlay = c.String()
		if k := eg.Board().Ko(c); k != engine.NoPoint {
			v.Ko = k.String()
		}
		v.Status = fmt.Sprintf("Move %d · %s to play: %s", eg.MoveCount()+1, c, commands.PlainName(g.Player(engine.SideOf(c))))
		if g.Team() {
			v.Mover = g.Player(engine.SideOf(c)).UserID
			// LiveView is given no context.
			seat := func(s game.Side) string { return engine.ColorOf(s).String() }
			if rv := g.ResignVote; rv != nil {
				v.ResignVote = r.TeamVoteView(context.Background(), g, rv, seat(rv.Side))
			}
			if av := g.AbortVote; av != nil {
				v.AbortVote = r.TeamVoteView(context.Background(), g, av, seat(av.Side))
			}
		}
	}
	if g.Scoring != nil {
		v.Scoring = scoringView(g, deadOf(g), map[engine.Color]bool{engine.Black: g.Scoring.Accepted[engine.SideOf(engine.Black)], engine.White: g.Scoring.Accepted[engine.SideOf(engine.White)]})
		if !over {
			if ps := stillUnsure(g, r.unsure.of(g)); len(ps) > 0 {
				v.Scoring.Check = uncertainNote(ps)
			}
			if d := deadlineNote(g, now, commands.DeadlineIn); d != "" {
				v.Scoring.Deadline, v.Scoring.DeadlineMS = d, g.Scoring.Deadline.UnixMilli()
			}
		}
	}
	if g.Undo != nil && g.Undo.MoveCount == eg.MoveCount() {
		by := engine.ColorOf(g.Undo.By)
		v.Undo = &commands.UndoView{By: by.String(), Moves: undoCount(eg, by)}
	}
	if isVoteGame(g) {
		v.Votes = voteView(r.countedNow(context.Background(), g)) // LiveView is given no context
	}
	return v
}

// unsureCache keeps the groups the estimate was unsure of in the scoring
// phase of each game, by position: the board page shows them as the
// message that started the phase does, and the estimate is not run again
// for each view.
type unsureCache struct {
	mu sync.Mutex
	by map[string][]engine.Point // by game ID and move count
}

// of is the groups the estimate is unsure of in g's final position (none
// when it fails).
func (c *unsureCache) of(g *storage.Game) []engine.Point {
	c.mu.Lock()
	ps, ok := c.by[unsureKey(g)]
	c.mu.Unlock()
	if ok {
		return ps
	}
	if ph, err := estimatePhase(context.Background(), g); err == nil {
		ps = ph.Uncertain()
	}
	c.put(g, ps)
	return ps
}

// unsureKey is g's position in an unsureCache: its ID and move count.
func unsureKey(g *storage.Game) string { return g.ID + "/" + strconv.Itoa(g.State.MoveCount()) }

// saidOfRecent fills each recent move's Said as its answer in Discord
// said it after the move (aftermath: the stones captured, the ko), taking
// the moves back one by one from the last on a copy of eg. A game that
// has ended is not taken back: its moves say nothing more.
func saidOfRecent(eg *engine.Game, recent []commands.LastMove) {
	if eg.Over() {
		return
	}
	after := eg.Clone()
	for i := len(recent) - 1; i >= 0; i-- {
		before := after.Clone()
		if before.Undo() != nil {
			return
		}
		if recent[i].Kind == "play" {
			c := engine.Black
			if recent[i].Color == engine.White.String() {
				c = engine.White
			}
			recent[i].Said = strings.TrimSpace(aftermath(after, after.Captures(c)-before.Captures(c)))
		}
		after = before
	}
}

// put records ps as the groups the estimate is unsure of in g's final
// position, as the scoring phase starts with them, so that its boards do
// not run the estimate again.
func (c *unsureCache) put(g *storage.Game, ps []engine.Point) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil || len(c.by) >= 256 {
		c.by = map[string][]engine.Point{} // a few games score at a time: start afresh
	}
	c.by[unsureKey(g)] = ps
}

// stillUnsure is ps, stones the estimate left alive without being sure of
// them, less those marked dead since: every board of the scoring phase,
// in Discord and on the page, asks the players to check the same groups.
func stillUnsure(g *storage.Game, ps []engine.Point) []engine.Point {
	dead := deadOf(g)
	var out []engine.Point
	for _, p := range ps {
		if !slices.Contains(dead, p) {
			out = append(out, p)
		}
	}
	return out
}

// voteView is vote game g's vote for the page.
func voteView(g *storage.Game) *commands.VoteView {
	vv := &commands.VoteView{Side: engine.Black.String()}
	if g.Player(engine.SideOf(engine.White)).IsCrowd() {
		vv.Side = engine.White.String()
	}
	if v := g.Vote; v != nil {
		vv.Open, vv.Text = true, strings.NewReplacer("**", "").Replace(tally(v))
		if !v.Deadline.IsZero() {
			vv.DeadlineMS = v.Deadline.UnixMilli()
		}
	}
	return vv
}

// scoringView is the marking dead and the count it gives.
func scoringView(g *storage.Game, dead []engine.Point, accepted map[engine.Color]bool) *commands.ScoringView {
	_, sc := scoreView(g, dead)
	db, dw := deadCounts(g, dead)
	sv := &commands.ScoringView{Dead: []string{}, Count: engine.FormatScore(sc, db, dw), Result: sc.Result(),
		Accepted: map[string]bool{"black": accepted[engine.Black], "white": accepted[engine.White]}}
	for _, p := range dead {
		sv.Dead = append(sv.Dead, p.String())
	}
	n := goOf(g).Size()
	for row := n - 1; row >= 0; row-- {
		var sb strings.Builder
		for col := range n {
			switch c := sc.Owner[row*n+col]; c {
			case engine.Black:
				sb.WriteByte('X')
			case engine.White:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		sv.Owner = append(sv.Owner, sb.String())
	}
	return sv
}

// boardRows is the position, a string a row from the top.
func boardRows(eg *engine.Game) []string {
	b, n := eg.Board(), eg.Size()
	rows := make([]string, 0, n)
	for row := n - 1; row >= 0; row-- {
		buf := make([]byte, n)
		for col := range n {
			switch b.At(engine.Point{Col: col, Row: row}) {
			case engine.Black:
				buf[col] = 'X'
			case engine.White:
				buf[col] = 'O'
			default:
				buf[col] = '.'
			}
		}
		rows = append(rows, string(buf))
	}
	return rows
}

// moveKind names a move's kind for the page.
func moveKind(m engine.Move) string {
	switch m.Kind {
	case engine.Pass:
		return "pass"
	case engine.Resign:
		return "resign"
	}
	return "play"
}

// ranOut is what the page's status adds to a game lost on time: who ran
// out, as the loss's announcement in Discord says (the result alone,
// "annulled on time, not counted", names nobody). Empty otherwise.
func ranOut(g *storage.Game, res engine.Result, ok bool) string {
	if !ok || res.Reason != engine.ByTime || res.Winner == engine.Empty {
		return ""
	}
	loser := res.Winner.Opponent()
	return ". " + commands.RanOutOfTime(teamName(g, loser), loser.String())
}

// clockView is colour c's clock at now.
func clockView(k *clock.Clock, c engine.Color, now time.Time) *commands.ClockView {
	return commands.ClockViewOf(k, clock.Side(c), now)
}

// plainTitle is the game's title without markup: "ann (black) vs bob (white)".
func plainTitle(g *storage.Game) string {
	return commands.JoinNames(g.TeamOf(engine.SideOf(engine.Black)), commands.PlainName) + " vs " + commands.JoinNames(g.TeamOf(engine.SideOf(engine.White)), commands.PlainName)
}

// seatName is the seat a page claimed, as a refusal names it.
func seatName(s string) string {
	if s == "" {
		return "any side"
	}
	return commands.Clip(s, 20)
}
