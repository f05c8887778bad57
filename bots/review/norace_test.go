//go:build !race

package review

// raceEnabled is whether the race detector is on: it slows the playouts
// about tenfold, and the heaviest tests judge fewer games to match.
const raceEnabled = false
