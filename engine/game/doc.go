// Package game is the contract every game gobot hosts implements, and the
// only thing gobot's core knows of a game. A Kind (Go, international
// draughts) makes a State from its options and a seed; a State says which
// side is to move, parses a move typed by a side, lists the legal moves,
// plays a move into a new State with the facts to announce, says whether
// the game is over and with what Result, and marshals to plain JSON.
//
// The contract is OpenSpiel's and boardgame.io's: the rules know nothing of
// who the players are or where the state lives, and the core knows nothing
// of the rules. Sides (Black and White, or White and Black) belong to the
// game; seats (who sits at a side, in what order) belong to the core.
//
// A State is a value: Play and End return a new State and leave the
// receiver as it was, so a handler can try a move and throw the result away.
// A State is deterministic: the same options, seed and moves give the same
// JSON, byte for byte (package engine/game/gametest checks it for a kind).
//
// The package imports only the standard library and does no I/O. A Kind's
// own package (engine for Go, engine/draughts) imports it, never the
// reverse; so does the core, which never imports a kind.
package game
