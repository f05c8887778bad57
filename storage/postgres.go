package storage

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgMigrations are the PostgreSQL schema's versions: NNNN_name.sql, applied
// in order, each once.
//
//go:embed migrations/postgres/*.sql
var pgMigrations embed.FS

// Postgres is the PostgreSQL-backed store (GOBOT_DATABASE_URL), for several
// gobot processes sharing one database. It has the Store's behaviour for
// everything commands uses: optimistic versions (an UPDATE … WHERE
// version = the one read; of two racing writers exactly one wins), the
// challenge, archive and statistics methods, the same sentinel errors and
// the same record encoding, so gobot migrate-db copies records as they are.
// It is safe for concurrent use, also from several processes.
type Postgres struct {
	pool  *pgxpool.Pool
	log   *slog.Logger
	clock func() time.Time
	// starts are the bot levels' start ratings (Options.StartRatings).
	starts StartRatings
	kinds  *game.Kinds // Options.Kinds

	// recomputing, when set (tests), is called as an annulment starts to
	// recompute its pools without the rating lock (see annulOnce).
	recomputing func()
}

// OpenPostgres connects to the database at url (postgres://…), applies the
// schema migrations it lacks in one transaction (several processes starting
// at once take turns on an advisory lock), and refuses a database whose
// schema is newer than this build knows (ErrSchemaTooNew); with
// opts.ExistingSchema it migrates nothing (see Options). Of opts it uses
// Logger, Now, StartRatings, Kinds and ExistingSchema.
//
// A URL that CheckPostgresURL refuses is refused with its *URLError before
// pgx reads it. Connecting, OpenPostgres logs the server (host:port, never
// the password) and tries again while the server does not answer (each
// attempt bounded by the URL's connect_timeout, DefaultConnectTimeout when
// it sets none), until ctx ends; a connection refused or a server that
// answers with an error (a wrong password) is not tried again. No error it
// returns quotes the password.
func OpenPostgres(ctx context.Context, url string, opts Options) (*Postgres, error) {
	if err := CheckPostgresURL(url); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, &URLError{Reason: "cannot be used: " + parseReason(err, url)}
	}
	if cfg.ConnConfig.ConnectTimeout <= 0 {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, redactErr(fmt.Errorf("storage: connect to PostgreSQL: %w", err), url)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	p := &Postgres{pool: pool, log: log, clock: clock, starts: opts.StartRatings, kinds: opts.Kinds}
	if err := p.connect(ctx, pgServer(cfg)); err != nil {
		pool.Close()
		return nil, redactErr(err, url)
	}
	migrate := p.migrate
	if opts.ExistingSchema {
		migrate = p.checkSchema
	}
	if err := migrate(ctx); err != nil {
		pool.Close()
		return nil, redactErr(err, url)
	}
	return p, nil
}

// checkSchema refuses a database whose schema is not this build's, as
// Options.ExistingSchema says, changing nothing.
func (p *Postgres) checkSchema(ctx context.Context) error {
	var exists bool
	if err := p.pool.QueryRow(ctx, `SELECT to_regclass('gobot_schema') IS NOT NULL`).Scan(&exists); err != nil {
		return fmt.Errorf("storage: read the schema version: %w", err)
	}
	if !exists {
		return &schemaError{msg: "storage: the PostgreSQL database has no gobot tables: it is not gobot's database, or no gobot worker has started on it yet", err: ErrNoSchema}
	}
	var have int
	if err := p.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM gobot_schema`).Scan(&have); err != nil {
		return fmt.Errorf("storage: read the schema version: %w", err)
	}
	switch known := PostgresSchemaVersion(); {
	case have > known:
		return &schemaError{msg: fmt.Sprintf("storage: PostgreSQL schema %d, this build knows up to %d: use the build the workers run", have, known), err: ErrSchemaTooNew}
	case have < known:
		return &schemaError{msg: fmt.Sprintf("storage: PostgreSQL schema %d, this build expects %d: the workers of this build migrate it when they start; use the build the workers run", have, known), err: ErrSchemaTooOld}
	}
	return nil
}

// schemaError is checkSchema's refusal: its message says what is wrong,
// and it wraps the sentinel (ErrNoSchema…) without repeating it.
type schemaError struct {
	msg string
	err error
}

func (e *schemaError) Error() string { return e.msg }
func (e *schemaError) Unwrap() error { return e.err }

// DefaultConnectTimeout bounds one attempt to connect to PostgreSQL when
// the URL sets no connect_timeout: a server that accepts the connection
// and never answers (stopped, or behind a firewall that drops packets) is
// tried again, and said so, instead of holding start-up in silence.
const DefaultConnectTimeout = 10 * time.Second

// pgRetryFirst and pgRetryMax are the pauses between attempts to connect
// at start-up: the first, doubling up to the most.
const (
	pgRetryFirst = 500 * time.Millisecond
	pgRetryMax   = 5 * time.Second
)

// pgServer is the server(s) cfg connects to, as host:port, for the log
// and errors (the URL's user and password are not in it).
func pgServer(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	all := []string{net.JoinHostPort(c.Host, strconv.Itoa(int(c.Port)))}
	for _, f := range c.Fallbacks {
		if s := net.JoinHostPort(f.Host, strconv.Itoa(int(f.Port))); !slices.Contains(all, s) {
			all = append(all, s)
		}
	}
	return strings.Join(all, ", ")
}

// connect waits until the pool has a connection to server, trying again
// while the server does not answer in time (a connection refused, or an
// error the server answers with, fails at once), as OpenPostgres says.
func (p *Postgres) connect(ctx context.Context, server string) error {
	start := time.Now()
	p.log.Info("storage: connecting to PostgreSQL", "server", server)
	pause := pgRetryFirst
	for attempt := 1; ; attempt++ {
		err := p.pool.Ping(ctx)
		if err != nil {
			err = oneLine(err)
		}
		if err == nil {
			if attempt > 1 {
				p.log.Info("storage: connected to PostgreSQL", "server", server, "after", time.Since(start).Round(time.Millisecond))
			}
			return nil
		}
		if ctx.Err() == nil && !pgconn.Timeout(err) {
			// Refused, or answered with an error (a wrong password):
			// trying again would not change it. The server's answer is
			// the reason, not what pgx tried before it (a TLS attempt
			// the server refused, under sslmode=prefer).
			var answer *pgconn.PgError
			if errors.As(err, &answer) {
				err = answer
			}
			return fmt.Errorf("storage: connect to PostgreSQL at %s: %w", server, err)
		}
		if ctx.Err() == nil {
			p.log.Warn("storage: PostgreSQL does not answer; trying again", "server", server, "attempt", attempt, "err", err)
			t := time.NewTimer(pause)
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
			pause = min(2*pause, pgRetryMax)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("storage: PostgreSQL at %s did not answer; gave up after %v (%w): %w", server, time.Since(start).Round(time.Second), ctx.Err(), err)
		}
	}
}

// PostgresSchemaVersion is the newest PostgreSQL schema this build knows:
// the number of its newest migration file.
func PostgresSchemaVersion() int {
	steps, err := pgSteps()
	if err != nil || len(steps) == 0 {
		return 0
	}
	return steps[len(steps)-1].version
}

type pgStep struct {
	version int
	name    string
}

// pgSteps lists the embedded migrations in order.
func pgSteps() ([]pgStep, error) {
	files, err := fs.Glob(pgMigrations, "migrations/postgres/*.sql")
	if err != nil {
		return nil, err
	}
	var steps []pgStep
	for _, f := range files {
		num, _, ok := strings.Cut(path.Base(f), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("storage: migration %s is not named NNNN_name.sql", f)
		}
		steps = append(steps, pgStep{v, f})
	}
	slices.SortFunc(steps, func(a, b pgStep) int { return a.version - b.version })
	return steps, nil
}

// pgMigrateLock is the advisory lock key that serialises start-up migrations.
const pgMigrateLock = 0x676f626f74 // "gobot"

func (p *Postgres) migrate(ctx context.Context) error {
	steps, err := pgSteps()
	if err != nil {
		return err
	}
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgMigrateLock)); err != nil {
			return fmt.Errorf("storage: lock the schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS gobot_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("storage: create the schema table: %w", err)
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM gobot_schema`).Scan(&have); err != nil {
			return fmt.Errorf("storage: read the schema version: %w", err)
		}
		known := 0
		if len(steps) > 0 {
			known = steps[len(steps)-1].version
		}
		if have > known {
			return fmt.Errorf("storage: PostgreSQL schema %d, this build knows up to %d: %w", have, known, ErrSchemaTooNew)
		}
		for _, st := range steps {
			if st.version <= have {
				continue
			}
			sql, err := pgMigrations.ReadFile(st.name)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return fmt.Errorf("storage: migration %s: %w", path.Base(st.name), err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO gobot_schema (version) VALUES ($1)`, st.version); err != nil {
				return err
			}
			p.log.Info("storage: applied PostgreSQL migration", "migration", path.Base(st.name))
		}
		return nil
	})
}

// Close closes the connections. Calls after Close fail.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Pool returns the connection pool, for the background-work leases that
// share the database (commands' PostgreSQL job queue).
func (p *Postgres) Pool() *pgxpool.Pool { return p.pool }

func (p *Postgres) now() time.Time { return p.clock().UTC() }

// Check reports whether the database answers and has the schema this build
// expects (for GET /healthz). The database's own constraints keep the
// indexes consistent, so unlike the bbolt Check it reads no records.
func (p *Postgres) Check(ctx context.Context) error {
	var v int
	if err := p.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM gobot_schema`).Scan(&v); err != nil {
		return fmt.Errorf("storage: check PostgreSQL: %w", err)
	}
	if want := PostgresSchemaVersion(); v != want {
		return fmt.Errorf("storage: check PostgreSQL: schema %d, want %d", v, want)
	}
	return nil
}

// uniqueViolation reports whether err is PostgreSQL's unique_violation.
func uniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// pgStored is the part of a stored game that writes check.
type pgStored struct {
	id      string
	version uint64
	players []string // the players' keys in side order
}

// pgBegin runs fn in a transaction on db at READ COMMITTED, whatever the
// server's default isolation: the store's locks rely on it. A count taken
// after an advisory lock (the pair limit, the play limit) must see what
// the transaction it waited for committed, and a row locked FOR UPDATE
// after another transaction changed it is read anew rather than failing
// with a serialization error, as it would at REPEATABLE READ.
func pgBegin(ctx context.Context, db interface {
	BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
}, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, db, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, fn)
}

// storedGame reads the header of the game in channel (FOR UPDATE inside a
// transaction when lock is set); ok is false when there is none.
func storedGame(ctx context.Context, q pgx.Tx, channel string, lock bool) (h pgStored, ok bool, err error) {
	sql := `SELECT id, version, players FROM games WHERE channel_id = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	err = q.QueryRow(ctx, sql, channel).Scan(&h.id, &h.version, &h.players)
	if errors.Is(err, pgx.ErrNoRows) {
		return h, false, nil
	}
	return h, err == nil, err
}

// why explains, after a version-checked write changed no row, what the
// stored game is instead: gone (ErrNotFound), another game (ErrNotFound),
// another version (ErrConflict) or other players (ErrInvalid).
func (p *Postgres) why(ctx context.Context, op string, want gameHeader) error {
	var h pgStored
	err := p.pool.QueryRow(ctx, `SELECT id, version, players FROM games WHERE channel_id = $1`, want.ChannelID).Scan(&h.id, &h.version, &h.players)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("storage: %s game %s: no active game in channel %s: %w", op, want.ID, want.ChannelID, ErrNotFound)
	case err != nil:
		return fmt.Errorf("storage: %s game %s: %w", op, want.ID, err)
	}
	return mismatch(op, want, h)
}

// mismatch is the error for a write of want over the stored h, or nil when
// they agree.
func mismatch(op string, want gameHeader, h pgStored) error {
	switch {
	case h.id != want.ID:
		return fmt.Errorf("storage: %s game %s: channel %s now holds game %s: %w", op, want.ID, want.ChannelID, h.id, ErrNotFound)
	case h.version != want.Version:
		return fmt.Errorf("storage: %s game %s: read version %d, stored version %d: %w", op, want.ID, want.Version, h.version, ErrConflict)
	case op == "update" && !slices.Equal(h.players, playerKeysOf(want.players())):
		return fmt.Errorf("storage: update game %s: players cannot change (%v to %v): %w",
			want.ID, h.players, playerKeysOf(want.players()), ErrInvalid)
	}
	return nil
}

// CreateGame is Store.CreateGame.
func (p *Postgres) CreateGame(ctx context.Context, g *Game) error {
	c, val, now, err := prepareGame(p.kinds, g, p.now())
	if err != nil {
		return err
	}
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error { return pgPutNewGame(ctx, tx, &c, val, now) })
	if err != nil {
		return err
	}
	g.ID, g.Kind, g.CreatedAt, g.UpdatedAt, g.Version = c.ID, c.Kind, c.CreatedAt, now, 1
	return nil
}

// pgPutNewGame inserts a new active game in tx, queueing its bot's move
// when owed, unless one of its people is banned on its server or would go
// over its limit (pgCheckPlayLimit).
func pgPutNewGame(ctx context.Context, tx pgx.Tx, g *Game, val []byte, now time.Time) error {
	var archived bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM archive WHERE id = $1)`, g.ID).Scan(&archived); err != nil {
		return err
	}
	if archived {
		return fmt.Errorf("storage: game ID %s is already archived: %w", g.ID, ErrExists)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO games (channel_id, id, version, players, due_ns, record) VALUES ($1, $2, 1, $3, $4, $5) ON CONFLICT DO NOTHING`,
		g.ChannelID, g.ID, playerKeysOf(g.Players()), timeNS(g.Due()), string(val))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		what := "a game"
		if h, ok, err := storedGame(ctx, tx, g.ChannelID, false); err == nil && ok {
			what = "game " + h.id
		}
		return fmt.Errorf("storage: channel %s already has %s: %w", g.ChannelID, what, ErrExists)
	}
	if err := pgCheckPlayLimit(ctx, tx, g, now); err != nil {
		return err
	}
	if err := pgNotifyGame(ctx, tx, g.ChannelID); err != nil {
		return err
	}
	return pgSyncBotQueue(ctx, tx, owedOf(g), now)
}

// Game is Store.Game.
func (p *Postgres) Game(ctx context.Context, channelID string) (*Game, error) {
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM games WHERE channel_id = $1`, channelID).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("storage: no active game in channel %s: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: load game in channel %s: %w", channelID, err)
	}
	return decodeGame(p.kinds, channelID, []byte(rec))
}

// UpdateGame is Store.UpdateGame: one UPDATE … WHERE channel, ID, version
// and players are the ones read.
func (p *Postgres) UpdateGame(ctx context.Context, g *Game) error {
	if err := g.validate(); err != nil {
		return err
	}
	now := p.now()
	val, err := g.encode(g.Version+1, now)
	if err != nil {
		return err
	}
	want, owed := g.header(), owedOf(g)
	stale := false
	var k kept
	var h gameHeader
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var stored string
		err := tx.QueryRow(ctx, `SELECT record FROM games WHERE channel_id = $1 AND id = $2 AND version = $3 FOR UPDATE`,
			want.ChannelID, want.ID, want.Version).Scan(&stored)
		if errors.Is(err, pgx.ErrNoRows) {
			stale = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("storage: update game %s: %w", want.ID, err)
		}
		h, _ = decodeHeader([]byte(stored)) // a damaged record keeps no messages of its own
		rec := val
		if k, rec, err = g.withMessages(h, val, now); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE games SET version = version + 1, record = $5, due_ns = $6
			WHERE channel_id = $1 AND id = $2 AND version = $3 AND players = $4`,
			want.ChannelID, want.ID, want.Version, playerKeysOf(want.players()), string(rec), timeNS(g.Due()))
		if err != nil {
			return fmt.Errorf("storage: update game %s: %w", want.ID, err)
		}
		if stale = tag.RowsAffected() == 0; stale {
			return nil
		}
		if err := pgNotifyGame(ctx, tx, want.ChannelID); err != nil {
			return err
		}
		return pgSyncBotQueue(ctx, tx, owed, now)
	})
	if err != nil {
		return err
	}
	if stale {
		return p.why(ctx, "update", want)
	}
	g.Version++
	g.UpdatedAt = now
	k.give(g)
	g.learnLapsedVotes(h)
	return nil
}

// AbortGame is Store.AbortGame.
func (p *Postgres) AbortGame(ctx context.Context, g *Game) error {
	if err := g.checkChannel(); err != nil {
		return err
	}
	want := g.header()
	gone := false
	var rec string
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `DELETE FROM games WHERE channel_id = $1 AND id = $2 AND version = $3 RETURNING record`, want.ChannelID, want.ID, want.Version).Scan(&rec)
		if gone = errors.Is(err, pgx.ErrNoRows); gone {
			return nil
		}
		if err != nil {
			return err
		}
		return pgNotifyGame(ctx, tx, want.ChannelID)
	})
	if err != nil {
		return fmt.Errorf("storage: abort game %s: %w", want.ID, err)
	}
	if gone {
		return p.why(ctx, "abort", want)
	}
	stored, _ := decodeHeader([]byte(rec)) // a damaged record knows no request
	g.learnRemoved(stored)
	return nil
}

// QuarantineGame is Store.QuarantineGame.
func (p *Postgres) QuarantineGame(ctx context.Context, channelID string) error {
	if err := checkID("channel ID", channelID); err != nil {
		return err
	}
	now := p.now()
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM games WHERE channel_id = $1 FOR UPDATE`, channelID).Scan(&rec)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("storage: quarantine: no active game in channel %s: %w", channelID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if _, err := decodeGame(p.kinds, channelID, []byte(rec)); err == nil {
			return fmt.Errorf("storage: quarantine: game in channel %s is sound, abort it instead: %w", channelID, ErrInvalid)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO quarantine (channel_id, at_ns, record) VALUES ($1, $2, $3)`, channelID, now.UnixNano(), rec); err != nil {
			return err
		}
		if _, err = tx.Exec(ctx, `DELETE FROM games WHERE channel_id = $1`, channelID); err != nil {
			return err
		}
		return pgNotifyGame(ctx, tx, channelID)
	})
}

// QuarantinedGames is Store.QuarantinedGames.
func (p *Postgres) QuarantinedGames(ctx context.Context) ([]Quarantined, error) {
	rows, err := p.pool.Query(ctx, `SELECT channel_id, at_ns, record FROM quarantine ORDER BY channel_id, at_ns`)
	if err != nil {
		return nil, fmt.Errorf("storage: quarantined games: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Quarantined, error) {
		var q Quarantined
		var at int64
		var rec string
		err := r.Scan(&q.ChannelID, &at, &rec)
		q.At, q.Record = time.Unix(0, at).UTC(), []byte(rec)
		return q, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: quarantined games: %w", err)
	}
	whyQuarantined(p.kinds, out)
	return out, nil
}

// ActiveGames is Store.ActiveGames.
func (p *Postgres) ActiveGames(ctx context.Context) ([]*Game, error) {
	return p.loadGames(ctx, `SELECT channel_id, record FROM games ORDER BY channel_id`)
}

// PlayerActiveGames is Store.PlayerActiveGames.
func (p *Postgres) PlayerActiveGames(ctx context.Context, playerKey string) ([]*Game, error) {
	if err := checkID("player", playerKey); err != nil {
		return nil, err
	}
	return p.loadGames(ctx, `SELECT channel_id, record FROM games WHERE players @> ARRAY[$1::text] ORDER BY channel_id`, playerKey)
}

// loadGames decodes the (channel, record) rows of a query, joining one
// ErrCorrupt per record that does not decode.
func (p *Postgres) loadGames(ctx context.Context, sql string, args ...any) ([]*Game, error) {
	rows, err := p.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: load games: %w", err)
	}
	type raw struct{ channel, rec string }
	raws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (raw, error) {
		var x raw
		return x, r.Scan(&x.channel, &x.rec)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: load games: %w", err)
	}
	games := make([]*Game, 0, len(raws))
	var errs []error
	for _, r := range raws {
		if err := ctx.Err(); err != nil {
			return games, err
		}
		g, err := decodeGame(p.kinds, r.channel, []byte(r.rec))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
	return games, errors.Join(errs...)
}

// FinishGame is Store.FinishGame.
func (p *Postgres) FinishGame(ctx context.Context, g *Game, a Archived) error {
	now := p.now()
	ap, val, tie, err := archiveRecord(p.kinds, g, a, now)
	if err != nil {
		return err
	}
	e, err := auditOf(ctx)
	if err != nil {
		return err
	}
	want := g.header()
	var stored gameHeader
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		h, ok, err := storedGame(ctx, tx, want.ChannelID, true)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("storage: finish game %s: no active game in channel %s: %w", want.ID, want.ChannelID, ErrNotFound)
		}
		if err := mismatch("finish", want, h); err != nil {
			return err
		}
		var rec string
		if err := tx.QueryRow(ctx, `DELETE FROM games WHERE channel_id = $1 RETURNING record`, want.ChannelID).Scan(&rec); err != nil {
			return err
		}
		stored, _ = decodeHeader([]byte(rec)) // a damaged record knows no request
		if err := pgNotifyGame(ctx, tx, want.ChannelID); err != nil {
			return err
		}
		if e != nil {
			if err := pgAppendAudit(ctx, tx, *e, now); err != nil {
				return err
			}
		}
		a, v, err := pgCheckPairLimit(ctx, tx, ap, val)
		if err != nil {
			return err
		}
		if a.Rated {
			if a, v, err = pgRate(ctx, tx, p.starts, a, tie); err != nil {
				return err
			}
		}
		return pgPutArchive(ctx, tx, a, v, tie)
	})
	if err != nil {
		return err
	}
	g.learnRemoved(stored)
	return nil
}

// pgPutArchive writes an archived game, its index rows and the players'
// statistics in tx; ErrExists when the ID is taken.
func pgPutArchive(ctx context.Context, tx pgx.Tx, a *Archived, val []byte, tie bool) error {
	fin := a.FinishedAt.UnixNano()
	tag, err := tx.Exec(ctx, `INSERT INTO archive (id, channel_id, guild_id, finished_ns, record, sgf) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
		a.ID, a.ChannelID, a.GuildID, fin, string(val), a.SGF)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("storage: game %s is already archived: %w", a.ID, ErrExists)
	}
	for _, key := range a.PlayerKeys() {
		if _, err := tx.Exec(ctx, `INSERT INTO archive_by_player (player, finished_ns, id) VALUES ($1, $2, $3)`, key, fin, a.ID); err != nil {
			return err
		}
	}
	if a.Annulled {
		return nil // in the players' history, never counted (countGame)
	}
	recs, err := pgLockPlayers(ctx, tx, countedKeys(a), true)
	if err != nil {
		return err
	}
	for _, side := range countedSides(a) {
		key := a.Player(side).Key()
		rec := recs[key]
		st := new(PlayerStats)
		if json.Unmarshal([]byte(rec), st) != nil {
			st = new(PlayerStats) // as bbolt: a damaged record starts afresh
		}
		if st.outdated() {
			// As bbolt: recounted from the history, this game included.
			games, err := pgPlayerGames(ctx, tx, key)
			if err != nil {
				return err
			}
			st = recountStats(key, games)
		} else {
			st.count(a, side, tie)
		}
		out, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE players SET record = $2 WHERE key = $1`, key, string(out)); err != nil {
			return err
		}
	}
	return nil
}

// countedKeys returns the keys of the players whose statistics a counts
// for (countedSides).
func countedKeys(a *Archived) []string {
	var keys []string
	for _, side := range countedSides(a) {
		keys = append(keys, a.Player(side).Key())
	}
	return keys
}

// pgLockPlayers locks the rows of the players with keys in tx until it
// ends, creating the missing ones first when create is set, and returns
// their records by key. The rows are locked one key at a time in the
// keys' byte order, whatever order they are given in (Black's first, say):
// two transactions that lock the same players, as two games between alice
// and bob with the colours crossed ending together do, then wait for each
// other instead of each holding the row the other waits for (a deadlock,
// which PostgreSQL ends by failing one of them).
func pgLockPlayers(ctx context.Context, tx pgx.Tx, keys []string, create bool) (map[string]string, error) {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	recs := make(map[string]string, len(keys))
	for _, key := range keys {
		if create {
			if _, err := tx.Exec(ctx, `INSERT INTO players (key, record) VALUES ($1, '{}') ON CONFLICT DO NOTHING`, key); err != nil {
				return nil, err
			}
		}
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM players WHERE key = $1 FOR UPDATE`, key).Scan(&rec)
		switch {
		case errors.Is(err, pgx.ErrNoRows) && !create:
			continue
		case err != nil:
			return nil, err
		}
		recs[key] = rec
	}
	return recs, nil
}

// ArchivedGame is Store.ArchivedGame.
func (p *Postgres) ArchivedGame(ctx context.Context, id string) (*Archived, error) {
	var (
		rec string
		sgf []byte
	)
	err := p.pool.QueryRow(ctx, `SELECT record, sgf FROM archive WHERE id = $1`, id).Scan(&rec, &sgf)
	a, err := pgRecord("archived game "+id, rec, err, decodeArchive)
	if err != nil {
		return nil, err
	}
	a.SGF = sgf
	return a, nil
}

// PlayerGames is Store.PlayerGames.
func (p *Postgres) PlayerGames(ctx context.Context, playerKey string, limit int) ([]*Archived, error) {
	return p.PlayerGamesBefore(ctx, playerKey, time.Time{}, limit)
}

// PlayerGamesBefore is Store.PlayerGamesBefore.
func (p *Postgres) PlayerGamesBefore(ctx context.Context, playerKey string, t time.Time, limit int) ([]*Archived, error) {
	return p.history(ctx, "player", playerKey, `SELECT a.id, a.record FROM archive_by_player x JOIN archive a ON a.id = x.id
		WHERE x.player = $1 AND x.finished_ns < $2 ORDER BY x.finished_ns DESC, x.id DESC LIMIT $3`, t, limit)
}

// GuildGames is Store.GuildGames.
func (p *Postgres) GuildGames(ctx context.Context, guildID string, limit int) ([]*Archived, error) {
	return p.GuildGamesBefore(ctx, guildID, time.Time{}, limit)
}

// GuildGamesBefore is Store.GuildGamesBefore.
func (p *Postgres) GuildGamesBefore(ctx context.Context, guildID string, t time.Time, limit int) ([]*Archived, error) {
	return p.history(ctx, "guild", guildID, `SELECT id, record FROM archive
		WHERE guild_id = $1 AND guild_id <> '' AND finished_ns < $2 ORDER BY finished_ns DESC, id DESC LIMIT $3`, t, limit)
}

// history runs a history query (owner, before, limit) and decodes its
// (id, record) rows; records that do not decode are reported together.
func (p *Postgres) history(ctx context.Context, what, owner, sql string, before time.Time, limit int) ([]*Archived, error) {
	if err := checkID(what, owner); err != nil {
		return nil, err
	}
	bound := int64(1<<63 - 1)
	if !before.IsZero() {
		bound = before.UnixNano()
	}
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := p.pool.Query(ctx, sql, owner, bound, lim)
	if err != nil {
		return nil, fmt.Errorf("storage: %s %s history: %w", what, owner, err)
	}
	var out []*Archived
	var bad []string
	var id, rec string
	_, err = pgx.ForEachRow(rows, []any{&id, &rec}, func() error {
		a, err := decodeArchive([]byte(rec))
		if err != nil {
			bad = append(bad, id)
			return nil
		}
		out = append(out, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: %s %s history: %w", what, owner, err)
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("storage: %s %s history: archived games %s: %w", what, owner, strings.Join(bad, ", "), ErrCorrupt)
	}
	return out, nil
}

// PlayerStats is Store.PlayerStats.
func (p *Postgres) PlayerStats(ctx context.Context, playerKey string) (*PlayerStats, error) {
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM players WHERE key = $1`, playerKey).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("storage: player %s has no finished games: %w", playerKey, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: player %s statistics: %w", playerKey, err)
	}
	st := new(PlayerStats)
	if err := json.Unmarshal([]byte(rec), st); err != nil {
		return nil, fmt.Errorf("storage: player %s statistics: %w: %w", playerKey, ErrCorrupt, err)
	}
	if st.outdated() {
		games, err := pgPlayerGames(ctx, p.pool, playerKey)
		if err != nil {
			return nil, fmt.Errorf("storage: player %s statistics: %w", playerKey, err)
		}
		st = recountStats(playerKey, games)
	}
	return st, nil
}

// CreateChallenge is Store.CreateChallenge.
func (p *Postgres) CreateChallenge(ctx context.Context, c *Challenge) error {
	cc, val, err := prepareChallenge(c, p.now())
	if err != nil {
		return err
	}
	tag, err := p.pool.Exec(ctx, `INSERT INTO challenges (id, expires_ns, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		cc.ID, cc.ExpiresAt.UnixNano(), string(val))
	if err != nil {
		return fmt.Errorf("storage: challenge %s: %w", cc.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("storage: challenge %s: %w", cc.ID, ErrExists)
	}
	*c = cc
	return nil
}

// Challenge is Store.Challenge.
func (p *Postgres) Challenge(ctx context.Context, id string) (*Challenge, error) {
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM challenges WHERE id = $1`, id).Scan(&rec)
	return pgChallenge(id, rec, err)
}

func pgChallenge(id, rec string, err error) (*Challenge, error) {
	return pgRecord("challenge "+id, rec, err, decodeChallenge)
}

// pgRecord decodes the record a query for one row read (rec, err) with
// decode; what names the record in errors ("challenge ch1"): no row is
// ErrNotFound, a record decode refuses is ErrCorrupt.
func pgRecord[T any](what, rec string, err error, decode func([]byte) (T, error)) (T, error) {
	var zero T
	if errors.Is(err, pgx.ErrNoRows) {
		return zero, fmt.Errorf("storage: %s: %w", what, ErrNotFound)
	}
	if err != nil {
		return zero, fmt.Errorf("storage: %s: %w", what, err)
	}
	v, err := decode([]byte(rec))
	if err != nil {
		return zero, fmt.Errorf("storage: %s: %w: %w", what, ErrCorrupt, err)
	}
	return v, nil
}

// UpdateChallenge is Store.UpdateChallenge: the row is locked while change
// runs.
func (p *Postgres) UpdateChallenge(ctx context.Context, id string, change func(*Challenge) error) (*Challenge, error) {
	e, err := auditOf(ctx)
	if err != nil {
		return nil, err
	}
	now := p.now()
	var out *Challenge
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM challenges WHERE id = $1 FOR UPDATE`, id).Scan(&rec)
		c, err := pgChallenge(id, rec, err)
		if err != nil {
			return err
		}
		val, err := changeChallenge(c, change)
		if err != nil {
			return err
		}
		out = c
		if _, err := tx.Exec(ctx, `UPDATE challenges SET record = $2 WHERE id = $1`, id, string(val)); err != nil || e == nil {
			return err
		}
		return pgAppendAudit(ctx, tx, *e, now)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteChallenge is Store.DeleteChallenge: of two racing deletes exactly
// one succeeds.
func (p *Postgres) DeleteChallenge(ctx context.Context, id string) error {
	if err := checkID("challenge ID", id); err != nil {
		return err
	}
	e, err := auditOf(ctx)
	if err != nil {
		return err
	}
	now := p.now()
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM challenges WHERE id = $1`, id)
		if err != nil {
			return fmt.Errorf("storage: challenge %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("storage: challenge %s: %w", id, ErrNotFound)
		}
		if e == nil {
			return nil
		}
		return pgAppendAudit(ctx, tx, *e, now)
	})
}

// AcceptChallenge is Store.AcceptChallenge.
func (p *Postgres) AcceptChallenge(ctx context.Context, id string, g *Game) error {
	if err := checkID("challenge ID", id); err != nil {
		return err
	}
	c, val, now, err := prepareGame(p.kinds, g, p.now())
	if err != nil {
		return err
	}
	err = pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM challenges WHERE id = $1 FOR UPDATE`, id).Scan(&rec)
		ch, err := pgChallenge(id, rec, err)
		if err != nil {
			return err
		}
		if ch.Expired(now) {
			return fmt.Errorf("storage: challenge %s expired at %s: %w", id, ch.ExpiresAt.Format(time.RFC3339), ErrExpired)
		}
		if teamsChanged(ch, &c) {
			return fmt.Errorf("storage: challenge %s: the teams changed: %w", id, ErrConflict)
		}
		if err := pgPutNewGame(ctx, tx, &c, val, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM challenges WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return err
	}
	g.ID, g.Kind, g.CreatedAt, g.UpdatedAt, g.Version = c.ID, c.Kind, c.CreatedAt, now, 1
	return nil
}

// ExpiredChallenges is Store.ExpiredChallenges.
func (p *Postgres) ExpiredChallenges(ctx context.Context, now time.Time) ([]*Challenge, error) {
	rows, err := p.pool.Query(ctx, `SELECT id, record FROM challenges WHERE expires_ns <= $1 ORDER BY expires_ns, id`, now.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("storage: expired challenges: %w", err)
	}
	var out []*Challenge
	var errs []error
	var id, rec string
	_, err = pgx.ForEachRow(rows, []any{&id, &rec}, func() error {
		c, err := decodeChallenge([]byte(rec))
		if err != nil {
			errs = append(errs, fmt.Errorf("storage: challenge %s: %w: %w", id, ErrCorrupt, err))
			return nil
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: expired challenges: %w", err)
	}
	return out, errors.Join(errs...)
}

// pgSyncBotQueue makes the queue agree with a game written in tx, as
// syncBotQueue does for bbolt: the same obligation keeps its place (and its
// claim), any other entry of the channel goes, and a new obligation joins
// the back of the queue.
func pgSyncBotQueue(ctx context.Context, tx pgx.Tx, st owedState, now time.Time) error {
	if !st.owed {
		_, err := tx.Exec(ctx, `DELETE FROM bot_queue WHERE channel_id = $1`, st.channel)
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM bot_queue WHERE channel_id = $1 AND NOT (game_id = $2 AND moves = $3)`, st.channel, st.game, st.moves); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO bot_queue (channel_id, game_id, moves, since_ns) VALUES ($1, $2, $3, $4) ON CONFLICT (channel_id) DO NOTHING`,
		st.channel, st.game, st.moves, now.UnixNano())
	return err
}

// timeNS is t in Unix nanoseconds as the tables keep it, 0 for the zero time.
func timeNS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// nsTime turns stored Unix nanoseconds back into a time; 0 is the zero time.
func nsTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// ClaimBotMove is Store.ClaimBotMove, for several processes: the oldest
// owed move that nobody holds is locked with FOR UPDATE SKIP LOCKED (two
// workers claiming at once take different games) and marked with the
// worker and the end of its lease, so that when the worker dies another
// takes the move over once the lease lapses.
func (p *Postgres) ClaimBotMove(ctx context.Context, worker string, lease time.Duration) (*BotMove, error) {
	if worker == "" || lease <= 0 {
		return nil, fmt.Errorf("storage: claim a bot move: worker %q, lease %v: %w", worker, lease, ErrInvalid)
	}
	now := p.now()
	m := &BotMove{Worker: worker, Until: now.Add(lease)}
	var since int64
	err := p.pool.QueryRow(ctx, `UPDATE bot_queue SET worker = $1, until_ns = $2
		WHERE seq = (SELECT seq FROM bot_queue WHERE until_ns <= $3 ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING channel_id, game_id, moves, seq, since_ns, attempts`,
		worker, m.Until.UnixNano(), now.UnixNano()).Scan(&m.ChannelID, &m.GameID, &m.Moves, &m.Seq, &since, &m.Attempts)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("storage: no bot move to claim: %w", ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: claim a bot move: %w", err)
	}
	m.Since = nsTime(since)
	return m, nil
}

// ReleaseBotMove is Store.ReleaseBotMove.
func (p *Postgres) ReleaseBotMove(ctx context.Context, m *BotMove, retryAt time.Time) error {
	if m == nil {
		return fmt.Errorf("storage: release a nil bot move: %w", ErrInvalid)
	}
	var err error
	if retryAt.IsZero() {
		_, err = p.pool.Exec(ctx, `UPDATE bot_queue SET worker = '', until_ns = 0
			WHERE channel_id = $1 AND seq = $2 AND worker = $3 AND until_ns = $4`, m.ChannelID, m.Seq, m.Worker, m.Until.UnixNano())
	} else {
		_, err = p.pool.Exec(ctx, `UPDATE bot_queue SET worker = '', until_ns = $5, attempts = attempts + 1
			WHERE channel_id = $1 AND seq = $2 AND worker = $3 AND until_ns = $4`, m.ChannelID, m.Seq, m.Worker, m.Until.UnixNano(), retryAt.UnixNano())
	}
	if err != nil {
		return fmt.Errorf("storage: release the bot move in channel %s: %w", m.ChannelID, err)
	}
	return nil
}

// ExtendBotMove is Store.ExtendBotMove.
func (p *Postgres) ExtendBotMove(ctx context.Context, m *BotMove, lease time.Duration) error {
	if m == nil || lease <= 0 {
		return fmt.Errorf("storage: extend a bot move claim by %v: %w", lease, ErrInvalid)
	}
	now := p.now()
	until := now.Add(lease)
	tag, err := p.pool.Exec(ctx, `UPDATE bot_queue SET until_ns = $5
		WHERE channel_id = $1 AND seq = $2 AND worker = $3 AND until_ns = $4 AND until_ns > $6`,
		m.ChannelID, m.Seq, m.Worker, m.Until.UnixNano(), until.UnixNano(), now.UnixNano())
	if err != nil {
		return fmt.Errorf("storage: extend the claim on channel %s: %w", m.ChannelID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("storage: extend the claim of %s on channel %s: %w", m.Worker, m.ChannelID, ErrNotFound)
	}
	m.Until = until
	return nil
}

// BotQueuePosition is Store.BotQueuePosition.
func (p *Postgres) BotQueuePosition(ctx context.Context, channelID, gameID string, moves int) (int, error) {
	now := p.now().UnixNano()
	var pos int
	var found bool
	err := p.pool.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM bot_queue WHERE channel_id = $1 AND game_id = $3 AND moves = $4),
			coalesce((SELECT CASE WHEN mine.worker <> '' AND mine.until_ns > $2 THEN 0
				ELSE (SELECT count(*) FROM bot_queue q WHERE q.seq <= mine.seq AND NOT (q.worker <> '' AND q.until_ns > $2)) END
				FROM bot_queue mine WHERE mine.channel_id = $1 AND mine.game_id = $3 AND mine.moves = $4), 0)`, channelID, now, gameID, moves).Scan(&found, &pos)
	if err != nil {
		return 0, fmt.Errorf("storage: bot queue position of channel %s: %w", channelID, err)
	}
	if !found {
		return 0, fmt.Errorf("storage: no bot move owed in channel %s at move %d of game %s: %w", channelID, moves, gameID, ErrNotFound)
	}
	return pos, nil
}

// BotQueue is Store.BotQueue.
func (p *Postgres) BotQueue(ctx context.Context) ([]BotMove, error) {
	rows, err := p.pool.Query(ctx, `SELECT channel_id, game_id, moves, seq, since_ns, worker, until_ns, attempts FROM bot_queue ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("storage: bot queue: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (BotMove, error) {
		var m BotMove
		var since, until int64
		err := r.Scan(&m.ChannelID, &m.GameID, &m.Moves, &m.Seq, &since, &m.Worker, &until, &m.Attempts)
		m.Since, m.Until = nsTime(since), nsTime(until)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: bot queue: %w", err)
	}
	return out, nil
}

// ChannelGames is Store.ChannelGames.
func (p *Postgres) ChannelGames(ctx context.Context, channelID string, limit int) ([]*Archived, error) {
	return p.history(ctx, "channel", channelID, `SELECT id, record FROM archive
		WHERE channel_id = $1 AND finished_ns < $2 ORDER BY finished_ns DESC, id DESC LIMIT $3`, time.Time{}, limit)
}

// PlayerGamesPage is Store.PlayerGamesPage.
func (p *Postgres) PlayerGamesPage(ctx context.Context, playerKey string, offset, limit int, keep func(*Archived) bool) ([]*Archived, int, error) {
	if keep == nil {
		var total int
		if err := p.pool.QueryRow(ctx, `SELECT count(*) FROM archive_by_player WHERE player = $1`, playerKey).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("storage: player %s history: %w", playerKey, err)
		}
		games, err := p.history(ctx, "player", playerKey, `SELECT a.id, a.record FROM archive_by_player x JOIN archive a ON a.id = x.id
			WHERE x.player = $1 AND x.finished_ns < $2 ORDER BY x.finished_ns DESC, x.id DESC LIMIT $3 OFFSET `+strconv.Itoa(max(offset, 0)), time.Time{}, limit)
		return games, total, err
	}
	all, err := p.PlayerGames(ctx, playerKey, 0)
	var games []*Archived
	total := 0
	for _, a := range all {
		if !keep(a) {
			continue
		}
		if total >= offset && (limit <= 0 || len(games) < limit) {
			games = append(games, a)
		}
		total++
	}
	return games, total, err
}

// GameReview is Store.GameReview.
func (p *Postgres) GameReview(ctx context.Context, id string) ([]byte, error) {
	var review []byte
	err := p.pool.QueryRow(ctx, `SELECT review FROM archive WHERE id = $1`, id).Scan(&review)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && review == nil) {
		return nil, fmt.Errorf("storage: review of game %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: review of game %s: %w", id, err)
	}
	return review, nil
}

// PutGameReview is Store.PutGameReview.
func (p *Postgres) PutGameReview(ctx context.Context, id string, review []byte) error {
	if len(review) == 0 {
		return fmt.Errorf("storage: review of game %s is empty: %w", id, ErrInvalid)
	}
	tag, err := p.pool.Exec(ctx, `UPDATE archive SET review = $2 WHERE id = $1`, id, review)
	if err != nil {
		return fmt.Errorf("storage: review of game %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("storage: review of game %s: %w", id, ErrNotFound)
	}
	return nil
}

// NextDue is Store.NextDue.
func (p *Postgres) NextDue(ctx context.Context) (time.Time, error) {
	var ns int64
	if err := p.pool.QueryRow(ctx, `SELECT coalesce(min(due_ns), 0) FROM games WHERE due_ns <> 0`).Scan(&ns); err != nil {
		return time.Time{}, fmt.Errorf("storage: next due game: %w", err)
	}
	return nsTime(ns), nil
}

// DueGames is Store.DueGames.
func (p *Postgres) DueGames(ctx context.Context, now time.Time, limit int) ([]DueGame, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := p.pool.Query(ctx, `SELECT channel_id, due_ns FROM games WHERE due_ns <> 0 AND due_ns <= $1 ORDER BY due_ns, channel_id LIMIT $2`, now.UnixNano(), lim)
	if err != nil {
		return nil, fmt.Errorf("storage: due games: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DueGame, error) {
		var d DueGame
		var ns int64
		err := r.Scan(&d.ChannelID, &ns)
		d.Due = nsTime(ns)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: due games: %w", err)
	}
	return out, nil
}

// Heartbeat is Store.Heartbeat.
func (p *Postgres) Heartbeat(ctx context.Context, now time.Time) error {
	_, err := p.pool.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('heartbeat', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, now.UnixNano())
	if err != nil {
		return fmt.Errorf("storage: heartbeat: %w", err)
	}
	return nil
}

// LastHeartbeat is Store.LastHeartbeat.
func (p *Postgres) LastHeartbeat(ctx context.Context) (time.Time, error) {
	var ns int64
	err := p.pool.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'heartbeat'`).Scan(&ns)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("storage: last heartbeat: %w", err)
	}
	return nsTime(ns), nil
}

// CreditOutage is Store.CreditOutage. The heartbeat row is locked for the
// transaction, so of several workers starting together only the first
// credits the outage (the others then find a fresh heartbeat).
func (p *Postgres) CreditOutage(ctx context.Context, now time.Time, min time.Duration) (time.Duration, int, error) {
	now = now.UTC()
	var (
		credit time.Duration
		n      int
	)
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		credit, n = 0, 0
		if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('heartbeat', 0) ON CONFLICT DO NOTHING`); err != nil {
			return err
		}
		var lastNS int64
		if err := tx.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'heartbeat' FOR UPDATE`).Scan(&lastNS); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE meta SET value = $1 WHERE key = 'heartbeat'`, now.UnixNano()); err != nil {
			return err
		}
		last := nsTime(lastNS)
		if last.IsZero() || now.Sub(last) <= min {
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT channel_id, record FROM games WHERE due_ns <> 0 ORDER BY channel_id FOR UPDATE`)
		if err != nil {
			return err
		}
		type raw struct{ channel, rec string }
		raws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (raw, error) {
			var x raw
			return x, r.Scan(&x.channel, &x.rec)
		})
		if err != nil {
			return err
		}
		for _, r := range raws {
			val, _, due, ok, err := creditRecord(r.channel, []byte(r.rec), last, now)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if _, err := tx.Exec(ctx, `UPDATE games SET record = $2, due_ns = $3, version = version + 1 WHERE channel_id = $1`, r.channel, string(val), timeNS(due)); err != nil {
				return err
			}
			n++
		}
		credit = now.Sub(last)
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("storage: credit outage: %w", err)
	}
	return credit, n, nil
}

// Vacation is Store.Vacation.
func (p *Postgres) Vacation(ctx context.Context, playerKey string) (Vacation, error) {
	var v Vacation
	if err := checkID("player", playerKey); err != nil {
		return v, err
	}
	var rec string
	err := p.pool.QueryRow(ctx, `SELECT record FROM vacations WHERE player = $1`, playerKey).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return v, nil
	}
	if err != nil {
		return v, fmt.Errorf("storage: vacation of %s: %w", playerKey, err)
	}
	if err := json.Unmarshal([]byte(rec), &v); err != nil {
		return v, fmt.Errorf("storage: vacation of %s: %w: %w", playerKey, ErrCorrupt, err)
	}
	return v, nil
}

// AddMessageID is Store.AddMessageID: the record changes, its version
// does not, and its deadline only when the message settles the owed board.
func (p *Postgres) AddMessageID(ctx context.Context, channelID, gameID, messageID string) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return p.changeRecord(ctx, channelID, gameID, "add message to game", func(rec []byte) ([]byte, *time.Time, error) {
		val, _, due, err := addMessageRecord(channelID, rec, gameID, messageID)
		return val, &due, err
	})
}

// SetUndoMessage is Store.SetUndoMessage: the record changes, its version
// and deadline do not.
func (p *Postgres) SetUndoMessage(ctx context.Context, channelID, gameID string, u UndoRequest, messageID string) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return p.changeRecord(ctx, channelID, gameID, "set the message of a request in game", func(rec []byte) ([]byte, *time.Time, error) {
		val, err := undoMessageRecord(channelID, rec, gameID, u, messageID)
		return val, nil, err
	})
}

// SetVoteBoard is Store.SetVoteBoard: the record changes, its version
// and deadline do not.
func (p *Postgres) SetVoteBoard(ctx context.Context, channelID, gameID string, moves int, messageID string) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return p.changeRecord(ctx, channelID, gameID, "set the board of the vote in game", func(rec []byte) ([]byte, *time.Time, error) {
		val, err := voteBoardRecord(channelID, rec, gameID, moves, messageID)
		return val, nil, err
	})
}

// AddTeamVoteMessage is Store.AddTeamVoteMessage: the record changes, its
// version and deadline do not.
func (p *Postgres) AddTeamVoteMessage(ctx context.Context, channelID, gameID string, abort bool, v ResignVote, messageID string) error {
	if err := checkID("message ID", messageID); err != nil {
		return err
	}
	return p.changeRecord(ctx, channelID, gameID, "add a message to a team vote in game", func(rec []byte) ([]byte, *time.Time, error) {
		val, err := teamVoteMessageRecord(channelID, rec, gameID, abort, v, messageID)
		return val, nil, err
	})
}

// changeRecord rewrites game gameID's record in channelID with change,
// the row locked, without a new version: what Discord showed of it (a
// message ID), never its rules. A deadline change gives the game's new
// deadline (nil: unchanged). what names the change in errors ("add
// message to game").
func (p *Postgres) changeRecord(ctx context.Context, channelID, gameID, what string, change func(rec []byte) ([]byte, *time.Time, error)) error {
	return pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		var rec string
		err := tx.QueryRow(ctx, `SELECT record FROM games WHERE channel_id = $1 AND id = $2 FOR UPDATE`, channelID, gameID).Scan(&rec)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("storage: %s %s: not in channel %s: %w", what, gameID, channelID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("storage: %s %s: %w", what, gameID, err)
		}
		val, due, err := change([]byte(rec))
		if err != nil {
			return err
		}
		if due != nil {
			_, err = tx.Exec(ctx, `UPDATE games SET record = $3, due_ns = $4 WHERE channel_id = $1 AND id = $2`, channelID, gameID, string(val), timeNS(*due))
		} else {
			_, err = tx.Exec(ctx, `UPDATE games SET record = $3 WHERE channel_id = $1 AND id = $2`, channelID, gameID, string(val))
		}
		if err != nil {
			return fmt.Errorf("storage: %s %s: %w", what, gameID, err)
		}
		return nil
	})
}

// PutVacation is Store.PutVacation.
func (p *Postgres) PutVacation(ctx context.Context, playerKey string, v Vacation) error {
	val, err := encodeVacation(playerKey, v)
	if err != nil {
		return err
	}
	_, err = p.pool.Exec(ctx, `INSERT INTO vacations (player, record) VALUES ($1, $2) ON CONFLICT (player) DO UPDATE SET record = excluded.record`, playerKey, string(val))
	if err != nil {
		return fmt.Errorf("storage: vacation of %s: %w", playerKey, err)
	}
	return nil
}

// ClaimChallenge is Store.ClaimChallenge, shared by every process on the
// database: the claim is a column of the challenge's row.
func (p *Postgres) ClaimChallenge(ctx context.Context, id, holder string, lease time.Duration) error {
	if holder == "" || lease <= 0 {
		return fmt.Errorf("storage: claim challenge %s: holder %q, lease %v: %w", id, holder, lease, ErrInvalid)
	}
	now := p.now()
	tag, err := p.pool.Exec(ctx, `UPDATE challenges SET claim_holder = $2, claim_until_ns = $3
		WHERE id = $1 AND (claim_holder = $2 OR claim_until_ns <= $4)`, id, holder, now.Add(lease).UnixNano(), now.UnixNano())
	if err != nil {
		return fmt.Errorf("storage: claim challenge %s: %w", id, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var other string
	var until int64
	switch err := p.pool.QueryRow(ctx, `SELECT claim_holder, claim_until_ns FROM challenges WHERE id = $1`, id).Scan(&other, &until); {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("storage: challenge %s: %w", id, ErrNotFound)
	case err != nil:
		return fmt.Errorf("storage: claim challenge %s: %w", id, err)
	}
	if until <= now.UnixNano() {
		other = "" // lapsed or given back since the update
	}
	return &ClaimedError{ID: id, Holder: other}
}

// ReleaseChallenge is Store.ReleaseChallenge.
func (p *Postgres) ReleaseChallenge(ctx context.Context, id, holder string) error {
	if _, err := p.pool.Exec(ctx, `UPDATE challenges SET claim_holder = '', claim_until_ns = 0 WHERE id = $1 AND claim_holder = $2`, id, holder); err != nil {
		return fmt.Errorf("storage: release challenge %s: %w", id, err)
	}
	return nil
}
