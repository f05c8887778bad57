package mcts

import "errors"

var (
	// ErrNoGame means GenMove was called without a game.
	ErrNoGame = errors.New("mcts: no game")
	// ErrGameOver means the game has a result or play has ended by two
	// passes, so there is no move to generate.
	ErrGameOver = errors.New("mcts: the game is over")
	// ErrNoBudget means neither a time limit nor a playout budget was given.
	ErrNoBudget = errors.New("mcts: no time or playout budget")
	// ErrInternal means the search failed because of a bug; the error
	// wrapping it carries the details. The Searcher stays usable.
	ErrInternal = errors.New("mcts: internal error")
)
