//go:build arena

package arena

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// TestMatch plays a real match; it is built only with -tags arena:
//
//	GOBOT_ARENA_A=medium GOBOT_ARENA_B=easy GOBOT_ARENA_GAMES=30 GOBOT_ARENA_TIME=300ms \
//	    go test -tags arena -run TestMatch -timeout 0 -v ./bots/arena
//
// GOBOT_ARENA_SIZE (9), GOBOT_ARENA_PLAYOUTS, GOBOT_ARENA_PARALLEL (1),
// GOBOT_ARENA_SGF (directory) and GOBOT_GTP_ENGINES (for gtp:NAME players)
// are read too. The report is logged; the test fails only on errors.
func TestMatch(t *testing.T) {
	env := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	atoi := func(k, def string) int {
		n, err := strconv.Atoi(env(k, def))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		return n
	}
	specs, err := gtp.ParsePrograms(os.Getenv("GOBOT_GTP_ENGINES"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := bots.NewRegistry(bots.Config{Programs: specs})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	var budget bots.Budget
	if s := os.Getenv("GOBOT_ARENA_TIME"); s != "" {
		if budget.Time, err = time.ParseDuration(s); err != nil {
			t.Fatalf("GOBOT_ARENA_TIME: %v", err)
		}
	}
	budget.Playouts = atoi("GOBOT_ARENA_PLAYOUTS", "0")
	players := [2]Player{}
	for i, k := range []string{"GOBOT_ARENA_A", "GOBOT_ARENA_B"} {
		l, ok := reg.Lookup(env(k, []string{"easy", "beginner"}[i]))
		if !ok {
			t.Fatalf("%s: unknown level %q", k, os.Getenv(k))
		}
		players[i] = PlayerFor(l, budget)
	}
	cfg := Config{
		A: players[0], B: players[1],
		Games:    atoi("GOBOT_ARENA_GAMES", "20"),
		Size:     atoi("GOBOT_ARENA_SIZE", "9"),
		Parallel: atoi("GOBOT_ARENA_PARALLEL", "1"),
		SGFDir:   os.Getenv("GOBOT_ARENA_SGF"),
		Progress: func(r GameResult) {
			t.Logf("game %d: %s (B) vs %s (W): %s, %d moves, %v", r.Index+1, r.Black, r.White, r.Result, r.Moves, r.Duration.Round(time.Millisecond))
		},
	}
	rep, err := Run(context.Background(), cfg)
	t.Logf("budget %+v\n%v", budget, rep)
	if err != nil {
		t.Fatal(err)
	}
}
