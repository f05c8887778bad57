// Package bots owns the computer opponents: the built-in players from
// beginner to strong (random, greedy, minimax and, through bots/mcts, Monte
// Carlo tree search), external engines spoken to over GTP (bots/gtp), the
// level registry users pick from, and the global limiter that keeps searches
// from starving one another.
//
// A Bot is given a game and a Budget and returns one move for the player to
// move. It never modifies the game, and every move it returns is legal under
// the game's full rules, superko included (bots check their choice with
// engine.Game.Check). Searches are synchronous, honour their context and
// leave no goroutine behind.
//
// The package imports engine and its own sub-packages, never commands or
// storage: it knows nothing of Discord.
package bots
