// Package mcts is gobot's strongest built-in opponent: a Monte Carlo tree
// search with RAVE/AMAF, knowledge-based priors, heavy playouts, tree reuse
// between moves and tree parallelism with virtual loss.
//
// The search runs on the engine's fast door (engine.Board): the tree is
// expanded with priors from captures, atari escapes, self-atari, 3×3 shape
// patterns, the distance to the last move and the edge of the board; the
// playouts answer ataris near the last move, capture, play 3×3 shape moves
// and otherwise random moves that fill neither their own eyes nor
// self-atari. Playouts end when both players pass and are counted by area
// (stones plus surrounded empty points) with komi. Positional or situational
// superko is checked along the tree path and against the game's history, so
// every move the search returns is legal under the game's full rules.
//
// An Engine keeps its tree between calls: when GenMove is called on the next
// position of the same game, the subtree under the moves played since is
// kept. With one thread, a fixed seed and a playout budget a search is
// deterministic. Searches take a context, stop when it is cancelled and leave
// no goroutine behind.
//
// The package must not import package bots (bots imports it and wraps it as
// the "hard" and "max" levels).
package mcts
