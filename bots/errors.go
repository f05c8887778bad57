package bots

import "errors"

var (
	// ErrGameOver means the game has ended: there is no move to generate.
	ErrGameOver = errors.New("bots: the game is over")
	// ErrBusy means every search slot is taken and the queue of waiting
	// moves is full; the caller should ask the player to try again later.
	ErrBusy = errors.New("bots: too many moves are being computed, try again shortly")
	// ErrUnknownLevel means a level name that is neither built in nor a
	// configured GTP program.
	ErrUnknownLevel = errors.New("bots: unknown level")
	// ErrIllegalMove means a bot (a GTP program, typically) answered with a
	// move the game's rules reject (for example a superko repetition a
	// program does not know of).
	ErrIllegalMove = errors.New("bots: the engine chose an illegal move")
	// ErrInvalidConfig means a malformed bots configuration (program list,
	// limits).
	ErrInvalidConfig = errors.New("bots: invalid configuration")
	// ErrClosed means the registry has been closed.
	ErrClosed = errors.New("bots: closed")
	// ErrInternal means a bot failed in a way it should not (a panic,
	// recovered); the game is unchanged.
	ErrInternal = errors.New("bots: internal error")
)
