package game

import "errors"

var (
	// ErrOptions is wrapped by a Kind's New for options it refuses.
	ErrOptions = errors.New("game: bad options")
	// ErrState is wrapped by a Kind's Decode for a record it cannot read.
	ErrState = errors.New("game: bad state")
	// ErrOver is returned for a move or an End in a finished game.
	ErrOver = errors.New("game: the game is over")
	// ErrNotYourTurn is returned for a move by a side not to move.
	ErrNotYourTurn = errors.New("game: not that side's turn")
	// ErrUnknownKind is returned by Kinds for a name not registered.
	ErrUnknownKind = errors.New("game: unknown kind")
)
