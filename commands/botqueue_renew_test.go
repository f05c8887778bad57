package commands

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/logtest"
	"github.com/gobot-dev/gobot/storage"
)

// flakyQueue fails ExtendBotMove once with a database error, then renews;
// after lost it answers ErrNotFound (the claim lapsed).
type flakyQueue struct {
	BotQueue
	mu    sync.Mutex
	calls int
	lost  int // the call from which the claim is gone (0: never)
}

func (q *flakyQueue) ExtendBotMove(ctx context.Context, m *storage.BotMove, lease time.Duration) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.calls++
	switch {
	case q.calls == 1:
		return errors.New("test: the database is restarting")
	case q.lost > 0 && q.calls >= q.lost:
		return storage.ErrNotFound
	}
	return nil
}

func (q *flakyQueue) count() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.calls
}

// TestRenewAfterAnError: a worker renewing its claim on a bot move goes on
// renewing after a failed write (the claim still holds), and stops once
// the claim is gone.
func TestRenewAfterAnError(t *testing.T) {
	const period = 5 * time.Millisecond
	for _, lost := range []int{0, 3} {
		q := &flakyQueue{lost: lost}
		a := &App{queue: q, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		stop := a.renewEvery(context.Background(), &storage.BotMove{ChannelID: "1"}, period)
		for deadline := time.Now().Add(10 * time.Second); q.count() < 6 && (lost == 0 || q.count() < lost) && time.Now().Before(deadline); {
			time.Sleep(period)
		}
		time.Sleep(20 * period) // renewals after a loss would show
		stop()
		switch n := q.count(); {
		case lost == 0 && n < 6:
			t.Errorf("renewals after a failed one: %d calls in all, want them to go on", n)
		case lost > 0 && n != lost:
			t.Errorf("renewals after the claim was lost: %d calls in all, want %d", n, lost)
		}
	}
}

// TestClaimFailuresEndOnlyAfterThem: with several workers, a claim sent
// before the database failed may come back after another worker's failed
// one; it must not log that claims work again (failures=1 for=0s, then the
// failure logged anew, as CI once saw), only a claim sent after does.
func TestClaimFailuresEndOnlyAfterThem(t *testing.T) {
	var logged logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	var c claimFailures
	now := time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
	early := c.send() // sent while the database still answered
	late := c.send()
	c.failed(log, now, errors.New("test: down"))
	c.worked(log, now.Add(time.Second), early)
	c.failed(log, now.Add(2*time.Second), errors.New("test: down"))
	after := c.send()
	c.worked(log, now.Add(70*time.Second), after)
	c.worked(log, now.Add(71*time.Second), late)
	want := `level=WARN msg="bot queue: cannot claim owed bot moves; the workers try again, less often while it lasts" err="test: down"
level=INFO msg="bot queue: claims work again" failures=2 for=1m10s
`
	if got := logged.String(); got != want {
		t.Errorf("the log =\n%s\nwant\n%s", got, want)
	}
}
