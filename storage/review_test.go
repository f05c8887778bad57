package storage

import (
	"errors"
	"testing"
	"time"
)

func TestGameReview(t *testing.T) {
	s := openTest(t)
	if _, err := s.GameReview(ctx, "nogame"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GameReview of an unknown game = %v, want ErrNotFound", err)
	}
	if err := s.PutGameReview(ctx, "nogame", []byte(`{}`)); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutGameReview of an unknown game = %v, want ErrNotFound", err)
	}
	finishNew(t, s, "c1", "g1", "u1", "u2", time.Unix(1000, 0))
	if _, err := s.GameReview(ctx, "g1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GameReview before any review = %v, want ErrNotFound", err)
	}
	if err := s.PutGameReview(ctx, "g1", nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("PutGameReview(nil) = %v, want ErrInvalid", err)
	}
	for _, review := range []string{`{"format":1}`, `{"format":2}`} {
		if err := s.PutGameReview(ctx, "g1", []byte(review)); err != nil {
			t.Fatal(err)
		}
		got, err := s.GameReview(ctx, "g1")
		if err != nil || string(got) != review {
			t.Errorf("GameReview = %q, %v, want %q", got, err, review)
		}
	}
	// The review survives a reopening of the file.
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openAt(t, path)
	if got, err := s2.GameReview(ctx, "g1"); err != nil || string(got) != `{"format":2}` {
		t.Errorf("GameReview after reopening = %q, %v", got, err)
	}
}
