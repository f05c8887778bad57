//go:build !race

package bots

// raceEnabled is whether the race detector is on: it slows the playouts
// about fifteenfold, and the heaviest tests judge fewer seeds to match.
const raceEnabled = false
