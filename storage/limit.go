package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// A server's limit of games at once per player (Settings.MaxGames) is
// checked by the transaction that creates a game (CreateGame,
// AcceptChallenge), not only by the caller beforehand: a count read
// before the write would let two games started at the same moment (the
// same player's /go bot in two channels, two challenges accepted on two
// workers) both pass it.

// A ban is checked there too, for the same reason: an admin's ban stored
// between the caller's check and the game's creation (the taker of an
// open challenge, whom the ban's closing of their challenges does not
// reach) would let the banned person start a game the ban's answer does
// not list. PutBan takes the lock pgCheckPlayLimit takes, so on
// PostgreSQL either the game is stored before the ban (and the ban's
// answer lists it) or the game is refused.

// BanError is the refusal of a new game to one of its people who is
// banned on its server at that moment. It wraps ErrBanned.
type BanError struct {
	Ban *Ban
}

func (e *BanError) Error() string {
	return fmt.Sprintf("storage: %s is banned on server %s: %v", e.Ban.User.UserID, e.Ban.GuildID, ErrBanned)
}

func (e *BanError) Unwrap() error { return ErrBanned }

// banError returns the refusal of g for user when v, their stored ban on
// g's server (nil when none), is active at now; nil otherwise.
func banError(g *Game, user string, v []byte, now time.Time) error {
	if v == nil {
		return nil
	}
	b := new(Ban)
	if err := json.Unmarshal(v, b); err != nil {
		return fmt.Errorf("storage: ban of %s on %s: %w: %w", user, g.GuildID, ErrCorrupt, err)
	}
	if !b.Active(now) {
		return nil
	}
	return &BanError{Ban: b}
}

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

// checkPlayLimit refuses in tx the new game g when one of its people is
// banned on g's server at now, or already plays as many games there as it
// allows at once. bbolt has one writer at a time, so the checks and the
// write that follows them cannot be split by a ban or another game's
// creation.
func checkPlayLimit(tx *bolt.Tx, g *Game, now time.Time) error {
	if g.GuildID == "" {
		return nil
	}
	for _, user := range people(g) {
		if err := banError(g, user, tx.Bucket(bucketBans).Get(join(g.GuildID, []byte(user))), now); err != nil {
			return err
		}
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

// pgPlayerLock takes in tx the advisory lock on user's games on guild,
// held until the transaction ends.
func pgPlayerLock(ctx context.Context, tx pgx.Tx, guild, user string) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, pgPlayLimitLock, guild+"/"+user); err != nil {
		return fmt.Errorf("storage: lock the games of %s: %w", user, err)
	}
	return nil
}

// pgCheckPlayLimit is checkPlayLimit for PostgreSQL, called once g is
// inserted (so that a channel taken is ErrExists first): each person of g
// is locked (an advisory lock on the server and the user, held until the
// transaction ends, taken in user ID order so that two games with the
// same people never wait on each other) before their ban is read and
// their games are counted, so that two transactions creating games for
// the same person take turns and the second counts the first's game, and
// a ban (PutBan takes the same lock) is stored either before the ban is
// read here or after this game is committed.
func pgCheckPlayLimit(ctx context.Context, tx pgx.Tx, g *Game, now time.Time) error {
	if g.GuildID == "" {
		return nil
	}
	ids := people(g)
	if len(ids) == 0 {
		return nil
	}
	for _, user := range ids {
		if err := pgPlayerLock(ctx, tx, g.GuildID, user); err != nil {
			return err
		}
	}
	// Each statement reads what was committed when it started (read
	// committed), so this one, after the locks, sees a ban stored before.
	for _, user := range ids {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM bans WHERE guild_id = $1 AND user_id = $2`, g.GuildID, user).Scan(&rec)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			continue
		case err != nil:
			return fmt.Errorf("storage: ban of %s on %s: %w", user, g.GuildID, err)
		}
		if err := banError(g, user, []byte(rec), now); err != nil {
			return err
		}
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
