package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// GameView is a game as the board page draws it: plain JSON, the same for
// every viewer (the page knows who it is and finds its seat in Black and
// White).
type GameView struct {
	Channel string `json:"channel"`
	ID      string `json:"id"`
	// Version is the stored game's version; a click states the version it
	// was made on (Action.Version).
	Version uint64 `json:"version"`
	Title   string `json:"title"`
	Size    int    `json:"size"`
	Rules   string `json:"rules"`
	// Board is the position, one string a row from the top row down: "."
	// empty, "X" black, "O" white.
	Board  []string  `json:"board"`
	Moves  int       `json:"moves"`
	ToPlay string    `json:"to_play,omitempty"` // "black" or "white"; "" in the scoring phase and after the game
	Last   *LastMove `json:"last,omitempty"`
	// Recent are the last moves (up to 8), oldest first: a page that
	// missed some announces them all.
	Recent   []LastMove   `json:"recent,omitempty"`
	Ko       string       `json:"ko,omitempty"` // the point the player to move may not retake at once
	Black    SideView     `json:"black"`
	White    SideView     `json:"white"`
	Scoring  *ScoringView `json:"scoring,omitempty"`
	Undo     *UndoView    `json:"undo,omitempty"`
	Over     bool         `json:"over"`
	Result   string       `json:"result,omitempty"` // who won and how, when over
	Status   string       `json:"status"`           // one line: whose turn, or the result
	Vote     bool         `json:"vote,omitempty"`   // a vote game: the channel's people vote by playing
	ServerMS int64        `json:"server_ms"`        // the server's clock when the view was made
}

// LastMove is the last move of a game.
type LastMove struct {
	N     int    `json:"n"` // the move's number, from 1
	Color string `json:"color"`
	Kind  string `json:"kind"` // "play", "pass" or "resign"
	Point string `json:"point,omitempty"`
	By    string `json:"by"`
}

// SideView is one side of a game: its players, captures and clock.
type SideView struct {
	Players  []PlayerView `json:"players"`
	Captures int          `json:"captures"`
	Clock    *ClockView   `json:"clock,omitempty"`
}

// PlayerView is a player as the page shows them.
type PlayerView struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

// ClockView is one side's clock: Text as the board message shows it; when
// Running, LeftMS counts down from ServerMS and Suffix follows it.
type ClockView struct {
	Text    string `json:"text"`
	Running bool   `json:"running,omitempty"`
	LeftMS  int64  `json:"left_ms,omitempty"`
	Suffix  string `json:"suffix,omitempty"`
}

// ScoringView is the scoring phase: the marking, the count and who has
// accepted it.
type ScoringView struct {
	Dead []string `json:"dead"`
	// Owner is who each point counts for, one string a row from the top
	// row down: "X" black, "O" white, "." neither.
	Owner    []string        `json:"owner"`
	Count    string          `json:"count"`  // the count as the board message shows it
	Result   string          `json:"result"` // the result the marking gives, "B+3.5"
	Accepted map[string]bool `json:"accepted"`
}

// UndoView is an undo request awaiting its answer.
type UndoView struct {
	By string `json:"by"` // the colour that asked
}

// GameSummary is a game in the board page's picker.
type GameSummary struct {
	Channel string   `json:"channel"`
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Size    int      `json:"size"`
	Players []string `json:"players"` // the user IDs of its players
}

// View returns the game of channelID as the board page draws it: the game
// in play, or else the last game finished there (ErrNoGame when there is
// none).
func (a *App) View(ctx context.Context, channelID string) (*GameView, error) {
	g, err := a.loadGame(ctx, channelID)
	switch {
	case errors.Is(err, ErrNoGame) || errors.Is(err, ErrQuarantined):
		return a.finishedView(ctx, channelID)
	case err != nil:
		return nil, err
	case goOf(g) == nil:
		return nil, UserErr(ErrNoGame, notGo)
	}
	return a.liveView(g), nil
}

// liveView is the view of a game in play.
func (a *App) liveView(g *storage.Game) *GameView {
	now := a.Now()
	eg := goOf(g)
	v := &GameView{Channel: g.ChannelID, ID: g.ID, Version: g.Version, Title: plainTitle(g), Size: eg.Size(), Rules: eg.Rules().String(),
		Board: boardRows(eg), Moves: eg.MoveCount(), Vote: isVoteGame(g), ServerMS: now.UnixMilli()}
	names := playerNames(g)
	for _, c := range []engine.Color{engine.Black, engine.White} {
		sv := SideView{Captures: eg.Captures(c)}
		for _, p := range g.TeamOf(engine.SideOf(c)) {
			sv.Players = append(sv.Players, PlayerView{ID: p.UserID, Name: PlainName(p), Bot: p.IsBot()})
		}
		if k := g.Clock; k != nil && k.Control.System != clock.None {
			sv.Clock = clockView(k, c, now)
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
		v.Recent = append(v.Recent, LastMove{N: i + 1, Color: m.Color.String(), Kind: moveKind(m), Point: m.Point.String(), By: PlainName(g.MovedBy(i, engine.SideOf(m.Color)))})
	}
	if len(v.Recent) > 0 {
		v.Last = &v.Recent[len(v.Recent)-1]
	}
	res, over := eg.Result()
	switch {
	case over:
		v.Over, v.Result = true, a.plain(resultSentence(g, res), names)
		v.Status = "Game over: " + v.Result
	case g.Scoring != nil:
		v.Status = "Play has ended: agree on the dead stones, then accept."
	default:
		c := eg.ToPlay()
		v.ToPlay = c.String()
		if k := eg.Board().Ko(c); k != engine.NoPoint {
			v.Ko = k.String()
		}
		v.Status = fmt.Sprintf("Move %d · %s to play: %s", eg.MoveCount()+1, c, PlainName(g.Player(engine.SideOf(c))))
	}
	if g.Scoring != nil {
		v.Scoring = scoringView(g, deadOf(g), map[engine.Color]bool{engine.Black: g.Scoring.Accepted[engine.SideOf(engine.Black)], engine.White: g.Scoring.Accepted[engine.SideOf(engine.White)]})
	}
	if g.Undo != nil && g.Undo.MoveCount == eg.MoveCount() {
		v.Undo = &UndoView{By: engine.ColorOf(g.Undo.By).String()}
	}
	return v
}

// finishedView is the view of the last game finished in a channel, read
// back from its record.
func (a *App) finishedView(ctx context.Context, channelID string) (*GameView, error) {
	arcs, err := a.archive.ChannelGames(ctx, channelID, 1)
	if err != nil {
		return nil, err
	}
	if len(arcs) == 0 {
		return nil, ErrNoGame
	}
	arc, err := a.archive.ArchivedGame(ctx, arcs[0].ID)
	if err != nil {
		return nil, err
	}
	if storage.KindOf(arc.Kind) != goKind {
		return nil, UserErr(ErrNoGame, notGo) // the page shows Go's games only
	}
	eg, info, err := engine.ParseSGF(arc.SGF)
	if err != nil {
		return nil, fmt.Errorf("commands: read the record of game %s: %w", arc.ID, err)
	}
	g := &storage.Game{ID: arc.ID, ChannelID: channelID, Kind: engine.KindName, Sides: storage.Sides(arc.Black, arc.White), State: engine.Own(eg)}
	v := a.liveView(g)
	v.Over, v.ToPlay, v.Ko, v.Version = true, "", "", 0
	v.Black.Clock, v.White.Clock = nil, nil
	v.Result = arc.Result
	res, ok := eg.Result()
	if !ok {
		res, err = engine.ParseResult(arc.Result)
		ok = err == nil
	}
	if ok {
		v.Result = a.plain(resultSentence(g, res), playerNames(g))
	}
	v.Status = "Game over: " + v.Result
	if ok && res.Reason == engine.ByScore {
		var dead []engine.Point
		if info != nil {
			dead = info.Dead
		}
		v.Scoring = scoringView(g, dead, map[engine.Color]bool{engine.Black: true, engine.White: true})
	}
	return v, nil
}

// scoringView is the marking dead and the count it gives.
func scoringView(g *storage.Game, dead []engine.Point, accepted map[engine.Color]bool) *ScoringView {
	_, sc := scoreView(g, dead)
	db, dw := deadCounts(g, dead)
	sv := &ScoringView{Dead: []string{}, Count: engine.FormatScore(sc, db, dw), Result: sc.Result(),
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

// clockView is colour c's clock at now.
func clockView(k *clock.Clock, c engine.Color, now time.Time) *ClockView {
	at := now
	if k.Since.After(now) {
		at = k.Since
	}
	cv := &ClockView{Text: k.Show(clock.Side(c), at)}
	if !k.Running() || k.ToMove != clock.Side(c) || k.Since.After(now) {
		return cv
	}
	t := k.Left(clock.Side(c), now)
	cc := k.Control
	cv.Running, cv.LeftMS = true, t.Main.Milliseconds()
	switch cc.System {
	case clock.ByoYomi:
		if t.Main > 0 {
			cv.Suffix = fmt.Sprintf(" + %d×%s", t.Periods, clock.Format(cc.Period))
		} else {
			left := cc.Period
			if t.Period > 0 {
				left = t.Period
			}
			cv.LeftMS, cv.Suffix = left.Milliseconds(), fmt.Sprintf(" byo-yomi (%d×%s left)", t.Periods, clock.Format(cc.Period))
		}
	case clock.Canadian:
		if t.Stones > 0 {
			cv.LeftMS, cv.Suffix = t.Period.Milliseconds(), " for "+Plural(t.Stones, "move")
		} else {
			cv.Suffix = fmt.Sprintf(" + %d/%s", cc.Stones, clock.Format(cc.Period))
		}
	case clock.Simple:
		cv.Suffix = " for this move"
	}
	return cv
}

// plainTitle is the game's title without markup: "ann (black) vs bob (white)".
func plainTitle(g *storage.Game) string {
	return joinNames(g.TeamOf(engine.SideOf(engine.Black)), PlainName) + " vs " + joinNames(g.TeamOf(engine.SideOf(engine.White)), PlainName)
}

// Games lists the games in play that a board page opened in channelID
// offers: the channel's own and those of its threads; with channelID
// empty, every local game (those of the console and of local board
// pages, in LocalGuild), which everyone on this computer may watch.
func (a *App) Games(ctx context.Context, channelID string) ([]GameSummary, error) {
	by, err := a.GamesBy(ctx, []string{channelID})
	return by[channelID], err
}

// GamesBy is Games for several channels at once, reading the games in
// play once.
func (a *App) GamesBy(ctx context.Context, channelIDs []string) (map[string][]GameSummary, error) {
	all, err := a.games.ActiveGames(ctx)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, ch := range channelIDs {
		want[ch] = true
	}
	out := map[string][]GameSummary{}
	for _, g := range all {
		var scopes []string
		if want[""] && g.GuildID == LocalGuild {
			scopes = append(scopes, "")
		}
		if want[g.ChannelID] && g.ChannelID != "" {
			scopes = append(scopes, g.ChannelID)
		}
		if want[g.ParentChannelID] && g.ParentChannelID != "" {
			scopes = append(scopes, g.ParentChannelID)
		}
		if len(scopes) == 0 || goOf(g) == nil {
			continue
		}
		s := GameSummary{Channel: g.ChannelID, ID: g.ID, Title: plainTitle(g), Size: goOf(g).Size()}
		for _, p := range g.Players() {
			if p.UserID != "" {
				s.Players = append(s.Players, p.UserID)
			}
		}
		for _, sc := range scopes {
			out[sc] = append(out[sc], s)
		}
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	}
	return out, nil
}
