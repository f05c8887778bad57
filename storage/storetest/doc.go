// Package storetest is the conformance suite of gobot's stores: one set of
// tests that the bbolt Store and the PostgreSQL store both pass, so that
// commands sees the same behaviour from either (versions and conflicts,
// challenges, the archive and its indexes, statistics, ratings). A store that
// satisfies Store runs it with Run.
//
// It is for tests only: nothing in gobot's binary imports it. It talks to a
// store only through the Store interface, never through a store's own
// types or files, so a test that passes here passes for either store.
package storetest
