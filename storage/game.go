package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
)

// Player is one side of a game: a Discord user, a bot opponent, or the
// people of a channel voting on each move (a vote game).
type Player struct {
	UserID string `json:"user,omitempty"`  // Discord user ID; empty for a bot
	Level  string `json:"bot,omitempty"`   // the bot's level name when the player is a bot
	Crowd  string `json:"crowd,omitempty"` // the channel whose people vote, in a vote game
	Name   string `json:"name,omitempty"`  // display name when the game was stored
}

// Key returns the key the store indexes the player under: the Discord user
// ID, "bot:" and the level name for a bot, or "crowd:" and the channel ID
// for a channel's voters. Discord IDs are digits, so they never collide.
// PlayerGames and friends take this key.
func (p Player) Key() string {
	switch {
	case p.UserID != "":
		return p.UserID
	case p.Level != "":
		return "bot:" + p.Level
	case p.Crowd != "":
		return "crowd:" + p.Crowd
	}
	return ""
}

// IsCrowd reports whether the player is a channel's voters.
func (p Player) IsCrowd() bool { return p.UserID == "" && p.Level == "" && p.Crowd != "" }

// IsBot reports whether the player is a bot.
func (p Player) IsBot() bool { return p.UserID == "" && p.Level != "" }

// String returns the display name, falling back to the key.
func (p Player) String() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Key()
}

func checkPlayer(side string, p Player) error {
	n := 0
	for _, s := range []string{p.UserID, p.Level, p.Crowd} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("storage: %s is more than one of user %q, bot %q and channel %q: %w", side, p.UserID, p.Level, p.Crowd, ErrInvalid)
	}
	return checkID(side+" player", p.Key())
}

// Game is an active game as the store keeps it: one per channel (a server
// channel, a thread or a DM). It is the game aggregate, what the rules, the
// clocks and the result depend on (players, moves, clock, scoring phase,
// undo request, version), plus Delivery, the state that exists only to
// show the game on Discord. The position is not stored; the moves are, and
// the game's kind (Options.Kinds) replays them on every load.
type Game struct {
	ID              string // unique; CreateGame fills it when empty
	ChannelID       string // the key: one active game per channel
	GuildID         string // "" in DMs
	ParentChannelID string // the thread's parent channel, when the game lives in a thread

	// Kind is the game's kind (package engine/game): "go", "draughts";
	// records written before gobot had more than one kind read as "go".
	Kind string
	// Sides are the game's sides in its kind's order (Go: Black, White),
	// each with its players in the order they take turns: one player in
	// a game between two people or against a bot, up to four in rengo.
	// Who sits where is the core's; the colours are the game's.
	Sides []Side
	// State is the game itself as its kind keeps it (options, seed,
	// moves, result); the store reads it back with the kind's Decode.
	State game.State

	CreatedAt time.Time // set by CreateGame when zero
	UpdatedAt time.Time // set by every write
	// Clock is the game's clock (time control, both players' time, whose
	// turn runs since when); nil for a game without one. Its next event
	// (reminder, flag) is indexed by deadline: see Due.
	Clock *clock.Clock
	// Version counts the writes: CreateGame stores 1, each successful
	// UpdateGame adds one. Every write states the version it read.
	Version uint64

	Scoring *ScoringState // nil unless play has ended and dead stones are being marked
	// Undo is the last undo request (Go) or draw offer (draughts): it
	// awaits an answer while its MoveCount is the game's. A request that
	// lapsed with a move may stay, closed, until the next replaces it,
	// keeping the message that asks it (UndoRequest.MessageID) for the
	// worker that lapsed it. nil when none was made or it was answered.
	Undo *UndoRequest
	// ResignVote is a team's vote on resigning, in a team game; nil when
	// none is open.
	ResignVote *ResignVote
	// AbortVote is a team's vote on aborting the game, in a team game, as
	// ResignVote is on resigning; nil when none is open.
	AbortVote *ResignVote
	// LapsedVotes are, after a write (UpdateGame, FinishGame, AbortGame),
	// the team votes it dropped (ResignVote, AbortVote: the next move
	// lapses them) that had messages, as the stored record held them:
	// with the messages recorded after g was read (AddTeamVoteMessage),
	// for the writer to say on them what became of the vote. Never
	// stored; nil after a read.
	LapsedVotes []LapsedVote
	// TeamClock is a team game's clock mode (TeamClockStrict or
	// TeamClockCasual); "" in a game between two players.
	TeamClock string
	// Movers are the keys of the players who made the moves of a team
	// game, in order: who is next on a side follows who moved last on it.
	Movers []string
	// Vote is the open vote on the next move in a vote game, while its
	// voters are to move; nil otherwise.
	Vote *Vote
	// VotePeriod is how long a vote game's votes stay open; zero in other
	// games.
	VotePeriod time.Duration
	// VoteLog says who voted for each move the voters made, by move
	// number from 1.
	VoteLog map[int][]string
	// Times are, with a casual team clock, the clock times of the players
	// not on the clock now (Clock holds those of each side's player to
	// move): each player has a clock of their own.
	Times map[string]clock.Time
	// Unrated is set for a game that must not change ratings (rated:false).
	Unrated bool
	// Ranks are the sides' ranks as the game's record writes them (SGF
	// BR and WR: "3k", "1d"; for draughts, which has no ranks, the
	// ratings, PDN WhiteElo and BlackElo: "1523"), in Sides' order, taken
	// when the game began, so that the record says what the players were
	// then, as OGS's do; "" for a side without one. nil for a game stored
	// before gobot kept them, whose record simply has none.
	Ranks []string

	// Delivery is how the game reaches its players on Discord. It is
	// stored with the game, in the same record and under the same version,
	// but nothing in the aggregate depends on it.
	Delivery Delivery
}

// Delivery is the Discord delivery state of an active game: the messages
// that show it, the interaction that can still post for it, and a board
// owed to the players. The store keeps it and bounds it (MaxMessageIDs);
// what it means is commands' business.
type Delivery struct {
	// MessageIDs are the Discord messages that show the game, newest last.
	// Only the newest MaxMessageIDs are stored: a long game posts hundreds
	// of boards, and only the latest ones are ever edited. AddMessageID
	// adds one without a new version.
	MessageIDs []string
	// Followup, when not nil, is a recent interaction in this game whose
	// token can still post follow-up messages: how a bot move made in the
	// background reaches a channel where gobot may not post itself (a
	// user install's private channel).
	Followup *Followup
	// Unposted is set when a bot move was made in the background but its
	// board could not be shown: the next answer in the game says so.
	Unposted bool
	// Owed, when not nil, is the board of a person's move that its answer
	// may not have shown yet: see OwedBoard.
	Owed *OwedBoard
}

// OwedBoard is the board of a person's move that its interaction may not
// have shown: the write that commits the move records it, at no extra
// cost, and the first board message recorded after it (AddMessageID: the
// move's answer, or any later board of the game) settles it, in the same
// write. One still recorded at Due means the answer never reached Discord
// (its process died between the commit and the answer): it is a deadline
// like a clock's (Game.Due), for whoever handles deadlines to post the
// board. The store does not interpret it further.
type OwedBoard struct {
	Moves int    // the game's move count with the move
	After string // the newest board message when the move was made; "" when none
	// Due is when the board is posted if no board has been recorded by then.
	Due time.Time
}

// Settles reports whether messageID, a board message recorded for the
// game, shows the move o owes: it was posted after the move was made
// (Discord's IDs grow with time).
func (o *OwedBoard) Settles(messageID string) bool {
	return len(messageID) > len(o.After) || (len(messageID) == len(o.After) && messageID > o.After)
}

// Followup is an interaction that can post follow-up messages for 15
// minutes after it was received. Token is a credential while it lasts:
// never log it.
type Followup struct {
	InteractionID string
	AppID         string
	Token         string
	At            time.Time // when the interaction was received
	// ChannelPosts says whether gobot may post in the channel itself
	// (false in a user install's private channel, where only follow-ups
	// reach the players).
	ChannelPosts bool
}

// Side is one side of a game: its players in the order they take turns.
type Side struct {
	Players []Player `json:"players"`
	// Gone are the keys of players out of a team game (casual clock:
	// who ran out of time); their turns are skipped.
	Gone []string `json:"gone,omitempty"`
	// Banned are the keys among Gone of players put out of the game for
	// a ban on its server (OutBanned), who come back when it is lifted
	// (Back).
	Banned []string `json:"banned,omitempty"`
}

// out reports whether p is out of the game.
func (s Side) out(p Player) bool { return slices.Contains(s.Gone, p.Key()) }

// Sides returns two sides of one player each, in the kind's order (Go:
// Black, then White).
func Sides(first, second Player) []Side {
	return []Side{{Players: []Player{first}}, {Players: []Player{second}}}
}

// Player returns the player who plays side i next: the side's only
// player, or in a team game the one after the side's last mover in the
// side's order (passes included), skipping the players out of the game;
// the zero Player when all are out.
func (g *Game) Player(i game.Side) Player {
	if i < 0 || int(i) >= len(g.Sides) || len(g.Sides[i].Players) == 0 {
		return Player{}
	}
	side := g.Sides[i]
	ps := side.Players
	if len(ps) == 1 {
		return ps[0]
	}
	last := -1
	for j := len(g.Movers) - 1; j >= 0 && last < 0; j-- {
		last = slices.IndexFunc(ps, func(p Player) bool { return p.Key() == g.Movers[j] })
	}
	for k := 1; k <= len(ps); k++ {
		if p := ps[(last+k)%len(ps)]; !side.out(p) {
			return p
		}
	}
	return Player{}
}

// Moved records that p made the move just played: in a team game, who
// moves next on a side follows from it (see Player).
func (g *Game) Moved(p Player) {
	if g.Team() {
		g.Movers = append(g.Movers, p.Key())
	}
}

// Out puts p out of a team game: their turns are skipped from now on.
func (g *Game) Out(p Player) {
	for i, s := range g.Sides {
		if slices.ContainsFunc(s.Players, func(q Player) bool { return q.Key() == p.Key() }) && !s.out(p) {
			g.Sides[i].Gone = append(slices.Clone(s.Gone), p.Key())
		}
	}
}

// OutBanned puts p out of the game as Out does, for a ban on its server:
// Back brings them in again. A player already out (of time) stays out for good.
func (g *Game) OutBanned(p Player) {
	for i, s := range g.Sides {
		if slices.ContainsFunc(s.Players, func(q Player) bool { return q.Key() == p.Key() }) && !s.out(p) {
			g.Sides[i].Banned = append(slices.Clone(s.Banned), p.Key())
		}
	}
	g.Out(p)
}

// Back brings p, put out of the game for a ban (OutBanned), into it again,
// and reports whether p was out for one; a player out of time stays out.
func (g *Game) Back(p Player) bool {
	back := false
	for i, s := range g.Sides {
		if !slices.Contains(s.Banned, p.Key()) {
			continue
		}
		isP := func(k string) bool { return k == p.Key() }
		g.Sides[i].Banned = slices.DeleteFunc(slices.Clone(s.Banned), isP)
		g.Sides[i].Gone = slices.DeleteFunc(slices.Clone(s.Gone), isP)
		back = true
	}
	return back
}

// InGame returns the players of side i who are not out of the game.
func (g *Game) InGame(i game.Side) []Player {
	var ps []Player
	for _, p := range g.TeamOf(i) {
		if !g.Sides[i].out(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// People returns the people of side i who decide for it (a team's vote
// to resign or to abort): its players who are neither bots nor out of
// the game.
func (g *Game) People(i game.Side) []Player {
	return slices.DeleteFunc(g.InGame(i), Player.IsBot)
}

// MovedBy returns the player who made move n (from 0) of the game, a
// move of side i: the side's only player, or in a team game the one
// Movers names.
func (g *Game) MovedBy(n int, i game.Side) Player {
	if n < 0 || n >= g.State.MoveCount() {
		return Player{}
	}
	ps := g.TeamOf(i)
	if len(ps) == 1 {
		return ps[0]
	}
	if n < len(g.Movers) {
		if i := slices.IndexFunc(ps, func(p Player) bool { return p.Key() == g.Movers[n] }); i >= 0 {
			return ps[i]
		}
	}
	return Player{}
}

// Team reports whether g is a team game: a side with more than one player.
func (g *Game) Team() bool { return len(g.Players()) > len(g.Sides) }

// TeamOf returns the players of side i.
func (g *Game) TeamOf(i game.Side) []Player {
	if i < 0 || int(i) >= len(g.Sides) {
		return nil
	}
	return g.Sides[i].Players
}

// AllBots reports whether every player of side i is a bot: the side
// answers the scoring phase and undo requests by itself.
func (g *Game) AllBots(i game.Side) bool {
	ps := g.TeamOf(i)
	for _, p := range ps {
		if !p.IsBot() {
			return false
		}
	}
	return len(ps) > 0
}

// First returns the first player of side i: the one who challenged or
// was challenged, the person against a bot.
func (g *Game) First(i game.Side) Player {
	if i < 0 || int(i) >= len(g.Sides) || len(g.Sides[i].Players) == 0 {
		return Player{}
	}
	return g.Sides[i].Players[0]
}

// SideOf returns the side user plays on, and whether the user plays in g
// at all (NoSide when not).
func (g *Game) SideOf(userID string) (game.Side, bool) {
	for i, s := range g.Sides {
		for _, p := range s.Players {
			if p.UserID != "" && p.UserID == userID {
				return game.Side(i), true
			}
		}
	}
	return game.NoSide, false
}

// Players returns every player of every side, in side order.
func (g *Game) Players() []Player { return sidePlayers(g.Sides) }

func sidePlayers(sides []Side) []Player {
	var ps []Player
	for _, s := range sides {
		ps = append(ps, s.Players...)
	}
	return ps
}

// goKind is the kind of records written before gobot had more than one.
const goKind = "go"

// KindOf returns the kind a record names, "go" when it names none.
func KindOf(k string) string {
	if k == "" {
		return goKind
	}
	return k
}

// ScoringState is a scoring phase after play (Go's, after two passes):
// the stones marked dead so far, as the kind writes points ("D4"), and
// which sides have accepted the marking.
type ScoringState struct {
	Dead []string
	// Conceded are the stones of Dead that their own player marked dead
	// (the kind's points): theirs to give, so a marking that stands when
	// time runs out keeps them dead although that player never pressed
	// Accept. Stones the opponent marked dead, or the estimate proposed,
	// are not in it.
	Conceded []string
	Accepted map[game.Side]bool
	// Deadline is when the marking is accepted automatically; zero for none.
	Deadline time.Time
	// Settled says how the marking was settled, set as the game ends by
	// counting for its archived record (Archived.Marking). It is never
	// stored with the active game, which ends in the same call.
	Settled string
}

// UndoRequest is a pending request of one side to the other that lapses
// with the next move: in Go to take back moves, in draughts to agree a
// draw.
type UndoRequest struct {
	By          game.Side // who asked
	MoveCount   int       // the game's move count when asked: the request lapses once it changes
	RequestedAt time.Time
	// MessageID is the Discord message that asks the request (Go's undo
	// question, draughts' draw offer), "" until it is known: it is posted
	// after the request is written, and SetUndoMessage records it without
	// a new version. A write of the same request keeps it (it is delivery
	// state, like Delivery.MessageIDs), and every write that replaces or
	// ends the game gives it back in the writer's Game, so that whichever
	// worker lapses the request can close its question in place.
	MessageID string
}

// Same reports whether u and v are one request (who, when, at which move),
// whatever either knows of its message.
func (u *UndoRequest) Same(v *UndoRequest) bool {
	return u != nil && v != nil && u.By == v.By && u.MoveCount == v.MoveCount && u.RequestedAt.Equal(v.RequestedAt)
}

// ResignVote is a team's vote on resigning (or, as Game.AbortVote, on
// aborting the game): a member proposed it, and the team resigns once more
// than half its people agree. It lapses when a move is played (MoveCount).
type ResignVote struct {
	Side      game.Side
	Voters    []string // user IDs, the proposer first
	MoveCount int
	// Messages are the messages that announced the vote's ballots, so
	// that the one who lapses it can say so on them. They are recorded
	// without a new version (AddTeamVoteMessage), and a write of the
	// same vote read before keeps them.
	Messages []string
}

// LapsedVote is a team vote a write dropped (Game.LapsedVotes): a vote to
// abort when Abort is set, else to resign.
type LapsedVote struct {
	Abort bool
	Vote  ResignVote
}

// resignVoteRecord is ResignVote as records keep it.
type resignVoteRecord struct {
	Side      recordSide `json:"side"`
	Voters    []string   `json:"voters"`
	MoveCount int        `json:"moves"`
	Messages  []string   `json:"messages,omitempty"`
}

// same reports whether the record r holds vote v (the same side, on the
// same move).
func (r *resignVoteRecord) same(v *ResignVote) bool {
	return r != nil && v != nil && game.Side(r.Side) == v.Side && r.MoveCount == v.MoveCount
}

// Vote is the open vote on a vote game's next move. Ballots are the votes
// in the order they were cast; a person's latest ballot is their vote.
// The vote ends at Deadline; a zero Deadline is a vote adjourned after two
// empty periods, which the next ballot opens again.
type Vote struct {
	Ballots   []Ballot  `json:"ballots,omitempty"`
	Deadline  time.Time `json:"deadline,omitzero"`
	Restarted bool      `json:"restarted,omitempty"` // the period began again once for want of votes
	// Note is the note of the board the vote opened on (what gobot
	// played), which the board keeps when it is drawn again with the
	// votes.
	Note string `json:"note,omitempty"`
	// Moves is the game's move count when the vote opened: the move it
	// is on (a vote lasts until that move is played).
	Moves int `json:"moves,omitempty"`
	// Board is the newest board message showing this vote's move, the one
	// its votes are shown on; "" until that board is posted. It is
	// recorded without a new version (SetVoteBoard), and a write of the
	// same vote read before keeps it: the vote's board is posted after
	// the vote opens, and a board recorded for an earlier move (the
	// closed board of the round before) is not the vote's to redraw.
	Board string `json:"board,omitempty"`
}

// Ballot is one person's vote for a move.
type Ballot struct {
	UserID string    `json:"user"`
	Name   string    `json:"name,omitempty"`
	Move   string    `json:"move"` // "D4", "pass"
	At     time.Time `json:"at"`
}

// Counts returns the votes each move has now, and the moves most voted
// first; of moves with as many votes, the one that has held that count
// the longest comes first: the one that reached it first, counted from the
// last time it rose to it (a move that lost a vote and won it back
// reached its count again only then).
func (v *Vote) Counts() (map[string]int, []string) {
	type level struct {
		move string
		n    int
	}
	latest := map[string]string{} // user -> move
	counts := map[string]int{}
	rose := map[level]int{} // the ballot at which a move last rose to n votes
	for i, b := range v.Ballots {
		old, ok := latest[b.UserID]
		if ok && old == b.Move {
			continue // the same vote again changes nothing
		}
		if ok {
			counts[old]--
		}
		latest[b.UserID] = b.Move
		counts[b.Move]++
		rose[level{b.Move, counts[b.Move]}] = i
	}
	var order []string
	for m, n := range counts {
		if n <= 0 {
			delete(counts, m)
			continue
		}
		order = append(order, m)
	}
	slices.SortFunc(order, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return rose[level{a, counts[a]}] - rose[level{b, counts[b]}]
	})
	return counts, order
}

// Voters returns the names of the people whose vote is for move, in the
// order they first voted.
func (v *Vote) Voters(move string) []string {
	latest := map[string]Ballot{}
	var users []string
	for _, b := range v.Ballots {
		if _, ok := latest[b.UserID]; !ok {
			users = append(users, b.UserID)
		}
		latest[b.UserID] = b
	}
	var names []string
	for _, u := range users {
		if b := latest[u]; b.Move == move {
			names = append(names, b.Name)
		}
	}
	return names
}

// gameRecord is the stored form of Game (bucket games, and the record
// column of PostgreSQL's games table). It is JSON so that fields can be
// added without a migration; the engine game is its own JSON
// (configuration and moves, never a board). Delivery's fields sit beside
// the aggregate's (messages, followup, unposted), as they did before the
// two were separate types, so records of every version load alike.
type gameRecord struct {
	ID              string                `json:"id"`
	ChannelID       string                `json:"channel"`
	GuildID         string                `json:"guild,omitempty"`
	ParentChannelID string                `json:"parent,omitempty"`
	Kind            string                `json:"kind,omitempty"`
	Sides           []Side                `json:"sides,omitempty"`
	Black           *Player               `json:"black,omitempty"` // records before sides
	White           *Player               `json:"white,omitempty"` // records before sides
	Game            json.RawMessage       `json:"game"`
	MessageIDs      []string              `json:"messages,omitempty"`
	CreatedAt       time.Time             `json:"created"`
	UpdatedAt       time.Time             `json:"updated"`
	Clock           *clock.Clock          `json:"clock,omitempty"`
	Due             time.Time             `json:"due,omitzero"` // Game.Due when written: the games_by_due key
	Version         uint64                `json:"version"`
	Scoring         *scoringRecord        `json:"scoring,omitempty"`
	Undo            *undoRecord           `json:"undo,omitempty"`
	ResignVote      *resignVoteRecord     `json:"resign_vote,omitempty"`
	AbortVote       *resignVoteRecord     `json:"abort_vote,omitempty"`
	TeamClock       string                `json:"team_clock,omitempty"`
	Vote            *Vote                 `json:"vote,omitempty"`
	VotePeriod      time.Duration         `json:"vote_period,omitempty"`
	VoteLog         map[int][]string      `json:"vote_log,omitempty"`
	Movers          []string              `json:"movers,omitempty"`
	Times           map[string]clock.Time `json:"times,omitempty"`
	Followup        *followupRecord       `json:"followup,omitempty"`
	Unposted        bool                  `json:"unposted,omitempty"`
	Owed            *owedRecord           `json:"owed_board,omitempty"`
	Unrated         bool                  `json:"unrated,omitempty"`
	Ranks           []string              `json:"ranks,omitempty"`
}

// owedRecord is the stored form of an OwedBoard, with Rest, the game's due
// time without it (Game.Due), to which the record's due returns when
// AddMessageID settles it.
type owedRecord struct {
	Moves int       `json:"moves"`
	After string    `json:"after,omitempty"`
	Due   time.Time `json:"due"`
	Rest  time.Time `json:"rest,omitzero"`
}

type followupRecord struct {
	InteractionID string    `json:"interaction"`
	AppID         string    `json:"app"`
	Token         string    `json:"token"`
	At            time.Time `json:"at"`
	ChannelPosts  bool      `json:"channel_posts,omitempty"`
}

// scoringRecord and undoRecord once had a "message" field, never written
// by gobot; records that have it still load.
type scoringRecord struct {
	Dead     []string  `json:"dead,omitempty"`           // the kind's points, "D4"
	Conceded []string  `json:"conceded,omitempty"`       // ScoringState.Conceded
	Black    bool      `json:"black_accepted,omitempty"` // side 0 (Go's Black) accepted
	White    bool      `json:"white_accepted,omitempty"` // side 1 accepted
	Deadline time.Time `json:"deadline,omitzero"`
}

// recordSide is a side as game records write it: "B" for side 0 and "W"
// for side 1, the letters of Go's colours, as records were written before
// the core knew sides (in every kind: the letters name sides, not colours).
type recordSide game.Side

// MarshalText writes "B" or "W".
func (s recordSide) MarshalText() ([]byte, error) {
	switch s {
	case 0:
		return []byte("B"), nil
	case 1:
		return []byte("W"), nil
	}
	return nil, fmt.Errorf("storage: side %d: %w", s, ErrInvalid)
}

// UnmarshalText reads "B" or "W" (or "black", "white", in any case).
func (s *recordSide) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "b", "black":
		*s = 0
	case "w", "white":
		*s = 1
	default:
		return fmt.Errorf("side %q", b)
	}
	return nil
}

type undoRecord struct {
	By          recordSide `json:"by"`
	MoveCount   int        `json:"moves"`
	RequestedAt time.Time  `json:"at,omitzero"`
	MessageID   string     `json:"message,omitempty"`
}

// request is the request r records (its side unchecked).
func (r *undoRecord) request() *UndoRequest {
	if r == nil {
		return nil
	}
	return &UndoRequest{By: game.Side(r.By), MoveCount: r.MoveCount, RequestedAt: r.RequestedAt, MessageID: r.MessageID}
}

// gameHeader is the part of a record that writes check: who, where, which
// version. Decoding it does not replay the moves.
type gameHeader struct {
	ID        string    `json:"id"`
	ChannelID string    `json:"channel"`
	Sides     []Side    `json:"sides,omitempty"`
	Black     *Player   `json:"black,omitempty"` // records before sides
	White     *Player   `json:"white,omitempty"`
	Due       time.Time `json:"due,omitzero"`
	Version   uint64    `json:"version"`
	GuildID   string    `json:"guild,omitempty"` // the games_by_guild key, with CreatedAt
	CreatedAt time.Time `json:"created"`
	// MessageIDs are the record's board messages, which AddMessageID
	// adds without a new version: a write keeps them (mergeMessages).
	MessageIDs []string `json:"messages,omitempty"`
	// Undo is the record's request, whose message SetUndoMessage records
	// without a new version: a write of the same request keeps it.
	Undo *undoRecord `json:"undo,omitempty"`
	// Vote is the record's open vote, whose board SetVoteBoard records
	// without a new version: a write of the same vote keeps it.
	Vote *voteHeader `json:"vote,omitempty"`
	// ResignVote and AbortVote are the record's team votes, whose
	// messages AddTeamVoteMessage records without a new version: a write
	// of the same vote keeps them, and one that drops the vote gives them
	// back (Game.LapsedVotes).
	ResignVote *resignVoteRecord `json:"resign_vote,omitempty"`
	AbortVote  *resignVoteRecord `json:"abort_vote,omitempty"`
}

// voteHeader is what a header reads of a record's Vote.
type voteHeader struct {
	Moves int    `json:"moves,omitempty"`
	Board string `json:"board,omitempty"`
}

// legacySides returns the sides of a record written before sides were
// stored, from its black and white players; sides when it has them.
func legacySides(sides []Side, black, white *Player) []Side {
	if len(sides) > 0 || black == nil || white == nil {
		return sides
	}
	return Sides(*black, *white)
}

// players returns the players of the header's game, in side order.
func (h gameHeader) players() []Player { return sidePlayers(legacySides(h.Sides, h.Black, h.White)) }

func decodeHeader(v []byte) (gameHeader, error) {
	var h gameHeader
	if v == nil {
		return h, errNoRecord
	}
	if err := json.Unmarshal(v, &h); err != nil {
		return h, err
	}
	if h.ID == "" || h.Version == 0 {
		return h, fmt.Errorf("record without id or version")
	}
	return h, nil
}

// validate checks what every write needs.
func (g *Game) validate() error {
	if err := g.checkChannel(); err != nil {
		return err
	}
	if g.State == nil {
		return fmt.Errorf("storage: game in channel %s has no state: %w", g.ChannelID, ErrInvalid)
	}
	if g.GuildID != "" {
		if err := checkID("guild ID", g.GuildID); err != nil {
			return err
		}
	}
	return checkSides(g.Kind, g.Sides)
}

// checkSides checks a game's sides: two (both kinds gobot hosts are
// games of two sides), each with one to MaxSidePlayers players, and no
// person on two sides.
func checkSides(kind string, sides []Side) error {
	if len(sides) != 2 {
		return fmt.Errorf("storage: a game of %s has 2 sides, not %d: %w", KindOf(kind), len(sides), ErrInvalid)
	}
	seen, team := map[string]bool{}, len(sidePlayers(sides)) > len(sides)
	for i, s := range sides {
		if len(s.Players) == 0 || len(s.Players) > MaxSidePlayers {
			return fmt.Errorf("storage: side %d has %d players (want 1 to %d): %w", i+1, len(s.Players), MaxSidePlayers, ErrInvalid)
		}
		for _, p := range s.Players {
			if err := checkPlayer(fmt.Sprintf("side %d", i+1), p); err != nil {
				return err
			}
			// One person may play both sides of a game of two (a game
			// against oneself), but sits only once in a team game.
			if p.UserID != "" && team && seen[p.UserID] {
				return fmt.Errorf("storage: user %s sits twice in a team game: %w", p.UserID, ErrInvalid)
			}
			seen[p.UserID] = true
		}
	}
	return nil
}

// MaxSidePlayers is how many players a side may have (rengo: 2 to 4).
const MaxSidePlayers = 4

// mergeMessages returns the board messages a write of a game keeps: the
// writer's and those the stored record gained since it was read
// (AddMessageID takes no version, so that a board posted while a move is
// being made never makes the move's write stale), oldest first by their
// snowflake IDs, the newest MaxMessageIDs.
func mergeMessages(stored, mine []string) []string {
	ids := slices.Clone(mine)
	for _, id := range stored {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.SortStableFunc(ids, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return recentMessages(ids)
}

// kept is what a write of a game keeps of the messages the stored record
// gained since the game was read, without a new version (withMessages):
// its board messages, the message asking its request, the board of its
// vote, and the messages of its team votes.
type kept struct {
	ids           []string
	ask, board    string
	resign, abort []string
}

// give gives k back to g, written.
func (k kept) give(g *Game) {
	g.Delivery.MessageIDs = k.ids
	if g.Undo != nil {
		g.Undo.MessageID = k.ask
	}
	if g.Vote != nil {
		g.Vote.Board = k.board
	}
	if g.ResignVote != nil {
		g.ResignVote.Messages = k.resign
	}
	if g.AbortVote != nil {
		g.AbortVote.Messages = k.abort
	}
}

// withMessages returns what g's write keeps of the messages the stored
// record h gained since g was read, without a new version: the board
// messages (mergeMessages with h's), the message asking g's request
// when h holds the same request with its message and g does not know it
// (undoMessage), the board of g's vote (voteBoard) and the messages of
// its team votes (teamVoteMessages); and the record to write: val, g's
// encoding, when it holds them already, else g encoded again with them.
func (g *Game) withMessages(h gameHeader, val []byte, now time.Time) (kept, []byte, error) {
	k := kept{
		ids: mergeMessages(h.MessageIDs, g.Delivery.MessageIDs), ask: g.undoMessage(h), board: g.voteBoard(h),
		resign: teamVoteMessages(g.ResignVote, h.ResignVote), abort: teamVoteMessages(g.AbortVote, h.AbortVote),
	}
	mine := func(v *ResignVote, msgs []string) bool { return v == nil || slices.Equal(v.Messages, msgs) }
	if slices.Equal(k.ids, recentMessages(g.Delivery.MessageIDs)) && (g.Undo == nil || k.ask == g.Undo.MessageID) && (g.Vote == nil || k.board == g.Vote.Board) &&
		mine(g.ResignVote, k.resign) && mine(g.AbortVote, k.abort) {
		return k, val, nil
	}
	c := *g
	c.Delivery.MessageIDs = k.ids
	if g.Undo != nil {
		u := *g.Undo
		u.MessageID = k.ask
		c.Undo = &u
	}
	if g.Vote != nil {
		v := *g.Vote
		v.Board = k.board
		c.Vote = &v
	}
	for _, v := range []struct {
		vote **ResignVote
		msgs []string
	}{{&c.ResignVote, k.resign}, {&c.AbortVote, k.abort}} {
		if *v.vote != nil {
			rv := **v.vote
			rv.Messages = v.msgs
			*v.vote = &rv
		}
	}
	rec, err := c.encode(g.Version+1, now)
	return k, rec, err
}

// teamVoteMessages are the messages of v, a team vote of a game being
// written, as the write keeps them: v's, and those the stored record h
// gained for the same vote since it was read (AddTeamVoteMessage); nil
// without a vote.
func teamVoteMessages(v *ResignVote, h *resignVoteRecord) []string {
	if v == nil {
		return nil
	}
	msgs := slices.Clone(v.Messages)
	if h.same(v) {
		for _, id := range h.Messages {
			if !slices.Contains(msgs, id) {
				msgs = append(msgs, id)
			}
		}
	}
	return msgs
}

// learnLapsedVotes sets g.LapsedVotes, after a write of g over the stored
// record h: the team votes of h with messages that g no longer holds.
func (g *Game) learnLapsedVotes(h gameHeader) {
	g.LapsedVotes = nil
	for _, v := range []struct {
		abort bool
		rec   *resignVoteRecord
		mine  *ResignVote
	}{{false, h.ResignVote, g.ResignVote}, {true, h.AbortVote, g.AbortVote}} {
		if v.rec == nil || len(v.rec.Messages) == 0 || v.rec.same(v.mine) || int(v.rec.Side) >= len(g.Sides) {
			continue
		}
		g.LapsedVotes = append(g.LapsedVotes, LapsedVote{Abort: v.abort, Vote: ResignVote{
			Side: game.Side(v.rec.Side), Voters: slices.Clone(v.rec.Voters), MoveCount: v.rec.MoveCount, Messages: slices.Clone(v.rec.Messages),
		}})
	}
}

// voteBoard is the board of g's vote as a write of g over the stored
// record h keeps it: h's when h holds a vote on the same move with a
// newer board (SetVoteBoard recorded it after g was read), else g's own;
// "" without a vote.
func (g *Game) voteBoard(h gameHeader) string {
	switch {
	case g.Vote == nil:
		return ""
	case h.Vote != nil && h.Vote.Moves == g.Vote.Moves && newerMessage(h.Vote.Board, g.Vote.Board):
		return h.Vote.Board
	}
	return g.Vote.Board
}

// newerMessage reports whether Discord message ID a is newer than b
// (snowflakes: the longer, or the greater of the same length).
func newerMessage(a, b string) bool {
	return len(a) > len(b) || (len(a) == len(b) && a > b)
}

// undoMessage is the message asking g's request as a write of g over the
// stored record h keeps it: g's own, or else h's when h holds the same
// request (SetUndoMessage recorded it after g was read); "" without a
// request.
func (g *Game) undoMessage(h gameHeader) string {
	switch {
	case g.Undo == nil:
		return ""
	case g.Undo.MessageID == "" && g.Undo.Same(h.Undo.request()):
		return h.Undo.MessageID
	}
	return g.Undo.MessageID
}

// learnRemoved tells g, after a write that removed its stored record h
// (FinishGame, AbortGame), what h knew that g, read before, may not: the
// message of its request, its lapsed votes, and the board messages
// recorded meanwhile (AddMessageID keeps the version), so that the writer
// retires every board and closes every question.
func (g *Game) learnRemoved(h gameHeader) {
	if g.Undo != nil {
		g.Undo.MessageID = g.undoMessage(h)
	}
	g.learnLapsedVotes(h)
	g.Delivery.MessageIDs = mergeMessages(h.MessageIDs, g.Delivery.MessageIDs)
}

// MaxMessageIDs is how many of Delivery.MessageIDs, the newest, a write keeps.
const MaxMessageIDs = 5

// recentMessages returns the newest MaxMessageIDs of ids, sharing no memory
// with the caller's slice.
func recentMessages(ids []string) []string {
	if len(ids) > MaxMessageIDs {
		ids = ids[len(ids)-MaxMessageIDs:]
	}
	return slices.Clone(ids)
}

// encode builds the stored record for g with the given version and time.
func (g *Game) encode(version uint64, now time.Time) ([]byte, error) {
	eg, err := g.State.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("storage: encode game in channel %s: %w", g.ChannelID, err)
	}
	r := gameRecord{
		ID: g.ID, ChannelID: g.ChannelID, GuildID: g.GuildID, ParentChannelID: g.ParentChannelID,
		Kind: KindOf(g.Kind), Sides: g.Sides, Game: eg, MessageIDs: recentMessages(g.Delivery.MessageIDs),
		CreatedAt: g.CreatedAt, UpdatedAt: now, Clock: g.Clock, Due: g.Due(), Version: version,
		Unposted:   g.Delivery.Unposted,
		Unrated:    g.Unrated,
		Ranks:      g.Ranks,
		TeamClock:  g.TeamClock,
		Vote:       g.Vote,
		VotePeriod: g.VotePeriod,
		VoteLog:    g.VoteLog,
		Movers:     g.Movers,
		Times:      g.Times,
	}
	for _, v := range []struct {
		what string
		vote *ResignVote
		rec  **resignVoteRecord
	}{{"resign", g.ResignVote, &r.ResignVote}, {"abort", g.AbortVote, &r.AbortVote}} {
		if v.vote == nil {
			continue
		}
		if v.vote.Side < 0 || int(v.vote.Side) >= len(g.Sides) {
			return nil, fmt.Errorf("storage: game in channel %s: %s vote of side %d: %w", g.ChannelID, v.what, v.vote.Side, ErrInvalid)
		}
		*v.rec = &resignVoteRecord{Side: recordSide(v.vote.Side), Voters: v.vote.Voters, MoveCount: v.vote.MoveCount, Messages: v.vote.Messages}
	}
	if o := g.Delivery.Owed; o != nil {
		r.Owed = &owedRecord{Moves: o.Moves, After: o.After, Due: o.Due, Rest: g.dueOfGame()}
	}
	if f := g.Delivery.Followup; f != nil {
		r.Followup = &followupRecord{InteractionID: f.InteractionID, AppID: f.AppID, Token: f.Token, At: f.At, ChannelPosts: f.ChannelPosts}
	}
	if s := g.Scoring; s != nil {
		r.Scoring = &scoringRecord{Black: s.Accepted[0], White: s.Accepted[1], Deadline: s.Deadline, Dead: slices.Clone(s.Dead), Conceded: slices.Clone(s.Conceded)}
	}
	if u := g.Undo; u != nil {
		if u.By < 0 || int(u.By) >= len(g.Sides) {
			return nil, fmt.Errorf("storage: game in channel %s: undo requested by side %d: %w", g.ChannelID, u.By, ErrInvalid)
		}
		r.Undo = &undoRecord{By: recordSide(u.By), MoveCount: u.MoveCount, RequestedAt: u.RequestedAt, MessageID: u.MessageID}
	}
	return json.Marshal(r)
}

// decodeGame rebuilds a Game from its record, the state read by its kind
// in kinds (which replays the moves). Any failure is an ErrCorrupt naming
// the channel; so is a kind kinds does not know.
func decodeGame(kinds *game.Kinds, channel string, v []byte) (*Game, error) {
	corrupt := func(err error) error { return &CorruptError{ChannelID: channel, Err: err} }
	var r gameRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, corrupt(err)
	}
	if r.ID == "" || r.Version == 0 || r.ChannelID != channel {
		return nil, corrupt(fmt.Errorf("record id %q, version %d, channel %q", r.ID, r.Version, r.ChannelID))
	}
	if kinds == nil {
		kinds = &game.Kinds{}
	}
	st, err := kinds.Decode(KindOf(r.Kind), r.Game)
	if err != nil {
		return nil, corrupt(err)
	}
	g := &Game{
		ID: r.ID, ChannelID: r.ChannelID, GuildID: r.GuildID, ParentChannelID: r.ParentChannelID,
		Kind: KindOf(r.Kind), Sides: legacySides(r.Sides, r.Black, r.White), State: st,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Clock: r.Clock, Version: r.Version,
		Unrated:    r.Unrated,
		Ranks:      r.Ranks,
		TeamClock:  r.TeamClock,
		Vote:       r.Vote,
		VotePeriod: r.VotePeriod,
		VoteLog:    r.VoteLog,
		Movers:     r.Movers,
		Times:      r.Times,
		Delivery:   Delivery{MessageIDs: r.MessageIDs, Unposted: r.Unposted},
	}
	side := func(s recordSide, what string) (game.Side, error) {
		if int(s) >= len(g.Sides) {
			return game.NoSide, corrupt(fmt.Errorf("%s by side %d", what, s))
		}
		return game.Side(s), nil
	}
	for _, v := range []struct {
		what string
		rec  *resignVoteRecord
		vote **ResignVote
	}{{"resign vote", r.ResignVote, &g.ResignVote}, {"abort vote", r.AbortVote, &g.AbortVote}} {
		if v.rec == nil {
			continue
		}
		s, err := side(v.rec.Side, v.what)
		if err != nil {
			return nil, err
		}
		*v.vote = &ResignVote{Side: s, Voters: v.rec.Voters, MoveCount: v.rec.MoveCount, Messages: v.rec.Messages}
	}
	if o := r.Owed; o != nil {
		g.Delivery.Owed = &OwedBoard{Moves: o.Moves, After: o.After, Due: o.Due}
	}
	if f := r.Followup; f != nil {
		g.Delivery.Followup = &Followup{InteractionID: f.InteractionID, AppID: f.AppID, Token: f.Token, At: f.At, ChannelPosts: f.ChannelPosts}
	}
	if sr := r.Scoring; sr != nil {
		g.Scoring = &ScoringState{Accepted: map[game.Side]bool{0: sr.Black, 1: sr.White}, Deadline: sr.Deadline, Dead: sr.Dead, Conceded: sr.Conceded}
	}
	if u := r.Undo; u != nil {
		by, err := side(u.By, "undo request")
		if err != nil {
			return nil, err
		}
		g.Undo = &UndoRequest{By: by, MoveCount: u.MoveCount, RequestedAt: u.RequestedAt, MessageID: u.MessageID}
	}
	return g, nil
}

// CreateGame stores a new active game in g.ChannelID. It fails with
// ErrExists if the channel already has one (finished games do not count).
// On success it sets g.Version to 1, fills g.ID and g.Kind ("go") when
// empty, and sets CreatedAt (when zero) and UpdatedAt.
func (s *Store) CreateGame(ctx context.Context, g *Game) error {
	c, val, now, err := prepareGame(s.kinds, g, s.now())
	if err != nil {
		return err
	}
	owed := owedOf(&c)
	err = s.update(ctx, func(tx *bolt.Tx) error { return putNewGame(tx, &c, val, owed, now) })
	if err != nil {
		return err
	}
	g.ID, g.Kind, g.CreatedAt, g.UpdatedAt, g.Version = c.ID, c.Kind, c.CreatedAt, now, 1
	return nil
}

// prepareGame prepares g's first write, for CreateGame and AcceptChallenge: it
// validates g and returns the copy to store, with an ID (a new one when g
// has none) and CreatedAt (now when zero), its encoding as version 1, and
// the time of the write. A game of a kind that kinds does not know is
// refused (ErrInvalid): the store could not read it back.
func prepareGame(kinds *game.Kinds, g *Game, now time.Time) (c Game, val []byte, _ time.Time, err error) {
	if err := g.validate(); err != nil {
		return Game{}, nil, time.Time{}, err
	}
	if kinds == nil || !knownKind(kinds, g.Kind) {
		return Game{}, nil, time.Time{}, fmt.Errorf("storage: a game of %q, a kind this store does not read (Options.Kinds): %w", KindOf(g.Kind), ErrInvalid)
	}
	c = *g
	if c.ID == "" {
		c.ID = NewID()
	} else if err := checkID("game ID", c.ID); err != nil {
		return Game{}, nil, time.Time{}, err
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	c.Kind = KindOf(c.Kind)
	val, err = c.encode(1, now)
	return c, val, now, err
}

// knownKind reports whether kinds holds the kind a record names.
func knownKind(kinds *game.Kinds, kind string) bool {
	_, ok := kinds.Kind(KindOf(kind))
	return ok
}

// putNewGame writes a new active game and its index entries in tx,
// queueing its bot's move when owed (owedOf(g), worked out before the
// transaction) with the time now. It refuses a game one of whose people
// is banned on its server or would go over its limit (checkPlayLimit).
func putNewGame(tx *bolt.Tx, g *Game, val []byte, owed owedState, now time.Time) error {
	games := tx.Bucket(bucketGames)
	if old := games.Get([]byte(g.ChannelID)); old != nil {
		what := "a game"
		if h, err := decodeHeader(old); err == nil {
			what = "game " + h.ID
		}
		return fmt.Errorf("storage: channel %s already has %s: %w", g.ChannelID, what, ErrExists)
	}
	if tx.Bucket(bucketArchive).Get([]byte(g.ID)) != nil {
		return fmt.Errorf("storage: game ID %s is already archived: %w", g.ID, ErrExists)
	}
	if err := checkPlayLimit(tx, g, now); err != nil {
		return err
	}
	if err := games.Put([]byte(g.ChannelID), val); err != nil {
		return err
	}
	if err := syncBotQueue(tx, owed, now); err != nil {
		return err
	}
	if err := indexDue(tx, g.ChannelID, time.Time{}, g.Due()); err != nil {
		return err
	}
	if err := indexGuild(tx, g.GuildID, g.CreatedAt, g.ChannelID); err != nil {
		return err
	}
	return indexActive(tx, g.ChannelID, g.Players()...)
}

func indexActive(tx *bolt.Tx, channel string, players ...Player) error {
	b := tx.Bucket(bucketGamesByPlayer)
	for _, p := range players {
		if err := b.Put(join(p.Key(), []byte(channel)), nil); err != nil {
			return err
		}
	}
	return nil
}

func unindexActive(tx *bolt.Tx, channel string, players ...Player) error {
	b := tx.Bucket(bucketGamesByPlayer)
	for _, p := range players {
		if err := b.Delete(join(p.Key(), []byte(channel))); err != nil {
			return err
		}
	}
	return nil
}

// Game loads the active game in a channel and replays its moves. It fails
// with ErrNotFound when there is none and with ErrCorrupt (naming the
// channel) when the record cannot be decoded or does not replay.
func (s *Store) Game(ctx context.Context, channelID string) (*Game, error) {
	var val []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketGames).Get([]byte(channelID))
		if v == nil {
			return fmt.Errorf("storage: no active game in channel %s: %w", channelID, ErrNotFound)
		}
		val = bytes.Clone(v) // replay outside the transaction; keep read transactions short
		return nil
	})
	if err != nil {
		return nil, err
	}
	return decodeGame(s.kinds, channelID, val)
}

// header returns the fields of g that a write checks against the stored
// record. Taken before the write, it keeps the transaction's function
// (which a batch may run more than once) independent of the caller's
// struct.
func (g *Game) header() gameHeader {
	return gameHeader{ID: g.ID, ChannelID: g.ChannelID, Sides: g.Sides, Version: g.Version}
}

// checkStored verifies inside tx that the stored game in g's channel is the
// same game at the version the caller read, and returns its header.
func checkStored(tx *bolt.Tx, g gameHeader, op string) (gameHeader, error) {
	v := tx.Bucket(bucketGames).Get([]byte(g.ChannelID))
	if v == nil {
		return gameHeader{}, fmt.Errorf("storage: %s game %s: no active game in channel %s: %w", op, g.ID, g.ChannelID, ErrNotFound)
	}
	h, err := decodeHeader(v)
	if err != nil {
		return h, fmt.Errorf("storage: %s game in channel %s: %w: %w", op, g.ChannelID, ErrCorrupt, err)
	}
	if h.ID != g.ID {
		// The game was finished or aborted and another started: the write
		// belongs to a game that no longer exists.
		return h, fmt.Errorf("storage: %s game %s: channel %s now holds game %s: %w", op, g.ID, g.ChannelID, h.ID, ErrNotFound)
	}
	if h.Version != g.Version {
		return h, fmt.Errorf("storage: %s game %s: read version %d, stored version %d: %w", op, g.ID, g.Version, h.Version, ErrConflict)
	}
	return h, nil
}

// UpdateGame writes g over the stored game in its channel, provided the
// stored version is still g.Version (the version g was read at). A stale
// write fails with ErrConflict and changes nothing; a write to a game that
// has been finished, aborted or replaced fails with ErrNotFound. On success
// the change is on disk, g.Version has grown by one and g.UpdatedAt is set.
// The channel, ID and players of a game cannot change (ErrInvalid); display
// names can.
func (s *Store) UpdateGame(ctx context.Context, g *Game) error {
	if err := g.validate(); err != nil {
		return err
	}
	now := s.now()
	val, err := g.encode(g.Version+1, now)
	if err != nil {
		return err
	}
	want, owed, due := g.header(), owedOf(g), g.Due()
	var k kept
	var stored gameHeader
	err = s.update(ctx, func(tx *bolt.Tx) error {
		h, err := checkStored(tx, want, "update")
		if err != nil {
			return err
		}
		if err := samePlayers(want.ID, h, want); err != nil {
			return err
		}
		stored = h
		rec := val
		if k, rec, err = g.withMessages(h, val, now); err != nil {
			return err
		}
		if err := tx.Bucket(bucketGames).Put([]byte(want.ChannelID), rec); err != nil {
			return err
		}
		if err := indexDue(tx, want.ChannelID, h.Due, due); err != nil {
			return err
		}
		return syncBotQueue(tx, owed, now)
	})
	if err != nil {
		return err
	}
	g.Version++
	g.UpdatedAt = now
	k.give(g)
	g.learnLapsedVotes(stored)
	return nil
}

// checkChannel checks that g is a game with a valid channel ID, the key
// of the active games.
func (g *Game) checkChannel() error {
	if g == nil {
		return fmt.Errorf("storage: nil game: %w", ErrInvalid)
	}
	return checkID("channel ID", g.ChannelID)
}

// AbortGame removes the active game g from its channel without archiving
// it, provided the stored game is still g at the version g was read
// (ErrConflict otherwise, ErrNotFound when it is gone or replaced by
// another game).
func (s *Store) AbortGame(ctx context.Context, g *Game) error {
	if err := g.checkChannel(); err != nil {
		return err
	}
	want := g.header()
	var stored gameHeader
	err := s.update(ctx, func(tx *bolt.Tx) error {
		h, err := checkStored(tx, want, "abort")
		if err != nil {
			return err
		}
		stored = h
		return deleteActive(tx, h)
	})
	if err != nil {
		return err
	}
	g.learnRemoved(stored)
	return nil
}

// DeleteGame removes the active game in a channel without archiving it
// (an aborted game), provided its version is still version. It fails with
// ErrNotFound when there is no game and ErrConflict when it has changed.
// Versions start at 1 for every game, so a stale version could match a
// newer game in the same channel: AbortGame, which also checks the game's
// ID, is the safer call.
func (s *Store) DeleteGame(ctx context.Context, channelID string, version uint64) error {
	if err := checkID("channel ID", channelID); err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		v := games.Get([]byte(channelID))
		if v == nil {
			return fmt.Errorf("storage: delete game: no active game in channel %s: %w", channelID, ErrNotFound)
		}
		h, err := decodeHeader(v)
		if err != nil {
			return fmt.Errorf("storage: delete game in channel %s: %w: %w (QuarantineGame removes a corrupt record)", channelID, ErrCorrupt, err)
		}
		if h.Version != version {
			return fmt.Errorf("storage: delete game %s: read version %d, stored version %d: %w", h.ID, version, h.Version, ErrConflict)
		}
		return deleteActive(tx, h)
	})
}

// QuarantineGame moves the record of a corrupt active game out of the way,
// into the quarantine bucket under the channel ID and the time, so that the
// channel is free for a new game and the bytes remain for an operator to
// inspect. It refuses (ErrInvalid) a record that decodes and replays: a
// sound game is aborted with DeleteGame.
func (s *Store) QuarantineGame(ctx context.Context, channelID string) error {
	if err := checkID("channel ID", channelID); err != nil {
		return err
	}
	now := s.now()
	return s.update(ctx, func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		v := games.Get([]byte(channelID))
		if v == nil {
			return fmt.Errorf("storage: quarantine: no active game in channel %s: %w", channelID, ErrNotFound)
		}
		if _, err := decodeGame(s.kinds, channelID, v); err == nil {
			return fmt.Errorf("storage: quarantine: game in channel %s is sound, abort it instead: %w", channelID, ErrInvalid)
		}
		if err := tx.Bucket(bucketQuarantine).Put(join(channelID, timeKey(now)), bytes.Clone(v)); err != nil {
			return err
		}
		if h, err := decodeHeader(v); err == nil && h.ChannelID == channelID {
			// The header may be damaged too: its server and creation
			// time are not trusted to find the games_by_guild entry.
			if err := purgeGuildIndex(tx, channelID); err != nil {
				return err
			}
			return deleteActive(tx, h)
		}
		if err := unqueueBotMove(tx, channelID); err != nil {
			return err
		}
		if err := purgeActiveIndex(tx, channelID); err != nil {
			return err
		}
		return games.Delete([]byte(channelID))
	})
}

// deleteActive removes the active game h names from games, from its
// indexes (by player, by due time) and from the bot queue in tx.
func deleteActive(tx *bolt.Tx, h gameHeader) error {
	if err := tx.Bucket(bucketGames).Delete([]byte(h.ChannelID)); err != nil {
		return err
	}
	if err := unqueueBotMove(tx, h.ChannelID); err != nil {
		return err
	}
	if err := indexDue(tx, h.ChannelID, h.Due, time.Time{}); err != nil {
		return err
	}
	if err := unindexGuild(tx, h); err != nil {
		return err
	}
	return unindexActive(tx, h.ChannelID, h.players()...)
}

// samePlayers checks that an update keeps the stored game's players.
func samePlayers(id string, stored, want gameHeader) error {
	a, b := playerKeysOf(stored.players()), playerKeysOf(want.players())
	if !slices.Equal(a, b) {
		return fmt.Errorf("storage: update game %s: players cannot change (%v to %v): %w", id, a, b, ErrInvalid)
	}
	return nil
}

func playerKeysOf(ps []Player) []string {
	ks := make([]string, len(ps))
	for i, p := range ps {
		ks[i] = p.Key()
	}
	return ks
}

// purgeActiveIndex removes every games_by_player and games_by_due entry for
// a channel whose record is too damaged to name its players or its due
// time (a scan of those indexes; rare).
func purgeActiveIndex(tx *bolt.Tx, channel string) error {
	for _, idx := range []struct {
		bucket  []byte
		channel func(k []byte) []byte
	}{
		{bucketGamesByPlayer, func(k []byte) []byte {
			_, ch, _ := bytes.Cut(k, []byte{0})
			return ch
		}},
		{bucketGamesByDue, func(k []byte) []byte {
			if len(k) < 8 {
				return nil
			}
			return k[8:]
		}},
		{bucketGamesByGuild, func(k []byte) []byte {
			if _, rest, ok := bytes.Cut(k, []byte{0}); ok && len(rest) > 8 {
				return rest[8:]
			}
			return nil
		}},
	} {
		b := tx.Bucket(idx.bucket)
		var doomed [][]byte
		b.ForEach(func(k, _ []byte) error {
			if string(idx.channel(k)) == channel {
				doomed = append(doomed, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range doomed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// ActiveGames loads every active game, for start-up: bots to move, deadlines
// to watch. It returns every game it could decode; err, when not nil, joins
// one ErrCorrupt error per record that could not be decoded, so one bad
// record never hides the others.
func (s *Store) ActiveGames(ctx context.Context) ([]*Game, error) {
	return s.loadGames(ctx, func(tx *bolt.Tx, yield func(channel, val []byte)) {
		tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			yield(k, v)
			return nil
		})
	})
}

// PlayerActiveGames loads the active games of one player (a Discord user
// ID or Player.Key of a bot), by channel ID order, through the
// games_by_player index. Errors are as for ActiveGames.
func (s *Store) PlayerActiveGames(ctx context.Context, playerKey string) ([]*Game, error) {
	if err := checkID("player", playerKey); err != nil {
		return nil, err
	}
	return s.loadGames(ctx, func(tx *bolt.Tx, yield func(channel, val []byte)) {
		games := tx.Bucket(bucketGames)
		prefix := join(playerKey)
		c := tx.Bucket(bucketGamesByPlayer).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			ch := k[len(prefix):]
			if v := games.Get(ch); v != nil {
				yield(ch, v)
			}
		}
	})
}

// loadGames copies the records that scan yields inside one read
// transaction, then decodes and replays them outside it.
func (s *Store) loadGames(ctx context.Context, scan func(tx *bolt.Tx, yield func(channel, val []byte))) ([]*Game, error) {
	type raw struct {
		channel string
		val     []byte
	}
	var raws []raw
	err := s.view(ctx, func(tx *bolt.Tx) error {
		scan(tx, func(ch, v []byte) { raws = append(raws, raw{string(ch), bytes.Clone(v)}) })
		return nil
	})
	if err != nil {
		return nil, err
	}
	games := make([]*Game, 0, len(raws))
	var errs []error
	for _, r := range raws {
		if err := ctx.Err(); err != nil {
			return games, err
		}
		g, err := decodeGame(s.kinds, r.channel, r.val)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
	return games, errors.Join(errs...)
}
