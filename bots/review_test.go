package bots

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
	"github.com/gobot-dev/gobot/engine/gtp/gtptest"
)

func TestReviewerConfig(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.Reviewer(); got != "mcts 2500 playouts" {
		t.Errorf("Reviewer() = %q, want the built-in engine", got)
	}
	self, _ := os.Executable()
	for _, name := range []string{"gtp:nope", "katago", "mcts:fast"} {
		_, err := NewRegistry(Config{Reviewer: name, GTPPrograms: map[string]string{"fake": self}})
		if !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Reviewer %q: NewRegistry = %v, want ErrInvalidConfig", name, err)
		}
	}
	rg, err := NewRegistry(Config{Reviewer: "gtp:fake", GTPPrograms: map[string]string{"fake": self}})
	if err != nil {
		t.Fatal(err)
	}
	defer rg.Close()
	if got := rg.Reviewer(); got != "gtp:fake" {
		t.Errorf("Reviewer() = %q, want gtp:fake", got)
	}
}

// TestCheckReviewerSlowStart: a review program that reads its first
// command only after loading for longer than the clients' command timeout
// (a large network on a CPU) passes the start-up check: its start has
// EngineStartTimeout.
func TestCheckReviewerSlowStart(t *testing.T) {
	prog := strings.Join(gtptest.Argv("slowkata"), " ")
	r, err := NewRegistry(Config{Reviewer: "gtp:slow", GTPPrograms: map[string]string{"slow": prog}, GTP: gtp.ClientOptions{Timeout: 200 * time.Millisecond}, MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.CheckReviewer(context.Background()); err != nil {
		t.Errorf("CheckReviewer of a program that starts in a second = %v, want nil", err)
	}
}

// TestReviewQueue: a review waits for a search slot like a bot move,
// reporting its place, and gives the slot back when done.
func TestReviewQueue(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, err := engine.NewGame(engine.Config{Size: 9, Rules: engine.DefaultRules()})
	if err != nil {
		t.Fatal(err)
	}
	release, err := r.Limiter().Acquire(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	queued := make(chan int, 4)
	done := make(chan error, 1)
	go func() {
		_, err := r.Review(context.Background(), g, func(pos int) { queued <- pos }, nil)
		done <- err
	}()
	if pos := <-queued; pos != 1 {
		t.Errorf("the review waits at place %d, want 1", pos)
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("Review = %v", err)
	}
	if running, waiting := r.Limiter().Stats(); running != 0 || waiting != 0 {
		t.Errorf("after the review: %d running, %d waiting, want none", running, waiting)
	}
	est, err := r.Estimate(context.Background(), g, nil)
	if err != nil || len(est.Ownership) != 81 || est.Playouts != EstimatePlayouts(9) {
		t.Errorf("Estimate = %d points, %d playouts, %v", len(est.Ownership), est.Playouts, err)
	}
}
