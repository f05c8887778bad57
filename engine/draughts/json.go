package draughts

import (
	"bytes"
	"encoding/json"

	"github.com/gobot-dev/gobot/engine/game"
)

// stateJSON is a State on disk: where it started, the moves, the result.
// The position is rebuilt by replaying the moves.
type stateJSON struct {
	FEN    string       `json:"fen,omitempty"` // absent for the standard start
	Seed   int64        `json:"seed"`
	Moves  []game.Move  `json:"moves"`
	Result *game.Result `json:"result,omitempty"`
}

// MarshalJSON writes the state as its start position (a FEN, absent for
// the standard start), seed, moves in canonical text and result. The same
// game gives the same bytes.
func (s State) MarshalJSON() ([]byte, error) {
	j := stateJSON{Seed: s.seed, Moves: s.moves, Result: s.result}
	if j.Moves == nil {
		j.Moves = []game.Move{}
	}
	if f := s.start.FEN(); f != StartFEN {
		j.FEN = f
	}
	return json.Marshal(j)
}

// Decode reads a state that MarshalJSON wrote and replays its moves
// through the rules. A record that does not decode or replay, or whose
// result the replay contradicts, is an error wrapping ErrState (and so
// game.ErrState).
func (Kind) Decode(data []byte) (game.State, error) {
	s, err := DecodeState(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeState is Kind.Decode returning the concrete State.
func DecodeState(data []byte) (State, error) {
	var j stateJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return State{}, errorf(ErrState, "%v", err)
	}
	opts := game.Options{}
	if j.FEN != "" {
		opts["fen"] = j.FEN
	}
	s, err := NewState(opts, j.Seed)
	if err != nil {
		return State{}, errorf(ErrState, "%v", err)
	}
	for i, m := range j.Moves {
		if s.result != nil {
			return State{}, errorf(ErrState, "move %d %q: the game was over (%s)", i+1, m, s.result.Text)
		}
		n, _, err := s.PlayMove(s.ToMove(), string(m))
		if err != nil {
			return State{}, errorf(ErrState, "move %d %q: %v", i+1, m, err)
		}
		if n.moves[len(n.moves)-1] != m {
			return State{}, errorf(ErrState, "move %d %q is not in canonical form (%q)", i+1, m, n.moves[len(n.moves)-1])
		}
		s = n
	}
	switch {
	case s.result != nil && j.Result == nil:
		return State{}, errorf(ErrState, "the game is over (%s %s) but the record has no result", s.result.Text, s.result.Reason)
	case s.result != nil && *s.result != *j.Result:
		return State{}, errorf(ErrState, "the record's result %+v is not the rules' %+v", *j.Result, *s.result)
	case s.result == nil && j.Result != nil:
		switch j.Result.Reason {
		case game.ByRule, ByRepetition, By25Moves, By16Moves, By5Moves:
			return State{}, errorf(ErrState, "the record's result %q (%s) is not reached by its moves", j.Result.Text, j.Result.Reason)
		}
		e, err := s.EndWith(*j.Result)
		if err != nil {
			return State{}, errorf(ErrState, "%v", err)
		}
		if *e.result != *j.Result {
			return State{}, errorf(ErrState, "the record's result %+v should read %q", *j.Result, e.result.Text)
		}
		s = e
	}
	return s, nil
}
