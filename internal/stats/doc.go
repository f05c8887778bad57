// Package stats holds the statistics the bots' matches report, whatever
// the game: the Wilson score interval of a score. It imports only the
// standard library.
package stats
