// Package estimate owns the dead-stone estimate at the end of a game: which
// stones are dead, which live in seki, which the players should check, and
// who owns each point. The scoring phase starts from it
// (engine.NewScoringPhase takes its engine.Estimate), GTP's final_score and
// final_status_list answer with it (DeadStones, and Seki for the stones in
// seki among those any list of dead stones leaves alive), and its accuracy
// is measured against GNU Go on the corpus in testdata/scoring (127 of 130
// games judged exactly as GNU Go does; see corpus_test.go).
//
// Dead combines ownership from playouts (by the one playout policy of
// engine/playout, with the estimate's own weights), Benson's pass-alive
// chains (engine.Board.PassAlive), a seki test and a threshold. It is
// deterministic for a position and the game's seed, runs its playouts on at
// most two goroutines that all end before it returns, and stops early, with
// what it has, when its context is done.
//
// The package imports only the standard library, engine and engine/playout.
// It must not import bots, keep state between calls, or change the game it
// is given; it does no I/O.
package estimate
