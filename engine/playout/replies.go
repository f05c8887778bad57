package playout

import "github.com/gobot-dev/gobot/engine"

// Replies is a table of last good replies with forgetting (Baier and
// Drake's LGRF-2): for each player, the move that last won a playout
// when it answered a given opponent move, and one that answered a given
// pair of moves (the player's own previous move and the opponent's last).
// A playout that the player lost forgets the replies it tried. A Player
// with Replies tries the reply to the pair, then the reply to the last
// move, right after its tactical answers (Policy.Capture).
//
// The table is indexed by vertices, not positions: what it learns in one
// part of a search's tree it tries everywhere, which is its point (a
// playout learns the answer to a local fight from the playouts before
// it). A Replies is not safe for concurrent use.
type Replies struct {
	area int
	one  [2][]int16 // [colour-1][last]
	two  [2][]int16 // [colour-1][prev*area+last]
}

// NewReplies returns an empty table for boards of the given area
// (engine.Board.Area).
func NewReplies(area int) *Replies {
	r := &Replies{area: area}
	for i := range r.one {
		r.one[i] = make([]int16, area)
		r.two[i] = make([]int16, area*area)
	}
	return r
}

// Learn updates the table from one playout. moves are the vertices played
// in turn (engine.PassVertex for a pass), the first two being the context
// before the first move that counts, which first played; winner is the
// player who won the playout (engine.Empty for a draw, which teaches
// nothing). Every move of the winner becomes the reply to the move before
// it and to the two before it; every move of the loser that is the
// stored reply is forgotten. Replies to a pass and passes are not learned.
func (r *Replies) Learn(moves []int32, first, winner engine.Color) {
	if winner != engine.Black && winner != engine.White {
		return
	}
	c := first
	for i := 2; i < len(moves); i, c = i+1, c.Opponent() {
		m, last, prev := moves[i], int(moves[i-1]), int(moves[i-2])
		if m == engine.PassVertex || last == engine.PassVertex {
			continue
		}
		one, two := r.one[c-1], r.two[c-1]
		k := prev*r.area + last
		if c == winner {
			one[last] = int16(m)
			two[k] = int16(m)
			continue
		}
		if one[last] == int16(m) {
			one[last] = 0
		}
		if two[k] == int16(m) {
			two[k] = 0
		}
	}
}

// Clear forgets every reply.
func (r *Replies) Clear() {
	for i := range r.one {
		clear(r.one[i])
		clear(r.two[i])
	}
}

// replyMove returns c's stored reply to the pair (prev, last), else to
// last, when it is acceptable on b; else 0.
func (r *Replies) replyMove(b *engine.Board, c engine.Color, prev, last int) int {
	if prev != engine.PassVertex {
		if v := int(r.two[c-1][prev*r.area+last]); v != 0 && acceptable(b, v, c) {
			return v
		}
	}
	if v := int(r.one[c-1][last]); v != 0 && acceptable(b, v, c) {
		return v
	}
	return 0
}
