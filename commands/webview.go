package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// GameView is a game as the board page draws it: plain JSON, the same for
// every viewer (the page knows who it is and finds its seat in Black and
// White).
type GameView struct {
	// Kind is the game's kind ("go", "draughts"): which board the page
	// draws, and which of the per-kind fields below it reads.
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
	ID      string `json:"id"`
	// Version is the stored game's version; a click states the version it
	// was made on (Action.Version).
	Version uint64 `json:"version"`
	Title   string `json:"title"`
	Size    int    `json:"size"`
	// Rules is how the game is played, as the board message's last line
	// says it: for Go "9×9 · Japanese (territory scoring, …, komi 6.5) ·
	// handicap 2 · live: 10 min + 5×30 s".
	Rules string `json:"rules"`
	// Board is the position, one string a row from the top row down: "."
	// empty, "X" black, "O" white.
	Board  []string  `json:"board"`
	Moves  int       `json:"moves"`
	ToPlay string    `json:"to_play,omitempty"` // "black" or "white"; "" in the scoring phase and after the game
	Last   *LastMove `json:"last,omitempty"`
	// Recent are the last moves (up to 8), oldest first: a page that
	// missed some announces them all.
	Recent  []LastMove   `json:"recent,omitempty"`
	Ko      string       `json:"ko,omitempty"` // the point the player to move may not retake at once
	Black   SideView     `json:"black"`
	White   SideView     `json:"white"`
	Scoring *ScoringView `json:"scoring,omitempty"`
	Undo    *UndoView    `json:"undo,omitempty"`
	Over    bool         `json:"over"`
	Result  string       `json:"result,omitempty"`  // who won and how, when over
	Status  string       `json:"status"`            // one line: whose turn, or the result
	Vote    bool         `json:"vote,omitempty"`    // a vote game: the channel's people vote by playing
	Votes   *VoteView    `json:"votes,omitempty"`   // a vote game's vote
	NoUndo  bool         `json:"no_undo,omitempty"` // undo is refused in this game (rengo, rated against a bot): no Undo button
	// Mover is the user ID of the player to move in a team game (rengo),
	// where only one of the side's players moves: the page's controls are
	// its only.
	Mover string `json:"mover,omitempty"`
	// ResignVote is a team's open vote on resigning, in a team game: a
	// player not to move who resigns casts a vote, and the team resigns
	// when a majority agrees before the next move.
	ResignVote *ResignVoteView `json:"resign_vote,omitempty"`
	// AbortVote is a team's open vote on aborting, in a team game: a
	// player not to move who aborts casts a vote, and the game is aborted
	// when a majority of their team agrees before the next move.
	AbortVote *ResignVoteView `json:"abort_vote,omitempty"`
	// Draughts is a game of draughts' board and moves (Board, Ko, Undo
	// and Scoring are Go's).
	Draughts *DraughtsView `json:"draughts,omitempty"`
	ServerMS int64         `json:"server_ms"` // the server's clock when the view was made
	// Rematch says the game, finished, can be asked for again by its
	// players (a game of two, not a team or vote game): the page offers
	// them Rematch, as Discord's final board does.
	Rematch bool `json:"rematch,omitempty"`
}

// DraughtsView is a game of draughts as the page draws and plays it: the
// pieces, the last move, and the legal moves of the side to move, so
// that the page needs no rules of its own.
type DraughtsView struct {
	// Squares holds the pieces on squares 1 to 50 (index 0 is square 1):
	// "w" and "b" for men, "W" and "B" for kings, "" for empty.
	Squares []string `json:"squares"`
	// LastPath is the squares the last move went through (start,
	// landings, end), LastTaken those of the pieces it took.
	LastPath  []int `json:"last_path,omitempty"`
	LastTaken []int `json:"last_taken,omitempty"`
	// Legal is every legal move of the side to move (none after the
	// game); a click sends one's Text, as /draughts play move: takes it.
	Legal []DraughtsMove `json:"legal"`
	// Capture says the side to move must capture (Legal are captures).
	Capture bool `json:"capture,omitempty"`
	// Lesser is, by square, why a piece of the side to move that can
	// capture, but fewer pieces than the maximum, may not: the rules'
	// sentence for its capture, as /draughts play refuses it ("34x25
	// takes 1 piece, but 33x22x11x2 takes 3: the maximum capture is
	// compulsory."). A click on the piece says it.
	Lesser map[int]string `json:"lesser,omitempty"`
	// DrawBy is the side ("white" or "black") whose draw offer stands.
	DrawBy string `json:"draw_by,omitempty"`
}

// DraughtsMove is a legal move: its start, end and route (start,
// landings, end), and its text in canonical notation ("32-28", "28x19",
// or the full path where two captures share start and end).
type DraughtsMove struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Path []int  `json:"path"`
	Text string `json:"text"`
}

// LastMove is the last move of a game.
type LastMove struct {
	N     int    `json:"n"` // the move's number, from 1
	Color string `json:"color"`
	Kind  string `json:"kind"` // "play", "pass" or "resign"
	Point string `json:"point,omitempty"`
	By    string `json:"by"`
	// Said is what Discord's answer to the move said of it after the move
	// itself: in Go the stones captured and a ko ("1 stone captured. Ko
	// at D5: it cannot be retaken at once."), in draughts the pieces
	// taken and a man crowned ("White 28x19 captures 1 piece."); empty
	// when it said nothing more.
	Said string `json:"said,omitempty"`
}

// SideView is one side of a game: its players, captures, clock and the
// moves it has made (passes too; none is nothing to undo).
type SideView struct {
	Players  []PlayerView `json:"players"`
	Captures int          `json:"captures"`
	// Pieces is what the side has on the board, where the kind counts
	// pieces rather than captures ("20", "18 (1 king)").
	Pieces string     `json:"pieces,omitempty"`
	Clock  *ClockView `json:"clock,omitempty"`
	Moves  int        `json:"moves"`
}

// PlayerView is a player as the page shows them.
type PlayerView struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
}

// ClockView is one side's clock: Text as the board message shows it; when
// Running, LeftMS counts down from ServerMS, written as Text writes times
// ("9 min 56 s"), between Prefix and Suffix.
type ClockView struct {
	Text    string `json:"text"`
	Running bool   `json:"running,omitempty"`
	LeftMS  int64  `json:"left_ms,omitempty"`
	Prefix  string `json:"prefix,omitempty"`
	Suffix  string `json:"suffix,omitempty"`
	// Then is what follows when LeftMS runs out, for the page to count on
	// by itself: "byoyomi" (Periods more periods of PeriodMS) or
	// "canadian" (a period of PeriodMS for Label, "25 moves"); "" when
	// the time is up then. Label is a byo-yomi period as the suffix names
	// it ("30 s").
	Then     string `json:"then,omitempty"`
	PeriodMS int64  `json:"period_ms,omitempty"`
	Periods  int    `json:"periods,omitempty"`
	Label    string `json:"label,omitempty"`
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
	// Check is the warning on the groups the estimate left alive without
	// being sure, as Discord words it ("⚠️ Please check K10: …"), or "".
	Check string `json:"check,omitempty"`
	// Deadline says what happens at the phase's deadline, as Discord
	// words it, with "{in}" where the time left goes ("The marking stands
	// {in} if nobody changes it …"); DeadlineMS is that deadline (Unix
	// milliseconds, on the server's clock as ServerMS). Both empty when
	// the phase has none.
	Deadline   string `json:"deadline,omitempty"`
	DeadlineMS int64  `json:"deadline_ms,omitempty"`
}

// DeadlineIn stands for the time left in ScoringView.Deadline.
const DeadlineIn = "{in}"

// VoteView is a vote game's vote: the side the channel plays, and while
// it is to move, the votes cast on its next move.
type VoteView struct {
	Side string `json:"side"` // "black" or "white": the colour the channel plays
	Open bool   `json:"open"` // the channel is to move: a click votes
	// Text is the votes as the board message says them: "Votes: E5 2 ·
	// D4 1", or "No votes yet".
	Text string `json:"text,omitempty"`
	// DeadlineMS is when the move with most votes is played (Unix
	// milliseconds, on the server's clock as ServerMS); 0 while the game
	// is adjourned for want of votes.
	DeadlineMS int64 `json:"deadline_ms,omitempty"`
}

// ResignVoteView is a team's open vote on resigning (GameView.ResignVote)
// or on aborting (GameView.AbortVote).
type ResignVoteView struct {
	Side   string   `json:"side"`   // "black" or "white": the team voting
	Voters []string `json:"voters"` // the user IDs of those who voted to resign
	Names  []string `json:"names"`  // their names
	Need   int      `json:"need"`   // the votes needed: a majority of the team's people
}

// TeamVoteView is v, a vote of team game g on resigning or aborting
// (storage.Game.ResignVote, AbortVote), as the board page shows it, the
// team being seat ("black" or "white"): nil when there is none, when it
// lapsed with a move since, or when none of its ballots still counts
// (Ballots: those of players banned since are dropped), as the votes are
// counted when the next teammate votes.
func (a *App) TeamVoteView(ctx context.Context, g *storage.Game, v *storage.ResignVote, seat string) *ResignVoteView {
	if v == nil || v.MoveCount != g.State.MoveCount() || len(v.Voters) == 0 {
		return nil
	}
	people, err := a.Deciders(ctx, g, v.Side)
	if err != nil {
		return nil
	}
	voters := Ballots(v.Voters, people)
	if len(voters) == 0 {
		return nil
	}
	rv := &ResignVoteView{Side: seat, Voters: voters, Need: len(people)/2 + 1}
	for _, id := range voters {
		for _, p := range people {
			if p.UserID == id {
				rv.Names = append(rv.Names, PlainName(p))
			}
		}
	}
	return rv
}

// UndoView is an undo request awaiting its answer.
type UndoView struct {
	By string `json:"by"` // the colour that asked
	// Moves is how many moves the undo takes back: the asker's last
	// move and the moves made since, as Discord's question counts them.
	Moves int `json:"moves"`
}

// GameSummary is a game in the board page's picker.
type GameSummary struct {
	Channel string   `json:"channel"`
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Size    int      `json:"size"`
	Kind    string   `json:"kind"`             // the game's kind ("go", "draughts")
	Thread  bool     `json:"thread,omitempty"` // the game is in a thread (of the channel the page lists for)
	Players []string `json:"players"`          // the user IDs of its players
	// Started is when the game started (Unix milliseconds): the page
	// tells apart by it two games that its list would name alike (two
	// games of the same players, in threads).
	Started int64 `json:"started_ms,omitempty"`
}

// View returns the game of channelID as the board page draws it: the game
// in play, or else the last game finished there (ErrNoGame when there is
// none).
func (a *App) View(ctx context.Context, channelID string) (*GameView, error) {
	g, err := a.LoadGame(ctx, channelID)
	switch {
	case errors.Is(err, ErrNoGame) || errors.Is(err, ErrQuarantined):
		return a.finishedView(ctx, channelID)
	case err != nil:
		return nil, err
	}
	wr, ok := a.roomOf(g).(WebRoom)
	if !ok {
		return nil, UserErr(ErrNoGame, notGo)
	}
	return wr.LiveView(g), nil
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
	wr, ok := a.RoomOfKind(arc.Kind).(WebRoom)
	if !ok {
		return nil, UserErr(ErrNoGame, notGo) // the page shows only the games of rooms that have one
	}
	v, err := wr.FinishedView(arc, channelID)
	if v != nil {
		v.Rematch = archivedRematchable(arc)
	}
	return v, err
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
		wr, ok := a.roomOf(g).(WebRoom)
		if len(scopes) == 0 || !ok {
			continue
		}
		s := GameSummary{Channel: g.ChannelID, ID: g.ID, Kind: storage.KindOf(g.Kind), Thread: g.ParentChannelID != ""}
		if !g.CreatedAt.IsZero() {
			s.Started = g.CreatedAt.UnixMilli()
		}
		s.Title, s.Size = wr.Summary(g)
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

// ClockViewOf is side c's clock at now, as the board page shows it.
func ClockViewOf(k *clock.Clock, c clock.Side, now time.Time) *ClockView {
	at := now
	if k.Since.After(now) {
		at = k.Since
	}
	cv := &ClockView{Text: k.Show(c, at)}
	if !k.Running() || k.ToMove != c || k.Since.After(now) {
		return cv
	}
	t := k.Left(c, now)
	cc := k.Control
	cv.Running, cv.LeftMS = true, t.Main.Milliseconds()
	switch cc.System {
	case clock.ByoYomi:
		cv.Then, cv.PeriodMS, cv.Label = "byoyomi", cc.Period.Milliseconds(), clock.Format(cc.Period)
		if t.Main > 0 {
			cv.Suffix, cv.Periods = fmt.Sprintf(" + %d×%s", t.Periods, clock.Format(cc.Period)), t.Periods
		} else {
			left := cc.Period
			if t.Period > 0 {
				left = t.Period
			}
			cv.LeftMS, cv.Prefix, cv.Suffix = left.Milliseconds(), "byo-yomi ", clock.ByoYomiAfter(t.Periods, cc.Period)
			cv.Periods = t.Periods - 1 // the periods after this one
		}
	case clock.Canadian:
		if t.Stones > 0 {
			cv.LeftMS, cv.Suffix = t.Period.Milliseconds(), " for "+Plural(t.Stones, "move")
		} else {
			cv.Suffix = fmt.Sprintf(" + %d/%s", cc.Stones, clock.Format(cc.Period))
			cv.Then, cv.PeriodMS, cv.Periods, cv.Label = "canadian", cc.Period.Milliseconds(), 1, Plural(cc.Stones, "move")
		}
	case clock.Simple:
		cv.Suffix = " for this move"
	}
	return cv
}
