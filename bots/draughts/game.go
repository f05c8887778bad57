package draughts

import (
	"fmt"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Game is what a player needs to know of a game: the position to move
// from, with what draws it by rule. History holds the positions since the
// last irreversible move (a capture or a man's move), oldest first, the
// current position last, and Moves the moves between them (Moves[i] leads
// from History[i] to History[i+1]): repetition looks no further back, and
// a Hub engine is sent them. Counters are the current position's (the
// 25-, 16- and 5-move rules). Play returns the game after a move; the
// zero Game is not valid (use NewGame or GameOf).
type Game struct {
	History  []draughts.Position
	Moves    []draughts.Move
	Counters draughts.Counters
}

// NewGame returns the game of a position without history.
func NewGame(p draughts.Position) Game {
	return Game{History: []draughts.Position{p}, Counters: draughts.NewCounters(&p)}
}

// Position returns the position to move from.
func (g Game) Position() draughts.Position { return g.History[len(g.History)-1] }

// Play returns the game after m, a legal move of its position. g is
// unchanged.
func (g Game) Play(m draughts.Move) Game {
	p := g.Position()
	q := p
	q.Play(m)
	n := Game{Counters: g.Counters.After(&p, m, &q)}
	if p.Irreversible(m) {
		n.History = []draughts.Position{q}
		return n
	}
	n.History = append(g.History[:len(g.History):len(g.History)], q)
	n.Moves = append(g.Moves[:len(g.Moves):len(g.Moves)], m)
	return n
}

// GameOf returns the game of a state of the checked door, replaying its
// moves from its start (the state keeps its history to itself). A state
// whose moves do not replay is an error wrapping ErrState; it cannot
// happen for a state the rules made.
func GameOf(s draughts.State) (Game, error) {
	g := NewGame(s.Start())
	for i, text := range s.Moves() {
		p := g.Position()
		m, err := p.ParseMove(string(text))
		if err != nil {
			return Game{}, fmt.Errorf("move %d %q: %w: %w", i+1, text, ErrState, err)
		}
		g = g.Play(m)
	}
	return g, nil
}

// Over reports whether the game is over by the rules: the side to move has
// no legal move, the position occurred a third time, or a counting rule
// draws it.
func (g Game) Over() bool {
	p := g.Position()
	var buf [draughts.MaxMoves]draughts.Move
	return p.CountMoves(buf[:0]) == 0 || draughts.Repetitions(g.History, &p) >= 3 || g.Counters.Draw() != ""
}
