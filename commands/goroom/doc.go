// Package goroom is Go's room on the Discord side: /go and the buttons of
// Go's boards. It holds what only Go has: moves typed as points and the
// Go rules' refusals in words, passes, the scoring phase (dead stones
// marked and agreed, the count), undo, the boards (render's PNGs) and SGF
// records, Go's bots and their levels, reviews and score estimates, the
// board page's view of a Go game, rengo (teams that take a side's moves
// in turn) and vote games (a channel against gobot, one vote per person
// per move), and the ruleset and komi a server's admins choose.
//
// It plugs into package commands' core through commands.Room and the
// optional parts the core looks for (commands.Phases, WebRoom,
// ServerSettings, Reviewed, Stopper), and knows nothing of draughts.
// Everything else a game of Go goes through is the core's, shared with
// every kind: challenges and Accept, the version check, the clocks and
// their scheduler, the owed bot moves, delivery, the archive, ratings,
// history, /go-admin. cmd/gobot registers it with one entry of
// commands.Options.Rooms (New), first: the default for what names no
// kind.
//
// Its handlers are methods of room, which embeds the core's *commands.App:
// a handler reads like one of the core's, and reaches the core only
// through what commands exports.
package goroom
