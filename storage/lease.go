package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// Lease is a claim on background work that any gobot process sharing the
// store may do, such as a game's review: one holder at a time, until
// Until, renewed by its holder while it works. When the holder dies its
// lease lapses, and another process may take the work over. Record is the
// holder's note of the work, opaque to the store: what a process taking
// it over needs to finish it, or to answer for it.
type Lease struct {
	Key    string
	Holder string
	Until  time.Time
	Record []byte
}

// leaseRecord is a Lease as bucket leases keeps it.
type leaseRecord struct {
	Holder string    `json:"holder"`
	Until  time.Time `json:"until"`
	Record []byte    `json:"record,omitempty"`
}

// checkLease checks TakeLease's arguments.
func checkLease(key, holder string, d time.Duration) error {
	if holder == "" || d <= 0 {
		return fmt.Errorf("storage: lease %s: holder %q, %v: %w", key, holder, d, ErrInvalid)
	}
	return checkID("lease key", key)
}

// TakeLease takes the lease key for holder until now+d with record: when
// nobody holds it, when its holder's time ran out (a takeover), or when
// holder holds it already (a renewal); a nil record keeps the one it
// has. It returns the lease as it was before (nil when there was none).
// While another holds it, it changes nothing and fails with ErrConflict,
// returning that lease.
func (s *Store) TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*Lease, error) {
	if err := checkLease(key, holder, d); err != nil {
		return nil, err
	}
	now := s.now()
	var old *Lease
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old = nil
		b := tx.Bucket(bucketLeases)
		if v := b.Get([]byte(key)); v != nil {
			var r leaseRecord
			if err := json.Unmarshal(v, &r); err == nil {
				old = &Lease{Key: key, Holder: r.Holder, Until: r.Until, Record: bytes.Clone(r.Record)}
			}
		}
		if old != nil && old.Holder != holder && now.Before(old.Until) {
			return fmt.Errorf("storage: lease %s is held by %s: %w", key, old.Holder, ErrConflict)
		}
		rec := leaseRecord{Holder: holder, Until: now.Add(d), Record: record}
		if record == nil && old != nil {
			rec.Record = old.Record
		}
		v, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), v)
	})
	return old, err
}

// ReleaseLease ends holder's lease key; nothing when holder no longer
// holds it.
func (s *Store) ReleaseLease(ctx context.Context, key, holder string) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLeases)
		var r leaseRecord
		if v := b.Get([]byte(key)); v == nil || json.Unmarshal(v, &r) != nil || r.Holder != holder {
			return nil
		}
		return b.Delete([]byte(key))
	})
}

// LapsedLeases returns the leases whose key begins with prefix and whose
// time had run out at now, by key: work whose holder died.
func (s *Store) LapsedLeases(ctx context.Context, prefix string, now time.Time) ([]Lease, error) {
	var out []Lease
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketLeases).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			var r leaseRecord
			if json.Unmarshal(v, &r) == nil && !now.Before(r.Until) {
				out = append(out, Lease{Key: string(k), Holder: r.Holder, Until: r.Until, Record: bytes.Clone(r.Record)})
			}
		}
		return nil
	})
	return out, err
}

// TakeLease is Store.TakeLease: one conditional upsert, which of two
// processes taking a free lease at once lets exactly one win.
func (p *Postgres) TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*Lease, error) {
	if err := checkLease(key, holder, d); err != nil {
		return nil, err
	}
	now := p.now()
	var old *Lease
	err := pgBegin(ctx, p.pool, func(tx pgx.Tx) error {
		old = nil
		var l Lease
		var until int64
		err := tx.QueryRow(ctx, `SELECT holder, until_ns, record FROM leases WHERE key = $1 FOR UPDATE`, key).Scan(&l.Holder, &until, &l.Record)
		switch {
		case err == nil:
			l.Key, l.Until = key, nsTime(until)
			old = &l
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		// A row inserted meanwhile by another process is not locked above:
		// the upsert's condition decides against it.
		tag, err := tx.Exec(ctx, `INSERT INTO leases (key, holder, until_ns, record) VALUES ($1, $2, $3, $4)
			ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until_ns = excluded.until_ns, record = coalesce(excluded.record, leases.record)
			WHERE leases.holder = excluded.holder OR leases.until_ns <= $5`,
			key, holder, now.Add(d).UnixNano(), record, now.UnixNano())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("storage: lease %s is held by another: %w", key, ErrConflict)
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrConflict) {
		return nil, fmt.Errorf("storage: take lease %s: %w", key, err)
	}
	return old, err
}

// ReleaseLease is Store.ReleaseLease.
func (p *Postgres) ReleaseLease(ctx context.Context, key, holder string) error {
	if _, err := p.pool.Exec(ctx, `DELETE FROM leases WHERE key = $1 AND holder = $2`, key, holder); err != nil {
		return fmt.Errorf("storage: release lease %s: %w", key, err)
	}
	return nil
}

// LapsedLeases is Store.LapsedLeases.
func (p *Postgres) LapsedLeases(ctx context.Context, prefix string, now time.Time) ([]Lease, error) {
	rows, err := p.pool.Query(ctx, `SELECT key, holder, until_ns, record FROM leases
		WHERE starts_with(key, $1) AND until_ns <= $2 ORDER BY key COLLATE "C"`, prefix, saturatedNanos(now))
	if err != nil {
		return nil, fmt.Errorf("storage: lapsed leases: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Lease, error) {
		var l Lease
		var until int64
		err := r.Scan(&l.Key, &l.Holder, &until, &l.Record)
		l.Until = nsTime(until)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: lapsed leases: %w", err)
	}
	return out, nil
}

// saturatedNanos is t in nanoseconds since 1970 as the leases' until_ns
// keeps times, held at the int64 range's ends: a time past 2262 (the end
// of time that asks whether a lease is held at all) overflowed to a
// negative number, before every lease's time, so that none was found.
func saturatedNanos(t time.Time) int64 {
	switch {
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	case t.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	}
	return t.UnixNano()
}
