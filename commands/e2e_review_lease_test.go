package commands_test

// Reviews shared by workers: the leases in the store say who runs which.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/storage"
)

// leaser is the store's leases, as another worker takes them.
type leaser interface {
	TakeLease(ctx context.Context, key, holder string, d time.Duration, record []byte) (*storage.Lease, error)
}

// reviewedGame plays a short game in ch that bob resigns, and returns its
// ID.
func (e *env) reviewedGame(ch *discordtest.Channel, alice, bob discordtest.User) string {
	e.t.Helper()
	e.startGame(ch, alice, bob, 9)
	id := e.game(ch.ID).ID
	e.playOut(ch, alice, bob, reviewMoves[:4])
	if m := e.do(e.slash(ch, bob, "resign")); m.Ephemeral {
		e.t.Fatalf("resign refused: %q", m.Text())
	}
	return id
}

// TestE2EReviewLeases: a review running on another worker (its leases in
// the store) holds there too: its user cannot start a second review, and
// nobody can start a second review of its game, which made a second
// thread.
func TestE2EReviewLeases(t *testing.T) { onBothStores(t, testE2EReviewLeases) }

func testE2EReviewLeases(t *testing.T, e *env) {
	ch := e.d.GuildChannel("general")
	alice, bob, carol, dave := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol"), e.d.NewUser("dave")
	id := e.reviewedGame(ch, alice, bob)
	other := e.store.(leaser)
	ctx := context.Background()
	// Another worker reviews game g0 for carol, and game id for someone.
	if _, err := other.TakeLease(ctx, "review/user/"+carol.ID, "worker-2", time.Minute, []byte(`{"game":"g0"}`)); err != nil {
		t.Fatal(err)
	}
	e.said(e.slash(ch, carol, "review"), "You already have a review running (game `g0`): wait for it to finish, then ask again.")
	if _, err := other.TakeLease(ctx, "review/game/"+id, "worker-2", time.Minute, []byte(`{"game":"`+id+`"}`)); err != nil {
		t.Fatal(err)
	}
	e.said(e.slash(ch, dave, "review"), "Game `"+id+"` is being reviewed right now, for someone who asked first: once it is done, `/go review game:"+id+"` shows its review at once.")
	if n := len(e.d.Threads(ch.ID)); n != 0 {
		t.Errorf("%d review threads, want none", n)
	}
	// Once the other worker is done (its leases gone), dave's review runs.
	e.clock.Advance(time.Minute)
	if m := e.reviewed(e.slash(ch, dave, "review")); m.Ephemeral || !strings.HasPrefix(m.Text(), "Review of ⚫ alice vs ⚪ bob, 9×9, B+R, 4 moves: in the thread <#") {
		t.Errorf("/go review after the other worker's lease lapsed = %q", m.Text())
	}
}

// TestE2EReviewTakenOver: the worker running a review dies (kill -9: its
// answer, "Waiting for a free engine…", is never edited, its leases never
// released). Once its lease lapses, another worker's sweep takes the
// review over and answers the command that asked for it.
func TestE2EReviewTakenOver(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	gr := &gatedReviewer{gate: make(chan struct{}), started: make(chan struct{}, 4)}
	e.reviewer = gr
	var k *killable
	var o *outage
	e.wrapDiscord = func(d commands.Discord) commands.Discord {
		k = &killable{Discord: d}
		return k
	}
	e.wrapStore = func(s commands.Store) commands.Store {
		o = &outage{Store: s}
		return o
	}
	e.restart()
	ch := e.d.GuildChannel("general")
	alice, bob, carol := e.d.NewUser("alice"), e.d.NewUser("bob"), e.d.NewUser("carol")
	e.reviewedGame(ch, alice, bob)

	it := e.slash(ch, carol, "review")
	if r := e.d.Do(it); r.Type != discordtest.CallbackDeferredChannelMessageWithSource {
		t.Fatalf("/go review was answered with type %d, want a deferral", r.Type)
	}
	<-gr.started
	const waiting = "Waiting for a free engine to review ⚫ alice vs ⚪ bob: number 2 in the queue…"
	e.d.WaitFor("the queue position", func() bool {
		m, _ := e.d.Original(it)
		return m.Content == waiting
	})
	// kill -9: nothing more reaches Discord or the database from it.
	k.dead.Store(true)
	o.down.Store(true)
	e.stopWithin(time.Second)
	if m, _ := e.d.Original(it); m.Content != waiting {
		t.Fatalf("the killed worker answered the review: %q", m.Text())
	}

	e.start()
	close(gr.gate)
	e.clock.Advance(31 * time.Second) // the dead worker's lease lapses
	e.app.Sweep(context.Background())
	var m discordtest.Message
	e.d.WaitFor("the review, answered by the worker that took it over", func() bool {
		m, _ = e.d.Original(it)
		return strings.HasPrefix(m.Content, "Review of")
	})
	if want := "Review of ⚫ alice vs ⚪ bob, 9×9, B+R, 4 moves: in the thread <#"; !strings.HasPrefix(m.Text(), want) {
		t.Errorf("answer = %q, want it to begin %q", m.Text(), want)
	}
	if n := len(e.d.Threads(ch.ID)); n != 1 {
		t.Errorf("%d review threads, want 1", n)
	}
}
