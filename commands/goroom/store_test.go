package goroom

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/storage"
)

// staleStore returns a snapshot of a game read earlier instead of the stored
// one, as a handler does that loaded the game just before it changed.
type staleStore struct {
	*storage.Store
	stale atomic.Pointer[storage.Game]
}

func (s *staleStore) Game(ctx context.Context, channelID string) (*storage.Game, error) {
	if g := s.stale.Load(); g != nil {
		return g, nil
	}
	return s.Store.Game(ctx, channelID)
}

// wrapStore is a test App whose store is the one wrap makes around the
// real one (to make it fail, or change the game, at a chosen moment).
func wrapStore[S commands.Store](t *testing.T, wrap func(*storage.Store) S) (*testApp, S) {
	var w S
	tb := newTestAppStore(t, testPlayers{}, func(s *storage.Store) commands.Store {
		w = wrap(s)
		return w
	})
	return tb, w
}

// TestAbortStale: an abort that read the channel's previous game (at the
// same version 1 as the new one) must not remove the new game.
func TestAbortStale(t *testing.T) {
	tb, st := wrapStore(t, func(s *storage.Store) *staleStore { return &staleStore{Store: s} })
	startGame(t, tb)
	old, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.store.AbortGame(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	startGame(t, tb)
	st.stale.Store(old)

	it := tb.interaction(cat, channelID)
	it.Member.Permissions = discordgo.PermissionManageMessages
	data, _, _ := commands.ParseSlash("/go abort reason:stale", goDefinitions(nil), nil)
	it.Type, it.Data = discordgo.InteractionApplicationCommand, data
	tb.Handle(context.Background(), it)
	c := only(t, tb.rec.take())
	if strings.Contains(c.text(), "aborted the game") {
		t.Errorf("a stale abort answered %q", c.text())
	}
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil || g.ID == old.ID {
		t.Fatalf("after a stale abort the new game is gone: Game() = %v, %v", g, err)
	}
}

// errDisk is a write that fails (a full disk, a crash).
var errDisk = errors.New("test: disk failed")

// brokenStore fails every write that creates something once broken is set:
// the disk fills up, or the process dies, between two writes.
type brokenStore struct {
	*storage.Store
	broken atomic.Bool
}

func (s *brokenStore) CreateGame(ctx context.Context, g *storage.Game) error {
	if s.broken.Load() {
		return errDisk
	}
	return s.Store.CreateGame(ctx, g)
}

func (s *brokenStore) CreateChallenge(ctx context.Context, c *storage.Challenge) error {
	if s.broken.Load() {
		return errDisk
	}
	return s.Store.CreateChallenge(ctx, c)
}

func (s *brokenStore) AcceptChallenge(ctx context.Context, id string, g *storage.Game) error {
	if s.broken.Load() {
		return errDisk // the transaction rolls back: nothing changed
	}
	return s.Store.AcceptChallenge(ctx, id, g)
}

// TestAcceptAtomic: when the game cannot be written, the challenge stays
// open (accepting is one transaction), and a later accept starts the game.
func TestAcceptAtomic(t *testing.T) {
	tb, bs := wrapStore(t, func(s *storage.Store) *brokenStore { return &brokenStore{Store: s} })
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black")
	accept := calls[len(calls)-1].buttonID(t, "Accept")
	id := strings.Split(accept, "/")[1]

	bs.broken.Store(true)
	c := only(t, tb.press(bob, accept))
	if !c.Message.Ephemeral {
		t.Errorf("a failed accept answered %q, want an ephemeral apology", c.text())
	}
	if _, err := tb.store.Challenge(context.Background(), id); err != nil {
		t.Fatalf("after a failed accept the challenge is gone: %v", err)
	}
	if _, err := tb.store.Game(context.Background(), channelID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("after a failed accept Game() = %v, want ErrNotFound", err)
	}

	bs.broken.Store(false)
	if calls := tb.press(bob, accept); len(calls) != 2 {
		t.Fatalf("accept after the failure: %d calls, want update and board", len(calls))
	}
	if _, err := tb.store.Game(context.Background(), channelID); err != nil {
		t.Fatalf("the second accept started no game: %v", err)
	}
}

// heldThreads is a Discord whose StartThread waits until released, counting
// the threads started.
type heldThreads struct {
	commands.Discord
	entered chan struct{}
	release chan struct{}
	started atomic.Int32
}

func (h *heldThreads) StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error) {
	if h.started.Add(1) == 1 {
		close(h.entered)
		<-h.release
	}
	return h.Discord.StartThread(ctx, channelID, name)
}

// TestDoubleAcceptThread: a second Accept pressed while the first is still
// starting the game's thread is refused at once and starts no second thread.
func TestDoubleAcceptThread(t *testing.T) {
	h := &heldThreads{entered: make(chan struct{}), release: make(chan struct{})}
	tb := newTestAppWith(t, testPlayers{}, func(o *commands.Options) { h.Discord, o.Discord = o.Discord, h })
	calls := tb.command(ann, "/go challenge opponent:bob size:9 color:black thread:true")
	accept := calls[len(calls)-1].buttonID(t, "Accept")

	first := tb.interaction(bob, channelID)
	first.Type = discordgo.InteractionMessageComponent
	first.Data = discordgo.MessageComponentInteractionData{CustomID: accept, ComponentType: discordgo.ButtonComponent}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tb.Handle(context.Background(), first)
	}()
	<-h.entered
	second := tb.interaction(bob, channelID)
	second.Type = discordgo.InteractionMessageComponent
	second.Data = discordgo.MessageComponentInteractionData{CustomID: accept, ComponentType: discordgo.ButtonComponent}
	tb.Handle(context.Background(), second)
	got := tb.rec.take()
	if len(got) != 1 || !got[0].Message.Ephemeral || !strings.Contains(got[0].text(), "being accepted") {
		t.Errorf("the second Accept answered %v, want an ephemeral 'being accepted'", got)
	}
	close(h.release)
	<-done
	if n := h.started.Load(); n != 1 {
		t.Errorf("%d threads started for two presses of Accept, want 1", n)
	}
}

// voteRaceStore plays the vote's move and gobot's answer in the stored
// game just before the first vote is written (armed): the period closed
// while the vote was being counted, so that write meets a version
// conflict and the vote reads the game again.
type voteRaceStore struct {
	*storage.Store
	armed atomic.Bool
}

func (s *voteRaceStore) UpdateGame(ctx context.Context, g *storage.Game) error {
	if g.Vote != nil && len(g.Vote.Ballots) > 0 && s.armed.CompareAndSwap(true, false) {
		cur, err := s.Store.Game(ctx, g.ChannelID)
		if err != nil {
			return err
		}
		for _, m := range []engine.Move{engine.PlaceAt(engine.Black, engine.Point{Col: 2, Row: 2}), engine.PlaceAt(engine.White, engine.Point{Col: 6, Row: 6})} {
			if err := goOf(cur).Play(m); err != nil {
				return err
			}
		}
		cur.Vote = &storage.Vote{Deadline: cur.Vote.Deadline.Add(time.Minute)}
		if err := s.Store.UpdateGame(ctx, cur); err != nil {
			return err
		}
	}
	return s.Store.UpdateGame(ctx, g)
}

// TestVoteAfterItsPeriod: a vote that meets a conflict and finds, reading
// the game again, that the vote it was cast in has closed is refused; it
// is not counted in the next position's vote.
func TestVoteAfterItsPeriod(t *testing.T) {
	tb, vs := wrapStore(t, func(s *storage.Store) *voteRaceStore { return &voteRaceStore{Store: s} })
	if c := tb.command(ann, "/go vote level:first size:9 period:1m color:black"); len(c) == 0 || !strings.Contains(c[len(c)-1].text(), "This channel against gobot") {
		t.Fatalf("vote game: %v", c)
	}
	vs.armed.Store(true)
	wantEphemeral(t, tb.command(bob, "/go play move:E5"), "The vote on that move closed while yours was being counted: look at the newest board and vote again.")
	g, err := tb.store.Game(context.Background(), channelID)
	if err != nil {
		t.Fatal(err)
	}
	if n := g.State.MoveCount(); n != 2 || g.Vote == nil || len(g.Vote.Ballots) != 0 {
		t.Errorf("after the late vote: %d moves, vote %+v; want 2 moves and no ballot", n, g.Vote)
	}
	// A vote on the new position counts.
	calls := tb.command(bob, "/go play move:E5")
	if !slices.ContainsFunc(calls, func(c call) bool { return strings.Contains(c.text(), "Your vote: **E5**") }) {
		t.Errorf("a vote on the new position answered %v", calls)
	}
	if g, _ := tb.store.Game(context.Background(), channelID); g.Vote == nil || len(g.Vote.Ballots) != 1 || g.Vote.Ballots[0].Move != "E5" {
		t.Errorf("a vote on the new position: vote %+v, want bob's E5", g.Vote)
	}
}
