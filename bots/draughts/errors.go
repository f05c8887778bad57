package draughts

import "errors"

var (
	// ErrGameOver means the game has ended: there is no move to choose.
	ErrGameOver = errors.New("draughts bots: the game is over")
	// ErrUnknownLevel means a level name that is neither built in nor a
	// configured Hub engine.
	ErrUnknownLevel = errors.New("draughts bots: unknown level")
	// ErrIllegalMove means an engine (a Hub program) answered with a move
	// the rules refuse.
	ErrIllegalMove = errors.New("draughts bots: the engine chose an illegal move")
	// ErrState means a state whose moves do not replay.
	ErrState = errors.New("draughts bots: a state that does not replay")
	// ErrInternal means a player failed in a way it should not (a panic,
	// recovered); the game is unchanged.
	ErrInternal = errors.New("draughts bots: internal error")
)
