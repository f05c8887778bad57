// Package logtest holds what the tests need to read a log written while
// they run: Buffer, which a logger and the test may use at once.
//
// It imports only the standard library, and only _test.go files import it.
package logtest
