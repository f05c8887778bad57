// Package clocktest is the one fake clock of the tests: a time that only
// the test moves, which the App, the stores and the fake Discord read
// instead of the wall clock, and whose After channels fire when the test
// moves it past their time.
//
// It imports only the standard library, and only _test.go files and test
// helper packages (storage/storetest) import it.
package clocktest
