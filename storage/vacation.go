package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Vacation is a player's vacation: the allowance used in a year and the
// vacation running, if any. Commands decides the policy (how much a year,
// what pauses); the store only keeps it.
type Vacation struct {
	Year  int           `json:"year"`           // the calendar year (UTC) Used counts
	Used  time.Duration `json:"used"`           // vacation taken in Year, the running one included in full
	Start time.Time     `json:"start,omitzero"` // the running vacation's start; zero when none runs
	Until time.Time     `json:"until,omitzero"` // when it ends
}

// On reports whether the vacation runs at now.
func (v Vacation) On(now time.Time) bool {
	return !v.Start.IsZero() && !now.Before(v.Start) && now.Before(v.Until)
}

// Vacation returns a player's vacation record; the zero Vacation when they
// never took one.
func (s *Store) Vacation(ctx context.Context, playerKey string) (Vacation, error) {
	var v Vacation
	if err := checkID("player", playerKey); err != nil {
		return v, err
	}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketVacations).Get([]byte(playerKey))
		if raw == nil {
			return nil
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("storage: vacation of %s: %w: %w", playerKey, ErrCorrupt, err)
		}
		return nil
	})
	return v, err
}

// PutVacation stores a player's vacation record.
func (s *Store) PutVacation(ctx context.Context, playerKey string, v Vacation) error {
	val, err := encodeVacation(playerKey, v)
	if err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketVacations).Put([]byte(playerKey), val)
	})
}

// encodeVacation checks a vacation record for PutVacation and encodes it.
func encodeVacation(playerKey string, v Vacation) ([]byte, error) {
	if err := checkID("player", playerKey); err != nil {
		return nil, err
	}
	if v.Used < 0 || (!v.Start.IsZero() && v.Until.Before(v.Start)) {
		return nil, fmt.Errorf("storage: vacation of %s: used %v, %v to %v: %w", playerKey, v.Used, v.Start, v.Until, ErrInvalid)
	}
	return json.Marshal(v)
}
