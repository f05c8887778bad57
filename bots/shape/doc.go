// Package shape is a move-prediction model learned from professional games:
// the probability that a strong player chooses each move of a position,
// from the move's features (its 3×3 neighbourhood and the diamond of the
// points within two steps, captures, ataris, self-ataris, its line and its
// distance to the last two moves).
//
// The model is a generalised Bradley–Terry model (Coulom, "Computing Elo
// Ratings of Move Patterns in the Game of Go", 2007): every feature value
// has a strength, gamma, and a move's strength is the product of its
// features' gammas; a move is chosen with probability its strength over the
// sum of the strengths of all moves. Train fits the gammas to game records
// by minorization–maximization. The model bots/mcts uses, Learned, was
// fitted to the professional records of Debian's goban-original-games by
// the program in gen (see gammas.go): the records are read at generation
// time and only the fitted strengths are kept in the source.
//
// LearnedLarge, fitted to the same records, adds large patterns (large.go):
// the points within gridcular distance 5 to 10 of the move, identified by
// Zobrist codes that are the same for the eight symmetric forms; it rates a
// move by the largest of them in its dictionary, the patterns seen at least
// LargeMinCount times. The search uses it on 13×13 and bigger (For).
package shape
