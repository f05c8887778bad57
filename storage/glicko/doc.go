// Package glicko implements the Glicko-2 rating system (Mark Glickman,
// "Example of the Glicko-2 system", 2022) as gobot rates games: each rated
// game is its own rating period, applied when the game ends, as OGS does;
// the rating deviation grows with inactivity between games; handicap and
// komi enter as an effective rank difference; ratings map to ranks from
// 30k to 9d with OGS's logarithmic mapping.
//
// It is pure arithmetic on float64, with no state and no I/O, so that
// replaying the same games in the same order (storage's ratings rebuild)
// reproduces every value bit for bit. It imports only engine (for the
// rules behind the komi) and the standard library.
package glicko
