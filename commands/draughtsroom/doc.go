// Package draughtsroom is international draughts' room on the Discord
// side: /draughts, its board messages, PDN records and
// bot moves. It plugs into package commands' core through commands.Room
// and knows nothing of Go; the core knows nothing of it. cmd/gobot
// registers it with one entry of commands.Options.Rooms (New).
//
// Everything else a game of draughts goes through is the core's, shared
// with Go: challenges and their Accept button, the version check, the
// clocks and their scheduler, the queue of owed bot moves, delivery of
// boards, the archive, ratings (in draughts' own pools) and history.
package draughtsroom
