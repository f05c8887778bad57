// Package draughts owns the computer opponents of international draughts:
// the built-in levels from beginner (random legal moves) and easy (greedy
// material) up to an alpha-beta search (Searcher: iterative deepening, a
// quiescence search that plays out the compulsory captures, a
// transposition table on the rules' Zobrist keys, move ordering by the
// table's move, captures, killers and history, and an evaluation of
// material, tempo, balance, centre, outposts, runaway men and king
// mobility), and the registry the Discord layer picks levels from, which
// also offers the external Hub engines the host configured ("hub:NAME").
//
// The usual door is a Registry: Levels lists what /draughts bot offers,
// weakest first, and GenMove(ctx, level, state, seed) returns the chosen
// move's canonical text for draughts.State.Play. Below it, a Level makes a
// Player, and a Player's GenMove takes a Game (the position, the positions
// since the last irreversible move and the draw counters: what repetition
// and the 25-move rule need) and a Budget (depth, nodes, time).
//
// Every move a player returns is legal. Searches are synchronous: they
// take a context and a budget, poll the context every few thousand nodes,
// and start no goroutine. A cancelled context is an error; a deadline
// that passes makes the search answer with the best move it has. With a
// fixed seed and a budget of depth or nodes (no time) a level plays the
// same moves every time. No type here is safe for concurrent use except
// Registry.
//
// The package imports engine/draughts, engine/game, internal/stats (the
// matches' Wilson interval, shared with Go's arena) and the standard
// library only: it knows nothing of Discord, stores nothing and starts no
// process. A Hub engine reaches it as an Engine that cmd/gobot builds from
// the host's configuration (package engine/draughts/hub).
package draughts
