package mcts

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Node states.
const (
	stateLeaf      = 0
	stateExpanding = 1
	stateExpanded  = 2
	stateMask      = 3
	// flagIllegal marks a move that repeats a position (superko) on the
	// path to it; the search never selects it again.
	flagIllegal = 1 << 4
	// flagAtari marks a move that puts an opponent chain in atari
	// (prior), whose RAVE equivalence is params.raveAtari.
	flagAtari = 1 << 5
)

// node is one move in the tree. Statistics are updated with atomics by all
// search threads; the move, the priors and the children are written once by
// the thread that expands the node before it publishes stateExpanded, and
// read only after loading that state.
//
// Wins are counted in half points (2 for a win, 1 for a jigo) from the
// point of view of the player who played the node's move. A visit is added
// when a thread passes through the node on its way down (a virtual loss
// until the result is added on the way back up).
type node struct {
	visits atomic.Int32
	wins   atomic.Int32
	// rave packs the AMAF (RAVE) statistics into one word, so that one
	// atomic add updates both: visits in the high 32 bits, wins (in half
	// points) in the low 32.
	rave   atomic.Uint64
	state  atomic.Int32
	priorN float32 // prior equivalent visits
	priorW float32 // prior equivalent wins (full points)
	first  int32   // arena index of the first child
	nchild int16
	move   int16 // vertex; engine.PassVertex for a pass
}

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// arena holds the nodes of one tree in chunks allocated as needed, so
// indices stay valid and node pointers stable while the tree grows. The
// children of a node are contiguous within one chunk.
type arena struct {
	mu     sync.Mutex
	chunks []*[chunkSize]node // fixed length; entries filled under mu
	next   int32              // next free index, under mu
	limit  int32
	full   atomic.Bool // set once an allocation has failed
}

func newArena(maxNodes int) *arena {
	if maxNodes < 2*chunkSize {
		maxNodes = 2 * chunkSize
	}
	n := (maxNodes + chunkSize - 1) / chunkSize
	return &arena{chunks: make([]*[chunkSize]node, n), limit: int32(n * chunkSize)}
}

// at returns the node at index i, which must have been allocated.
func (a *arena) at(i int32) *node { return &a.chunks[i>>chunkBits][i&chunkMask] }

// alloc reserves k contiguous nodes (k <= chunkSize) and returns the index
// of the first, or false when the arena is full.
func (a *arena) alloc(k int) (int32, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	start := a.next
	if int(start&chunkMask)+k > chunkSize {
		start = (start + chunkMask) &^ chunkMask // skip to the next chunk
	}
	end := start + int32(k)
	if end > a.limit {
		a.full.Store(true)
		return 0, false
	}
	for c := start >> chunkBits; c <= (end-1)>>chunkBits; c++ {
		if a.chunks[c] == nil {
			a.chunks[c] = new([chunkSize]node)
		}
	}
	a.next = end
	return start, true
}

// used returns the number of nodes allocated (including skipped slots).
func (a *arena) used() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return int(a.next)
}

// children returns the index range of n's children; valid only once n is
// expanded.
func (n *node) expanded() bool { return n.state.Load()&stateMask == stateExpanded }

// raveStats returns the AMAF visits and wins (in half points).
func (n *node) raveStats() (visits, wins uint32) {
	r := n.rave.Load()
	return uint32(r >> 32), uint32(r)
}

func (n *node) illegal() bool { return n.state.Load()&flagIllegal != 0 }

// winrate returns the node's observed win rate, or -1 with no visits.
func (n *node) winrate() float64 {
	v := n.visits.Load()
	if v == 0 {
		return -1
	}
	return float64(n.wins.Load()) / (2 * float64(v))
}

// copySubtree copies the subtree rooted at src in a into a fresh arena of
// capacity nodes and returns it with the new root at index 0. It copies at
// most keep nodes: when the whole subtree does not fit, it keeps the
// children only of the nodes searched most (see pruneVisits), and the
// other nodes become leaves again, with their own statistics, to be
// expanded afresh when the search comes back to them.
func copySubtree(a *arena, src int32, capacity, keep int) *arena {
	dst := newArena(capacity)
	limit := dst.limit
	dst.limit = min(limit, int32(max(keep, chunkSize)))
	minVisits := pruneVisits(a, src, int(dst.limit))
	root, _ := dst.alloc(1)
	type pair struct{ from, to int32 }
	queue := []pair{{src, root}}
	for i := 0; i < len(queue); i++ {
		p := queue[i]
		f, t := a.at(p.from), dst.at(p.to)
		t.visits.Store(f.visits.Load())
		t.wins.Store(f.wins.Load())
		t.rave.Store(f.rave.Load())
		t.priorN, t.priorW, t.move = f.priorN, f.priorW, f.move
		flags := f.state.Load() &^ stateMask
		if f.state.Load()&stateMask != stateExpanded || p.from != src && f.visits.Load() < minVisits {
			t.state.Store(flags)
			continue
		}
		first, ok := dst.alloc(int(f.nchild))
		if !ok {
			t.state.Store(flags)
			continue
		}
		t.first, t.nchild = first, f.nchild
		t.state.Store(flags | stateExpanded)
		for i := int32(0); i < int32(f.nchild); i++ {
			queue = append(queue, pair{f.first + i, first + i})
		}
	}
	dst.limit = limit
	dst.full.Store(false)
	return dst
}

// pruneVisits returns the fewest visits, a power of two, that a node of
// the subtree of a rooted at src must have for its children to be kept so
// that the subtree's copy fits in keep nodes (1 when all of it fits). A
// node counts with the fewest visits on its path from src, since a node is
// copied only when its parent's children are.
func pruneVisits(a *arena, src int32, keep int) int32 {
	// need[b]: the children of the expanded nodes whose path visits have
	// their highest bit at b.
	var need [32]int
	type item struct {
		idx    int32
		visits int32
	}
	stack := []item{{src, math.MaxInt32}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := a.at(it.idx)
		if !nd.expanded() {
			continue
		}
		v := max(min(it.visits, nd.visits.Load()), 1)
		need[bits.Len32(uint32(v))-1] += int(nd.nchild)
		for c := nd.first; c < nd.first+int32(nd.nchild); c++ {
			if a.at(c).expanded() { // leaves have no children to count
				stack = append(stack, item{c, v})
			}
		}
	}
	total := 1 // the root
	for b := len(need) - 1; b >= 0; b-- {
		if total+need[b] > keep {
			return int32(min(1<<(b+1), math.MaxInt32))
		}
		total += need[b]
	}
	return 1
}
