// Package runtimetest measures the running test process, for the tests
// and benchmarks of every package: the CPU time it has used (benchmarks on
// a shared machine report rates per CPU second, which load inflates far
// less than the wall clock) and the goroutines it has left behind
// (searches, GTP clients and the console must leave none).
//
// It imports only the standard library, and only _test.go files import it.
package runtimetest
