package hub

import "errors"

var (
	// ErrSyntax means a line that does not read as the protocol writes
	// lines: a command, then name=value pairs, values quoted where they
	// hold a space.
	ErrSyntax = errors.New("hub: bad line")
	// ErrMove means a move that does not read, or is not legal in the
	// position it was given for.
	ErrMove = errors.New("hub: bad move")
	// ErrEngine means an engine that broke the protocol: it exited, said
	// something unexpected, or did not answer in time.
	ErrEngine = errors.New("hub: engine failure")
	// ErrClosed means a Client used after Close.
	ErrClosed = errors.New("hub: client closed")
)
