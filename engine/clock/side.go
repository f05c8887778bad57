package clock

import (
	"fmt"
	"strings"

	"github.com/gobot-dev/gobot/engine/game"
)

// Side is a seat on the clock: First is a kind's side 0 (Black in Go,
// White in draughts), Second its side 1; NoSide is none (no time runs).
// The clock knows no game: its sides are written "B" and "W" because Go,
// the first game gobot recorded, named them so, and records keep that.
type Side int8

// The clock's sides; the values are those of Go's colours (engine.Color),
// so Go converts one to the other directly.
const (
	NoSide Side = iota
	First
	Second
)

// Of returns the clock's side of a game's side.
func Of(s game.Side) Side {
	switch s {
	case 0:
		return First
	case 1:
		return Second
	}
	return NoSide
}

// Game returns the game's side of a clock's side (game.NoSide for NoSide).
func (s Side) Game() game.Side {
	switch s {
	case First:
		return 0
	case Second:
		return 1
	}
	return game.NoSide
}

// Opponent returns the other side (NoSide for NoSide).
func (s Side) Opponent() Side {
	switch s {
	case First:
		return Second
	case Second:
		return First
	}
	return NoSide
}

// String returns "first", "second" or "no".
func (s Side) String() string {
	switch s {
	case First:
		return "first"
	case Second:
		return "second"
	}
	return "no"
}

// MarshalText writes "B", "W" or "" (no side).
func (s Side) MarshalText() ([]byte, error) {
	switch s {
	case First:
		return []byte("B"), nil
	case Second:
		return []byte("W"), nil
	}
	return []byte{}, nil
}

// UnmarshalText reads "B", "W", "black", "white" (as records have them) or "".
func (s *Side) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "":
		*s = NoSide
	case "b", "black":
		*s = First
	case "w", "white":
		*s = Second
	default:
		return fmt.Errorf("clock: side %q: want B or W", b)
	}
	return nil
}
