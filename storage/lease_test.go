package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// leaseStore is what the lease tests need of a store.
type leaseStore interface {
	TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*storage.Lease, error)
	ReleaseLease(ctx context.Context, key, holder string) error
	LapsedLeases(ctx context.Context, prefix string, now time.Time) ([]storage.Lease, error)
}

// TestLeases: a lease has one holder at a time until it lapses; its
// holder renews it (keeping its record); once it lapses another takes it
// over and learns what it was; of several taking a free lease at once
// exactly one gets it.
func TestLeases(t *testing.T) {
	bothAdminStores(t, func(t *testing.T, as adminStore, now *time.Time) {
		s := as.(leaseStore)
		ctx := context.Background()
		if old, err := s.TakeLease(ctx, "review/game/g1", "w1", 30*time.Second, []byte(`{"user":"1"}`)); err != nil || old != nil {
			t.Fatalf("TakeLease of a free lease = %+v, %v; want nil, nil", old, err)
		}
		old, err := s.TakeLease(ctx, "review/game/g1", "w2", 30*time.Second, []byte(`{"user":"2"}`))
		if !errors.Is(err, storage.ErrConflict) || old == nil || old.Holder != "w1" || string(old.Record) != `{"user":"1"}` {
			t.Fatalf("TakeLease of a held lease = %+v, %v; want ErrConflict and w1's lease", old, err)
		}
		*now = now.Add(20 * time.Second)
		if _, err := s.TakeLease(ctx, "review/game/g1", "w1", 30*time.Second, nil); err != nil {
			t.Fatalf("renewal = %v", err)
		}
		*now = now.Add(20 * time.Second) // 40 s after it was taken, 20 s after its renewal
		if l, err := s.LapsedLeases(ctx, "review/game/", *now); err != nil || len(l) != 0 {
			t.Errorf("LapsedLeases of a renewed lease = %+v, %v; want none", l, err)
		}
		*now = now.Add(10 * time.Second)
		if _, err := s.TakeLease(ctx, "review/user/1", "w1", time.Hour, nil); err != nil {
			t.Fatal(err)
		}
		l, err := s.LapsedLeases(ctx, "review/game/", *now)
		if err != nil || len(l) != 1 || l[0].Key != "review/game/g1" || l[0].Holder != "w1" || string(l[0].Record) != `{"user":"1"}` {
			t.Fatalf("LapsedLeases = %+v, %v; want g1's, held by w1, its record kept by the renewal", l, err)
		}
		old, err = s.TakeLease(ctx, "review/game/g1", "w2", 30*time.Second, nil)
		if err != nil || old == nil || old.Holder != "w1" || string(old.Record) != `{"user":"1"}` {
			t.Fatalf("taking a lapsed lease over = %+v, %v; want the lapsed lease", old, err)
		}
		// The takeover with no record of its own keeps the job's record,
		// so that a later takeover still finds it.
		*now = now.Add(31 * time.Second)
		l, err = s.LapsedLeases(ctx, "review/game/", *now)
		if err != nil || len(l) != 1 || l[0].Holder != "w2" || string(l[0].Record) != `{"user":"1"}` {
			t.Fatalf("LapsedLeases after a takeover = %+v, %v; want g1's held by w2 with its record", l, err)
		}
		if _, err := s.TakeLease(ctx, "review/game/g1", "w2", 30*time.Second, nil); err != nil {
			t.Fatal(err)
		}
		// At the end of time every lease has lapsed: how /go sgf asks
		// whether a review is running at all.
		if l, err := s.LapsedLeases(ctx, "review/game/g1", time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || len(l) != 1 || l[0].Holder != "w2" {
			t.Errorf("LapsedLeases at the end of time = %+v, %v; want w2's held lease", l, err)
		}
		if err := s.ReleaseLease(ctx, "review/game/g1", "w1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TakeLease(ctx, "review/game/g1", "w3", 30*time.Second, nil); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a release by a former holder ended w2's lease (%v)", err)
		}
		if err := s.ReleaseLease(ctx, "review/game/g1", "w2"); err != nil {
			t.Fatal(err)
		}

		// Eight workers take one free lease at once.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() { _, errs[i] = s.TakeLease(ctx, "review/game/g1", fmt.Sprint("x", i), time.Minute, nil) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, storage.ErrConflict):
				t.Errorf("TakeLease = %v, want nil or ErrConflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d of 8 workers took one lease at once, want 1", won)
		}
	})
}
