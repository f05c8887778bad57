package mcts

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobot-dev/gobot/bots/shape"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/playout"
)

// search is one GenMove's search: the root position, the budget and the
// shared tree. Workers (one per thread) run playouts against it.
type search struct {
	params params
	tree   *arena
	root   int32

	board  engine.Board // the root position
	toPlay engine.Color
	game   *engine.Game // a private clone, for superko against the history
	ko     engine.KoRule
	komi   float64 // komi plus White's handicap compensation and dynamic komi
	// territory says that the game is scored by territory (Japanese
	// rules): each stone a line places costs its player a point that an
	// area count does not take (see worker.placed).
	territory bool
	// dynamicKomi is the part of komi added for handicap games.
	dynamicKomi float64
	passes      int // consecutive passes before the root
	last        int // the last move's vertex (0 for none or a pass)
	last2       int // the vertex of the move before it (0 for none or a pass)

	size, stride int
	// model is the shape model of the tree's prior: with large patterns
	// on 13×13 and bigger (shape.For).
	model  *shape.Model
	points []int  // the vertices of the playing area
	edge   []bool // by vertex: off the playing area
	near2  []int  // offsets within Manhattan distance two

	maxPlayouts int64
	start       time.Time
	deadline    time.Time // zero for none
	// target is the time the search aims at (zero for none): past it, the
	// search goes on towards the deadline only while its choice is
	// unclear (see unclear).
	target    time.Time
	earlyStop bool
	// forcedOnly limits the early stop to forced answers (see forced):
	// in byo-yomi, where time not spent is lost.
	forcedOnly bool
	now        func() time.Time // the clock: time.Now, a fake one in tests
	done       <-chan struct{}

	// collects says whether the tree is collected when it fills (see
	// collect); otherwise the search goes on from the full tree's leaves.
	collects  bool
	collected int // times collected

	playouts  atomic.Int64
	stop      atomic.Bool
	cancelled atomic.Bool

	// lines sums, in analysis, the results of the playouts through each
	// root child (indexed from the root's first child): Black's lead after
	// komi, in half points, and the number of playouts.
	lines     []lineScore
	linesFrom int32
}

// lineScore is the sum of the results of the playouts through one root
// child.
type lineScore struct {
	halfPoints atomic.Int64
	n          atomic.Int64
}

// worker is one search thread's state; nothing in it is shared.
type worker struct {
	s       *search
	player  playout.Player // the playout policy and its random numbers
	board   engine.Board
	scratch engine.Board
	path    []int32
	hashes  []uint64       // positions on the tree path, for superko
	toPlays []engine.Color // and who was to move in each
	probs   []float32      // the shape model's probabilities of the moves being expanded

	stamp     uint32
	amafStamp []uint32
	amafColor []engine.Color
	amafDepth []int32

	grid        []int8
	fill        []uint32
	fillStamp   uint32
	regionOwner []int8
	stack       []int
	region      []int
	ownB, ownW  []int32
	ownN        int32

	// placed is how many more stones Black than White placed on the
	// current playout's path through the tree: a territory count is the
	// area count less the stones each side placed (see WhiteBonus). The
	// random moves after the tree are not counted: they fill and capture
	// where a real count takes dead stones off without a move, so their
	// stones would only add noise of several points to every playout (a
	// position Black leads by 2.5 under either rules read 59% for Black,
	// W+2.1, by territory, 87% by area).
	placed int
}

func newWorker(s *search, seed int64, stream int) *worker {
	area := s.stride * s.stride
	w := &worker{
		s:           s,
		player:      playout.Player{Policy: s.params.playout, Rand: playout.NewStream(seed, stream)},
		amafStamp:   make([]uint32, area),
		amafColor:   make([]engine.Color, area),
		amafDepth:   make([]int32, area),
		grid:        make([]int8, area),
		fill:        make([]uint32, area),
		regionOwner: make([]int8, area),
		stack:       make([]int, 0, area),
		region:      make([]int, 0, area),
		ownB:        make([]int32, area),
		ownW:        make([]int32, area),
	}
	for v, edge := range s.edge {
		if edge {
			w.grid[v] = gEdge
		}
	}
	return w
}

// colorAt returns who is to move at depth d of the tree (0 at the root).
func (s *search) colorAt(d int) engine.Color {
	if d%2 == 0 {
		return s.toPlay
	}
	return s.toPlay.Opponent()
}

// run is a worker's loop: playouts until the budget is spent, the choice is
// settled or the context is done.
func (w *worker) run() {
	s := w.s
	for i := 0; !s.stop.Load(); i++ {
		select {
		case <-s.done:
			s.cancelled.Store(true)
			s.stop.Store(true)
			return
		default:
		}
		if !w.playout() {
			continue
		}
		n := s.playouts.Add(1)
		if s.maxPlayouts > 0 && n >= s.maxPlayouts {
			s.stop.Store(true)
			return
		}
		if i&15 == 0 && s.timeUp() {
			s.stop.Store(true)
			return
		}
		if s.earlyStop && n&63 == 0 && s.settled(n) {
			s.stop.Store(true)
			return
		}
		if s.collects && s.tree.full.Load() {
			return // to collect the tree (search.collect)
		}
	}
}

// timeUp reports whether the search's time is spent: its deadline has
// passed, or its target has and the choice is clear.
func (s *search) timeUp() bool {
	if s.deadline.IsZero() && s.target.IsZero() {
		return false
	}
	now := s.now()
	if !s.deadline.IsZero() && !now.Before(s.deadline) {
		return true
	}
	return !s.target.IsZero() && !now.Before(s.target) && !s.unclear()
}

// settleMin is the fewest playouts after which a search may stop early:
// the end-of-game rules read its ownership only from 100 playouts on
// (finish's pass, bots' judgeMinPlayouts), and a forced answer or a pass
// should still be judged by them.
const settleMin = 256

// settled reports whether the most visited move at the root can no longer
// be overtaken with the playouts left in the budget: those left to the
// target when the search has one (time saved then is kept for later moves),
// else to the deadline, at the rate of the playouts done so far. It is
// false before settleMin playouts, and with forcedOnly unless the choice
// is a forced answer (see forced).
func (s *search) settled(done int64) bool {
	if done < settleMin {
		return false
	}
	remaining := int64(math.MaxInt64)
	if s.maxPlayouts > 0 {
		remaining = s.maxPlayouts - done
	}
	end := s.target
	if end.IsZero() {
		end = s.deadline
	}
	if !end.IsZero() {
		now := s.now()
		elapsed, left := now.Sub(s.start), end.Sub(now)
		if elapsed > 0 {
			byTime := int64(float64(done) * float64(left) / float64(elapsed))
			remaining = min(remaining, byTime)
		}
	}
	best, second, _ := s.rootLeaders()
	if best == nil {
		return false
	}
	var sv int32
	if second != nil {
		sv = second.visits.Load()
	}
	if s.forcedOnly && !s.forced(best) {
		return false
	}
	return int64(best.visits.Load()-sv) > remaining
}

// forcedShare is the share of the root's visits, in tenths, that the most
// visited move must hold for the choice to be a forced answer.
const forcedShare = 9

// forcedGap is how much lower than a forced answer's the win rate of every
// other root move searched at least forcedMinVisits times must be (0.10:
// ten points); forcedMinVisits keeps moves tried a few times, whose win
// rates say little, out of it.
const (
	forcedGap       = 0.10
	forcedMinVisits = 50
)

// decided is the distance from an even game at which the game is decided
// for the early stop: with the best move winning at least 1−decided or at
// most decided of the playouts, more search changes nothing worth its time.
const decided = 0.05

// forced reports whether best, the most visited root move, is a forced
// answer: it holds at least forcedShare tenths of the root's visits (a
// capture or a rescue that decides the game holds all of them; an open
// move of the middle game 20–75%, measured on 9×9 and 19×19), and either
// the game is decided or every other move searched at least
// forcedMinVisits times has a win rate at least forcedGap lower. The share
// alone also holds in a winning position where several moves win almost
// as often: stopping there at about 0.75 s of 1.75 s (29% of max's moves
// at 30–70% and 79% at 70–90% against Pachi, issue 34) left the
// opponent's replies half searched, and the moves after such a stop lost
// 15 points of win rate or more twice as often as the others (2.0%
// against 1.1%).
func (s *search) forced(best *node) bool {
	root := s.tree.at(s.root)
	if 10*int64(best.visits.Load()) < forcedShare*int64(root.visits.Load()) {
		return false
	}
	q := best.winrate()
	if q >= 1-decided || q <= decided {
		return true
	}
	for i := int32(0); i < int32(root.nchild); i++ {
		ch := s.tree.at(root.first + i)
		if ch == best || ch.illegal() || ch.visits.Load() < forcedMinVisits {
			continue
		}
		if ch.winrate() > q-forcedGap {
			return false
		}
	}
	return true
}

// The shares of the most visited root move's visits, in tenths, from which
// another move makes the choice unclear: by its visits alone (closeShare),
// or by a better win rate (rivalShare).
const (
	closeShare = 5
	rivalShare = 2
)

// unclear reports whether the choice at the root is still open: another
// move was searched at least half as much as the most visited one
// (closeShare), or one searched at least a fifth as much (rivalShare) wins
// more often than it.
func (s *search) unclear() bool {
	best, second, rival := s.rootLeaders()
	if best == nil {
		return false
	}
	return second != nil && 10*second.visits.Load() >= closeShare*best.visits.Load() || rival != best
}

// rootLeaders returns the root's most and second most visited legal
// children, and the one with the best win rate among those searched at
// least rivalShare tenths as much as the most visited (best itself when
// none beats it); nil where there is none.
func (s *search) rootLeaders() (best, second, rival *node) {
	root := s.tree.at(s.root)
	if !root.expanded() {
		return nil, nil, nil
	}
	for i := int32(0); i < int32(root.nchild); i++ {
		ch := s.tree.at(root.first + i)
		if ch.illegal() {
			continue
		}
		switch v := ch.visits.Load(); {
		case best == nil || v > best.visits.Load():
			best, second = ch, best
		case second == nil || v > second.visits.Load():
			second = ch
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	bv := best.visits.Load()
	for i := int32(0); i < int32(root.nchild); i++ {
		ch := s.tree.at(root.first + i)
		if ch.illegal() || 10*ch.visits.Load() < rivalShare*bv {
			continue
		}
		if rival == nil || ch.winrate() > rival.winrate() {
			rival = ch
		}
	}
	return best, second, rival
}

// collectShare is the share of the tree's capacity, in tenths, that a
// collection keeps (the nodes searched most).
const collectShare = 5

// collecting reports whether the workers stopped because the tree filled
// before the search was done: the tree is then collected and the search
// goes on.
func (s *search) collecting() bool {
	return s.collects && s.tree.full.Load() && !s.stop.Load()
}

// lateToCollect reports whether the tree filled too close to the
// deadline to be collected: with less time left than a quarter of the
// time searched. A collection cannot stop at the deadline, and took up to
// half a second of a 5 s move on a loaded machine (hard's 1M nodes on
// 19×19, issue 34), making the move late; so close to the end it would
// gain little.
func (s *search) lateToCollect() bool {
	if s.deadline.IsZero() {
		return false
	}
	now := s.now()
	return 4*s.deadline.Sub(now) < now.Sub(s.start)
}

// collect frees room in a full tree while no worker runs: it copies the
// tree, keeping the children only of the nodes searched most, so that the
// copy takes collectShare tenths of the capacity. The other nodes become
// leaves again, with their statistics, and are expanded anew when the
// search returns to them. When the copy frees too little (a small tree
// with most nodes searched alike), the tree is not collected again.
func (s *search) collect() {
	capacity := int(s.tree.limit)
	s.tree = copySubtree(s.tree, s.root, capacity, capacity*collectShare/10)
	s.root = 0
	s.collected++
	if s.tree.used() > capacity*(collectShare+2)/10 {
		s.collects = false
	}
}

// playout runs one descent, expansion, simulation and backup. It returns
// false when the descent was abandoned because a tree move turned out to
// repeat a position (the move is then marked illegal).
func (w *worker) playout() bool {
	s := w.s
	t := s.tree
	b := &w.board
	*b = s.board
	w.stamp++
	if w.stamp == 0 {
		clear(w.amafStamp)
		w.stamp = 1
	}
	w.path = append(w.path[:0], s.root)
	w.placed = 0
	w.hashes = w.hashes[:0]
	w.toPlays = w.toPlays[:0]
	root := t.at(s.root)
	root.visits.Add(1)
	nd := root
	passes, last, last2 := s.passes, s.last, s.last2
	depth := 0
	for {
		if !nd.expanded() {
			if depth > 0 && (nd.visits.Load() < s.params.expand || t.full.Load()) {
				break
			}
			st := nd.state.Load() // flags (flagAtari) kept
			if st&stateMask != stateLeaf || !nd.state.CompareAndSwap(st, st|stateExpanding) {
				break // another thread is expanding it, or it is full
			}
			if !w.expand(nd, b, s.colorAt(depth), last, last2) {
				nd.state.And(^int32(stateMask))
				break
			}
		}
		c := s.colorAt(depth)
		idx := w.selectChild(nd)
		if idx < 0 {
			break
		}
		ch := t.at(idx)
		ch.visits.Add(1)
		w.path = append(w.path, idx)
		v := int(ch.move)
		b.Play(v, c)
		depth++
		last2 = last
		if v == engine.PassVertex {
			passes++
			last = engine.PassVertex
			if passes >= 2 {
				score := w.terminalScore(b, c)
				w.backup(score)
				return true
			}
		} else {
			passes = 0
			last = v
			w.place(c)
			if w.repeats(b, c.Opponent()) {
				ch.state.Or(flagIllegal)
				for _, i := range w.path {
					t.at(i).visits.Add(-1)
				}
				return false
			}
			w.hashes = append(w.hashes, b.Hash())
			w.toPlays = append(w.toPlays, c.Opponent())
			w.recordAMAF(v, c, depth-1)
		}
		nd = ch
	}
	score := w.simulate(b, s.colorAt(depth), passes, last, depth)
	w.backup(score)
	return true
}

// repeats reports whether b, with toPlay to move, repeats a position of the
// game or of the tree path under the game's superko rule.
func (w *worker) repeats(b *engine.Board, toPlay engine.Color) bool {
	s := w.s
	if s.ko == engine.SimpleKo {
		return false
	}
	h := b.Hash()
	for i, p := range w.hashes {
		if p == h && (s.ko == engine.PositionalSuperko || w.toPlays[i] == toPlay) {
			return true
		}
	}
	return s.game.Seen(h, toPlay)
}

// selectChild returns the arena index of the child of nd with the best
// RAVE value, or -1 when it has none left. Below the root, ataris
// (flagAtari) weigh AMAF under their own equivalence (params.raveAtari).
func (w *worker) selectChild(nd *node) int32 {
	s := w.s
	t := s.tree
	best := math.Inf(-1)
	bi := int32(-1)
	var logParent float64
	if s.params.explore > 0 {
		logParent = math.Log(float64(nd.visits.Load()) + 1)
	}
	atari := s.params.raveAtari
	if nd == t.at(s.root) {
		atari = s.params.raveEquiv // the searcher's own ataris as any move: 23 of 60 against Pachi otherwise
	}
	for i := int32(0); i < int32(nd.nchild); i++ {
		ch := t.at(nd.first + i)
		st := ch.state.Load()
		if st&flagIllegal != 0 {
			continue
		}
		equiv := s.params.raveEquiv
		if st&flagAtari != 0 {
			equiv = atari
		}
		n := float64(ch.visits.Load()) + float64(ch.priorN)
		q := (float64(ch.wins.Load())/2 + float64(ch.priorW)) / n
		val := q
		if rvi, rwi := ch.raveStats(); rvi > 0 {
			rv := float64(rvi)
			a := float64(rwi) / 2 / rv
			beta := rv / (rv + n + rv*n/equiv)
			val = (1-beta)*q + beta*a
		}
		if logParent > 0 {
			val += s.params.explore * math.Sqrt(logParent/n)
		}
		if val > best {
			best, bi = val, nd.first+i
		}
	}
	return bi
}

// expand creates the children of nd (c to move on b, after moves at last2
// and last): every legal move that fills no eye of c, and a pass, each with
// its prior. It returns false when the tree is full.
func (w *worker) expand(nd *node, b *engine.Board, c engine.Color, last, last2 int) bool {
	s := w.s
	moves := w.stack[:0]
	for _, v := range s.points {
		if b.Playable(v, c) {
			moves = append(moves, v)
		}
	}
	moves = append(moves, engine.PassVertex)
	first, ok := s.tree.alloc(len(moves))
	if !ok {
		return false
	}
	k := s.params.shape
	if k > 0 {
		w.probs = s.model.Probabilities(w.probs, b, moves[:len(moves)-1], c, last, last2)
	}
	for i, v := range moves {
		ch := s.tree.at(first + int32(i))
		ch.move = int16(v)
		var atari bool
		ch.priorN, ch.priorW, atari = w.prior(b, v, c, last, &w.scratch)
		if atari {
			ch.state.Store(flagAtari)
		}
		if k > 0 && v != engine.PassVertex {
			x := k * float32(math.Sqrt(float64(w.probs[i])))
			ch.priorN += x
			ch.priorW += x
		}
	}
	nd.first, nd.nchild = first, int16(len(moves))
	for { // flags set meanwhile (flagIllegal) kept
		st := nd.state.Load()
		if nd.state.CompareAndSwap(st, st&^stateMask|stateExpanded) {
			break
		}
	}
	return true
}

// backup adds the result (Black minus White, before komi) to every node on
// the path, and the AMAF results to their children.
func (w *worker) backup(score float64) {
	s := w.s
	t := s.tree
	score -= s.komi
	if s.territory {
		score -= float64(w.placed)
	}
	if s.lines != nil && len(w.path) > 1 {
		if k := w.path[1] - s.linesFrom; k >= 0 && int(k) < len(s.lines) {
			s.lines[k].halfPoints.Add(int64(math.Round(2 * score)))
			s.lines[k].n.Add(1)
		}
	}
	var winner engine.Color
	switch {
	case score > 0:
		winner = engine.Black
	case score < 0:
		winner = engine.White
	}
	half := func(c engine.Color) int32 {
		switch winner {
		case engine.Empty:
			return 1
		case c:
			return 2
		}
		return 0
	}
	for d, idx := range w.path {
		nd := t.at(idx)
		// The node's move was played by the player to move at d-1.
		nd.wins.Add(half(s.colorAt(d + 1)))
		if !nd.expanded() {
			continue
		}
		c := s.colorAt(d)
		r := half(c)
		for i := int32(0); i < int32(nd.nchild); i++ {
			ch := t.at(nd.first + i)
			m := ch.move
			if m == engine.PassVertex || w.amafStamp[m] != w.stamp {
				continue
			}
			if w.amafColor[m] == c && w.amafDepth[m] >= int32(d) {
				ch.rave.Add(1<<32 | uint64(r))
			}
		}
	}
}

// terminalScore counts the position after two passes, the last by passer,
// the way the end of a game is counted by area without a scoring phase:
// every stone on the board counts as alive, except that the passer's
// stones that the playouts say are dead (owned by the opponent in most of
// them) count for the opponent. A player passes only if he wins even so.
// Under territory scoring the opponent's dead stones count as dead too:
// there, taking them off the board before passing costs a point a stone
// placed, and a player ahead who may not pass until he has captured them
// all (tough, behind in a Japanese 9×9 game, captured six dead stones in
// its own area, 6 points lost) plays them out; the scoring phase takes
// them off as the estimate finds them dead.
func (w *worker) terminalScore(b *engine.Board, passer engine.Color) float64 {
	w.loadGrid(b)
	if w.ownN >= 32 {
		for _, v := range w.s.points {
			c := engine.Color(w.grid[v])
			if c != passer && !(w.s.territory && c == passer.Opponent()) {
				continue
			}
			mine, theirs := w.ownB[v], w.ownW[v]
			if c == engine.White {
				mine, theirs = theirs, mine
			}
			if theirs > 2*mine && float64(theirs) > 0.6*float64(w.ownN) {
				w.grid[v] = gEmpty
			}
		}
	}
	return w.scoreGrid(false)
}

// place counts a stone placed by c on the current line (see placed).
func (w *worker) place(c engine.Color) {
	if c == engine.Black {
		w.placed++
	} else {
		w.placed--
	}
}

// searchStats are the results read from the tree after a search.
type candidate struct {
	move    int
	visits  int32
	winrate float64
	prior   float64
}

// runWorkers runs the workers until the search stops; it returns when all
// of them have returned. A panic in a worker (a bug) stops the search and
// is returned as an error rather than taking the process down.
func runWorkers(workers []*worker) error {
	s := workers[0].s
	errs := make([]error, len(workers))
	run := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				errs[i] = fmt.Errorf("%w: %v\n%s", ErrInternal, r, debug.Stack())
				s.stop.Store(true)
			}
		}()
		workers[i].run()
	}
	var wg sync.WaitGroup
	for i := 1; i < len(workers); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(i)
		}()
	}
	run(0)
	wg.Wait()
	return errors.Join(errs...)
}
