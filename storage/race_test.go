//go:build race

package storage

// raceEnabled is whether the race detector is on: it slows bbolt and JSON
// about tenfold, and the heaviest tests shrink their fixtures to match.
const raceEnabled = true
