// Package engine owns the rules of Go: boards from 2×2 to 25×25, captures,
// suicide, simple ko and positional or situational superko, passes and
// resignation, handicap, area and territory scoring, SGF records and the GTP
// engine protocol.
//
// There are two doors into the rules. Game is the checked door for people:
// Game.Play validates a move, records it in the history and can be undone,
// serialised to JSON and replayed. Board is the fast, unchecked door for
// search: Board.Play applies a move that the caller has already established
// is legal (with Board.Legal), allocates nothing, and a Board copies by value,
// so a search can take a copy and play it out.
//
// The package imports only the standard library and does no I/O of its own
// apart from the GTP engine, which reads and writes the streams it is given
// and the files that loadsgf and printsgf name.
// No type in it is safe for concurrent use.
package engine
