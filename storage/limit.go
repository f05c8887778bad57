package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// A server's limit of games at once per player (Settings.MaxGames) is
// checked by the transaction that creates a game (CreateGame,
// AcceptChallenge), not only by the caller beforehand: a count read
// before the write would let two games started at the same moment (the
// same player's /go bot in two channels, two challenges accepted on two
// workers) both pass it.

// LimitError is the refusal of a new game that would take one of its
// people over their server's limit of games at once: Player already plays
// Games games there, and the server allows Max. It wraps ErrLimit.
type LimitError struct {
	GuildID string
	Player  Player
	Games   int
	Max     int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("storage: %s already plays %d games on server %s, which allows %d: %v", e.Player.Key(), e.Games, e.GuildID, e.Max, ErrLimit)
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// people returns the distinct people (not bots, not a channel's voters) of
// g, by user ID order: the players a server's limit counts, in the order
// PostgreSQL's locks on them are taken.
func people(g *Game) []string {
	var ids []string
	for _, p := range g.Players() {
		if p.UserID != "" && !slices.Contains(ids, p.UserID) {
			ids = append(ids, p.UserID)
		}
	}
	slices.Sort(ids)
	return ids
}

// limitError returns the refusal for user, who plays n games on g's
// server, when n reaches the server's max; nil under it.
func limitError(g *Game, user string, n, max int) error {
	if n < max {
		return nil
	}
	for _, p := range g.Players() {
		if p.UserID == user {
			return &LimitError{GuildID: g.GuildID, Player: p, Games: n, Max: max}
		}
	}
	return nil
}

// checkPlayLimit refuses in tx the new game g when one of its people
// already plays as many games on g's server as it allows at once. bbolt
// has one writer at a time, so the count and the write that follows it
// cannot be split by another game's creation.
func checkPlayLimit(tx *bolt.Tx, g *Game) error {
	if g.GuildID == "" {
		return nil
	}
	st, err := decodeSettings(g.GuildID, tx.Bucket(bucketSettings).Get([]byte(g.GuildID)))
	if err != nil || st.MaxGames == 0 {
		return err
	}
	games, byPlayer := tx.Bucket(bucketGames), tx.Bucket(bucketGamesByPlayer)
	for _, user := range people(g) {
		n := 0
		prefix := join(user)
		c := byPlayer.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if h, err := decodeHeader(games.Get(k[len(prefix):])); err == nil && h.GuildID == g.GuildID {
				n++
			}
		}
		if err := limitError(g, user, n, st.MaxGames); err != nil {
			return err
		}
	}
	return nil
}

// pgPlayLimitLock is the first key of the advisory locks (two-key form,
// the second is a hash of the server and the user) under which a person's
// games on a server are counted and a new one is inserted.
const pgPlayLimitLock int32 = 0x676f62 // "gob"

// pgCheckPlayLimit is checkPlayLimit for PostgreSQL, called once g is
// inserted (so that a channel taken is ErrExists first): each person of g
// is locked (an advisory lock on the server and the user, held until the
// transaction ends, taken in user ID order so that two games with the
// same people never wait on each other) before their games are counted,
// so that two transactions creating games for the same person take turns
// and the second counts the first's game.
func pgCheckPlayLimit(ctx context.Context, tx pgx.Tx, g *Game) error {
	if g.GuildID == "" {
		return nil
	}
	ids := people(g)
	if len(ids) == 0 {
		return nil
	}
	var rec []byte
	err := tx.QueryRow(ctx, `SELECT record FROM guild_settings WHERE guild_id = $1`, g.GuildID).Scan(&rec)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("storage: settings of %s: %w", g.GuildID, err)
	}
	st, err := decodeSettings(g.GuildID, rec)
	if err != nil || st.MaxGames == 0 {
		return err
	}
	for _, user := range ids {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, pgPlayLimitLock, g.GuildID+"/"+user); err != nil {
			return fmt.Errorf("storage: lock the games of %s: %w", user, err)
		}
	}
	for _, user := range ids {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM games WHERE guild_id = $1 AND players @> ARRAY[$2::text] AND channel_id <> $3`, g.GuildID, user, g.ChannelID).Scan(&n); err != nil {
			return fmt.Errorf("storage: count the games of %s: %w", user, err)
		}
		if err := limitError(g, user, n, st.MaxGames); err != nil {
			return err
		}
	}
	return nil
}
