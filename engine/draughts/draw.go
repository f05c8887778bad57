package draughts

import (
	"math/bits"

	"github.com/gobot-dev/gobot/engine/game"
)

// The reasons a game of draughts is drawn by rule, beside the contract's
// game.ByAgreement. A game won because the side to move has no legal move
// ends game.ByRule.
const (
	// ByRepetition: the same position with the same side to move occurred
	// for the third time.
	ByRepetition game.Reason = "repetition"
	// By25Moves: each side made 25 moves in a row with kings only and no
	// capture.
	By25Moves game.Reason = "25-move rule"
	// By16Moves: three pieces, at least one a king, against a lone king,
	// and each side made 16 moves since.
	By16Moves game.Reason = "16-move rule"
	// By5Moves: two pieces or one, at least one a king, against a lone
	// king, and each side made 5 moves since.
	By5Moves game.Reason = "5-move rule"
)

// The limits of the counting rules, in plies (moves of either side).
const (
	kingMovesLimit = 50 // 25 moves each
	endgame16Limit = 32 // 16 moves each
	endgame5Limit  = 10 // 5 moves each
)

// Endgame is the endgame rule (FMJD 6.3 and 6.4) a position falls under.
type Endgame uint8

// The endgame rules.
const (
	NoEndgame Endgame = iota
	Endgame16         // three pieces, at least one a king, against a lone king
	Endgame5          // two pieces or one, at least one a king, against a lone king
)

// String returns "none", "16-move rule" or "5-move rule".
func (e Endgame) String() string {
	switch e {
	case Endgame16:
		return string(By16Moves)
	case Endgame5:
		return string(By5Moves)
	}
	return "none"
}

// EndgameOf returns the endgame rule that p falls under.
func EndgameOf(p *Position) Endgame {
	for c := White; c <= Black; c++ {
		lone, other := p.pieces[c], p.pieces[c^1]
		if bits.OnesCount64(lone) != 1 || lone&p.kings == 0 || other&p.kings == 0 {
			continue
		}
		switch bits.OnesCount64(other) {
		case 3:
			return Endgame16
		case 1, 2:
			return Endgame5
		}
	}
	return NoEndgame
}

// Counters are the counts beside a position that draw a game by rule:
// the plies in a row with only kings moved and no capture (the 25-move
// rule), and the plies since the position fell under its endgame rule.
// Repetition needs the positions themselves: see Repetitions. The zero
// Counters are right for a position with no history whose endgame is
// NoEndgame; use NewCounters for any position.
type Counters struct {
	KingMoves int     // plies in a row: a king moved, nothing captured
	Endgame   Endgame // the endgame rule the position falls under
	Plies     int     // plies played under that endgame rule
}

// NewCounters returns the counters of p with no history.
func NewCounters(p *Position) Counters { return Counters{Endgame: EndgameOf(p)} }

// After returns the counters after m, played in before, gave after.
// The endgame count starts at the move that brings the position under
// its rule (a capture or a crowning) and runs on while the position
// stays under the same rule, even through a capture or a crowning (the
// lone king taking the man of a king and a man, a second man crowned);
// it starts again when the rule changes (the lone king taking one of
// three pieces leaves two: 5 moves each from that capture).
func (c Counters) After(before *Position, m Move, after *Position) Counters {
	n := Counters{Endgame: EndgameOf(after)}
	if m.Captured == 0 && before.kings>>bitOf(m.From)&1 != 0 {
		n.KingMoves = c.KingMoves + 1
	}
	if n.Endgame != NoEndgame && n.Endgame == c.Endgame {
		n.Plies = c.Plies + 1
	}
	return n
}

// Draw returns the counting rule that draws the game, or "" when none
// does. A side to move that has no legal move loses, whatever the counts:
// check that first.
func (c Counters) Draw() game.Reason {
	switch {
	case c.KingMoves >= kingMovesLimit:
		return By25Moves
	case c.Endgame == Endgame16 && c.Plies >= endgame16Limit:
		return By16Moves
	case c.Endgame == Endgame5 && c.Plies >= endgame5Limit:
		return By5Moves
	}
	return ""
}

// Irreversible reports whether m, a move of p, can never be undone: a
// capture or a man's move. No position before it can occur again, so
// repetition need look no further back.
func (p *Position) Irreversible(m Move) bool {
	return m.Captured != 0 || p.kings>>bitOf(m.From)&1 == 0
}

// Repetitions counts the positions of history equal to p (same pieces,
// same side to move). History is the game's positions since its last
// irreversible move; a position occurring for the third time draws.
func Repetitions(history []Position, p *Position) int {
	n := 0
	for i := range history {
		if history[i].hash == p.hash && history[i].Equal(p) {
			n++
		}
	}
	return n
}
