package commands

import (
	"context"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// Store is what the bot needs from persistence. *storage.Store (bbolt) and
// *storage.Postgres implement it; every write of a game is checked against the version that was read
// (and the game's ID, so a stale write never reaches a newer game in the
// same channel). Its clock must be the bot's (storage.Options.Now): it
// checks a challenge's expiry when it is accepted.
type Store interface {
	CreateGame(ctx context.Context, g *storage.Game) error
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	FinishGame(ctx context.Context, g *storage.Game, a storage.Archived) error
	AbortGame(ctx context.Context, g *storage.Game) error
	// QuarantineGame sets a damaged record aside (kept for an operator,
	// never deleted) so that its channel is free.
	QuarantineGame(ctx context.Context, channelID string) error
	ActiveGames(ctx context.Context) ([]*storage.Game, error)
	PlayerStats(ctx context.Context, playerKey string) (*storage.PlayerStats, error)
	PlayerGames(ctx context.Context, playerKey string, limit int) ([]*storage.Archived, error)
	PlayerGamesPage(ctx context.Context, playerKey string, offset, limit int, keep func(*storage.Archived) bool) ([]*storage.Archived, int, error)
	ChannelGames(ctx context.Context, channelID string, limit int) ([]*storage.Archived, error)
	ArchivedGame(ctx context.Context, id string) (*storage.Archived, error)
	GameReview(ctx context.Context, id string) ([]byte, error)
	PutGameReview(ctx context.Context, id string, review []byte) error
	Rating(ctx context.Context, pool, playerKey string) (*storage.PlayerRating, error)
	GameRatingChanges(ctx context.Context, gameID string) ([]storage.RatingChange, error)
	Leaderboard(ctx context.Context, pool string, offset, limit int, now time.Time, callerKey string) (*storage.Leaderboard, error)

	CreateChallenge(ctx context.Context, c *storage.Challenge) error
	Challenge(ctx context.Context, id string) (*storage.Challenge, error)
	DeleteChallenge(ctx context.Context, id string) error
	AcceptChallenge(ctx context.Context, id string, g *storage.Game) error
	ExpiredChallenges(ctx context.Context, now time.Time) ([]*storage.Challenge, error)

	// The clocks: the deadline index, the heartbeat and players' vacations.
	NextDue(ctx context.Context) (time.Time, error)
	DueGames(ctx context.Context, now time.Time, limit int) ([]storage.DueGame, error)
	Heartbeat(ctx context.Context, now time.Time) error
	CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error)
	PlayerActiveGames(ctx context.Context, playerKey string) ([]*storage.Game, error)
	Vacation(ctx context.Context, playerKey string) (storage.Vacation, error)
	PutVacation(ctx context.Context, playerKey string, v storage.Vacation) error
	AddMessageID(ctx context.Context, channelID, gameID, messageID string) error

	BotQueue
}

// BotQueue is the store's queue of owed bot moves, which every game write
// keeps in step with the game in the same transaction (a write that hands
// the turn to a bot queues its move, the write that makes it removes it).
// Workers, in this process or others sharing the store, take moves oldest
// first: ClaimBotMove gives each worker a different move (ErrNotFound when
// none can be taken) until its lease passes, ExtendBotMove renews the
// lease while the move is being made, ReleaseBotMove gives a claim back
// (retryAt zero: at once, keeping its place; else not before retryAt), and
// BotQueuePosition is a channel's place among the moves waiting (0 while
// one is being made). The move itself is committed with the game's version
// check, so a second attempt at it never shows.
type BotQueue interface {
	ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*storage.BotMove, error)
	ExtendBotMove(ctx context.Context, m *storage.BotMove, lease time.Duration) error
	ReleaseBotMove(ctx context.Context, m *storage.BotMove, retryAt time.Time) error
	BotQueuePosition(ctx context.Context, channelID string) (int, error)
}

var (
	_ Store = (*storage.Store)(nil)
	_ Store = (*storage.Postgres)(nil)
)

// Level is an AI opponent as /go bot offers it.
type Level struct {
	Name        string
	Description string
}

// Players is what the bot needs from the AI opponents: the levels on offer
// and a move for one of them. GenMove must not modify g, returns a legal
// move for g.ToPlay() (Place, Pass or Resign), and returns when ctx ends.
type Players interface {
	Levels() []Level
	GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error)
}
