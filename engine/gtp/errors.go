package gtp

import "errors"

var (
	// ErrInvalidSpec means a malformed engine list or command line.
	ErrInvalidSpec = errors.New("gtp: invalid engine configuration")
	// ErrStart means the engine process could not be started or did not
	// answer its first commands.
	ErrStart = errors.New("gtp: engine did not start")
	// ErrTimeout means the engine did not answer a command in time; the
	// process is killed and a fresh one is started on the next command.
	ErrTimeout = errors.New("gtp: engine timed out")
	// ErrExited means the engine process ended (crashed or quit) while a
	// command was waiting for its answer.
	ErrExited = errors.New("gtp: engine exited")
	// ErrProtocol means the engine wrote something that is not a GTP
	// response, or answered a different command.
	ErrProtocol = errors.New("gtp: malformed engine response")
	// ErrFailed means the engine answered a command with a failure ("?").
	ErrFailed = errors.New("gtp: engine refused the command")
	// ErrIllegal means the engine chose a move that the game's rules forbid
	// (for example a superko repetition the engine does not know of).
	ErrIllegal = errors.New("gtp: the engine chose an illegal move")
	// ErrClosed means the client has been closed.
	ErrClosed = errors.New("gtp: client closed")
)
