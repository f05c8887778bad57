package bots

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

func TestLevels(t *testing.T) {
	// The test binary stands in for a GTP program that exists.
	r, err := NewRegistry(Config{Programs: []gtp.Spec{{Name: "gnugo", Argv: []string{os.Args[0], "--mode", "gtp"}}}})
	if err != nil {
		t.Fatalf("NewRegistry: %v", err)
	}
	defer r.Close()
	var names []string
	for _, l := range r.Levels() {
		names = append(names, l.Name)
		if l.Description == "" || l.New == nil {
			t.Errorf("level %q has no description or constructor", l.Name)
		}
	}
	want := []string{"beginner", "easy", "casual", "steady", "keen", "medium", "strong", "tough", "hard", "max", "gtp:gnugo"}
	if len(names) != len(want) {
		t.Fatalf("Levels() = %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("Levels() = %q, want %q", names, want)
		}
	}
	tests := []struct {
		name, want string
	}{
		{"beginner", "beginner"},
		{" Hard ", "hard"},
		{"random", "beginner"},
		{"greedy", "easy"},
		{"minimax", "medium"},
		{"mcts", "hard"},
		{"gtp:gnugo", "gtp:gnugo"},
		{"GNUGO", "gtp:gnugo"},
		{"gtp:katago", ""},
		{"", ""},
	}
	for _, tt := range tests {
		l, ok := r.Lookup(tt.name)
		if ok != (tt.want != "") || l.Name != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.name, l.Name, ok, tt.want)
		}
	}
	if _, ok := Lookup("gnugo"); ok {
		t.Errorf("package Lookup(gnugo) found an engine level")
	}
	if _, err := NewRegistry(Config{Programs: []gtp.Spec{{Name: "x", Argv: []string{os.Args[0]}}, {Name: "x", Argv: []string{os.Args[0]}}}}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewRegistry(duplicate engines) = %v, want ErrInvalidConfig", err)
	}
	if _, err := NewRegistry(Config{GTPPrograms: map[string]string{"x": "a 'b"}}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewRegistry(unclosed quote) = %v, want ErrInvalidConfig", err)
	}
	if _, err := NewRegistry(Config{GTPPrograms: map[string]string{"x": "/nonexistent/engine --mode gtp"}}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewRegistry(missing program) = %v, want ErrInvalidConfig", err)
	}
	// Programs from the config package's map, in name order.
	r2, err := NewRegistry(Config{GTPPrograms: map[string]string{"pachi": os.Args[0] + " -t 2", "gnugo": os.Args[0] + " --mode gtp"}})
	if err != nil {
		t.Fatalf("NewRegistry(map): %v", err)
	}
	defer r2.Close()
	var got []string
	for _, l := range r2.Levels() {
		got = append(got, l.Name)
	}
	if n, b := len(got), len(Builtin()); n != b+2 || got[b] != "gtp:gnugo" || got[b+1] != "gtp:pachi" {
		t.Errorf("NewRegistry(map) levels = %q, want the built-in ones, gtp:gnugo, gtp:pachi", got)
	}
}

// The built-in levels' descriptions fit Discord: a choice of /go bot
// ("name: description") holds 100 characters. Each starts with the level's
// rank and " · ", which /go help shows alone when the whole descriptions do
// not fit its message (commands' TestLevelRanksShown).
func TestLevelDescriptionsFitDiscord(t *testing.T) {
	for _, l := range Builtin() {
		choice := l.Name + ": " + l.Description
		if n := utf8.RuneCountInString(choice); n > 100 {
			t.Errorf("choice %q has %d characters, Discord shows 100", choice, n)
		}
		if rank, _, ok := strings.Cut(l.Description, " · "); !ok || !strings.HasPrefix(rank, "about ") || !strings.HasSuffix(rank, " kyu") {
			t.Errorf("level %q: description %q does not start with its rank", l.Name, l.Description)
		}
	}
}

func TestRegistryGenMove(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1, MaxQueue: -1,
		// The test binary, running no tests, exits at once: not an engine.
		Programs: []gtp.Spec{{Name: "broken", Argv: []string{os.Args[0], "-test.run=^$"}}}})
	if err != nil {
		t.Fatalf("NewRegistry: %v", err)
	}
	defer r.Close()
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, level := range []string{"beginner", "easy"} {
		m, err := r.GenMove(ctx, level, g, 1, nil)
		if err != nil {
			t.Fatalf("GenMove(%s): %v", level, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("GenMove(%s) = %v: %v", level, m, err)
		}
	}
	if _, err := r.GenMove(ctx, "grandmaster", g, 1, nil); !errors.Is(err, ErrUnknownLevel) {
		t.Errorf("GenMove(unknown level) = %v, want ErrUnknownLevel", err)
	}
	if _, err := r.GenMove(ctx, "broken", g, 1, nil); !errors.Is(err, gtp.ErrStart) {
		t.Errorf("GenMove(engine that does not answer) = %v, want gtp.ErrStart", err)
	}
	// Every slot taken and no queue: busy.
	release, err := r.Limiter().Acquire(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.GenMove(ctx, "beginner", g, 1, nil); !errors.Is(err, ErrBusy) {
		t.Errorf("GenMove(all slots taken) = %v, want ErrBusy", err)
	}
	release()
}

func TestMCTSLevel(t *testing.T) {
	l, ok := Lookup("hard")
	if !ok {
		t.Fatal("no hard level")
	}
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	m, err := l.New(1).GenMove(context.Background(), g, Budget{Playouts: 300})
	if err != nil {
		t.Fatalf("GenMove: %v", err)
	}
	if err := g.Check(m); err != nil {
		t.Errorf("GenMove = %v: %v", m, err)
	}
}

// TestMCTSStopsEarlyInByoYomi: with Budget.Max at or below Budget.Time (a
// byo-yomi period of one stone) hard's search stops early, "settled", on a
// forced answer (and only there), the capture of five stones (by either colour), well
// within its budget of playouts: the early stop never fired
// in byo-yomi (issue 34), and such a search ran to its limit (here, the
// budget's 20,000 playouts).
func TestMCTSStopsEarlyInByoYomi(t *testing.T) {
	const playouts = 20000
	for i, tt := range []struct {
		name    string
		diagram string
		toPlay  engine.Color
	}{
		{"Black captures", `
			. . . . . . .
			. . . . . . .
			O O O O O O O
			X X X X X X X
			X O O O O O X
			X X X X X . .
			. . . . . . .`, engine.Black},
		{"White captures", `
			. . . . . . .
			. . . . . . .
			X X X X X X X
			O O O O O O O
			O X X X X X O
			O O O O O . .
			. . . . . . .`, engine.White},
	} {
		g := position(t, tt.diagram, tt.toPlay)
		budgets := []Budget{
			{Time: time.Minute, Max: time.Minute, Playouts: playouts},
			{Time: time.Minute, Max: 50 * time.Second, Playouts: playouts},
		}
		if raceEnabled {
			// Under the race detector, which slows the searches about
			// tenfold, each capture is searched with one of the two
			// byo-yomi budgets (Black's with Max at Time, White's with
			// Max below it): both budgets and both colours are still
			// searched. The run without the detector searches all four.
			budgets = budgets[i : i+1]
		}
		for _, budget := range budgets {
			bot := NewMCTS("hard", timedOptions(1, hardMaxNodes))
			m, err := bot.GenMove(context.Background(), g, budget)
			if err != nil {
				t.Fatal(err)
			}
			st := bot.Searcher().Stats()
			if m.String() != "F2" || st.Stopped != "settled" || st.Playouts >= playouts*3/4 {
				t.Errorf("%s, budget %+v: %v, stopped by %q after %d playouts (%v), want F2, settled well before %d playouts",
					tt.name, budget, m, st.Stopped, st.Playouts, st, playouts)
			}
		}
	}
	// A move of the middle game is no forced answer: in byo-yomi the
	// search spends its budget (growing the subtree the next move reuses),
	// though the choice settles early without a Max.
	// One thread: with a budget of playouts the searches are repeatable.
	// 5,000 playouts, not 20,000: without a Max the choice settles after
	// 4,224 of them (18,560 of 20,000), and under the race detector on a
	// loaded machine a search of 20,000 outlasted the minute ("time").
	g := position(t, midgame9, engine.Black)
	opts := timedOptions(1, hardMaxNodes)
	opts.Threads = 1
	const midgamePlayouts = 5000
	for _, tt := range []struct {
		budget  Budget
		stopped string
	}{
		{Budget{Time: time.Minute, Max: time.Minute, Playouts: midgamePlayouts}, "budget"},
		{Budget{Time: time.Minute, Playouts: midgamePlayouts}, "settled"},
	} {
		bot := NewMCTS("hard", opts)
		if _, err := bot.GenMove(context.Background(), g, tt.budget); err != nil {
			t.Fatal(err)
		}
		if st := bot.Searcher().Stats(); st.Stopped != tt.stopped {
			t.Errorf("middle game, budget %+v: stopped by %q after %d playouts, want %q", tt.budget, st.Stopped, st.Playouts, tt.stopped)
		}
	}
}

func TestExternalWithGNUGo(t *testing.T) {
	const path = "/usr/games/gnugo"
	if _, err := os.Stat(path); err != nil {
		t.Skip("GNU Go is not installed at " + path + " (apt-get install gnugo); skipping")
	}
	specs, err := gtp.ParsePrograms("gnugo=" + path + " --mode gtp --level 1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(Config{Programs: specs})
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		level := "gnugo"
		if i%2 == 1 {
			level = "easy"
		}
		m, err := r.GenMove(context.Background(), level, g, int64(i), nil)
		if err != nil {
			t.Fatalf("GenMove(%s): %v", level, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played %v: %v", level, m, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := r.GenMove(context.Background(), "gnugo", g, 1, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("GenMove after Close = %v, want ErrClosed", err)
	}
}

// panicky is a bot with a bug.
type panicky struct{}

func (panicky) Name() string { return "panicky" }
func (panicky) GenMove(context.Context, *engine.Game, Budget) (engine.Move, error) {
	panic("index out of range")
}

func TestRegistryRecoversPanic(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.levels = append(r.levels, Level{Name: "panicky", Description: "a bug", New: func(int64) Bot { return panicky{} }})
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.GenMove(context.Background(), "panicky", g, 1, nil); !errors.Is(err, ErrInternal) {
		t.Errorf("GenMove(panicking bot) = %v, want ErrInternal", err)
	}
	// The slot was given back.
	if running, queued := r.Limiter().Stats(); running != 0 || queued != 0 {
		t.Errorf("after the panic: %d running, %d queued; want 0, 0", running, queued)
	}
	if _, err := r.GenMove(context.Background(), "beginner", g, 1, nil); err != nil {
		t.Errorf("GenMove after a panic: %v", err)
	}
}

// TestMaxTreeHoldsItsSearch: max's tree holds the playouts of a long move
// without collecting. A collected tree loses the subtrees it drops, and
// with a tree that filled on most of its moves max at 3 s a move was no
// stronger than hard at 1 s (see maxMaxNodes); 75,000 playouts, about what
// max searches in 2 s on two cores, filled the old 2M-node tree.
func TestMaxTreeHoldsItsSearch(t *testing.T) {
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	opts := timedOptions(1, maxMaxNodes)
	opts.NoEarlyStop = true
	bot := NewMCTS("max", opts)
	if _, err := bot.GenMove(context.Background(), g, Budget{Playouts: 75000}); err != nil {
		t.Fatal(err)
	}
	if st := bot.Searcher().Stats(); st.Playouts < 75000 || st.Collected != 0 {
		t.Errorf("%d playouts, %d nodes, collected %d times; want 75000 playouts in a tree never collected", st.Playouts, st.Nodes, st.Collected)
	}
}

// deadlineBot records the deadline its context had, and passes.
type deadlineBot struct{ seen *time.Time }

func (deadlineBot) Name() string { return "deadline" }
func (b deadlineBot) GenMove(ctx context.Context, g *engine.Game, _ Budget) (engine.Move, error) {
	*b.seen, _ = ctx.Deadline()
	return engine.PassMove(g.ToPlay()), nil
}

// TestWithMoveTime: a clock's share given with WithMoveTime reaches the
// bot as its context's deadline, counted from when the search begins;
// without it the level keeps its own budget and the context no deadline.
func TestWithMoveTime(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var seen time.Time
	r.levels = append(r.levels, Level{Name: "deadline", New: func(int64) Bot { return deadlineBot{&seen} }})
	g, err := engine.NewGame(engine.Config{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if _, err := r.GenMove(WithMoveTime(context.Background(), time.Hour), "deadline", g, 1, nil); err != nil {
		t.Fatal(err)
	}
	if seen.Before(before.Add(time.Hour)) || seen.After(time.Now().Add(time.Hour)) {
		t.Errorf("with an hour's share the bot's deadline is %v, want an hour from the search (%v)", seen, before.Add(time.Hour))
	}
	if _, err := r.GenMove(context.Background(), "deadline", g, 1, nil); err != nil || !seen.IsZero() {
		t.Errorf("without a share the bot's deadline is %v (%v), want none", seen, err)
	}
}

// TestRegistryStandInWhenBusy: a move on a game clock (WithMoveTime) does
// not wait for a search slot past half its time, nor queue behind a full
// queue: the greedy player, which needs no slot, makes it, a legal move,
// and the report says why (StandInBusy). Without a clock the move waits
// for its slot as before, and a level that found its slot reports no
// stand-in.
func TestRegistryStandInWhenBusy(t *testing.T) {
	for _, queue := range []int{0, -1} { // a queue to wait in, and none
		r, err := NewRegistry(Config{MaxSearches: 1, MaxQueue: queue})
		if err != nil {
			t.Fatal(err)
		}
		g, err := engine.NewGame(engine.Config{Size: 9})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		release, err := r.Limiter().Acquire(ctx, nil) // another game's search holds the slot
		if err != nil {
			t.Fatal(err)
		}
		mctx, why := WithStandIn(WithMoveTime(ctx, 50*time.Millisecond))
		m, err := r.GenMove(mctx, "max", g, 1, nil)
		if err != nil || why() != StandInBusy || g.Check(m) != nil {
			t.Errorf("queue %d, the only slot taken: GenMove = %v, %v, stand-in %q; want a legal move by the stand-in (busy)", queue, m, err, why())
		}
		// Without a clock: no stand-in; a queue to wait in waits until
		// cancelled.
		cctx, cancel := context.WithCancel(ctx)
		cctx, why = WithStandIn(cctx)
		if queue == 0 {
			time.AfterFunc(20*time.Millisecond, cancel)
		}
		if _, err := r.GenMove(cctx, "max", g, 1, nil); err == nil || why() != "" {
			t.Errorf("queue %d, no clock: GenMove = %v, stand-in %q; want an error (busy or cancelled) and no stand-in", queue, err, why())
		}
		cancel()
		release()
		// The slot free: the level itself moves.
		mctx, why = WithStandIn(WithMoveTime(ctx, 50*time.Millisecond))
		if _, err := r.GenMove(mctx, "easy", g, 1, nil); err != nil || why() != "" {
			t.Errorf("queue %d, a free slot: GenMove = %v, stand-in %q; want the level's own move", queue, err, why())
		}
		r.Close()
	}
}
