// Package arena plays matches between bots — built-in levels or external GTP
// programs — to measure their strength: games alternate colours, are played
// under area scoring with komi 7.5 by default, are scored by GNU Go's
// final_score as referee, and the report gives the win rate with its 95%
// Wilson confidence interval and each player's average time per move.
//
// Run is the library entry point; Main is the `gobot arena` command line.
// Matches are long: keep them out of default test runs.
package arena
