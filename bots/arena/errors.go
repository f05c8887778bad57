package arena

import "errors"

var (
	// ErrInvalidConfig means a match that cannot be played: no players,
	// no games, a bad size or komi, an unknown level.
	ErrInvalidConfig = errors.New("arena: invalid match configuration")
	// ErrIllegalMove means a player returned a move the rules reject; the
	// match stops, since that is a bug in the player.
	ErrIllegalMove = errors.New("arena: a player made an illegal move")
)
