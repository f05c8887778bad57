// Package storage keeps gobot's state, so that games survive restarts,
// crashes and redeploys: active games (one per channel, thread or DM),
// pending challenges, the archive of finished games with its indexes by
// player, server and channel, players' statistics and ratings, the queue
// of owed bot moves, and vacations. Store keeps it in one bbolt file;
// Postgres keeps the same in PostgreSQL (below).
//
// A game is stored as its moves (the engine's JSON: configuration, set-up,
// moves, result), never as a board; loading replays the moves through the
// engine, so a record that does not replay is reported as ErrCorrupt for
// that channel only and everything else keeps working.
//
// Game is the game aggregate: players (a Discord user, or a bot and its
// Player.Level), the engine game, clock, scoring phase, undo request,
// version. Its Delivery field holds what exists only to show the game on
// Discord (the board messages, the interaction that can still post
// follow-ups, a board owed to the players); it is stored in the same
// record under the same version, and no rule or result depends on it.
// One deadline does (Game.Due): the board of a person's move still owed
// (OwedBoard), which the next board message recorded settles. The
// record's JSON is the same as before the two were separate types, so
// games of every version load. The message asking an undo request or a
// draw offer is kept with the request (UndoRequest.MessageID): like a
// board's (AddMessageID), it is recorded without a new version
// (SetUndoMessage), and a write read before it keeps it and gives it
// back, so that whichever worker lapses the request can close its
// question. So is the board a vote game's open vote is shown on
// (Vote.Board, SetVoteBoard), for the votes cast meanwhile, and so are
// the messages of a team's vote to resign or abort
// (ResignVote.Messages, AddTeamVoteMessage): a write that drops the vote
// (the next move) gives them back (Game.LapsedVotes), so that its writer
// says on them that the vote lapsed.
//
// Postgres (OpenPostgres, GOBOT_DATABASE_URL) keeps the same state in
// PostgreSQL for several gobot processes sharing it, with the same
// behaviour, errors and record encoding; the conformance suite in
// storage/storetest runs against both stores, and storage/pgtest gives
// tests a throwaway database. Its schema is the embedded SQL files in
// migrations/postgres, applied at start-up in one transaction; a record
// is the bbolt record's JSON in a text column, beside the columns the
// queries select and order by, so CopyToPostgres (gobot migrate-db)
// copies records as they are.
//
// # Guarantees
//
// Every write is committed and fsynced before the method returns: a reply
// that says a move happened can be sent once UpdateGame has returned nil.
// Writes are optimistic: each states the version it read (Game.Version),
// and a stale one fails with ErrConflict and changes nothing, so two players
// or one double click racing on a game never both apply. There is no lock
// in Go code: writes to different games run concurrently, and when several
// are in flight they share one bbolt commit (DB.Batch), and so one fsync.
// The functions given to a batch may run more than once, so they only read
// their arguments and the transaction; callers' structs change only after
// the commit.
//
// Open verifies an existing file before bbolt maps it (its header, that
// its size holds every page, then every page with bbolt's Tx.Check) and
// refuses a damaged one with ErrDamaged, naming `gobot backup`: a file cut
// short would otherwise crash the process, and an empty one would silently
// become a new database. Only a path that does not exist is a new database.
// Open takes the file's lock with a timeout (ErrLocked), creates the
// buckets and migrates older schemas (SchemaVersion) in one transaction;
// a file from a newer gobot is refused with ErrSchemaTooNew. Backup and
// BackupFile write consistent copies while the store is in use; a running
// store can also serve them to another process on a Unix socket
// (Options.BackupSocket, BackupTo), since bbolt's lock keeps a second
// process from opening the file.
//
// # Owed bot moves
//
// A game whose bot is to move owes that move (Game.BotToMove), and the
// store keeps every owed move in a queue, written in the same transaction
// as the game: the write that hands the turn to a bot queues the move at
// the back, the write that makes it (or ends the game) removes it, and a
// write that leaves the same move owed keeps its place. So an owed move is
// never lost, however long the queue, across crashes and restarts.
// Workers take moves oldest first with ClaimBotMove, a claim with a lease
// that gives each worker a different game, and give a claim back with
// ReleaseBotMove (at once, or after a failure not before a retry time);
// BotQueuePosition says how many moves wait ahead. A claim only spreads
// the work: the move is stored with the game's version check, so a second
// attempt at the same move fails with ErrConflict. bbolt lets one process
// open the file, so this store holds claims in memory and a restart
// forgets them; a store shared by several processes keeps them with the
// queue.
//
// # Deadlines
//
// Every active game has a due time (Game.Due): when its scoring phase ends,
// or the next event of its clock (engine/clock: the reminder, then the
// flag's fall); zero for none. Every write of a game moves its
// games_by_due entry in the same transaction, so the index always matches
// the records, and the scheduler in commands finds the earliest deadline
// (NextDue) and the games due now (DueGames) by reading the start of one
// index, whatever the number of games. Several gobot processes may share the
// store: each may handle a due game, and the version check lets exactly
// one write win. The meta key "heartbeat" holds the last time a bot
// process said it was alive (Heartbeat); CreditOutage, at start-up,
// excuses every running clock the time since then in one transaction.
//
// # Layout (schema 8)
//
//	meta                  "schema" -> 8-byte version; "heartbeat" -> time (8) of the last Heartbeat
//	games                 channel ID -> game record (JSON: Game with its Delivery, moves via engine JSON)
//	games_by_player       player key 0 channel ID -> nil
//	challenges            challenge ID -> challenge (JSON)
//	challenges_by_expiry  expiry (8) challenge ID -> nil
//	archive               game ID -> archived game without its SGF (JSON)
//	archive_sgf           game ID -> SGF
//	archive_by_player     player key 0 finished (8) game ID -> nil
//	archive_by_guild      guild ID 0 finished (8) game ID -> nil
//	archive_by_channel    channel ID 0 finished (8) game ID -> nil
//	ratings               pool 0 player key -> rating (JSON); sequence: the last RatingSeq or rating annulment
//	ratings_by_value      pool 0 rating (8, highest first) player key -> RD, volatility, last game
//	rating_history        player key 0 pool 0 RatingSeq (8) -> rating change (JSON)
//	players               player key -> statistics (JSON; every kind's games and each kind's apart)
//	quarantine            channel ID 0 time (8) -> corrupt record set aside
//	bot_queue             sequence (8) -> owed bot move (JSON: channel, game, moves, since)
//	bot_queue_by_channel  channel ID -> its bot_queue key
//	archive_review        game ID -> review of the archived game (opaque JSON)
//	games_by_due          due (8) channel ID -> nil
//	vacations             player key -> vacation (JSON)
//	games_by_guild        guild ID 0 created (8) channel ID -> nil (schema 8)
//	settings              guild ID -> the server's settings (JSON, versioned)
//	bans                  guild ID 0 user ID -> ban (JSON; lifted ones stay)
//	audit                 guild ID 0 seq (8) -> log entry (JSON); sequence: the last seq
//
// Times in keys are big-endian Unix nanoseconds, so a history is a backward
// range scan of one index: its cost depends on the page asked for, not on
// the size of the archive. A player key is the Discord user ID, or "bot:"
// and the level name for a bot (Player.Key).
//
// # Boundaries
//
// The package is a thin domain layer. It owns the records, their
// encoding and migrations, the indexes and their consistency, the version
// checks, the owed-move queue and its claims, and the ratings (Glicko-2,
// in glicko/, applied in the transaction that archives a rated game). It
// validates what it stores, but the rules live in engine and the
// decisions (who may move, when a challenge expires, what a result is,
// whether a game is rated) in commands, which declares the small
// interfaces it needs from a store; both stores satisfy them.
//
// It must not import commands or discordgo, nor interpret Delivery: the
// message IDs and the follow-up are stored and bounded, never used here
// (beyond comparing a new message's ID with an owed board's).
// A follow-up token is a credential and is never logged. It holds no lock
// in Go code around a game (the version check serialises writes), keeps
// no ctx in a struct (every method takes a ctx first), and leaves the
// position to engine: a game is its moves.
//
// History methods take a player key and return archived games without
// their SGF (ArchivedGame loads it).
//
// # A server's administration
//
// Each server's settings, bans and audit log (admin.go) are written with
// their log entry in one transaction, and nothing deletes them; so is a
// game that an admin, a moderator or a player ends (FinishGame with
// WithAudit). A ban's lapse is logged (AuditLapse) in the transaction
// that first appends to or reads the server's log after it, and marked on
// the ban there, so it is logged once whichever worker gets there first. AnnulGame
// marks a finished game annulled and rates its pools again from the
// archive in memory, outside the write transactions, then stores what
// changed in one write that checks no game was rated meanwhile (else it
// starts again): the result is what RebuildRatings would give.
package storage
