package draughtsroom

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/storage"
)

// Draughts' games on the board page (WebRoom): the view the page draws,
// with the legal moves so that the page needs no rules, and the page's
// actions as the slash commands they are.

// room is a WebRoom.
var _ commands.WebRoom = (*room)(nil)

// seatOf is side s as the page names its seat.
func seatOf(s game.Side) string {
	if s == draughtsWhite {
		return "white"
	}
	return "black"
}

func (r *room) WebAction(g *storage.Game, u commands.WebUser, s game.Side, act commands.Action) (*discordgo.Interaction, string) {
	if act.Seat != seatOf(s) {
		return nil, fmt.Sprintf("You are not playing %s in this game: you play %s.", commands.Clip(act.Seat, 20), seatOf(s))
	}
	// A click is made on the position the page showed: a move or a draw
	// offer since makes it stale.
	if act.Version != g.Version {
		return nil, commands.StaleClick
	}
	var opts []*discordgo.ApplicationCommandInteractionDataOption
	switch act.Kind {
	case commands.ActPlay:
		opts = append(opts, commands.StringOption("move", act.Point))
	case commands.ActResign, commands.ActDraw:
	default:
		return nil, "That is not something a game of draughts has: play a move, offer a draw or resign."
	}
	it := r.WebInteraction(g, u, discordgo.InteractionApplicationCommand)
	it.Data = discordgo.ApplicationCommandInteractionData{ID: "300000000000000002", Name: DraughtsCommand, CommandType: discordgo.ChatApplicationCommand,
		Options: []*discordgo.ApplicationCommandInteractionDataOption{{Name: act.Kind, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
	return it, ""
}

func (r *room) Summary(g *storage.Game) (string, int) { return plainTitle(g), draughts.Width }

// draughtsRules is how a game of draughts is played, as its boards' last
// line says it (before the time system).
const draughtsRules = "International draughts, 10×10 (FMJD rules)"

// draughtsSetup is how a game is played, as its boards' last line and the
// board page's subtitle say it, also once it is over: the rules, the time
// system (none without a clock) and "unrated" for a game that changes no
// rating (commands.ShownUnrated, commands.ArchivedShownUnrated).
func draughtsSetup(k *clock.Clock, unrated bool) string {
	s := draughtsRules
	if k != nil {
		s += " · " + k.Control.Describe()
	}
	if unrated {
		s += " · unrated"
	}
	return s
}

// plainTitle is the game's title without markup, White first: "ann vs bob".
func plainTitle(g *storage.Game) string {
	return commands.PlainName(g.First(draughtsWhite)) + " vs " + commands.PlainName(g.First(draughtsBlack))
}

func (r *room) LiveView(g *storage.Game) *commands.GameView {
	now := r.Now()
	st := draughtsState(g)
	v := r.view(g, st)
	v.Version, v.ServerMS = g.Version, now.UnixMilli()
	v.Rules = draughtsSetup(g.Clock, r.ShownUnrated(context.Background(), g))
	res, over := st.Result()
	for _, s := range []game.Side{draughtsWhite, draughtsBlack} {
		if k := g.Clock; k != nil && k.Control.System != clock.None {
			sv := r.side(v, s)
			sv.Clock = commands.ClockViewOf(k, clock.Of(s), now)
			if over {
				// Each side's time as the game ended, stopped.
				sv.Clock = commands.FinalClockView(commands.FinalClock(k, now), s)
			}
		}
	}
	if over {
		v.Status += ranOut(g, res)
	}
	if !over {
		if o := g.Undo; offerStands(o, st.MoveCount()) {
			v.Draughts.DrawBy = seatOf(o.By)
		}
	}
	return v
}

// side is the SideView of s in v.
func (r *room) side(v *commands.GameView, s game.Side) *commands.SideView {
	if s == draughtsWhite {
		return &v.White
	}
	return &v.Black
}

// view is the view of g at st, without what only a game in play has.
func (r *room) view(g *storage.Game, st draughts.State) *commands.GameView {
	names := commands.PlayerNames(g)
	b := st.Board()
	pos := st.Position()
	v := &commands.GameView{Kind: draughtsKind, Channel: g.ChannelID, ID: g.ID, Title: plainTitle(g), Size: draughts.Width, Moves: st.MoveCount(),
		Draughts: &commands.DraughtsView{Squares: b.Squares, LastPath: b.LastPath, LastTaken: b.LastTaken, Legal: []commands.DraughtsMove{}}}
	for _, s := range []game.Side{draughtsWhite, draughtsBlack} {
		c := draughts.Color(s)
		sv := r.side(v, s)
		sv.Moves = r.OwnMoves(g, s)
		n, k := pos.Pieces(c).Count(), pos.Kings(c).Count()
		sv.Pieces = commands.Plural(n, "piece")
		if k > 0 {
			sv.Pieces += " (" + commands.Plural(k, "king") + ")"
		}
		for _, p := range g.TeamOf(s) {
			sv.Players = append(sv.Players, commands.PlayerView{ID: p.UserID, Name: commands.PlainName(p), Bot: p.IsBot()})
		}
	}
	moves := st.Moves()
	from := max(0, len(moves)-8)
	facts := st.MoveFacts(from)
	for i := from; i < len(moves); i++ {
		s := game.Side(i % 2)
		m := commands.LastMove{N: i + 1, Color: seatOf(s), Kind: "play", Point: string(moves[i]), By: commands.PlainName(g.Player(s))}
		if i-from < len(facts) {
			m.Said = strings.TrimSpace(factsNote(facts[i-from])) // as the move's answer said it
		}
		v.Recent = append(v.Recent, m)
	}
	if len(v.Recent) > 0 {
		v.Last = &v.Recent[len(v.Recent)-1]
	}
	if res, over := st.Result(); over {
		v.Over, v.Result = true, r.Plain(draughtsResultSentence(g, res), names)
		v.Status = "Game over: " + v.Result
		return v
	}
	s := st.ToMove()
	v.ToPlay = seatOf(s)
	v.Status = fmt.Sprintf("Move %d · %s to play: %s", st.MoveCount()/2+1, seatOf(s), commands.PlainName(g.Player(s)))
	for _, m := range st.Legal() {
		mv, err := pos.ParseMove(string(m))
		if err != nil {
			continue // cannot happen: the rules' own notation of a legal move
		}
		dm := commands.DraughtsMove{From: int(mv.From), To: int(mv.To), Text: string(m)}
		for _, q := range pos.Path(mv).Squares {
			dm.Path = append(dm.Path, int(q))
		}
		v.Draughts.Legal = append(v.Draughts.Legal, dm)
		v.Draughts.Capture = v.Draughts.Capture || strings.Contains(string(m), "x")
	}
	if v.Draughts.Capture {
		v.Draughts.Lesser = lesser(&pos, v.Draughts.Legal)
	}
	return v
}

// lesser is DraughtsView.Lesser: for each piece of the side to move with
// no legal move but a capture, the rules' refusal of its capture that
// takes most, so that a click on it says what /draughts play would, and
// not that it cannot capture.
func lesser(pos *draughts.Position, legal []commands.DraughtsMove) map[int]string {
	out := map[int]string{}
	for _, q := range pos.Pieces(pos.Turn()).Squares() {
		if slices.ContainsFunc(legal, func(m commands.DraughtsMove) bool { return m.From == int(q) }) {
			continue
		}
		var most draughts.Route
		for _, r := range pos.CaptureRoutes(q, true) {
			if r.Taken.Count() > most.Taken.Count() {
				most = r
			}
		}
		if most.Taken.Empty() {
			continue
		}
		if _, err := pos.ParseMove(most.String()); err != nil {
			out[int(q)] = ruleSentence(err)
		}
	}
	return out
}

func (r *room) FinishedView(arc *storage.Archived, channelID string) (*commands.GameView, error) {
	st, err := archivedDraughts(arc)
	if err != nil {
		return nil, err
	}
	g := &storage.Game{ID: arc.ID, ChannelID: channelID, Kind: draughtsKind, Sides: storage.Sides(arc.White, arc.Black), State: st}
	v := r.view(g, st)
	v.Over, v.ToPlay, v.Rules = true, "", draughtsSetup(arc.Clock, commands.ArchivedShownUnrated(arc))
	v.Draughts.Legal, v.Draughts.Lesser = []commands.DraughtsMove{}, nil
	v.Result = resultText(arc)
	if res, over := st.Result(); over {
		// As the rules or the archive ended it: "drawn by threefold
		// repetition", "drawn by agreement", as Discord's board says.
		v.Result = r.Plain(draughtsResultSentence(g, res), commands.PlayerNames(g))
	}
	if arc.Annulled {
		v.Result = annulledText(arc, st.MoveCount())
	}
	v.Status = "Game over: " + v.Result
	if r, ok := archivedResult(arc.Result); ok {
		v.Status += ranOut(g, r)
	}
	// Each side's time as the game ended, as lidraughts keeps showing it
	// (none in games archived before it was kept).
	v.White.Clock = commands.FinalClockView(arc.Clock, draughtsWhite)
	v.Black.Clock = commands.FinalClockView(arc.Clock, draughtsBlack)
	return v, nil
}

// ranOut is what the page's status adds to a game lost on time: who ran
// out, as the loss's announcement in Discord says (the result alone,
// "annulled on time, not counted", names nobody). Empty otherwise.
func ranOut(g *storage.Game, r game.Result) string {
	if r.Reason != game.ByTime || r.Winner == game.NoSide {
		return ""
	}
	loser := r.Winner.Opponent()
	return ". " + commands.RanOutOfTime(commands.PlainName(g.Player(loser)), strings.Fields(draughtsSideLabel(loser))[1])
}
