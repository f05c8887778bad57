package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// CopyCount is what CopyToPostgres did with one kind of record.
type CopyCount struct {
	Kind string // "games", "challenges", …
	// Source is how many records the bbolt store holds; Present how many
	// of them the PostgreSQL store holds after the copy (the verification:
	// equal unless Skipped); Copied how many this run inserted (fewer than
	// Source on a re-run); Skipped how many could not be copied (records
	// that do not decode; active games among them are copied into the
	// quarantine instead).
	Source, Present, Copied, Skipped int
}

// String is one line of the report: "games: 12 in bbolt, 12 in PostgreSQL (12 copied)".
func (c CopyCount) String() string {
	s := fmt.Sprintf("%s: %d in bbolt, %d in PostgreSQL (%d copied now", c.Kind, c.Source, c.Present, c.Copied)
	if c.Skipped > 0 {
		s += fmt.Sprintf(", %d damaged records skipped", c.Skipped)
	}
	return s + ")"
}

// CopyToPostgres copies everything the bbolt store src holds into the
// PostgreSQL store dst — active games, challenges, the archive with its
// SGF records and reviews, players' statistics, ratings and their
// history, the queue of owed bot moves, vacations, quarantined records,
// the heartbeat, and the servers' settings, bans and audit logs — and
// verifies
// that every record of src is then in dst.
//
// It reads src in one read transaction (a consistent snapshot) and writes
// dst in one transaction, so a failure leaves dst as it was. Records dst
// already has (same key) are kept, not overwritten: running it again after
// a failure, or after a success, copies only what is missing and verifies
// again. Stop gobot before copying: games it changes meanwhile are not
// copied again. A verification failure is an error and rolls the copy back.
func CopyToPostgres(ctx context.Context, src *Store, dst *Postgres) ([]CopyCount, error) {
	now := src.now()
	var counts []CopyCount
	err := src.view(ctx, func(btx *bolt.Tx) error {
		return pgBegin(ctx, dst.pool, func(tx pgx.Tx) error {
			counts = counts[:0]
			for _, step := range []func(context.Context, *bolt.Tx, pgx.Tx, time.Time) (CopyCount, error){
				copyGames, copyChallenges, copyArchive, copyPlayers, copyBotQueue, copyVacations, copyQuarantine, copyHeartbeat,
				copyRatings, copySettings, copyBans, copyAudit,
			} {
				c, err := step(ctx, btx, tx, now)
				if err != nil {
					return fmt.Errorf("storage: copy %s to PostgreSQL: %w", c.Kind, err)
				}
				if c.Kind != "" {
					counts = append(counts, c)
				}
			}
			var bad []string
			for _, c := range counts {
				if c.Present != c.Source-c.Skipped {
					bad = append(bad, c.String())
				}
			}
			if len(bad) > 0 {
				return fmt.Errorf("storage: copy to PostgreSQL: the counts do not match, nothing was kept: %s", strings.Join(bad, "; "))
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// present counts how many of keys the table has in column.
func present(ctx context.Context, tx pgx.Tx, table, column string, keys []string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE `+column+` = ANY($1)`, keys).Scan(&n)
	return n, err
}

// insert runs an INSERT … ON CONFLICT DO NOTHING and counts the row as
// copied when it added it.
func (c *CopyCount) insert(ctx context.Context, tx pgx.Tx, sql string, args ...any) error {
	tag, err := tx.Exec(ctx, sql, args...)
	if err == nil && tag.RowsAffected() == 1 {
		c.Copied++
	}
	return err
}

// copyKeyed copies the records of bucket into table, which keys them by
// column. row inserts one record (counting it with c.insert) and returns
// its key, or "" for a record it does not copy (counted as Skipped); the
// copy then counts how many of the keys the table holds.
func copyKeyed(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, kind string, bucket []byte, table, column string,
	row func(c *CopyCount, k, v []byte) (key string, err error)) (CopyCount, error) {
	c := CopyCount{Kind: kind}
	var keys []string
	err := btx.Bucket(bucket).ForEach(func(k, v []byte) error {
		c.Source++
		key, err := row(&c, k, v)
		if key == "" {
			c.Skipped++
		} else {
			keys = append(keys, key)
		}
		return err
	})
	if err == nil {
		c.Present, err = present(ctx, tx, table, column, keys)
	}
	return c, err
}

func copyGames(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, now time.Time) (CopyCount, error) {
	return copyKeyed(ctx, btx, tx, "games", bucketGames, "games", "channel_id", func(c *CopyCount, k, v []byte) (string, error) {
		h, err := decodeHeader(v)
		if err != nil || h.ChannelID != string(k) {
			// Damaged: set aside in PostgreSQL's quarantine, as
			// QuarantineGame would, so that nothing is lost.
			_, err := tx.Exec(ctx, `INSERT INTO quarantine (channel_id, at_ns, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
				string(k), now.UnixNano(), strings.ToValidUTF8(string(v), "\uFFFD"))
			return "", err
		}
		return h.ChannelID, c.insert(ctx, tx, `INSERT INTO games (channel_id, id, version, players, due_ns, record) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
			h.ChannelID, h.ID, h.Version, playerKeysOf(h.players()), timeNS(h.Due), string(v))
	})
}

func copyChallenges(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	return copyKeyed(ctx, btx, tx, "challenges", bucketChallenges, "challenges", "id", func(c *CopyCount, k, v []byte) (string, error) {
		ch, err := decodeChallenge(v)
		if err != nil || ch.ID != string(k) {
			return "", nil
		}
		return ch.ID, c.insert(ctx, tx, `INSERT INTO challenges (id, expires_ns, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			ch.ID, ch.ExpiresAt.UnixNano(), string(v))
	})
}

// copyArchive copies the archived games with their SGF, review and index
// rows. Statistics are not recounted: copyPlayers copies them as they are.
func copyArchive(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	sgfs, reviews := btx.Bucket(bucketArchiveSGF), btx.Bucket(bucketArchiveReview)
	return copyKeyed(ctx, btx, tx, "archived games", bucketArchive, "archive", "id", func(c *CopyCount, k, v []byte) (string, error) {
		a, err := decodeArchive(v)
		if err != nil || a.ID != string(k) {
			return "", nil
		}
		sgf := bytes.Clone(sgfs.Get(k))
		if sgf == nil {
			sgf = []byte{}
		}
		var review []byte
		if r := reviews.Get(k); r != nil {
			review = bytes.Clone(r)
		}
		fin := a.FinishedAt.UnixNano()
		if err := c.insert(ctx, tx, `INSERT INTO archive (id, channel_id, guild_id, finished_ns, record, sgf, review) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
			a.ID, a.ChannelID, a.GuildID, fin, string(v), sgf, review); err != nil {
			return a.ID, err
		}
		for _, key := range a.PlayerKeys() {
			if _, err := tx.Exec(ctx, `INSERT INTO archive_by_player (player, finished_ns, id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, key, fin, a.ID); err != nil {
				return a.ID, err
			}
		}
		return a.ID, nil
	})
}

// copyRaw copies a bucket of key -> JSON record into a (key, record) table.
func copyRaw(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, kind string, bucket []byte, table, keyColumn string) (CopyCount, error) {
	return copyKeyed(ctx, btx, tx, kind, bucket, table, keyColumn, func(c *CopyCount, k, v []byte) (string, error) {
		if !json.Valid(v) {
			return "", nil
		}
		return string(k), c.insert(ctx, tx, `INSERT INTO `+table+` (`+keyColumn+`, record) VALUES ($1, $2) ON CONFLICT DO NOTHING`, string(k), string(v))
	})
}

func copyPlayers(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	return copyRaw(ctx, btx, tx, "player statistics", bucketPlayers, "players", "key")
}

func copyVacations(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	return copyRaw(ctx, btx, tx, "vacations", bucketVacations, "vacations", "player")
}

// copyBotQueue copies the owed bot moves in queue order, so that they keep
// their order (claims are not copied: they belonged to the stopped bot).
func copyBotQueue(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	return copyKeyed(ctx, btx, tx, "owed bot moves", bucketBotQueue, "bot_queue", "channel_id", func(c *CopyCount, k, v []byte) (string, error) {
		var r botMoveRecord
		if json.Unmarshal(v, &r) != nil {
			return "", nil
		}
		var game bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE channel_id = $1 AND id = $2)`, r.Channel, r.Game).Scan(&game); err != nil {
			return "", err
		}
		if !game {
			return "", nil // its game was damaged, and is in the quarantine
		}
		return r.Channel, c.insert(ctx, tx, `INSERT INTO bot_queue (channel_id, game_id, moves, since_ns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (channel_id) DO NOTHING`, r.Channel, r.Game, r.Moves, r.Since.UnixNano())
	})
}

func copyQuarantine(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	c := CopyCount{Kind: "quarantined records"}
	var chans []string
	var ats []int64
	err := btx.Bucket(bucketQuarantine).ForEach(func(k, v []byte) error {
		c.Source++
		ch, at, ok := bytes.Cut(k, []byte{0})
		if !ok || len(at) != 8 {
			c.Skipped++
			return nil
		}
		chans, ats = append(chans, string(ch)), append(ats, int64(binary.BigEndian.Uint64(at)))
		return c.insert(ctx, tx, `INSERT INTO quarantine (channel_id, at_ns, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			string(ch), ats[len(ats)-1], strings.ToValidUTF8(string(v), "\uFFFD"))
	})
	if err == nil {
		err = tx.QueryRow(ctx, `SELECT count(*) FROM quarantine q JOIN unnest($1::text[], $2::bigint[]) AS k (channel_id, at_ns)
			ON q.channel_id = k.channel_id AND q.at_ns = k.at_ns`, chans, ats).Scan(&c.Present)
	}
	return c, err
}

// copyHeartbeat keeps the later of the two heartbeats, so that the first
// worker on PostgreSQL credits the outage the migration caused.
func copyHeartbeat(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	v := btx.Bucket(bucketMeta).Get(keyHeartbeat)
	if len(v) != 8 {
		return CopyCount{}, nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('heartbeat', $1) ON CONFLICT (key) DO UPDATE SET value = greatest(meta.value, excluded.value)`,
		int64(binary.BigEndian.Uint64(v)))
	return CopyCount{}, err
}

// copyRatings copies the ratings and the rating history as they are, and
// moves the rating sequence past the last game rated, so that PostgreSQL
// goes on rating where bbolt stopped (and a rebuild there reproduces them).
func copyRatings(ctx context.Context, btx *bolt.Tx, tx pgx.Tx, _ time.Time) (CopyCount, error) {
	c := CopyCount{Kind: "ratings"}
	var pools, players []string
	err := btx.Bucket(bucketRatings).ForEach(func(k, v []byte) error {
		c.Source++
		var pr PlayerRating
		if json.Unmarshal(v, &pr) != nil || pr.Pool == "" || pr.Player.Key() == "" {
			c.Skipped++
			return nil
		}
		pools, players = append(pools, pr.Pool), append(players, pr.Player.Key())
		return c.insert(ctx, tx, `INSERT INTO ratings (pool, player, rating, rd, volatility, last_ns, record) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (pool, player) DO NOTHING`, pr.Pool, pr.Player.Key(), pr.Rating.Rating, pr.RD, pr.Volatility, pr.Last.UnixNano(), string(v))
	})
	if err != nil {
		return c, err
	}
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM ratings WHERE (pool, player) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, pools, players).Scan(&c.Present); err != nil {
		return c, err
	}
	err = btx.Bucket(bucketRatingHistory).ForEach(func(k, v []byte) error {
		var ch RatingChange
		if json.Unmarshal(v, &ch) != nil {
			return nil // the rating itself is what counts; a rebuild restores the history
		}
		_, err := tx.Exec(ctx, `INSERT INTO rating_history (player, pool, seq, record) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			ch.Player, ch.Pool, int64(ch.Seq), string(v))
		return err
	})
	if err != nil {
		return c, err
	}
	if seq := btx.Bucket(bucketRatings).Sequence(); seq > 0 {
		if _, err := tx.Exec(ctx, `SELECT setval('rating_seq', greatest($1, (SELECT last_value FROM rating_seq)))`, int64(seq)); err != nil {
			return c, err
		}
	}
	return c, nil
}
