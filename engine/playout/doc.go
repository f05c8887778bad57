// Package playout owns gobot's one playout policy and its one random
// source: how a Monte Carlo playout chooses each move, shared by the
// dead-stone estimate of the scoring phase (engine/estimate) and the tree
// search of the strongest bots (bots/mcts).
//
// A Policy is a set of weights: the probability with which a player tries
// each kind of answer to the opponent's last move (save its own chains in
// atari or capture, put the last stone in atari, play a 3×3 shape point,
// play next to the last stone) before a random move that fills none of its
// eyes and puts none of its chains in atari (a single stone only when
// nothing else is left). Each user keeps its own weights next to the code
// that tuned them. A Player applies a Policy move by move (Move,
// for a search that records every move) or to the end of a playout
// (Playout). Rand is the xorshift64* generator behind every choice, so a
// seed replays a playout exactly. The tactical helpers the policy is made
// of (SelfAtari, MoveLiberties, CapturesAround, LadderCaptured,
// MatchesPattern) are exported for the search's priors.
//
// The package works on the rules' fast door (engine.Board): it allocates
// nothing per move and plays only moves that Board.Legal allows (superko is
// the caller's concern). It imports only the standard library and engine,
// does no I/O and starts no goroutine; it must not import bots or know of
// trees, scores or dead stones. No type in it is safe for concurrent use.
package playout
