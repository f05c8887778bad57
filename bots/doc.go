// Package bots owns the computer opponents: the built-in players from
// beginner to strong (random, greedy, minimax and, through bots/mcts, Monte
// Carlo tree search), external engines spoken to over GTP (engine/gtp), the
// level registry users pick from, and the global limiter that keeps searches
// from starving one another.
//
// A Bot is given a game and a Budget and returns one move for the player to
// move. It never modifies the game, and every move it returns is legal under
// the game's full rules, superko included (bots check their choice with
// engine.Game.Check). Searches are synchronous, honour their context and
// leave no goroutine behind.
//
// Every built-in level ends a game like a person (endgame.go): it passes
// when its opponent has passed and nothing is left to gain, resigns only
// when its estimate (the ownership of each point in playouts) says the game
// is lost beyond doubt — never before half the board is played, never in a
// close game — and never plays inside settled territory. Within a level the
// play varies from game to game with the seed; a fixed seed repeats it. The
// medium level is a minimax over Monte Carlo readings (mcminimax.go).
//
// The usual door is a Registry: NewRegistry(Config) offers the levels
// (beginner, easy, medium, hard, max and one "gtp:NAME" per configured
// engine), and Registry.GenMove plays one move of a level through the
// global Limiter, which caps the searches running at once, queues a bounded
// number more (reporting each waiting move's place in the queue) and turns
// the rest away with ErrBusy. Close the registry to stop engine processes.
//
// Registry.Review and Registry.Estimate run game reviews (bots/review) and
// score estimates through the same limiter, with the built-in engine or the
// GTP engine that Config.ReviewEngine names.
//
// The package imports engine and its own sub-packages, never commands or
// storage: it knows nothing of Discord.
package bots
