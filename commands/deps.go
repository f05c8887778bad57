package commands

import (
	"context"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// Store is what the App needs from persistence, as wiring: New takes one
// Store and keeps each of its parts in a field of its own, and every
// handler and helper uses the part it names (or takes it as a parameter),
// never the whole. Both *storage.Store (bbolt) and *storage.Postgres
// implement it. Its clock must be the App's (storage.Options.Now): it
// checks a challenge's expiry when it is accepted.
type Store interface {
	Games
	Challenges
	Archive
	Stats
	Reviews
	Deadlines
	BotQueue
	Admin
}

// Games is what the game handlers (moves, pass, resign, undo, scoring,
// abort), the clocks, the bot moves, start-up and the console need: the
// active games. Every write of a game is
// checked against the version that was read (and the game's ID, so a stale
// write never reaches a newer game in the same channel).
type Games interface {
	CreateGame(ctx context.Context, g *storage.Game) error
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	FinishGame(ctx context.Context, g *storage.Game, a storage.Archived) error
	AbortGame(ctx context.Context, g *storage.Game) error
	// QuarantineGame sets a damaged record aside (kept for an operator,
	// never deleted) so that its channel is free.
	QuarantineGame(ctx context.Context, channelID string) error
	ActiveGames(ctx context.Context) ([]*storage.Game, error)
	PlayerActiveGames(ctx context.Context, playerKey string) ([]*storage.Game, error)
	// AddMessageID remembers a board message of a game (in its
	// Delivery.MessageIDs) without a new version, so that it never makes
	// a concurrent move's write stale.
	AddMessageID(ctx context.Context, channelID, gameID, messageID string) error
	// SetUndoMessage records the message asking a game's request (an
	// undo question, a draw offer) with the request, without a new
	// version, so that whichever worker lapses the request can close it.
	SetUndoMessage(ctx context.Context, channelID, gameID string, u storage.UndoRequest, messageID string) error
	// SetVoteBoard records the board a vote game's open vote is shown on
	// (Vote.Board), without a new version, so that a vote cast meanwhile
	// is not refused for it.
	SetVoteBoard(ctx context.Context, channelID, gameID string, moves int, messageID string) error
	// AddTeamVoteMessage records a message announcing a ballot of a team
	// vote (to resign, or with abort to abort) with the vote, without a
	// new version, so that whoever lapses the vote can say so on it.
	AddTeamVoteMessage(ctx context.Context, channelID, gameID string, abort bool, v storage.ResignVote, messageID string) error
}

// Challenges is what /go challenge, its buttons and the expiry of
// challenges need. AcceptChallenge turns a challenge into a game in one
// step, so that a double accept cannot start two games.
type Challenges interface {
	CreateChallenge(ctx context.Context, c *storage.Challenge) error
	Challenge(ctx context.Context, id string) (*storage.Challenge, error)
	DeleteChallenge(ctx context.Context, id string) error
	// UpdateChallenge changes a challenge in one transaction: a rengo
	// lobby's seats, taken by players pressing Join at once.
	UpdateChallenge(ctx context.Context, id string, change func(*storage.Challenge) error) (*storage.Challenge, error)
	AcceptChallenge(ctx context.Context, id string, g *storage.Game) error
	ExpiredChallenges(ctx context.Context, now time.Time) ([]*storage.Challenge, error)
	// ClaimChallenge and ReleaseChallenge guard an Accept while it makes
	// the game's thread: a second Accept meanwhile, in this process or
	// another sharing the store, is refused (ErrConflict).
	ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error
	ReleaseChallenge(ctx context.Context, id, holder string) error
}

// Archive is what the finished games' commands (/go sgf, /go replay,
// /go review, /go estimate of a finished game, /go history, game:
// autocomplete) need: finishedGameOption, archivedGame and historyMessage
// take it.
type Archive interface {
	PlayerGames(ctx context.Context, playerKey string, limit int) ([]*storage.Archived, error)
	PlayerGamesPage(ctx context.Context, playerKey string, offset, limit int, keep func(*storage.Archived) bool) ([]*storage.Archived, int, error)
	ChannelGames(ctx context.Context, channelID string, limit int) ([]*storage.Archived, error)
	ArchivedGame(ctx context.Context, id string) (*storage.Archived, error)
}

// Stats is what /go stats and /go leaderboard, the rating changes
// announced at a game's end, the colours of a handicap challenge and the
// names on /go history's buttons need.
type Stats interface {
	PlayerStats(ctx context.Context, playerKey string) (*storage.PlayerStats, error)
	Rating(ctx context.Context, pool, playerKey string) (*storage.PlayerRating, error)
	GameRatingChanges(ctx context.Context, gameID string) ([]storage.RatingChange, error)
	// RatingHistory is a player's rating changes, every pool, oldest
	// first within each pool.
	RatingHistory(ctx context.Context, playerKey string) ([]storage.RatingChange, error)
	Leaderboard(ctx context.Context, pool string, offset, limit int, now time.Time, callerKey string, omit []string) (*storage.Leaderboard, error)
}

// Reviews is what /go review and /go sgf review:true need: the stored
// reviews of archived games, opaque to the store, and the leases under
// which one worker at a time runs a review (one per game, one per user),
// taken over by another worker when its own dies.
type Reviews interface {
	GameReview(ctx context.Context, id string) ([]byte, error)
	PutGameReview(ctx context.Context, id string, review []byte) error
	TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*storage.Lease, error)
	ReleaseLease(ctx context.Context, key, holder string) error
	LapsedLeases(ctx context.Context, prefix string, now time.Time) ([]storage.Lease, error)
}

// Deadlines is what the clocks' scheduler and /go vacation need: the
// deadline index, the heartbeat and players' vacations (which also pause
// a correspondence turn that starts during one).
type Deadlines interface {
	NextDue(ctx context.Context) (time.Time, error)
	DueGames(ctx context.Context, now time.Time, limit int) ([]storage.DueGame, error)
	Heartbeat(ctx context.Context, now time.Time) error
	CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error)
	Vacation(ctx context.Context, playerKey string) (storage.Vacation, error)
	PutVacation(ctx context.Context, playerKey string, v storage.Vacation) error
}

// BotQueue is the store's queue of owed bot moves, which every game write
// keeps in step with the game in the same transaction (a write that hands
// the turn to a bot queues its move, the write that makes it removes it).
// Workers, in this process or others sharing the store, take moves oldest
// first: ClaimBotMove gives each worker a different move (ErrNotFound when
// none can be taken) until its lease passes, ExtendBotMove renews the
// lease while the move is being made, ReleaseBotMove gives a claim back
// (retryAt zero: at once, keeping its place; else not before retryAt), and
// BotQueuePosition is the place of the move a game owes at a move count
// among the moves waiting (0 while it is being made; ErrNotFound once it
// is not owed). The move itself is committed with the game's version
// check, so a second attempt at it never shows.
type BotQueue interface {
	ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error)
	ExtendBotMove(ctx context.Context, m *storage.BotMove, lease time.Duration) error
	ReleaseBotMove(ctx context.Context, m *storage.BotMove, retryAt time.Time) error
	BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error)
}

// Admin is what /go-admin and the server settings it sets need: each
// server's settings, bans and audit log, its games in play and open
// challenges, and the annulment of a finished game (which recomputes its
// rating pools). Every change an admin makes is written with its log
// entry in one transaction (a game that an admin, a moderator or a player
// ends is logged through FinishGame, see storage.WithAudit); nothing
// deletes a record.
type Admin interface {
	Settings(ctx context.Context, guildID string) (*storage.Settings, error)
	PutSettings(ctx context.Context, st *storage.Settings, e storage.AuditEntry) error
	Ban(ctx context.Context, guildID, userID string) (*storage.Ban, error)
	GuildBans(ctx context.Context, guildID string) ([]*storage.Ban, error)
	PutBan(ctx context.Context, b storage.Ban, replaces *storage.Ban, e storage.AuditEntry) error
	LiftBan(ctx context.Context, guildID, userID string, by storage.Player, e storage.AuditEntry) (*storage.Ban, error)
	AuditLog(ctx context.Context, guildID string, offset, limit int) ([]storage.AuditEntry, int, error)
	GuildActiveGames(ctx context.Context, guildID string, offset, limit int) (*storage.GameList, error)
	GuildGame(ctx context.Context, guildID, id string) (*storage.Game, error)
	GuildChallenges(ctx context.Context, guildID string) ([]*storage.Challenge, error)
	AnnulGame(ctx context.Context, guildID, id string, record []byte, e storage.AuditEntry) (*storage.Archived, error)
}

// Both stores implement Store, and so each of its parts.
var (
	_ Store = (*storage.Store)(nil)
	_ Store = (*storage.Postgres)(nil)
)

// Level is an AI opponent as /go bot offers it.
type Level struct {
	Name        string
	Description string
}
