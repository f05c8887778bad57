package draughts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gobot-dev/gobot/engine/game"
)

// Kind is international draughts as a game kind of the contract in package
// engine/game: the factory of States. Its only option is "fen", a start
// position in PDN FEN (the standard start when absent or empty). The seed
// is kept in the state but unused: the rules need no randomness.
type Kind struct{}

var (
	_ game.Kind  = Kind{}
	_ game.State = State{}
)

// Name returns "draughts".
func (Kind) Name() string { return "draughts" }

// SideNames returns "White", "Black": side 0 is White, who moves first.
func (Kind) SideNames() []string { return []string{"White", "Black"} }

// New starts a game from the start position or from opts["fen"].
func (Kind) New(opts game.Options, seed int64) (game.State, error) {
	return NewState(opts, seed)
}

// NewState is Kind.New returning the concrete State.
func NewState(opts game.Options, seed int64) (State, error) {
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if k != "fen" {
			return State{}, errorf(ErrOptions, "unknown option %q: the only option is fen, a start position such as W:W31-50:B1-20", k)
		}
	}
	start := Start()
	if f := strings.TrimSpace(opts["fen"]); f != "" {
		p, err := ParseFEN(f)
		if err != nil {
			return State{}, errorf(ErrOptions, "option fen: %s", strings.TrimPrefix(err.Error(), "draughts: "))
		}
		start = p
	}
	return newState(start, seed), nil
}

// State is a game of draughts with its history: the checked door into the
// rules, and a game.State. It is a value: Play and End return a new State
// and leave the receiver as it was. Play checks every move (turn, captures
// compulsory, the maximum capture, men forward) and refuses an illegal
// one with an error saying why; a game ends when the side to move has no
// legal move (it loses), on the third repetition of a position, by the
// 25-move rule and the 16- and 5-move endgame rules, or by End.
type State struct {
	start    Position
	seed     int64
	moves    []game.Move // canonical texts
	pos      Position
	legal    []Move // of pos, sorted; none when the game is over
	counters Counters
	history  []Position // since the last irreversible move, pos included
	last     Route      // the last move's route, if any
	result   *game.Result
}

func newState(start Position, seed int64) State {
	s := State{start: start, seed: seed, pos: start, counters: NewCounters(&start), history: []Position{start}}
	s.settle()
	return s
}

// settle lists the legal moves of the current position and ends the game
// if the rules end it there.
func (s *State) settle() {
	s.legal = sortMoves(&s.pos, s.pos.Generate(nil))
	switch {
	case len(s.legal) == 0:
		s.result = resultOf(Color(s.pos.turn).Opponent(), game.ByRule)
	case Repetitions(s.history, &s.pos) >= 3:
		s.result = drawOf(ByRepetition)
	case s.counters.Draw() != "":
		s.result = drawOf(s.counters.Draw())
	}
	if s.result != nil {
		s.legal = nil
	}
}

// sortMoves sorts moves by start, end and path (finding paths only for
// moves that share start and end).
func sortMoves(p *Position, moves []Move) []Move {
	slices.SortStableFunc(moves, func(a, b Move) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.To, b.To)
	})
	for i := 0; i < len(moves); {
		j := i + 1
		for j < len(moves) && moves[j].From == moves[i].From && moves[j].To == moves[i].To {
			j++
		}
		if j-i > 1 {
			tied := moves[i:j]
			paths := make(map[Move][]Square, len(tied))
			for _, m := range tied {
				paths[m] = p.Path(m).Squares
			}
			slices.SortStableFunc(tied, func(a, b Move) int { return slices.Compare(paths[a], paths[b]) })
		}
		i = j
	}
	return moves
}

func resultOf(winner Color, r game.Reason) *game.Result {
	return &game.Result{Winner: game.Side(winner), Reason: r, Text: resultText(game.Side(winner))}
}

func drawOf(r game.Reason) *game.Result {
	return &game.Result{Winner: game.NoSide, Reason: r, Text: resultText(game.NoSide)}
}

// resultText writes a result as PDN does for international draughts:
// "2-0" when White wins, "0-2" when Black does, "1-1" for a draw.
func resultText(winner game.Side) string {
	switch winner {
	case game.Side(White):
		return "2-0"
	case game.Side(Black):
		return "0-2"
	}
	return "1-1"
}

// Kind returns "draughts".
func (s State) Kind() string { return "draughts" }

// ToMove returns the side to move, or game.NoSide when the game is over.
func (s State) ToMove() game.Side {
	if s.result != nil {
		return game.NoSide
	}
	return game.Side(s.pos.turn)
}

// Position returns the current position, a copy.
func (s State) Position() Position { return s.pos }

// Start returns the position the game started from.
func (s State) Start() Position { return s.start }

// Counters returns the draw counters of the current position.
func (s State) Counters() Counters { return s.counters }

// Moves returns the moves played, in canonical text.
func (s State) Moves() []game.Move { return slices.Clone(s.moves) }

// MoveCount returns the number of moves played (plies).
func (s State) MoveCount() int { return len(s.moves) }

// Result returns the result and true when the game is over.
func (s State) Result() (game.Result, bool) {
	if s.result == nil {
		return game.Result{}, false
	}
	return *s.result, true
}

// Legal lists the legal moves in canonical text, by start square, end
// square and path.
func (s State) Legal() []game.Move {
	out := make([]game.Move, len(s.legal))
	for i, m := range s.legal {
		out[i] = game.Move(s.pos.Notation(m, s.legal))
	}
	return out
}

// ParseMove reads a move side typed. When side is to move and the text
// names a legal move, it returns that move's canonical text; otherwise
// the text tidied ("32 - 28" is "32-28"), and Play says why the rules
// refuse it. Bad notation, and a capture that needs its full path, are
// errors here.
func (s State) ParseMove(side game.Side, text string) (game.Move, error) {
	sq, err := ParseSquares(text)
	if err != nil {
		return "", err
	}
	if s.result == nil && side == game.Side(s.pos.turn) {
		m, err := s.pos.resolve(written(text, sq), sq, s.legal)
		if err == nil {
			return game.Move(s.pos.Notation(m, s.legal)), nil
		}
		if Code(err) == ErrAmbiguous.code {
			return "", err
		}
	}
	return game.Move(written(text, sq)), nil
}

// Play plays side's move m and returns the new state with the facts to
// announce: the pieces captured, a man crowned, the end of the game.
func (s State) Play(side game.Side, m game.Move) (game.State, []game.Fact, error) {
	n, facts, err := s.PlayMove(side, string(m))
	if err != nil {
		return nil, nil, err
	}
	return n, facts, nil
}

// PlayMove is Play returning the concrete State.
func (s State) PlayMove(side game.Side, text string) (State, []game.Fact, error) {
	if s.result != nil {
		return State{}, nil, ErrGameOver
	}
	if side != game.Side(s.pos.turn) {
		if side != game.Side(White) && side != game.Side(Black) {
			return State{}, nil, errorf(ErrNotYourTurn, "side %d is not a side of draughts (0 is White, 1 is Black)", side)
		}
		return State{}, nil, errorf(ErrNotYourTurn, "it is %s's turn, not %s's", s.pos.turn, Color(side))
	}
	sq, err := ParseSquares(text)
	if err != nil {
		return State{}, nil, err
	}
	mv, err := s.pos.resolve(written(text, sq), sq, s.legal)
	if err != nil {
		return State{}, nil, err
	}
	return s.apply(mv)
}

// MoveFacts returns the facts of the moves played from move from (counted
// from 0) to the last, one slice a move: what Play returned for each (the
// pieces captured, a man crowned, the end of the game), for a client that
// tells the moves again. It plays the game again from its start.
func (s State) MoveFacts(from int) [][]game.Fact {
	from = max(from, 0)
	if from >= len(s.moves) {
		return nil
	}
	out := make([][]game.Fact, 0, len(s.moves)-from)
	r := newState(s.start, s.seed)
	for i, m := range s.moves {
		n, facts, err := r.PlayMove(game.Side(r.pos.turn), string(m))
		if err != nil {
			break // cannot happen: the state's own moves, from its start
		}
		if i >= from {
			out = append(out, facts)
		}
		r = n
	}
	return out
}

// apply plays mv, a legal move.
func (s State) apply(mv Move) (State, []game.Fact, error) {
	text := s.pos.Notation(mv, s.legal)
	before := s.pos
	n := s
	n.moves = append(s.moves[:len(s.moves):len(s.moves)], game.Move(text))
	n.last = before.Path(mv)
	n.pos.Play(mv)
	n.counters = s.counters.After(&before, mv, &n.pos)
	if before.Irreversible(mv) {
		n.history = []Position{n.pos}
	} else {
		n.history = append(s.history[:len(s.history):len(s.history)], n.pos)
	}
	n.result = nil
	n.settle()
	var facts []game.Fact
	mover := before.turn
	if k := mv.Captured.Count(); k > 0 {
		facts = append(facts, game.Fact{Kind: "capture", Text: fmt.Sprintf("%s %s captures %s", mover, text, pieces(k))})
	}
	if before.At(mv.From) != n.pos.At(mv.To) {
		facts = append(facts, game.Fact{Kind: "crown", Text: fmt.Sprintf("%s's man is crowned on %d", mover, mv.To)})
	}
	if n.result != nil {
		facts = append(facts, game.Fact{Kind: "end", Text: describe(*n.result)})
	}
	return n, facts, nil
}

// describe says how a game ended, in a sentence.
func describe(r game.Result) string {
	switch r.Reason {
	case game.ByRule:
		if r.Winner != game.NoSide {
			return fmt.Sprintf("%s cannot move: %s wins %s", Color(r.Winner).Opponent(), Color(r.Winner), r.Text)
		}
	case ByRepetition:
		return "drawn by threefold repetition " + r.Text
	case By25Moves:
		return "drawn by the 25-move rule (kings only, no capture) " + r.Text
	case By16Moves:
		return "drawn by the 16-move rule " + r.Text
	case By5Moves:
		return "drawn by the 5-move rule " + r.Text
	}
	if r.Winner == game.NoSide {
		return fmt.Sprintf("drawn (%s) %s", r.Reason, r.Text)
	}
	return fmt.Sprintf("%s wins (%s) %s", Color(r.Winner), r.Reason, r.Text)
}

// End ends the game with r, a result the rules did not reach: a
// resignation, a loss on time, a draw by agreement (Winner game.NoSide).
// It fills r.Text in PDN: "2-0", "0-2" or "1-1".
func (s State) End(r game.Result) (game.State, error) {
	n, err := s.EndWith(r)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// EndWith is End returning the concrete State.
func (s State) EndWith(r game.Result) (State, error) {
	if s.result != nil {
		return State{}, ErrGameOver
	}
	if r.Winner != game.NoSide && r.Winner != game.Side(White) && r.Winner != game.Side(Black) {
		return State{}, errorf(ErrResult, "winner %d is not a side of draughts (0 is White, 1 is Black, -1 no one)", r.Winner)
	}
	if r.Reason == "" {
		return State{}, errorf(ErrResult, "a result needs a reason (resignation, time, agreement, forfeit)")
	}
	r.Text = resultText(r.Winner)
	n := s
	n.result = &r
	n.legal = nil
	return n, nil
}

// View is what a client draws: the board, the side to move, the last move
// and the result. It marshals to JSON.
type View struct {
	// Squares holds the pieces on squares 1 to 50 (index 0 is square 1):
	// "w" and "b" for men, "W" and "B" for kings, "" for empty.
	Squares []string `json:"squares"`
	// ToMove is "White", "Black", or "" when the game is over.
	ToMove string `json:"toMove"`
	// LastMove is the last move's canonical text, LastPath the squares it
	// went through (start, landings, end) and LastTaken the squares of
	// the pieces it captured.
	LastMove  string `json:"lastMove,omitempty"`
	LastPath  []int  `json:"lastPath,omitempty"`
	LastTaken []int  `json:"lastTaken,omitempty"`
	// Legal lists the legal moves in canonical text.
	Legal     []string     `json:"legal"`
	MoveCount int          `json:"moveCount"`
	FEN       string       `json:"fen"`
	Result    *game.Result `json:"result,omitempty"`
}

// View returns what a side sees: everything, since draughts hides
// nothing; s is ignored.
func (s State) View(game.Side) any { return s.Board() }

// Board returns the View of the state.
func (s State) Board() View {
	v := View{Squares: make([]string, NumSquares), MoveCount: len(s.moves), FEN: s.pos.FEN(), Legal: []string{}}
	for q := Square(1); q <= NumSquares; q++ {
		if x := s.pos.At(q); x != Empty {
			v.Squares[q-1] = x.String()
		}
	}
	if s.result == nil {
		v.ToMove = s.pos.turn.String()
	} else {
		r := *s.result
		v.Result = &r
	}
	if len(s.moves) > 0 {
		v.LastMove = string(s.moves[len(s.moves)-1])
		for _, q := range s.last.Squares {
			v.LastPath = append(v.LastPath, int(q))
		}
		for _, q := range s.last.Taken.Squares() {
			v.LastTaken = append(v.LastTaken, int(q))
		}
	}
	for _, m := range s.Legal() {
		v.Legal = append(v.Legal, string(m))
	}
	return v
}

// Suggest lists, in canonical text, the legal moves that text, a move
// being typed by the side to move, could become or already names as
// ParseMove reads it (Position.Suggest): what autocomplete offers. None
// when the game is over.
func (s State) Suggest(text string) []game.Move {
	if s.result != nil {
		return nil
	}
	var out []game.Move
	for _, m := range s.pos.Suggest(text, s.legal) {
		out = append(out, game.Move(s.pos.Notation(m, s.legal)))
	}
	return out
}
