// Package hub speaks the Hub protocol, version 2, the text protocol of
// draughts engines and GUIs (Scan 3.1, the Hub GUI), both ways.
//
// The server, Serve, is gobot as a Hub engine (the `gobot hub` command):
// it reads a GUI's lines from a stream — hub, set-param, init, pos, level,
// go think, go ponder, go analyze, ponder-hit, stop, ping, new-game, quit —
// and answers on another (id, param, wait, ready, info, done, pong,
// error). The search itself is its caller's: ServerOptions.Search is given
// the position, the moves since, the limits and a context that ends when
// the GUI says stop, and answers with a move. While it searches, the
// server still answers ping and reads ponder-hit and stop.
//
// The client, Client, runs a Hub engine (Scan, Kingsrow through an
// adapter, gobot itself) as a child process, makes the handshake, and asks
// it for moves: the position and the moves since the last irreversible one
// (so that the engine sees repetitions), a time per move, and a stop when
// the caller's context ends. Programs come only from the host's
// configuration (GOBOT_HUB_ENGINES, in the GOBOT_GTP_ENGINES syntax): the
// command is run directly, never through a shell, and nothing a Discord
// user types reaches it. Every move an engine answers is checked against
// the rules. Close stops the process; a Client leaves no goroutine behind.
//
// Positions are written as the protocol does, the side to move and a
// letter a square (draughts.Position.Hub); moves as "32-28" and captures
// as the start, the end and every piece taken, "28x19x23" (MoveText),
// read back by ParseMove.
//
// The package imports the standard library and engine/draughts only
// (engine/draughts/hub is to draughts what engine/gtp is to Go): what
// plays, and where the games come from, is its callers' business.
package hub
