package mcts

import (
	"context"
	"testing"
)

// checkTree walks the tree of a from root and fails t where a node's
// children lie outside the allocated nodes or a child was searched more
// often than its parent; it returns the number of expanded nodes.
func checkTree(t *testing.T, a *arena, root int32) int {
	t.Helper()
	used := int32(a.used())
	expanded := 0
	stack := []int32{root}
	for len(stack) > 0 {
		idx := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := a.at(idx)
		if !nd.expanded() {
			continue
		}
		expanded++
		if nd.nchild <= 0 || nd.first <= idx || nd.first+int32(nd.nchild) > used {
			t.Fatalf("node %d: children %d..%d outside the %d nodes allocated", idx, nd.first, nd.first+int32(nd.nchild), used)
		}
		for i := int32(0); i < int32(nd.nchild); i++ {
			ch := a.at(nd.first + i)
			if ch.visits.Load() > nd.visits.Load() {
				t.Fatalf("node %d: child %d has %d visits, the node %d", idx, nd.first+i, ch.visits.Load(), nd.visits.Load())
			}
			stack = append(stack, nd.first+i)
		}
	}
	return expanded
}

// TestCollect checks that a search whose tree fills collects it and goes
// on: the search spends its budget, the tree stays within its cap, and the
// line searched most goes on growing (a tree that fills without Collect
// stops growing where the search is).
func TestCollect(t *testing.T) {
	g := newGame(t, 9)
	const playouts, nodes = 6000, 1 << 14
	search := func(collect bool) Stats {
		e := NewSearcher(Options{Seed: 3, Threads: 1, MaxNodes: nodes, NoReuse: true, NoEarlyStop: true, Collect: collect})
		if _, err := e.GenMove(context.Background(), g, 0, playouts); err != nil {
			t.Fatal(err)
		}
		st := e.Stats()
		if st.Playouts != playouts || st.Nodes > nodes {
			t.Errorf("Collect %v: %d playouts and %d nodes, want %d and at most %d", collect, st.Playouts, st.Nodes, playouts, nodes)
		}
		return st
	}
	st := search(true)
	if st.Collected < 5 {
		t.Errorf("a tree of %d nodes collected %d times in %d playouts, want at least 5 (it fills in about 500): %v", nodes, st.Collected, playouts, st)
	}
	if len(st.PV) < 5 {
		t.Errorf("principal variation of %d moves after collecting, want at least 5: %v", len(st.PV), st)
	}
	if st := search(false); st.Collected != 0 || st.Nodes < nodes-chunkSize {
		t.Errorf("without Collect: %d collections and %d nodes, want none and a full tree: %v", st.Collected, st.Nodes, st)
	}

	big := NewSearcher(Options{Seed: 3, Threads: 1, NoReuse: true, NoEarlyStop: true, Collect: true})
	if _, err := big.GenMove(context.Background(), g, 0, playouts); err != nil {
		t.Fatal(err)
	}
	if bs := big.Stats(); bs.Collected != 0 {
		t.Errorf("a tree of %d nodes was collected after %d: %v", DefaultMaxNodes, bs.Nodes, bs)
	}

	// Two threads stop for every collection and start again. Their
	// search is not repeatable, so the principal variation is only asked
	// to go past the move chosen (a tree full without collecting stops
	// there).
	two := NewSearcher(Options{Seed: 3, Threads: 2, MaxNodes: nodes, NoEarlyStop: true, Collect: true})
	if _, err := two.GenMove(context.Background(), g, 0, playouts); err != nil {
		t.Fatal(err)
	}
	if st := two.Stats(); st.Collected < 5 || st.Playouts < playouts || st.Nodes > nodes || len(st.PV) < 2 {
		t.Errorf("two threads: %d collections, %d playouts, %d nodes, %d moves of PV; want at least 5, %d, at most %d, at least 2: %v",
			st.Collected, st.Playouts, st.Nodes, len(st.PV), playouts, nodes, st)
	}
}

// grownTree returns a one-thread search of the empty 9×9 board, without
// collecting, after the given number of playouts.
func grownTree(tb testing.TB, playouts int) *search {
	tb.Helper()
	g := newGame(tb, 9)
	e := NewSearcher(Options{Seed: 5, Threads: 1, NoReuse: true})
	s := e.newSearch(g, e.clock()())
	s.tree = newArena(DefaultMaxNodes)
	s.root, _ = s.tree.alloc(1)
	s.maxPlayouts = int64(playouts)
	w := newWorker(s, 5, 0)
	w.expand(s.tree.at(s.root), &s.board, s.toPlay, 0, 0)
	if err := runWorkers([]*worker{w}); err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestCopySubtreePrunes checks that a copy too big for its room keeps the
// children of the nodes searched most and makes the others leaves, with
// their statistics, and that a copy with room keeps everything.
func TestCopySubtreePrunes(t *testing.T) {
	s := grownTree(t, 3000)
	all := checkTree(t, s.tree, s.root)
	used := s.tree.used()

	// The copy skips to the next chunk at other places than the search.
	whole := copySubtree(s.tree, s.root, used+chunkSize, used+chunkSize)
	if got := checkTree(t, whole, 0); got != all || whole.used() > used+chunkSize {
		t.Errorf("copy with room for all: %d expanded nodes in %d, want %d in %d", got, whole.used(), all, used)
	}

	keep := used / 4
	min := pruneVisits(s.tree, s.root, keep)
	half := copySubtree(s.tree, s.root, used, keep)
	if half.used() > keep || half.used() < keep/4 {
		t.Errorf("copy into %d nodes used %d", keep, half.used())
	}
	if min <= 2 {
		t.Errorf("pruneVisits(%d of %d) = %d, want more than the visits of expansion", keep, used, min)
	}
	checkTree(t, half, 0)
	// Every node copied has the statistics of its original, and a node
	// is expanded in the copy exactly when it was searched at least min
	// times (all of these fit).
	var walk func(from, to int32)
	walk = func(from, to int32) {
		f, c := s.tree.at(from), half.at(to)
		if f.visits.Load() != c.visits.Load() || f.wins.Load() != c.wins.Load() || f.rave.Load() != c.rave.Load() || f.move != c.move {
			t.Fatalf("node %d copied as %d with other statistics", from, to)
		}
		wantExpanded := f.expanded() && (from == s.root || f.visits.Load() >= min)
		if c.expanded() != wantExpanded {
			t.Fatalf("node %d (%d visits, expanded %v): expanded in the copy %v, want %v (pruned below %d)",
				from, f.visits.Load(), f.expanded(), c.expanded(), wantExpanded, min)
		}
		if !c.expanded() {
			return
		}
		for i := int32(0); i < int32(c.nchild); i++ {
			walk(f.first+i, c.first+i)
		}
	}
	walk(s.root, 0)
}
