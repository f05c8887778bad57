//go:build !race

package mcts

// raceEnabled is whether the race detector is on: it slows the playouts
// about tenfold, and the heaviest tests search less to match.
const raceEnabled = false
