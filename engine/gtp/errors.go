package gtp

import "errors"

var (
	// ErrInvalidSpec means a malformed program list or command line.
	ErrInvalidSpec = errors.New("gtp: invalid engine configuration")
	// ErrStart means the program process could not be started or did not
	// answer its first commands.
	ErrStart = errors.New("gtp: engine did not start")
	// ErrTimeout means the program did not answer a command in time; the
	// process is killed and a fresh one is started on the next command.
	ErrTimeout = errors.New("gtp: engine timed out")
	// ErrExited means the program process ended (crashed or quit) while a
	// command was waiting for its answer.
	ErrExited = errors.New("gtp: engine exited")
	// ErrProtocol means the program wrote something that is not a GTP
	// response, or answered a different command.
	ErrProtocol = errors.New("gtp: malformed engine response")
	// ErrFailed means the program answered a command with a failure ("?").
	ErrFailed = errors.New("gtp: engine refused the command")
	// ErrIllegal means the program chose a move that the game's rules forbid
	// (for example a superko repetition the program does not know of).
	ErrIllegal = errors.New("gtp: the engine chose an illegal move")
	// ErrClosed means the client has been closed.
	ErrClosed = errors.New("gtp: client closed")
)

// SpecError is the error of ParsePrograms and SplitCommand: what is wrong
// with a program list or a command line. It wraps ErrInvalidSpec.
type SpecError struct {
	Reason string // `program "gnugo" has no command`, for a user to read
}

func (e *SpecError) Error() string { return "gtp: " + e.Reason }

// Unwrap returns ErrInvalidSpec.
func (e *SpecError) Unwrap() error { return ErrInvalidSpec }
