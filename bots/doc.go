// Package bots owns the computer opponents ("bot" in gobot means an AI
// opponent and nothing else): the built-in players from beginner to max
// (random, greedy, minimax and, through bots/mcts, Monte Carlo tree
// search), GTP programs as players (External, a pool of processes spoken
// to through engine/gtp's client), the level registry users pick from, and
// the global limiter that keeps searches from starving one another.
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
// medium level is a minimax over Monte Carlo readings (mcminimax.go); the
// casual, steady and keen levels blend a small tree search with the greedy
// player (Blend). The levels below hard play a fixed number of playouts, so
// their strength does not depend on the machine (levels.go).
//
// The usual door is a Registry: NewRegistry(Config) offers the levels
// (Builtin, weakest first, and one "gtp:NAME" per configured GTP
// program), and Registry.GenMove plays one move of a level through the
// global Limiter, which caps the searches running at once, queues a bounded
// number more (reporting each waiting move's place in the queue) and turns
// the rest away with ErrBusy. Close the registry to stop the programs'
// processes.
//
// Registry.Review and Registry.Estimate run game reviews (bots/review) and
// score estimates through the same limiter: reviews with the built-in
// search or the GTP program that Config.Reviewer names, estimates always
// with the built-in search.
//
// The package imports engine (the rules), its sub-packages and its own,
// never commands or storage: it knows nothing of Discord and stores
// nothing. It runs only the programs its Config names, which come from the
// host's configuration, never from a player.
package bots
