package storage

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// GamesChannel is the PostgreSQL notification channel of game writes:
// every transaction that creates, changes, finishes, aborts or sets aside
// a game sends NOTIFY on it with the game's Discord channel ID as payload,
// delivered when (and only if) the transaction commits. ListenGames
// receives them, so that a worker learns of another worker's move
// without polling.
const GamesChannel = "gobot_games"

// pgNotifyGame queues the notification of a write of the game in
// channelID in tx.
func pgNotifyGame(ctx context.Context, tx pgx.Tx, channelID string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, GamesChannel, channelID)
	return err
}

// ListenGames calls fn with the channel ID of every game written to the
// database, by this process or any other, until ctx ends; a lost
// connection is made again after a short pause (writes in the meantime are
// not reported: fn's caller shows the games as they are when it next
// hears of them). fn runs on ListenGames's goroutine and must return
// quickly. It returns ctx's error.
func (p *Postgres) ListenGames(ctx context.Context, fn func(channelID string)) error {
	pause := 100 * time.Millisecond
	for {
		err := p.listen(ctx, fn)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.log.Warn("storage: listening for game writes failed; trying again", "err", err, "in", pause)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 10*time.Second)
	}
}

// listen holds one connection in LISTEN until it fails or ctx ends.
func (p *Postgres) listen(ctx context.Context, fn func(channelID string)) error {
	c, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	conn := c.Conn()
	if _, err := conn.Exec(ctx, `LISTEN `+GamesChannel); err != nil {
		return err
	}
	defer func() {
		// The connection goes back to the pool: stop listening on it.
		uctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if _, err := conn.Exec(uctx, `UNLISTEN *`); err != nil {
			c.Conn().Close(uctx)
		}
	}()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return ctx.Err()
			}
			return err
		}
		if n.Channel == GamesChannel && n.Payload != "" {
			fn(n.Payload)
		}
	}
}
