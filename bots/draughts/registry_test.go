package draughts

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/draughts/hub"
	"github.com/gobot-dev/gobot/engine/game"
)

// fakeEngine answers the last of the legal moves, or what it is told to.
type fakeEngine struct {
	move   *draughts.Move
	err    error
	calls  int
	closed bool
}

func (f *fakeEngine) GenMove(_ context.Context, start draughts.Position, moves []draughts.Move, _ time.Duration) (draughts.Move, error) {
	f.calls++
	if f.err != nil {
		return draughts.Move{}, f.err
	}
	if f.move != nil {
		return *f.move, nil
	}
	p := start
	for _, m := range moves {
		p.Play(m)
	}
	legal := p.Generate(nil)
	return legal[len(legal)-1], nil
}

func (f *fakeEngine) Close() error { f.closed = true; return nil }

func TestRegistry(t *testing.T) {
	good, broken, liar := &fakeEngine{}, &fakeEngine{err: errors.New("exited")}, &fakeEngine{move: &draughts.Move{From: 1, To: 6}}
	r, err := NewRegistry(Config{Engines: map[string]Engine{"good": good, "broken": broken, "liar": liar}})
	if err != nil {
		t.Fatal(err)
	}
	levels := r.Levels()
	if n := len(Builtin()); len(levels) != n+3 || levels[n].Name != "hub:broken" || levels[n+2].Name != "hub:liar" {
		t.Errorf("Levels: %d levels, the engines' %v; want the built-in ones then hub:broken, hub:good, hub:liar", len(levels), levels[len(Builtin()):])
	}
	if l, ok := r.Lookup("GOOD"); !ok || l.Name != "hub:good" {
		t.Errorf(`Lookup("GOOD") = %q, %v; want hub:good`, l.Name, ok)
	}
	s, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.GenMove(context.Background(), "hub:good", s, 1)
	if err != nil || m != "35-30" {
		t.Errorf("GenMove(hub:good) = %q, %v; want 35-30, the engine's", m, err)
	}
	for _, name := range []string{"hub:broken", "hub:liar"} {
		m, err := r.GenMove(context.Background(), name, s, 1)
		if err != nil {
			t.Errorf("GenMove(%s) = %v, want the fallback's move", name, err)
			continue
		}
		if _, _, err := s.Play(0, m); err != nil {
			t.Errorf("GenMove(%s) = %q, refused: %v", name, m, err)
		}
	}
	if _, err := r.GenMove(context.Background(), "grandmaster", s, 1); !errors.Is(err, ErrUnknownLevel) {
		t.Errorf("GenMove(grandmaster) = %v, want ErrUnknownLevel", err)
	}
	over, err := s.EndWith(game.Result{Winner: 0, Reason: game.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.GenMove(context.Background(), "easy", over, 1); !errors.Is(err, ErrGameOver) {
		t.Errorf("GenMove in a finished game = %v, want ErrGameOver", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.GenMove(ctx, "max", s, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("GenMove cancelled = %v, want context.Canceled", err)
	}
	r.Close()
	if !good.closed || !broken.closed || !liar.closed {
		t.Errorf("Close left an engine open")
	}
}

// TestScanGames plays a few games between the keen level and Scan 3.1
// through the Hub client, as GOBOT_HUB_ENGINES would: every move of both
// must be legal. Scan's evaluation weights are not in its public source,
// so it plays with a zero evaluation: a peer for the protocol and the
// rules, not for strength.
func TestScanGames(t *testing.T) {
	bin := os.Getenv("GOBOT_SCAN")
	if bin == "" {
		t.Skip("GOBOT_SCAN is not set: point it at Scan 3.1's binary (bash /work/shared/tools/build-scan.sh /tmp builds /tmp/scan-3.1/scan) to play gobot against Scan")
	}
	games := 4
	if n, err := strconv.Atoi(os.Getenv("GOBOT_SCAN_GAMES")); err == nil {
		games = n
	}
	c, err := hub.NewClient(context.Background(), hub.Spec{Name: "scan", Argv: []string{bin, "hub"}},
		hub.ClientOptions{Params: map[string]string{"book": "false", "tt-size": "20"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(Config{Engines: map[string]Engine{"scan": c}, EngineTime: 100 * time.Millisecond, Fallback: "beginner"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	scan, _ := r.Lookup("hub:scan")
	keen, _ := Lookup("keen")
	// Scan must not fail: its fallback would hide it.
	scan.New = func(int64) Player { return &enginePlayer{name: "scan", e: c, time: 100 * time.Millisecond} }
	res, err := Match(context.Background(), keen, scan, MatchOptions{Games: games, Seed: 5, MaxPlies: 200,
		Progress: func(g GameRecord) {
			t.Logf("game %d: %s (White) vs %s (Black): %s, %s, %d plies", g.Game, g.White, g.Black, g.Result, g.Reason, g.Plies)
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
}
