// Package draughts owns the rules of international draughts (FMJD, 10×10):
// men that step forward and capture both ways, flying kings, the compulsory
// maximum capture with pieces removed only after the whole sequence (a
// piece cannot be jumped twice), crowning only where a move ends, the loss
// of the side that cannot move, and the draws by threefold repetition, by
// the 25-move rule (kings only, no capture) and by the 16- and 5-move
// endgame rules; with the notation people type ("32-28", "28x19",
// "28x19x10"), PDN FEN positions, PDN game records and the Hub protocol's
// position and move forms.
//
// There are two doors into the rules. State is the checked door for people
// and for gobot's core, and implements game.State of package engine/game
// (Kind is its game.Kind, named "draughts"): State.Play reads a move as a
// person or a program writes it, refuses an illegal one with an error that
// says why (a capture is compulsory, the maximum capture is compulsory, a
// man moves forward only) and returns a new State, recording the move in
// canonical text; a State marshals to JSON as its start, moves and result,
// and replays them when decoded. Position is the fast, unchecked door for
// search: 40 bytes of bitboards with a Zobrist hash, copied by value
// (copy-make), whose Generate lists the legal moves into a slice the caller
// gives and whose Play applies a move the caller knows is legal, neither
// allocating; Perft counts a tree of legal moves. A search keeps its own
// history for repetition (Position.Hash, Repetitions) and the counting
// rules (Counters).
//
// The package imports only the standard library and engine/game, and does
// no I/O: PDN is read from bytes or an io.Reader and written to an
// io.Writer it is given. No type in it is safe for concurrent use, except
// that a State is a value that may be read from several goroutines.
package draughts
