// Package gtp speaks the Go Text Protocol (version 2), both ways.
//
// The server, Serve, is gobot as a GTP program: it reads a controller's
// commands from a stream and answers on another (the `gobot gtp` command,
// match runners, KGS or OGS bridges), keeps the game with package engine's
// rules and asks ServerOptions.GenMove for its moves. It reads the file
// that loadsgf names (a regular file of at most engine.MaxSGFSize bytes)
// and writes the one that printsgf names; it starts no process.
//
// The client, Client, runs a GTP program (GNU Go, KataGo, Pachi, ...) as a
// child process, sends it commands with a timeout each, keeps the
// program's board in step with an engine.Game (replaying the whole game
// into a fresh process after a crash or a timeout), and asks it for moves,
// final scores and analyses. Programs come only from the host's
// configuration (ParsePrograms reads the GOBOT_GTP_ENGINES format): the
// command line is split into arguments and run directly, never through a
// shell, and nothing a Discord user types reaches it. Close gives the
// process a second to quit, then kills it with any process it started;
// a Client leaves no goroutine behind.
//
// The package imports the standard library, engine (the rules) and
// engine/estimate (the dead stones of final_score and final_status_list
// when ServerOptions.DeadStones is nil, and the stones in seki), never
// bots, storage or commands: what plays and where the games come from is
// its callers' business.
package gtp
