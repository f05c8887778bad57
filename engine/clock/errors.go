package clock

import (
	"errors"
	"strconv"
)

// The sentinel errors, for errors.Is.
var (
	// ErrSpec means a time-control spec could not be read. The error says
	// what was wrong; Syntax shows what is accepted.
	ErrSpec = errors.New("clock: bad time control")

	// ErrFlagged means the player to move had already run out of time when
	// the move was made: the move does not count, the game is lost on time.
	ErrFlagged = errors.New("clock: out of time")
)

// SpecError is the error of Parse: the spec and what is wrong with it. It
// wraps ErrSpec.
type SpecError struct {
	Spec   string
	Reason string // "the increment "1d" must start with +, like ..."
}

func (e *SpecError) Error() string {
	return "clock: bad time control " + strconv.Quote(e.Spec) + ": " + e.Reason
}

// Unwrap returns ErrSpec.
func (e *SpecError) Unwrap() error { return ErrSpec }
