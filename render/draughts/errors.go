package draughts

import "errors"

// The sentinel errors. A rejected call writes nothing to its writer.
var (
	// ErrNilPosition means Board was given no position.
	ErrNilPosition = errors.New("render/draughts: no position given")
	// ErrImageSize means Options.Size or GIFOptions.Size is outside
	// MinPixels..MaxPixels.
	ErrImageSize = errors.New("render/draughts: image size out of range")
	// ErrBadMove means an Options.Last that is not a move on the board
	// drawn: a square off the board, a leg that is not a diagonal, a
	// captured piece on a square that is not empty.
	ErrBadMove = errors.New("render/draughts: last move does not fit the board")
	// ErrBadDelay means a negative frame delay for GIF.
	ErrBadDelay = errors.New("render/draughts: negative frame delay")
	// ErrReplay means a game whose moves do not replay from its start.
	ErrReplay = errors.New("render/draughts: the game does not replay")
)
