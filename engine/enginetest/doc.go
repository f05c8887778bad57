// Package enginetest builds positions of package engine for tests, as
// net/http/httptest serves HTTP for tests: a board or a game drawn as an
// ASCII diagram in the test itself (Diagram, Game, Board), so that a test
// reads like the position it is about; games played from the moves' GTP
// names (NewGame, Play, Point); and the positions of a game replayed
// (Replay), to compare two programs, or a game with its record.
//
// It owns the one diagram parser of the tree; every test that draws a
// position calls it. It imports only the standard library and engine, and
// only _test.go files and test helper packages import it. Engine's own
// tests that use it are external tests (package engine_test) for that
// reason: engine cannot import it.
package enginetest
