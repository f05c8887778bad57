package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// GuildActiveGames is Store.GuildActiveGames, on the games_by_guild index.
func (p *Postgres) GuildActiveGames(ctx context.Context, guildID string, offset, limit int) (*GameList, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, err
	}
	list := &GameList{}
	if err := p.pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE guild_id = $1`, guildID).Scan(&list.Total); err != nil {
		return nil, fmt.Errorf("storage: games of %s: %w", guildID, err)
	}
	// The page's channels first, from the index alone, then their records:
	// an OFFSET deep into the list skips index entries, not records.
	games, err := p.loadGames(ctx, `SELECT g.channel_id, g.record FROM games g JOIN (
			SELECT channel_id, created_ns FROM games WHERE guild_id = $1
			ORDER BY created_ns DESC, channel_id COLLATE "C" DESC OFFSET $2 LIMIT $3) page USING (channel_id)
		ORDER BY page.created_ns DESC, g.channel_id COLLATE "C" DESC`, guildID, offset, limit)
	// A damaged record is left out, as by the bbolt store: it is
	// quarantined when its channel is used.
	if err != nil && len(CorruptChannels(err)) == 0 {
		return nil, err
	}
	list.Games = games
	return list, nil
}

// GuildChallenges is Store.GuildChallenges.
func (p *Postgres) GuildChallenges(ctx context.Context, guildID string) ([]*Challenge, error) {
	rows, err := p.pool.Query(ctx, `SELECT record FROM challenges WHERE record::jsonb ->> 'guild' = $1`, guildID)
	if err != nil {
		return nil, fmt.Errorf("storage: challenges of %s: %w", guildID, err)
	}
	defer rows.Close()
	var out []*Challenge
	for rows.Next() {
		var rec string
		if err := rows.Scan(&rec); err != nil {
			return nil, err
		}
		if c, err := decodeChallenge([]byte(rec)); err == nil {
			out = append(out, c)
		}
	}
	sortChallenges(out)
	return out, rows.Err()
}

// Settings is Store.Settings.
func (p *Postgres) Settings(ctx context.Context, guildID string) (*Settings, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, err
	}
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM guild_settings WHERE guild_id = $1`, guildID).Scan(&rec)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return decodeSettings(guildID, nil)
	case err != nil:
		return nil, fmt.Errorf("storage: settings of %s: %w", guildID, err)
	}
	return decodeSettings(guildID, []byte(rec))
}

// PutSettings is Store.PutSettings: one UPDATE … WHERE version = the one
// read (an INSERT for a server's first settings).
func (p *Postgres) PutSettings(ctx context.Context, st *Settings, e AuditEntry) error {
	if err := st.validate(); err != nil {
		return err
	}
	now := p.now()
	c := *st
	c.Version, c.UpdatedAt = st.Version+1, now
	v, err := json.Marshal(&c)
	if err != nil {
		return err
	}
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		sql := `UPDATE guild_settings SET version = $3, record = $4 WHERE guild_id = $1 AND version = $2`
		if st.Version == 0 {
			sql = `INSERT INTO guild_settings (guild_id, version, record) SELECT $1, $3, $4 WHERE $2::bigint = 0 ON CONFLICT DO NOTHING`
		}
		tag, err := tx.Exec(ctx, sql, c.GuildID, int64(st.Version), int64(c.Version), string(v))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("storage: settings of %s: read version %d is no longer stored: %w", c.GuildID, st.Version, ErrConflict)
		}
		return pgAppendAudit(ctx, tx, e, now)
	})
	if err != nil {
		return err
	}
	st.Version, st.UpdatedAt = c.Version, now
	return nil
}

// Ban is Store.Ban.
func (p *Postgres) Ban(ctx context.Context, guildID, userID string) (*Ban, error) {
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM bans WHERE guild_id = $1 AND user_id = $2`, guildID, userID).Scan(&rec)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("storage: no ban of %s on %s: %w", userID, guildID, ErrNotFound)
	case err != nil:
		return nil, fmt.Errorf("storage: ban of %s on %s: %w", userID, guildID, err)
	}
	b := new(Ban)
	if err := json.Unmarshal([]byte(rec), b); err != nil {
		return nil, fmt.Errorf("storage: ban of %s on %s: %w: %w", userID, guildID, ErrCorrupt, err)
	}
	return b, nil
}

// GuildBans is Store.GuildBans.
func (p *Postgres) GuildBans(ctx context.Context, guildID string) ([]*Ban, error) {
	rows, err := p.pool.Query(ctx, `SELECT user_id, record FROM bans WHERE guild_id = $1`, guildID)
	if err != nil {
		return nil, fmt.Errorf("storage: bans on %s: %w", guildID, err)
	}
	defer rows.Close()
	var out []*Ban
	for rows.Next() {
		var user, rec string
		if err := rows.Scan(&user, &rec); err != nil {
			return nil, fmt.Errorf("storage: bans on %s: %w", guildID, err)
		}
		b := new(Ban)
		if err := json.Unmarshal([]byte(rec), b); err != nil {
			return nil, fmt.Errorf("storage: ban of %s on %s: %w: %w", user, guildID, ErrCorrupt, err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: bans on %s: %w", guildID, err)
	}
	slices.SortFunc(out, banOrder)
	return out, nil
}

// PutBan is Store.PutBan.
func (p *Postgres) PutBan(ctx context.Context, b Ban, replaces *Ban, e AuditEntry) error {
	if err := b.validate(); err != nil {
		return err
	}
	now := p.now()
	if b.At.IsZero() {
		b.At = now
	}
	v, err := json.Marshal(&b)
	if err != nil {
		return err
	}
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		// The lock on the user's games there, which a new game's
		// transaction holds while it reads their ban (pgCheckPlayLimit):
		// a game starting now is committed before the ban, and the
		// ban's caller then sees it, or it sees the ban and is refused.
		if err := pgPlayerLock(ctx, tx, b.GuildID, b.User.UserID); err != nil {
			return err
		}
		// The lock serialises bans of the user too: the ban read now is
		// the one in force until this transaction ends (an unban waits
		// for the row).
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM bans WHERE guild_id = $1 AND user_id = $2 FOR UPDATE`, b.GuildID, b.User.UserID).Scan(&rec)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var stored []byte
		if err == nil {
			stored = []byte(rec)
		}
		if err := checkReplaces(stored, &b, replaces, now); err != nil {
			return err
		}
		// The log first: it logs the lapse of an earlier ban of the user
		// before this one replaces it.
		if err := pgAppendAudit(ctx, tx, e, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO bans (guild_id, user_id, record) VALUES ($1, $2, $3)
			ON CONFLICT (guild_id, user_id) DO UPDATE SET record = $3`, b.GuildID, b.User.UserID, string(v))
		return err
	})
}

// LiftBan is Store.LiftBan.
func (p *Postgres) LiftBan(ctx context.Context, guildID, userID string, by Player, e AuditEntry) (*Ban, error) {
	now := p.now()
	var lifted *Ban
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM bans WHERE guild_id = $1 AND user_id = $2 FOR UPDATE`, guildID, userID).Scan(&rec)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var v []byte
		if err == nil {
			v = []byte(rec)
		}
		b, err := liftBan(v, guildID, userID, by, now)
		if err != nil {
			return err
		}
		out, err := json.Marshal(b)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE bans SET record = $3 WHERE guild_id = $1 AND user_id = $2`, guildID, userID, string(out)); err != nil {
			return err
		}
		lifted = b
		return pgAppendAudit(ctx, tx, e, now)
	})
	return lifted, err
}

// AppendAudit is Store.AppendAudit.
func (p *Postgres) AppendAudit(ctx context.Context, e AuditEntry) error {
	now := p.now()
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error { return pgAppendAudit(ctx, tx, e, now) })
}

// pgAppendAudit is appendAudit: e, after the lapses of the server's bans
// not yet logged.
func pgAppendAudit(ctx context.Context, tx pgx.Tx, e AuditEntry, now time.Time) error {
	if err := e.validate(); err != nil {
		return err
	}
	if err := pgLogLapses(ctx, tx, e.GuildID, now); err != nil {
		return err
	}
	return pgPutAudit(ctx, tx, e, now)
}

// pgLapse is a ban that lapsed with its record as read.
type pgLapse struct {
	ban *Ban
	rec string
}

// pgLapses returns the bans of a server that lapsed by now and are not in
// its log yet, in the order they lapsed.
func pgLapses(ctx context.Context, q pgQuerier, guild string, now time.Time) ([]pgLapse, error) {
	rows, err := q.Query(ctx, `SELECT user_id, record FROM bans WHERE guild_id = $1`, guild)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pgLapse
	for rows.Next() {
		var user, rec string
		if err := rows.Scan(&user, &rec); err != nil {
			return nil, err
		}
		b := new(Ban)
		if json.Unmarshal([]byte(rec), b) == nil && b.lapsedUnlogged(now) && b.User.UserID == user {
			out = append(out, pgLapse{b, rec})
		}
	}
	slices.SortFunc(out, func(x, y pgLapse) int { return lapseOrder(x.ban, y.ban) })
	return out, rows.Err()
}

// pgLogLapses logs, in tx, the lapses of a server's bans not logged yet
// (see AuditLapse). Each ban is marked by an UPDATE that expects the
// record as read: of several transactions logging the same lapse at once,
// the first to commit marks it and the others' UPDATEs, which wait for it
// and then find another record, change nothing; only a marked lapse is
// logged, so each is logged once.
func pgLogLapses(ctx context.Context, tx pgx.Tx, guild string, now time.Time) error {
	lapsed, err := pgLapses(ctx, tx, guild, now)
	if err != nil {
		return err
	}
	for _, l := range lapsed {
		e := l.ban.lapseEntry()
		v, err := json.Marshal(l.ban)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE bans SET record = $4 WHERE guild_id = $1 AND user_id = $2 AND record = $3`,
			guild, l.ban.User.UserID, l.rec, string(v))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			continue // logged (or replaced) by another transaction meanwhile
		}
		if err := pgPutAudit(ctx, tx, e, now); err != nil {
			return err
		}
	}
	return nil
}

// pgPutAudit adds e to the log in tx.
func pgPutAudit(ctx context.Context, tx pgx.Tx, e AuditEntry, now time.Time) error {
	var seq int64
	if err := tx.QueryRow(ctx, `SELECT nextval('audit_seq')`).Scan(&seq); err != nil {
		return err
	}
	e, v, err := auditRecord(e, uint64(seq), now)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO audit_log (seq, guild_id, record) VALUES ($1, $2, $3)`, seq, e.GuildID, string(v))
	return err
}

// AuditLog is Store.AuditLog.
func (p *Postgres) AuditLog(ctx context.Context, guildID string, offset, limit int) ([]AuditEntry, int, error) {
	if err := checkID("guild ID", guildID); err != nil {
		return nil, 0, err
	}
	now := p.now()
	lapsed, err := pgLapses(ctx, p.pool, guildID, now)
	if err == nil && len(lapsed) > 0 {
		err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error { return pgLogLapses(ctx, tx, guildID, now) })
	}
	if err != nil {
		return nil, 0, fmt.Errorf("storage: audit log of %s: %w", guildID, err)
	}
	var total int
	if err := p.pool.QueryRow(ctx, `SELECT count(*) FROM audit_log WHERE guild_id = $1`, guildID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("storage: audit log of %s: %w", guildID, err)
	}
	rows, err := p.pool.Query(ctx, `SELECT record FROM audit_log WHERE guild_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3`, guildID, offset, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("storage: audit log of %s: %w", guildID, err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var rec string
		if err := rows.Scan(&rec); err != nil {
			return nil, 0, err
		}
		var e AuditEntry
		if err := json.Unmarshal([]byte(rec), &e); err != nil {
			return nil, 0, fmt.Errorf("storage: audit log of %s: %w: %w", guildID, ErrCorrupt, err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// pgRatedUpTo is the last rating sequence number of a game whose rating
// has committed: read under the rating lock, which FinishGame holds from
// taking its number to its commit.
func (p *Postgres) pgRatedUpTo(ctx context.Context) (uint64, error) {
	var seq int64
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgRatingLock)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM rating_seq`).Scan(&seq)
	})
	return uint64(seq), err
}

// AnnulGame is Store.AnnulGame. The pools are recomputed from a snapshot
// taken without holding the rating lock; the write takes it and starts
// again when a game was rated or another annulled meanwhile (an annulment
// that changes ratings advances rating_seq too). The last attempt holds
// the lock throughout (games being finished wait for it; moves never do).
func (p *Postgres) AnnulGame(ctx context.Context, guildID, id string, record []byte, e AuditEntry) (*Archived, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		a, err := p.annulOnce(ctx, guildID, id, record, e, attempt == annulAttempts)
		if !errors.Is(err, errRated) {
			return a, err
		}
	}
}

// pgQuerier is a pool or a transaction.
type pgQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// pgAnnulRead reads what an annulment needs through q: the game, and the
// rated games of its pools (none for a game that was not rated).
func pgAnnulRead(ctx context.Context, q pgQuerier, guildID, id string) (a *Archived, rec string, pools []string, all []*Archived, err error) {
	err = q.QueryRow(ctx, `SELECT record FROM archive WHERE id = $1 AND guild_id = $2`, id, guildID).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) || guildID == "" {
		return nil, "", nil, nil, fmt.Errorf("storage: annul game %s: no such game on %s: %w", id, guildID, ErrNotFound)
	}
	if err != nil {
		return nil, "", nil, nil, err
	}
	if a, err = decodeArchive([]byte(rec)); err != nil {
		return nil, "", nil, nil, fmt.Errorf("storage: annul game %s: %w: %w", id, ErrCorrupt, err)
	}
	if a.Annulled {
		return nil, "", nil, nil, fmt.Errorf("storage: annul game %s: %w", id, ErrAnnulled)
	}
	pools = annulPools(a)
	if len(pools) == 0 {
		return a, rec, nil, nil, nil
	}
	sql, args := `SELECT record FROM archive WHERE record LIKE '%"rated":true%' AND id <> $1`, []any{id}
	if !slices.Contains(pools, KindPool(a.Kind, GlobalPool)) { // the kind's global pool: every server's games
		sql, args = sql+` AND guild_id = $2`, append(args, guildID)
	}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, "", nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, "", nil, nil, err
		}
		if g, err := decodeArchive([]byte(r)); err == nil && g.Rated {
			all = append(all, g)
		}
	}
	return a, rec, pools, all, rows.Err()
}

// annulOnce is one attempt of AnnulGame: with locked, in one transaction
// under the rating lock; else recomputing outside it (errRated when a
// game was rated meanwhile).
func (p *Postgres) annulOnce(ctx context.Context, guildID, id string, record []byte, e AuditEntry, locked bool) (*Archived, error) {
	var (
		a     *Archived
		rec   string
		pools []string
		all   []*Archived
		seq   uint64
		err   error
	)
	if !locked {
		if seq, err = p.pgRatedUpTo(ctx); err != nil {
			return nil, fmt.Errorf("storage: annul game %s: %w", id, err)
		}
		if a, rec, pools, all, err = pgAnnulRead(ctx, p.pool, guildID, id); err != nil {
			return nil, err
		}
	}
	var mem *memRatings
	if !locked {
		// Recomputed before the rating lock is taken.
		if p.recomputing != nil {
			p.recomputing()
		}
		if mem, err = recomputePools(ctx, p.starts, all, pools, seq); err != nil {
			return nil, err
		}
	}
	var out *Archived
	now := p.now()
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgRatingLock)); err != nil {
			return err
		}
		var cur int64
		if err := tx.QueryRow(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM rating_seq`).Scan(&cur); err != nil {
			return err
		}
		if locked {
			var err error
			seq = uint64(cur)
			if a, rec, pools, all, err = pgAnnulRead(ctx, tx, guildID, id); err != nil {
				return err
			}
		}
		var stored string
		if err := tx.QueryRow(ctx, `SELECT record FROM archive WHERE id = $1 FOR UPDATE`, id).Scan(&stored); err != nil {
			return err
		}
		if uint64(cur) != seq || stored != rec {
			return errRated
		}
		if locked {
			var err error
			if mem, err = recomputePools(ctx, p.starts, all, pools, seq); err != nil {
				return err
			}
		}
		out = annulled(a)
		val, err := json.Marshal(out)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE archive SET record = $2 WHERE id = $1`, id, string(val)); err != nil {
			return err
		}
		if record != nil {
			if _, err := tx.Exec(ctx, `UPDATE archive SET sgf = $2 WHERE id = $1`, id, record); err != nil {
				return err
			}
		}
		if err := pgRecount(ctx, tx, out); err != nil {
			return err
		}
		if len(pools) > 0 {
			if err := pgReplacePools(ctx, tx, mem, pools, a.RatingSeq); err != nil {
				return err
			}
			// Another annulment recomputing from a snapshot in which
			// this game still counted then fails its check and starts
			// again, rather than putting the game back into the ratings.
			if _, err := tx.Exec(ctx, `SELECT nextval('rating_seq')`); err != nil {
				return err
			}
		}
		return pgAppendAudit(ctx, tx, e, now)
	})
	if err != nil {
		return nil, err
	}
	if record != nil {
		out.SGF = record
	}
	return out, nil
}

// pgPlayerGames returns the archived games of the player with key, in the
// order they finished; records that cannot be decoded are left out.
func pgPlayerGames(ctx context.Context, q pgQuerier, key string) ([]*Archived, error) {
	rows, err := q.Query(ctx, `SELECT a.record FROM archive_by_player p JOIN archive a ON a.id = p.id
		WHERE p.player = $1 ORDER BY p.finished_ns, p.id COLLATE "C"`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []*Archived
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, err
		}
		if g, err := decodeArchive([]byte(r)); err == nil {
			games = append(games, g)
		}
	}
	return games, rows.Err()
}

// pgRecount recounts the statistics of a's players from their archived
// games in tx.
func pgRecount(ctx context.Context, tx pgx.Tx, a *Archived) error {
	// Locked first, in the order every transaction locks players' rows in.
	if _, err := pgLockPlayers(ctx, tx, countedKeys(a), false); err != nil {
		return err
	}
	for _, side := range countedSides(a) {
		key := a.Player(side).Key()
		games, err := pgPlayerGames(ctx, tx, key)
		if err != nil {
			return err
		}
		st := recountStats(key, games)
		if st.Games == 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM players WHERE key = $1`, key); err != nil {
				return err
			}
			continue
		}
		v, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET record = $2 WHERE key = $1`, key, string(v)); err != nil {
			return err
		}
	}
	return nil
}

// pgReplacePools makes the stored ratings of pools those of mem, and their
// history from the annulled game's rating (from, the first that changes)
// on.
func pgReplacePools(ctx context.Context, tx pgx.Tx, mem *memRatings, pools []string, from uint64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM ratings WHERE pool = ANY($1)`, pools); err != nil {
		return err
	}
	var rows [][]any
	for _, pr := range mem.ratings {
		v, err := json.Marshal(pr)
		if err != nil {
			return err
		}
		rows = append(rows, []any{pr.Pool, pr.Player.Key(), pr.Rating.Rating, pr.RD, pr.Volatility, pr.Last.UnixNano(), string(v)})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"ratings"}, []string{"pool", "player", "rating", "rd", "volatility", "last_ns", "record"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM rating_history WHERE pool = ANY($1) AND seq >= $2`, pools, int64(from)); err != nil {
		return err
	}
	rows = rows[:0]
	for _, c := range mem.changes {
		if c.Seq < from {
			continue
		}
		v, err := json.Marshal(c)
		if err != nil {
			return err
		}
		rows = append(rows, []any{c.Player, c.Pool, int64(c.Seq), string(v)})
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"rating_history"}, []string{"player", "pool", "seq", "record"}, pgx.CopyFromRows(rows))
	return err
}

// GuildGame is Store.GuildGame.
func (p *Postgres) GuildGame(ctx context.Context, guildID, id string) (*Game, error) {
	var channel, rec string
	err := p.pool.QueryRow(ctx, `SELECT channel_id, record FROM games WHERE id = $1 AND guild_id = $2`, id, guildID).Scan(&channel, &rec)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("storage: no game %s in play on %s: %w", id, guildID, ErrNotFound)
	case err != nil:
		return nil, fmt.Errorf("storage: game %s: %w", id, err)
	}
	return decodeGame(p.kinds, channel, []byte(rec))
}
