// Package engine owns the rules of Go: boards from 2×2 to 25×25, captures,
// suicide, simple ko and positional or situational superko, passes and
// resignation, handicap, area and territory scoring, the scoring phase
// (which starts from a proposal of dead stones, such as the estimate of
// package engine/estimate, and never lets a pass-alive chain be marked
// dead) and SGF records. In gobot's code and docs "engine" means this
// package, the rules; a program that plays Go over GTP is a "GTP program".
// Playouts and the dead-stone estimate live in engine/playout and
// engine/estimate, which build on this package and never the reverse.
//
// There are two doors into the rules. Game is the checked door for people:
// Game.Play validates a move, records it in the history and can be undone,
// serialised to JSON and replayed. Board is the fast, unchecked door for
// search: Board.Play applies a move that the caller has already established
// is legal (with Board.Legal), allocates nothing, and a Board copies by value,
// so a search can take a copy and play it out.
//
// The package imports only the standard library and engine/game, and does
// no I/O: it opens no file, starts no process and touches no network; SGF
// is read from bytes and written to an io.Writer it is given. The Go Text
// Protocol (the server gobot speaks to controllers, the client it speaks to
// GTP programs with) lives in engine/gtp, which builds on this package and
// never the reverse. No type in it is safe for concurrent use.
//
// Go is one kind of game among those gobot hosts: Kind and State implement
// the contract of package engine/game (the package's only import besides
// the standard library), with Black as side 0 and White as side 1, and
// ReadMove is the one reader of moves people type.
package engine
