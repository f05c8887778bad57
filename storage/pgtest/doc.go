// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// database on the server GOBOT_TEST_DATABASE_URL names, or else on a
// throwaway cluster it starts from Debian's postgresql package (initdb and
// pg_ctl in a temporary directory, listening on loopback only, run as the
// postgres user when the tests run as root). Where neither is available the
// tests that ask for a database skip and say so.
//
// A test package that uses it runs its tests through Main, which stops the
// cluster and removes its directory when they are done:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// It is for tests only; nothing in gobot's binary imports it.
package pgtest
