package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgRatingLock is the advisory lock key under which games are rated one
// at a time, so that the order of rating_seq is the order the ratings
// changed in, which a rebuild follows.
const pgRatingLock = 0x676f626f7452 // "gobotR"

// pgRatings is ratingTx in a PostgreSQL transaction.
type pgRatings struct{ tx pgx.Tx }

func (p pgRatings) loadRating(ctx context.Context, pool string, pl Player) (PlayerRating, error) {
	var rec string
	err := p.tx.QueryRow(ctx, `SELECT record FROM ratings WHERE pool = $1 AND player = $2`, pool, pl.Key()).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return newRating(pool, pl), nil
	}
	if err != nil {
		return PlayerRating{}, err
	}
	return decodeRating([]byte(rec), pool, pl)
}

func (p pgRatings) putRating(ctx context.Context, _, pr PlayerRating) error {
	v, err := json.Marshal(pr)
	if err != nil {
		return err
	}
	_, err = p.tx.Exec(ctx, `INSERT INTO ratings (pool, player, rating, rd, volatility, last_ns, record) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (pool, player) DO UPDATE SET rating = $3, rd = $4, volatility = $5, last_ns = $6, record = $7`,
		pr.Pool, pr.Player.Key(), pr.Rating.Rating, pr.RD, pr.Volatility, pr.Last.UnixNano(), string(v))
	return err
}

func (p pgRatings) putChange(ctx context.Context, c RatingChange) error {
	v, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = p.tx.Exec(ctx, `INSERT INTO rating_history (player, pool, seq, record) VALUES ($1, $2, $3, $4)`, c.Player, c.Pool, int64(c.Seq), string(v))
	return err
}

// pgRate rates the archived game a (Rated, not yet stored) in tx: it takes
// the rating lock and the next rating sequence, and returns a with its
// RatingSeq and encoding for the archive.
func pgRate(ctx context.Context, tx pgx.Tx, starts StartRatings, a *Archived, tie bool) (*Archived, []byte, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgRatingLock)); err != nil {
		return nil, nil, fmt.Errorf("storage: lock the ratings: %w", err)
	}
	var seq int64
	if err := tx.QueryRow(ctx, `SELECT nextval('rating_seq')`).Scan(&seq); err != nil {
		return nil, nil, err
	}
	r := *a
	r.RatingSeq = uint64(seq)
	val, err := json.Marshal(&r)
	if err != nil {
		return nil, nil, err
	}
	score, _ := ratedScore(&r, tie)
	if err := rateGame(ctx, pgRatings{tx}, starts, &r, score); err != nil {
		return nil, nil, err
	}
	return &r, val, nil
}

// Rating is Store.Rating.
func (p *Postgres) Rating(ctx context.Context, pool, playerKey string) (*PlayerRating, error) {
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM ratings WHERE pool = $1 AND player = $2`, pool, playerKey).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("storage: %s has no rating in %s: %w", playerKey, pool, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: rating of %s in %s: %w", playerKey, pool, err)
	}
	pr := new(PlayerRating)
	if err := json.Unmarshal([]byte(rec), pr); err != nil {
		return nil, fmt.Errorf("storage: rating of %s in %s: %w: %w", playerKey, pool, ErrCorrupt, err)
	}
	return pr, nil
}

// RatingHistory is Store.RatingHistory.
func (p *Postgres) RatingHistory(ctx context.Context, playerKey string) ([]RatingChange, error) {
	rows, err := p.pool.Query(ctx, `SELECT record FROM rating_history WHERE player = $1 ORDER BY pool COLLATE "C", seq`, playerKey)
	if err != nil {
		return nil, fmt.Errorf("storage: rating history of %s: %w", playerKey, err)
	}
	var out []RatingChange
	for rows.Next() {
		var rec string
		if err := rows.Scan(&rec); err != nil {
			return nil, err
		}
		var c RatingChange
		if err := json.Unmarshal([]byte(rec), &c); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: rating history of %s: %w: %w", playerKey, ErrCorrupt, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Leaderboard is Store.Leaderboard: the same walk over the pool's rows by
// rating, highest first (ties by player key, as bbolt's index orders them).
func (p *Postgres) Leaderboard(ctx context.Context, pool string, offset, limit int, now time.Time, callerKey string, omit []string) (*Leaderboard, error) {
	w := &leaderWalk{now: now, offset: offset, limit: limit, caller: callerKey, omit: omit}
	rows, err := p.pool.Query(ctx, `SELECT player, rd, volatility, last_ns FROM ratings WHERE pool = $1 ORDER BY rating DESC, player COLLATE "C"`, pool)
	if err != nil {
		return nil, fmt.Errorf("storage: leaderboard of %s: %w", pool, err)
	}
	for rows.Next() {
		var player string
		var rd, vol float64
		var last int64
		if err := rows.Scan(&player, &rd, &vol, &last); err != nil {
			return nil, err
		}
		w.add([]byte(player), rd, vol, time.Unix(0, last).UTC())
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return w.board(func(player string) (PlayerRating, error) {
		pr, err := p.Rating(ctx, pool, player)
		if err != nil {
			return PlayerRating{}, err
		}
		return *pr, nil
	})
}

// RebuildRatings is Store.RebuildRatings, in one transaction under the
// rating lock.
func (p *Postgres) RebuildRatings(ctx context.Context) (*RebuildReport, error) {
	rep := &RebuildReport{}
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		*rep = RebuildReport{}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgRatingLock)); err != nil {
			return fmt.Errorf("storage: lock the ratings: %w", err)
		}
		dump := func() (map[string]string, error) {
			rows, err := tx.Query(ctx, `SELECT pool, player, record FROM ratings`)
			if err != nil {
				return nil, err
			}
			m := map[string]string{}
			for rows.Next() {
				var pool, player, rec string
				if err := rows.Scan(&pool, &player, &rec); err != nil {
					return nil, err
				}
				m[pool+"\x00"+player] = rec
			}
			return m, rows.Err()
		}
		before, err := dump()
		if err != nil {
			return err
		}
		for _, table := range []string{"ratings", "rating_history"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table); err != nil {
				return err
			}
		}
		// Only rated games matter (ratedInOrder checks each record); the
		// pattern skips the others without decoding them.
		rows, err := tx.Query(ctx, `SELECT record FROM archive WHERE record LIKE '%"rated":true%'`)
		if err != nil {
			return err
		}
		var all []*Archived
		for rows.Next() {
			var rec string
			if err := rows.Scan(&rec); err != nil {
				return err
			}
			if a, err := decodeArchive([]byte(rec)); err == nil {
				all = append(all, a)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		seq, err := rerate(ctx, pgRatings{tx}, p.starts, all, rep)
		if err != nil {
			return err
		}
		// The sequence never goes back (annulments advance it too): an
		// annulment's check compares it with the one its snapshot read.
		if seq > 0 {
			if _, err := tx.Exec(ctx, `SELECT setval('rating_seq', greatest($1, (SELECT last_value FROM rating_seq)))`, int64(seq)); err != nil {
				return err
			}
		}
		after, err := dump()
		if err != nil {
			return err
		}
		compareRatings(rep, before, after)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// GameRatingChanges is Store.GameRatingChanges.
func (p *Postgres) GameRatingChanges(ctx context.Context, gameID string) ([]RatingChange, error) {
	a, err := p.ArchivedGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if !a.Rated {
		return nil, nil
	}
	var out []RatingChange
	for _, pool := range ratingPools(a) {
		for _, pl := range []Player{a.Black, a.White} {
			var rec string
			err := p.pool.QueryRow(ctx, `SELECT record FROM rating_history WHERE player = $1 AND pool = $2 AND seq = $3`, pl.Key(), pool, int64(a.RatingSeq)).Scan(&rec)
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("storage: rating change of game %s: %w", gameID, err)
			}
			var c RatingChange
			if err := json.Unmarshal([]byte(rec), &c); err != nil {
				return nil, fmt.Errorf("storage: rating change of game %s: %w: %w", gameID, ErrCorrupt, err)
			}
			out = append(out, c)
		}
	}
	return out, nil
}
