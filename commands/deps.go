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

// QueuedPlayers is Players that can also report a move's place in the queue
// when every search slot is taken (onQueued is called from the caller's
// goroutine, again each time the place improves). The bot then tells the
// players why their opponent is slow.
type QueuedPlayers interface {
	Players
	GenMoveQueued(ctx context.Context, level string, g *engine.Game, onQueued func(position int)) (engine.Move, error)
}
