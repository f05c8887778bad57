package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Options tune Open. The zero value is usable.
type Options struct {
	// Timeout is how long Open waits for the file lock held by another
	// process before failing with ErrLocked. Zero means DefaultTimeout;
	// a negative value waits for ever (not advised: a second bot on the
	// same file would hang instead of saying why).
	Timeout time.Duration

	// BatchDelay is how long a write waits for other writers to share its
	// commit (and its fsync) when several are in flight at once. Zero
	// means DefaultBatchDelay. A write that finds no other writer in
	// flight commits at once and never waits.
	BatchDelay time.Duration

	// MaxBatch is the most writes that share one commit. Zero means
	// DefaultMaxBatch.
	MaxBatch int

	// BackupSocket, when set, is the path of a Unix socket on which the
	// store serves hot backups to `gobot backup` (see FetchBackup and
	// BackupTo) while it is open. The socket file is created with mode
	// 0600 and removed by Close; a stale socket left by a crash is
	// replaced, but any other file at the path is left alone. If the
	// socket cannot be created, Open logs why and opens the store without
	// it. Empty means no socket.
	BackupSocket string

	// Logger receives start-up migrations and backup-socket errors. Nil
	// discards them.
	Logger *slog.Logger

	// ExistingSchema (OpenPostgres only) opens the database as it is, for
	// the offline tools (gobot doctor, gobot ratings rebuild): no table
	// is created and no migration applied, and a database without
	// gobot's schema (ErrNoSchema), with an older one (ErrSchemaTooOld)
	// or a newer one (ErrSchemaTooNew) is refused. A typo in the
	// database's name then leaves no tables behind, and a newer build's
	// tool does not migrate the database under the running workers.
	ExistingSchema bool

	// Now returns the current time; nil means time.Now. The store reads it
	// for the times it fills in (CreatedAt, UpdatedAt, FinishedAt) and for
	// the expiry check of AcceptChallenge, so a caller with its own clock
	// (tests, commands' Options.Now) and the store agree on what is expired.
	Now func() time.Time

	// StartRatings are the ratings that bot levels start from, by kind
	// and level name: for Go the rating of each level's measured rank,
	// for draughts the rating the ladder places it at, with a deviation
	// for how well that is known. A level not in it (or a person) starts
	// as a new player, 1500 ± 350. FinishGame and RebuildRatings both use
	// them, so every process that rates games or rebuilds the ratings of
	// one database must be given the same (cmd/gobot gives each room's
	// StartRatings of its built-in levels).
	StartRatings StartRatings
	// Kinds are the kinds of game the store reads back (cmd/gobot
	// registers each); a record of a kind it lacks loads as ErrCorrupt.
	Kinds *game.Kinds
}

// Defaults for Options.
const (
	DefaultTimeout    = 2 * time.Second
	DefaultBatchDelay = 2 * time.Millisecond
	DefaultMaxBatch   = 128
)

// Store is the bbolt-backed persistence of gobot: active games by channel,
// pending challenges, the archive of finished games with its indexes, and
// player statistics. It is safe for concurrent use; writes to different
// games proceed concurrently and share commits when they coincide.
type Store struct {
	db     *bolt.DB
	path   string
	log    *slog.Logger
	clock  func() time.Time // Options.Now or time.Now
	starts StartRatings     // Options.StartRatings
	kinds  *game.Kinds      // Options.Kinds
	writes atomic.Int64     // writers in flight: choose Update (alone) or Batch

	// recomputing, when set (tests), is called as an annulment starts to
	// recompute its pools, holding no transaction (see annulOnce).
	recomputing func()

	// claims are the workers' claims on owed bot moves, by their place
	// in the queue (see botClaim).
	claimMu sync.Mutex
	claims  map[uint64]botClaim
	// challengeClaims are the challenges being accepted (ClaimChallenge).
	challengeClaims map[string]challengeClaim

	ln       net.Listener // backup socket, nil when none
	sockPath string       // where ln is served, removed by Close
	sockWG   sync.WaitGroup
	done     chan struct{} // closed by Close
	closed   atomic.Bool
}

// createFile makes a new, empty bbolt database at path: under a side name
// of its own first, then linked into place (link, unlike rename, never
// replaces a file another start made meanwhile) and the directory synced.
// Where the file system has no hard links, bbolt creates the file in place
// as before.
func createFile(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".creating-*")
	if err != nil {
		// The cause without the side name, which the operator never
		// chose: "no such file or directory", "permission denied".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("storage: create %s: %w", path, pe.Err)
		}
		return fmt.Errorf("storage: create %s: %w", path, err)
	}
	tmp := f.Name()
	f.Close()
	os.Remove(tmp) // bbolt makes it afresh (an empty file is no database)
	defer os.Remove(tmp)
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("storage: create %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("storage: create %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil // no hard links here: bolt.Open creates it in place
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Open opens the database at path, creates the buckets of the current
// schema and runs any migrations from an older schema, all before
// returning. Only a path that does not exist becomes a new database. An
// existing file is verified first, its header and size (checkFile) and then
// every page (bbolt's Tx.Check): a file that is empty, cut short or has
// damaged pages is refused with ErrDamaged, in one line that names
// `gobot backup`. It fails with ErrLocked when another process holds the
// file, and with ErrSchemaTooNew when the file comes from a newer gobot.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.Timeout
	switch {
	case timeout == 0:
		timeout = DefaultTimeout
	case timeout < 0:
		timeout = 0 // bbolt: wait for ever
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	exists, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if !exists {
		// A new database appears whole or not at all: a start killed while
		// bbolt writes its first pages must not leave an empty file that
		// the next start refuses as damaged.
		if err := createFile(path); err != nil {
			return nil, err
		}
		if exists, err = checkFile(path); err != nil {
			return nil, err
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:         timeout,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: 256 << 20, // address space only; spares writers remapping under readers
	})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("storage: open %s: gave up after %v, is another gobot running on it? %w: %w", path, timeout, ErrLocked, err)
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	if exists {
		if err := checkPages(db, path); err != nil {
			db.Close()
			return nil, err
		}
	}
	db.MaxBatchDelay = opts.BatchDelay
	if db.MaxBatchDelay <= 0 {
		db.MaxBatchDelay = DefaultBatchDelay
	}
	db.MaxBatchSize = opts.MaxBatch
	if db.MaxBatchSize <= 0 {
		db.MaxBatchSize = DefaultMaxBatch
	}
	clock := opts.Now
	if clock == nil {
		clock = time.Now
	}
	s := &Store{db: db, path: path, log: log, clock: clock, starts: opts.StartRatings, kinds: opts.Kinds, done: make(chan struct{}), claims: map[uint64]botClaim{}, challengeClaims: map[string]challengeClaim{}}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	if opts.BackupSocket != "" {
		// A socket that cannot be made (a path too long for a Unix socket,
		// a read-only directory) costs hot backups, not the games: say so
		// and carry on.
		if err := s.serveBackups(opts.BackupSocket); err != nil {
			log.Error("storage: no hot backups while running", "err", err)
		}
	}
	return s, nil
}

// now is the store's clock in UTC.
func (s *Store) now() time.Time { return s.clock().UTC() }

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close stops the backup socket (cutting short a backup in progress, whose
// client then reports a short copy), waits for writes in progress and
// closes the database. Every write that returned nil is on disk; calls
// after Close fail with ErrClosed.
func (s *Store) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return ErrClosed
	}
	close(s.done)
	if s.ln != nil {
		s.ln.Close()
		os.Remove(s.sockPath)
		s.sockWG.Wait()
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close: %w", err)
	}
	return nil
}

// update runs fn in a read-write transaction that is committed and synced
// to disk before update returns. A writer that is alone commits at once with
// Update; when others are in flight it joins a bbolt Batch so they share one
// fsync. fn may therefore run more than once (each time in a fresh
// transaction, the earlier one rolled back): it must only read the
// transaction and its arguments, never change state outside it.
func (s *Store) update(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.writes.Add(-1)
	if s.writes.Add(1) == 1 {
		return closedErr(s.db.Update(fn))
	}
	return closedErr(s.db.Batch(fn))
}

// updateAlone is update for a long write that other writes must not join:
// it never runs in a batch, where the writes batched with it (a move)
// would wait for all of it.
func (s *Store) updateAlone(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.writes.Add(-1)
	s.writes.Add(1)
	return closedErr(s.db.Update(fn))
}

// view runs fn in a read-only transaction. Values read from the transaction
// are valid only inside fn: copy or decode them there.
func (s *Store) view(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return closedErr(s.db.View(fn))
}

func closedErr(err error) error {
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return err
}

// Check verifies the whole file with bbolt's Tx.Check (every page reachable
// or free, no page used twice, keys in order) and the store's own
// invariants: every record decodes (games replay), every index entry points
// at a record that exists and belongs to it, and every record is indexed. It reads the whole
// database, so it is for tests, start-up checks and `gobot check`, not for
// every request.
func (s *Store) Check(ctx context.Context) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) == 0 {
			errs = append(errs, checkIndexes(tx, s.kinds)...)
		}
		if len(errs) > 0 {
			return fmt.Errorf("storage: check %s: %w", s.path, errors.Join(errs...))
		}
		return nil
	})
}

// Backup writes a consistent copy of the whole database to w while the
// store stays in use (one read transaction; writers are not blocked) and
// returns the number of bytes written.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.view(context.Background(), func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("storage: backup: %w", err)
	}
	return n, nil
}

// WriteTo is Backup, so that a Store is an io.WriterTo.
func (s *Store) WriteTo(w io.Writer) (int64, error) { return s.Backup(w) }

// BackupFile writes a consistent copy of the database to path atomically:
// it writes a temporary file in the same directory, syncs it, checks that
// it opens as a sound bbolt file, renames it over path and syncs the
// directory. A failed backup leaves any earlier file at path untouched.
// It refuses (ErrInvalid) to write over the database itself.
func (s *Store) BackupFile(path string) error {
	if sameFile(s.path, path) {
		return fmt.Errorf("storage: backup %s onto itself: %w", s.path, ErrInvalid)
	}
	return writeFileAtomic(path, true, func(w io.Writer) (int64, error) { return s.Backup(w) })
}
