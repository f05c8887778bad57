// Package commands is the Discord side of gobot: the transport (the HTTP
// interactions endpoint, the gateway's handler, the console and the REST
// adapter gobot answers through: REST, over a *discordgo.Session, whose
// rate limiter keeps Discord's per-route buckets and global limit) and the
// core every game goes through (challenges, turns, clocks, the owed bot
// moves, delivery, the archive, ratings, /go-admin). It knows no game:
// what only one kind of game knows is its Room (room.go), and the core
// asks the room of a game's kind. A room with more adds optional parts the
// core looks for: Phases (a game's own phases and deadlines: Go's scoring,
// rengo's lobbies, votes), WebRoom (the board page), ServerSettings (an
// admin's defaults for its games), Reviewed (reviews written into the
// record) and Stopper (long work stopped at shutdown). Go's room is
// commands/goroom, draughts' is commands/draughtsroom; cmd/gobot
// registers each with one entry of Options.Rooms. internal/layers fails if
// this package imports a game's rules, pictures, bots or room.
//
// Words: App is gobot's Discord application (the handlers and their
// state). A "bot" is an AI opponent and nothing else: the bots package
// provides them, each room reaches its own (goroom.Players), and a
// player's level name is storage.Player.Level. "engine" is the rules package
// (engine and its sub-packages); an external program that speaks GTP is a
// "GTP program". Discord's own words keep their meaning: a bot token, a
// bot account.
//
// One entry point, App.Handle, takes every interaction (from the gateway, the
// HTTP endpoint or the console), and a Router dispatches it by command and
// subcommand name or by a component's custom ID, written as a path such as
// "game/<id>/pass/<move>". Handlers return errors; one place turns them into
// specific ephemeral replies and logs them, and a panicking handler answers
// with an apology instead of taking gobot down.
//
// Who may act in a game follows its seats (storage.Game.Sides): a side has
// one player, or in rengo a team whose players take its moves in turn, or
// in a vote game a channel whose people vote on each move (both Go's, in
// goroom). The same core (turns, clocks, the bot queue, records) serves
// them all.
//
// A game whose stored record cannot be read is set aside (storage's
// quarantine, for `gobot doctor`) the first time it is read, by an
// interaction or the background scan: it is logged once with its channel,
// the players are told in the channel, and the channel is free again.
//
// Finished games stay reachable (archive.go): the message that ends a
// game carries its record (the room's: SGF, PDN), and /go sgf, /go replay,
// /go review and /go history name archived games through one game: option
// (FinishedGameOption), which shows a user only the games they played and
// the games of the server they ask in. Ratings (stats.go) are storage's,
// applied when a game is archived, in each kind's own pools; this package
// decides which games are rated (rated:, see archiveGame in game.go) and
// shows ratings, ranks and leaderboards.
//
// Rules live in engine (the contract, engine/game, and each game's rules),
// persistence in storage, pictures in render and AI opponents in bots:
// the rooms translate between them and Discord, the core between the
// contract and Discord. It owns the Discord side of a game: the commands
// and their answers, who
// may act (only the players of a game, a moderator for /go abort), the
// decisions storage leaves to it (expiry, results, rating), and what a
// game's storage.Delivery means (the boards to edit, the follow-up that
// reaches a user install's private channel, the board owed to the players).
// It declares the small interfaces it needs: Discord for the REST calls,
// Room for the games, and Store, which is wiring only: New
// keeps each of its parts (Games, Challenges, Archive, Stats, Reviews,
// Deadlines, BotQueue) in a field of its own, and every handler and
// helper uses, or takes as a parameter, the part it names (deps.go).
// It is, with its rooms and cmd/gobot, the only code that imports
// discordgo.
//
// It must not: hold rules (a move, a capture, a score is engine's), write
// storage records itself or hold a lock around a game (the store's
// version check serialises each game, never the whole App), answer before
// the store has committed what the answer says, start a goroutine or
// timer per game, keep a ctx in a struct, or log a credential (the bot
// token, an interaction's or a follow-up's token).
//
// Three front doors lead to App.Handle: the gateway (cmd/gobot passes each
// INTERACTION_CREATE), HTTPHandler (GOBOT_MODE=http, on InteractionsPath:
// Ed25519 signatures checked on the headers first, a bounded number of
// pooled body reads, PING, answers within Discord's 3 seconds, a replayed
// interaction answered with its first answer) and RunConsole (a terminal that
// types the same commands). App.Run does the background work: expired
// challenges, the workers that make owed bot moves, and the clocks.
//
// The board page (package web) is a fourth door (web.go): App.Act asks
// the game's room (a WebRoom: Go's) for the interaction a click stands
// for (/go play, /go pass, the Accept button…) and runs it through the
// same router, keeping the
// answer meant for the person who clicked (a refusal is shown on the
// page) and posting the public one in the game's channel; App.View is a
// game as the page draws it. Every committed write of a game is announced
// to App.OnChange's listeners (the Games and Challenges parts are wrapped
// to do so), and App.Publish adds the writes other processes report. With
// Options.Activity, board messages get an Open board button that launches
// the page as a Discord Activity (activity.go).
//
// Several gobot processes may share one store (PostgreSQL) and each serve
// any interaction: every write is checked against the version read, and
// every piece of background work has one winner (the delete of an expired
// challenge, the version-checked write of a game, the claim on an owed bot
// move), which alone makes it visible. What stays per process: the search
// limiter, the REST rate limiter (share one through a proxy at
// DISCORD_API_URL) and the memory of replayed interactions. A second
// Accept of a challenge pressed while the first makes the game's thread
// is refused through the store (ClaimChallenge), on any process, and told
// what the claim's holder is doing (a Hold: accepting, declining,
// withdrawing); the edits of a rengo lobby's message are made one at a
// time under the same claim (goroom's showLobby, and a ban's leaveLobby),
// so that it ends showing the teams as stored.
//
// A server's admins use /go-admin (admin*.go): Discord offers it to
// members with Manage Server only, and every handler checks the member's
// permissions from the interaction again and acts on that server alone.
// Its settings take effect where games start (admin_checks.go: game
// channels, bans, limits, bot levels, defaults), where they end (the
// rating pools a game counts in) and in /go leaderboard. Every admin
// action and every abort is stored in the server's log.
//

// Every game has a clock (engine/clock; clock.go here). One scheduler,
// runClocks, handles every deadline: it reads the earliest from the
// store's deadline index (NextDue), sleeps until it on Options.After, and
// handles what is due (DueGames): the board of a person's move whose
// answer never reached Discord (owed.go: the move's write records it as
// owed, the answer's board settles it), a room's own deadline (the end of a
// scoring phase, a vote's period), a reminder
// (once per move, correspondence clocks only), a loss on time (annulled
// before two moves of one's own). A write wakes it (kickClocks); it is
// re-armed from the store at every start, after crediting running clocks
// with the time since the last heartbeat (CreditOutage). It starts no
// timer or goroutine per game, and several processes may run it: the
// version-checked write makes each visible effect happen, and be
// announced, once.
//
// A bot move is owed, never made inline: the game write that hands the
// turn to a bot queues its move in the store (the BotQueue part of the
// Store), and workers (Options.BotWorkers, one per search
// slot) claim queued moves oldest first and commit each with the game's
// version check, so a move is made once however many workers or processes
// share the store. The handler whose action owed the move waits for it,
// telling the players their place in the queue, and answers with the
// board; a move no handler waits for any more is posted by its worker.
// Failed moves stay queued and are retried with a growing delay; the queue
// survives restarts (see botqueue.go).
package commands
