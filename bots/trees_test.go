package bots

import (
	"context"
	"testing"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

func TestTreeCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newTreeCache(2)
	a, b, d := NewRandom(1), NewRandom(2), NewRandom(3)
	c.put(treeKey{"x", 1}, a)
	c.put(treeKey{"x", 2}, b)
	if got := c.take(treeKey{"x", 1}); got != a {
		t.Fatalf("take(1) = %v, want the bot put for game 1", got)
	}
	if got := c.take(treeKey{"x", 1}); got != nil {
		t.Fatalf("second take(1) = %v, want nil: a bot is handed out once", got)
	}
	c.put(treeKey{"x", 1}, a) // now 2 is the oldest
	c.put(treeKey{"x", 3}, d)
	if c.len() != 2 {
		t.Fatalf("len = %d, want 2", c.len())
	}
	if got := c.take(treeKey{"x", 2}); got != nil {
		t.Errorf("the least recently used bot was kept")
	}
	if c.take(treeKey{"x", 1}) != a || c.take(treeKey{"x", 3}) != d {
		t.Errorf("recent bots were evicted")
	}
	none := newTreeCache(-1)
	none.put(treeKey{"x", 1}, a)
	if none.len() != 0 {
		t.Error("a cache of size -1 kept a bot")
	}
}

// TestRegistryReusesTrees plays two moves of one game through the
// registry: the second search must start from the first one's subtree, and
// another game must not get that tree.
func TestRegistryReusesTrees(t *testing.T) {
	r, err := NewRegistry(Config{MaxSearches: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.levels = append(r.levels, Level{
		Name:   "quick-mcts",
		Budget: Budget{Playouts: 400},
		New: func(seed int64) Bot {
			return NewMCTS("quick-mcts", mcts.Options{Seed: seed, Threads: 1})
		},
		KeepTree: true,
	})
	ctx := context.Background()
	g, _ := engine.NewGame(engine.Config{Size: 9, Seed: 42})
	m, err := r.GenMove(ctx, "quick-mcts", g, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	// The reply most likely explored by the first search: its best line.
	first := r.trees.take(treeKey{"quick-mcts", 42}).(*MCTSBot)
	pv := first.Searcher().Stats().PV
	r.trees.put(treeKey{"quick-mcts", 42}, first)
	reply := engine.PassMove(engine.White)
	if len(pv) > 1 {
		reply = pv[1]
	}
	if err := g.Play(reply); err != nil {
		t.Fatal(err)
	}
	if _, err := r.GenMove(ctx, "quick-mcts", g, 2, nil); err != nil {
		t.Fatal(err)
	}
	second := r.trees.take(treeKey{"quick-mcts", 42}).(*MCTSBot)
	if second != first {
		t.Fatal("the game's second move got a new bot, not the one that searched its first move")
	}
	if second.Searcher().Stats().Reused == 0 {
		t.Errorf("second search reused no visits from the first (PV %v)", pv)
	}
	r.trees.put(treeKey{"quick-mcts", 42}, second)

	other, _ := engine.NewGame(engine.Config{Size: 9, Seed: 7})
	if _, err := r.GenMove(ctx, "quick-mcts", other, 3, nil); err != nil {
		t.Fatal(err)
	}
	if r.trees.len() != 2 {
		t.Errorf("registry keeps %d trees, want 2 (one per game)", r.trees.len())
	}
	if b := r.trees.take(treeKey{"quick-mcts", 7}); b == nil || b == first {
		t.Errorf("another game shared the first game's bot")
	}
}
