// Package mcts is gobot's strongest built-in opponent: a Monte Carlo tree
// search with RAVE/AMAF, knowledge-based priors, heavy playouts, tree reuse
// between moves and tree parallelism with virtual loss.
//
// The search runs on the rules' fast door (engine.Board): the tree is
// expanded with priors from captures, atari escapes, self-atari, 3×3 shape
// patterns, the distance to the last move, the edge of the board and, on
// 13×13 and bigger, the opening's points (3-3 to 5-5) of empty corners.
// In play (not in analyses), below the root, a move that puts an opponent
// chain in atari trusts its own results sooner than its AMAF value (a
// lower RAVE equivalence), so that a double atari answering the searcher's
// move is read. The playouts follow the policy of package engine/playout
// with the search's own weights: answer ataris near the last move,
// capture, play 3×3 shape moves (chosen among by the shape model's 3×3
// gammas with Options.Shape) and otherwise random moves that fill neither
// their own eyes nor self-atari (with Options.SelfAtari, 40% of their
// self-ataris go through, so that playouts can kill by nakade). Playouts
// end when both
// players pass and are counted by area (stones plus surrounded empty
// points) with komi. Positional or situational
// superko is checked along the tree path and against the game's history, so
// every move the search returns is legal under the game's full rules. In
// the first Options.Vary moves of a game the searcher draws its move, by its
// seed, among the root moves nearly as good as the best.
//
// The searcher passes when the game is over under area counting: after the
// opponent's pass once no point that the board as it stands does not give it
// could still become its own (no dead opponent stones left in its area, no
// open points), and otherwise when every point is settled for both sides
// even if it passes. Two passes in the tree are counted as the board
// stands, the passer's own dead stones (by the playouts) going to the
// opponent. It resigns when its best move wins less often than the
// resign threshold, never before move 20 on 9×9 (80 on 19×19). Handicap
// games use a dynamic komi that fades as the game goes on.
//
// A Searcher keeps its tree between calls: when GenMove is called on the next
// position of the same game, the subtree under the moves played since is
// kept (at most 256k nodes are held between moves). With one thread, a fixed
// seed and a playout budget a search is deterministic. Searches take a
// context and leave no goroutine behind: at its deadline a search returns
// the best move it has (from the priors alone when no playout was done),
// and when it is cancelled it returns the context's error.
//
// Ownership estimates come from the playouts: Searcher.Ownership after a
// search, EstimateOwnership and EstimateScore (with the score's spread) for
// any position, finished games included. Analyze judges a position for a
// review rather than for play: Black's winning chance, the expected score,
// the ownership, the best move and its variation, from a one-thread search
// with a fixed budget and seed (no resignation, no dynamic komi).
//
// The package owns the tree, its priors, the search's playout weights and
// the counting of playouts; the playout policy itself and its random
// numbers are engine/playout's, shared with the dead-stone estimate, so a
// change of policy belongs there. The package must not import package bots
// (bots imports it and wraps it as the "hard" and "max" levels).
package mcts
