// Package gametest checks that a kind keeps the game contract of package
// engine/game: determinism, JSON round trips, states that are values, and
// moves that parse to themselves. Each kind's tests call Contract.
package gametest
