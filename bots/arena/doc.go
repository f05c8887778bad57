// Package arena plays matches between bots — built-in levels or external GTP
// programs — to measure their strength: games alternate colours, are played
// under area scoring with komi 7.5 by default, are scored by GNU Go's
// final_score as referee, and the report gives the win rate with its 95%
// Wilson confidence interval and each player's average time per move.
//
// Run is the library entry point; Main is the `gobot arena` command line.
// Matches are long: keep them out of default test runs and CI.
//
// It imports bots, engine and engine/gtp, never commands or storage: a
// match stores nothing but the SGF files it is asked to write, and the GTP
// programs it runs come from its command line, which is the host's.
package arena
