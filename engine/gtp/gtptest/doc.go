// Package gtptest runs fake GTP programs for tests: a test binary that
// re-executes itself as the program, so a test of a GTP client needs no
// real program installed and can make it misbehave on purpose.
//
// A test package lists its programs in TestMain:
//
//	func TestMain(m *testing.M) {
//		gtptest.Main(m, map[string]func(args []string) int{"fake": fakeProgram})
//	}
//
// and starts one with the command line Argv("fake", args...). A program is
// usually a Program, a table of commands with their handlers, served on
// the standard streams by Serve; its Replies can fail, answer with another
// id, write garbage, stay silent, exit, or stream lines until the next
// command as kata-analyze and lz-analyze do.
//
// It imports only the standard library, and only _test.go files import it:
// the rules a fake program keeps are its test package's business.
package gtptest
