// Package gtp is the client side of the Go Text Protocol: it runs an
// external engine (GNU Go, KataGo, Pachi, ...) as a child process, sends it
// commands with a timeout each, keeps the engine's board in step with an
// engine.Game (replaying the whole game into a fresh process after a crash
// or a timeout), and asks it for moves and final scores.
//
// Engines come only from the host's configuration (ParseEngines reads the
// GOBOT_GTP_ENGINES format): the command line is split into arguments and
// run directly, never through a shell, and nothing a Discord user types
// reaches it. A Client kills its process on Close and leaves no goroutine
// behind.
package gtp
