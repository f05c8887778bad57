package clock

import "errors"

// The sentinel errors, for errors.Is.
var (
	// ErrSpec means a time-control spec could not be read. The error says
	// what was wrong; Syntax shows what is accepted.
	ErrSpec = errors.New("clock: bad time control")

	// ErrFlagged means the player to move had already run out of time when
	// the move was made: the move does not count, the game is lost on time.
	ErrFlagged = errors.New("clock: out of time")
)
