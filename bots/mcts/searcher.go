package mcts

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/bots/shape"
	"github.com/gobot-dev/gobot/engine"
)

// Searcher is a Monte Carlo tree search player. It keeps its tree between
// calls so that consecutive moves of one game reuse the search done before.
// Calls to GenMove are serialised: a Searcher is safe for concurrent use but
// searches one position at a time; use one Searcher per game.
type Searcher struct {
	mu   sync.Mutex
	opts Options

	// The tree kept from the last search and the game at its root.
	tree      *arena
	treeGame  gameKey
	treeMoves []engine.Move
	// keeping, when not nil, is closed once the copy of the subtree kept
	// for the next search is done (keepTree, run after the move is
	// returned): tree and treeMoves are read only after it (see
	// waitKept).
	keeping chan struct{}

	stats Stats
	own   []float64
	// line is, after an analysis, Black's mean lead in the playouts
	// through the move returned, and lineN their number.
	line  float64
	lineN int64

	now func() time.Time // the clock; nil means time.Now (tests set a fake one)
}

// clock returns the searcher's clock.
func (e *Searcher) clock() func() time.Time {
	if e.now != nil {
		return e.now
	}
	return time.Now
}

// gameKey identifies the start of a game for tree reuse.
type gameKey struct {
	size     int
	rules    engine.Rules
	handicap int
	setup    string
}

func keyOf(g *engine.Game) gameKey {
	var sb strings.Builder
	for _, s := range g.Setup() {
		fmt.Fprintf(&sb, "%v%v;", s.Color.Letter(), s.Point)
	}
	return gameKey{size: g.Size(), rules: g.Rules(), handicap: g.Handicap(), setup: sb.String()}
}

// Candidate is one root move with its search statistics.
type Candidate struct {
	Move    engine.Move
	Visits  int
	Winrate float64 // for the player to move; -1 without visits
	Prior   float64 // the prior's win rate
}

// Stats describes the last search.
type Stats struct {
	Move       engine.Move   // the move returned
	Playouts   int           // playouts run by this search
	Reused     int           // root visits kept from the previous search
	Nodes      int           // tree nodes allocated
	Collected  int           // times the tree filled and was collected (search.collect)
	Threads    int           // search threads
	Elapsed    time.Duration // wall time of the search
	Winrate    float64       // the best move's win rate for the player to move
	PV         []engine.Move // the principal variation, most visited first
	Candidates []Candidate   // root moves, most visited first (at most 10)
	// Stopped says why the search stopped: "budget" (its playouts),
	// "time" (its limit or ctx's deadline), "target" (GenMoveTimed's
	// target, its choice clear) or "settled" (early: the choice could no
	// longer change).
	Stopped string
	// Searches counts the searches this Searcher has run, this one
	// included: a caller that reads Stats after GenMove sees from it
	// whether the move came from a new search.
	Searches int
}

// PlayoutsPerSecond returns the playout rate of the search (all threads).
func (s Stats) PlayoutsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Playouts) / s.Elapsed.Seconds()
}

// String summarises the statistics on one line for logs.
func (s Stats) String() string {
	var pv []string
	for _, m := range s.PV {
		pv = append(pv, m.String())
	}
	return fmt.Sprintf("move %v winrate %.1f%% playouts %d (+%d reused) nodes %d (%d collections) in %v (%.0f/s, %d threads, %s) pv %s",
		s.Move, 100*s.Winrate, s.Playouts, s.Reused, s.Nodes, s.Collected, s.Elapsed.Round(time.Millisecond),
		s.PlayoutsPerSecond(), s.Threads, s.Stopped, strings.Join(pv, " "))
}

// NewSearcher returns a searcher with the given options.
func NewSearcher(opts Options) *Searcher {
	return &Searcher{opts: opts}
}

// Stats returns the statistics of the last search.
func (e *Searcher) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.PV = slices.Clone(s.PV)
	s.Candidates = slices.Clone(s.Candidates)
	return s
}

// Ownership returns the ownership estimate of the last search's playouts:
// for each point (index Row*size+Col) from +1 (always Black's at the end
// of the playouts) to -1 (always White's). It is nil before any search.
func (e *Searcher) Ownership() []float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.own)
}

// Reset drops the kept tree, freeing its memory.
func (e *Searcher) Reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waitKept()
	e.tree, e.treeMoves = nil, nil
}

// waitKept waits for the copy of the kept subtree that the last search
// left under way, if any; e.mu is held.
func (e *Searcher) waitKept() {
	if e.keeping != nil {
		<-e.keeping
		e.keeping = nil
	}
}

// GenMove searches the position of g for the player to move (g.ToPlay())
// and returns a move that is legal under g's full rules: a Place, a Pass
// (when the game is over under area counting, or nothing else helps) or a
// Resign (when the win rate is below the resign threshold, never early in
// the game). The search stops after maxTime (0 for no limit), at ctx's
// deadline or after maxPlayouts playouts (0 for no limit), whichever comes
// first, or earlier when no remaining playout could change the choice. It
// does not modify g.
//
// Time running out is never an error: when ctx's deadline passes, even
// before the search starts, GenMove returns the best move found so far,
// and with no playout done, the legal move with the best prior. When ctx is
// cancelled (rather than past its deadline), the move is no longer wanted
// and GenMove returns ctx's error.
func (e *Searcher) GenMove(ctx context.Context, g *engine.Game, maxTime time.Duration, maxPlayouts int) (engine.Move, error) {
	return e.GenMoveTimed(ctx, g, 0, maxTime, maxPlayouts)
}

// GenMoveTimed is GenMove for a clock with time in hand: the search aims
// at target and goes on past it, up to limit (and ctx's deadline), only
// while its choice is unclear: another root move was searched at least
// half as much as the most visited one, or one searched at least a fifth
// as much wins more often. Stopping early when the choice can no longer
// change counts the playouts left to target. A target of 0 is GenMove
// with limit as its maxTime. A target not below limit (a byo-yomi period
// of one stone, whose unspent time is lost) searches up to limit, and
// stops early only on a forced answer (the most visited move holds nine
// tenths of the root's visits and every other move searched 50 times or
// more has a win rate at least 10 points lower, or the game is decided;
// see forced) once no playout left before limit could change the choice:
// a forced answer need not keep its opponent (and the machine) waiting
// for the whole period (issue 34; before, such a search always ran to
// limit), while other moves spend it, since the playouts
// that can no longer change the choice still grow the subtree that the
// next move reuses. (Stopping on every settled move, as GenMove does,
// stopped 59 of 60 of max's moves early at 2 s a move on 9×9, at 50–90%
// of the limit: the cost in strength was not measured.)
func (e *Searcher) GenMoveTimed(ctx context.Context, g *engine.Game, target, limit time.Duration, maxPlayouts int) (move engine.Move, err error) {
	maxTime := limit
	if g == nil {
		return engine.Move{}, ErrNoGame
	}
	if g.Over() {
		return engine.Move{}, ErrGameOver
	}
	ctxDeadline, hasDeadline := ctx.Deadline()
	if maxTime <= 0 && maxPlayouts <= 0 && !hasDeadline {
		return engine.Move{}, ErrNoBudget
	}
	if err := cancelled(ctx); err != nil {
		return engine.Move{}, fmt.Errorf("mcts: search not started: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waitKept()
	defer func() {
		// A bug must not take a bot process down: report it instead, and
		// drop the tree it may have left inconsistent.
		if r := recover(); r != nil {
			e.tree, e.treeMoves = nil, nil
			move, err = engine.Move{}, fmt.Errorf("%w: %v\n%s", ErrInternal, r, debug.Stack())
		}
	}()

	start := e.clock()()
	s := e.newSearch(g, start)
	s.done = ctx.Done()
	s.maxPlayouts = int64(maxPlayouts)
	if maxTime > 0 {
		s.deadline = start.Add(maxTime)
	}
	if hasDeadline && (s.deadline.IsZero() || ctxDeadline.Before(s.deadline)) {
		s.deadline = ctxDeadline
	}
	if target > 0 && (s.deadline.IsZero() || start.Add(target).Before(s.deadline)) {
		s.target = start.Add(target)
	}
	s.earlyStop = !e.opts.NoEarlyStop
	s.forcedOnly = target > 0 && limit > 0 && target >= limit
	s.collects = e.opts.Collect
	reused := e.attachTree(s, g)

	threads := e.opts.threads()
	workers := make([]*worker, threads)
	seed := e.opts.Seed + int64(g.MoveCount())*1000003
	for i := range workers {
		workers[i] = newWorker(s, seed, i)
	}
	root := s.tree.at(s.root)
	if !root.expanded() {
		if !workers[0].expand(root, &s.board, s.toPlay, s.last, s.last2) {
			// Even a fresh tree too small for the root's children: start over
			// with one big enough.
			s.tree = newArena(s.size*s.size + 1)
			s.root, _ = s.tree.alloc(1)
			root = s.tree.at(s.root)
			workers[0].expand(root, &s.board, s.toPlay, s.last, s.last2)
		}
	}
	for i := int32(0); i < int32(root.nchild); i++ {
		ch := s.tree.at(root.first + i)
		m := s.moveOf(int(ch.move))
		if s.game.Check(m) != nil {
			ch.state.Or(flagIllegal)
		}
	}
	if e.opts.analysis && !s.collects {
		s.lines, s.linesFrom = make([]lineScore, root.nchild), root.first
	}

	for {
		if err := runWorkers(workers); err != nil {
			e.tree, e.treeMoves = nil, nil
			return engine.Move{}, err
		}
		if !s.collecting() {
			break
		}
		if s.lateToCollect() {
			s.collects = false // search on from the full tree's leaves
			continue
		}
		s.collect()
		e.tree = s.tree
	}
	if s.cancelled.Load() {
		if err := cancelled(ctx); err != nil {
			e.tree, e.treeMoves = nil, nil
			return engine.Move{}, fmt.Errorf("mcts: search cancelled: %w", err)
		}
	}
	return e.finish(s, workers, reused, start), nil
}

// newSearch sets up the search of g's position.
func (e *Searcher) newSearch(g *engine.Game, start time.Time) *search {
	b := g.Board()
	size := g.Size()
	s := &search{
		params:    e.opts.params(),
		board:     *b,
		toPlay:    g.ToPlay(),
		game:      g.Clone(),
		ko:        g.Rules().Ko,
		komi:      whiteBonus(g),
		territory: g.Rules().Scoring == engine.TerritoryScoring,
		passes:    g.ConsecutivePasses(),
		size:      size,
		stride:    b.Stride(),
		model:     shape.For(size),
		start:     start,
		now:       e.clock(),
	}
	// The playouts' shape answers and the shape model read the 3×3 codes
	// of many points.
	s.board.TrackNeighbourhoods()
	if !e.opts.analysis {
		s.dynamicKomi = dynamicKomi(size, g.Handicap(), g.MoveCount())
	}
	s.komi += s.dynamicKomi
	if moves := g.Moves(); len(moves) > 0 {
		s.last = vertexOf(b, moves[len(moves)-1])
		if len(moves) > 1 {
			s.last2 = vertexOf(b, moves[len(moves)-2])
		}
	}
	if s.params.expand <= 0 {
		s.params.expand = expandPlay
		if e.opts.analysis && size <= 13 {
			s.params.expand = expandAnalysis
		}
	}
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			s.points = append(s.points, b.Vertex(engine.Point{Col: c, Row: r}))
		}
	}
	s.edge = make([]bool, b.Area())
	for v := range s.edge {
		s.edge[v] = b.IsBorder(v)
	}
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if d := abs(dx) + abs(dy); d > 0 && d <= 2 {
				s.near2 = append(s.near2, dy*s.stride+dx)
			}
		}
	}
	return s
}

// attachTree gives the search the kept tree when g continues the game it
// was built for (the subtree under the moves played since), or a new tree.
// It returns the number of root visits kept.
func (e *Searcher) attachTree(s *search, g *engine.Game) int {
	moves := g.Moves()
	if e.tree != nil && !e.opts.NoReuse && keyOf(g) == e.treeGame &&
		len(moves) >= len(e.treeMoves) && slices.EqualFunc(moves[:len(e.treeMoves)], e.treeMoves, sameMove) {
		idx := int32(0)
		ok := true
		for _, m := range moves[len(e.treeMoves):] {
			idx, ok = childFor(e.tree, idx, s.board.Vertex, m)
			if !ok {
				break
			}
		}
		if ok {
			if idx != 0 {
				e.tree = copySubtree(e.tree, idx, e.opts.maxNodes(), e.opts.maxNodes())
			}
			s.tree, s.root = e.tree, 0
			root := s.tree.at(0)
			root.state.And(^int32(flagIllegal))
			e.treeGame, e.treeMoves = keyOf(g), moves
			return int(root.visits.Load())
		}
	}
	s.tree = newArena(e.opts.maxNodes())
	s.root, _ = s.tree.alloc(1)
	e.tree, e.treeGame, e.treeMoves = s.tree, keyOf(g), moves
	return 0
}

// childFor returns the child of node idx for move m, if the node is
// expanded and has it.
func childFor(t *arena, idx int32, vertex func(engine.Point) int, m engine.Move) (int32, bool) {
	nd := t.at(idx)
	if !nd.expanded() {
		return 0, false
	}
	v := engine.PassVertex
	if m.Kind == engine.Place {
		v = vertex(m.Point)
	}
	for i := int32(0); i < int32(nd.nchild); i++ {
		if int(t.at(nd.first+i).move) == v {
			return nd.first + i, true
		}
	}
	return 0, false
}

// moveOf returns the move of the player to move at the root at vertex v.
func (s *search) moveOf(v int) engine.Move {
	if v == engine.PassVertex {
		return engine.PassMove(s.toPlay)
	}
	return engine.PlaceAt(s.toPlay, s.board.Point(v))
}

// finish reads the result of the search: the move, the statistics and the
// ownership.
func (e *Searcher) finish(s *search, workers []*worker, reused int, start time.Time) engine.Move {
	t := s.tree
	root := t.at(s.root)

	// Merge the ownership counts into the first worker.
	w0 := workers[0]
	for _, w := range workers[1:] {
		for i := range w0.ownB {
			w0.ownB[i] += w.ownB[i]
			w0.ownW[i] += w.ownW[i]
		}
		w0.ownN += w.ownN
	}
	e.own = nil
	if w0.ownN > 0 {
		e.own = make([]float64, s.size*s.size)
		for i, v := range s.points {
			e.own[i] = float64(w0.ownB[v]-w0.ownW[v]) / float64(w0.ownN)
		}
	}

	// The candidates, most visited first.
	var cands []Candidate
	best := int32(-1)
	for i := int32(0); i < int32(root.nchild); i++ {
		idx := root.first + i
		ch := t.at(idx)
		if ch.illegal() {
			continue
		}
		cands = append(cands, Candidate{
			Move:    s.moveOf(int(ch.move)),
			Visits:  int(ch.visits.Load()),
			Winrate: ch.winrate(),
			Prior:   float64(ch.priorW / ch.priorN),
		})
		if best < 0 || better(ch, t.at(best)) {
			best = idx
		}
	}
	slices.SortStableFunc(cands, func(a, b Candidate) int { return b.Visits - a.Visits })

	if best >= 0 && s.game.MoveCount() < e.opts.Vary {
		best = varied(t, root, best, e.opts.Seed, s.game.MoveCount())
	}
	move := engine.PassMove(s.toPlay)
	winrate := 0.5
	e.line, e.lineN = 0, 0
	if best >= 0 {
		ch := t.at(best)
		move = s.moveOf(int(ch.move))
		if wr := ch.winrate(); wr >= 0 {
			winrate = wr
		}
		if k := best - s.linesFrom; s.lines != nil && k >= 0 && int(k) < len(s.lines) {
			if n := s.lines[k].n.Load(); n > 0 {
				e.line, e.lineN = float64(s.lines[k].halfPoints.Load())/2/float64(n), n
			}
		}
	}
	stopped := "settled"
	end := s.now()
	switch {
	case s.maxPlayouts > 0 && s.playouts.Load() >= s.maxPlayouts:
		stopped = "budget"
	case !s.deadline.IsZero() && !end.Before(s.deadline):
		stopped = "time"
	case !s.target.IsZero() && !end.Before(s.target):
		stopped = "target"
	}

	// Pass when the game is over under area counting: the opponent has
	// passed and no point that the board as it stands does not count for
	// us could still become ours (no dead opponent stones in our area, no
	// open points), or every point is settled for both players.
	if move.Kind != engine.Pass && w0.ownN >= 100 {
		if s.passes == 1 && w0.nothingToGain(&s.board, s.toPlay) {
			move = engine.PassMove(s.toPlay)
		} else if w0.settled(&s.board) && e.passSettles(s, 300) {
			move = engine.PassMove(s.toPlay)
		}
	}

	// Resign when clearly lost, never early in the game.
	if th := e.opts.resignThreshold(); th > 0 && best >= 0 && winrate < th && s.dynamicKomi == 0 &&
		s.game.MoveCount() >= minResignMove(s.size) && t.at(best).visits.Load() >= 200 {
		move = engine.ResignMove(s.toPlay)
	}

	// The principal variation: from the move chosen, which the end-of-game
	// rules or the time's choice may have made another than the most
	// visited (a line that began elsewhere read as the move's own), then
	// the most visited replies.
	chosen := int16(-1)
	switch move.Kind {
	case engine.Pass:
		chosen = engine.PassVertex
	case engine.Place:
		chosen = int16(s.board.Vertex(move.Point))
	}
	var pv []engine.Move
	c := s.toPlay
	for nd, d := root, 0; nd.expanded() && d < 20; d++ {
		var next *node
		for i := int32(0); i < int32(nd.nchild); i++ {
			ch := t.at(nd.first + i)
			if ch.illegal() {
				continue
			}
			if d == 0 && ch.move == chosen {
				next = ch
				break
			}
			if next == nil || better(ch, next) {
				next = ch
			}
		}
		if d == 0 && (move.Kind == engine.Resign || next != nil && next.move != chosen) {
			break // the move was not searched (a resignation): no line to show
		}
		if next == nil || next.visits.Load() < 2 {
			break
		}
		if next.move == engine.PassVertex {
			pv = append(pv, engine.PassMove(c))
		} else {
			pv = append(pv, engine.PlaceAt(c, s.board.Point(int(next.move))))
		}
		c = c.Opponent()
		nd = next
	}

	if len(cands) > 10 {
		cands = cands[:10]
	}
	e.stats = Stats{
		Searches:   e.stats.Searches + 1,
		Move:       move,
		Playouts:   int(s.playouts.Load()),
		Reused:     reused,
		Nodes:      t.used(),
		Collected:  s.collected,
		Threads:    len(workers),
		Elapsed:    end.Sub(start),
		Winrate:    winrate,
		PV:         pv,
		Candidates: cands,
		Stopped:    stopped,
	}
	e.keepTreeLater(s, move)
	return move
}

// keepTreeLater keeps the subtree for the next search (keepTree) on
// another goroutine, so that the move is answered without waiting for the
// copy: under a clock on a loaded machine the copy of max's tree took up
// to 0.64 s after a 1.75 s search (issue 34), while the move is wanted at
// once and the copy only by the next search, which waits for it.
func (e *Searcher) keepTreeLater(s *search, move engine.Move) {
	if e.opts.NoReuse || move.Kind == engine.Resign {
		e.tree, e.treeMoves = nil, nil
		return
	}
	done := make(chan struct{})
	e.keeping = done
	go func() {
		defer close(done)
		defer func() {
			// A bug must not take a bot process down: drop the tree.
			if recover() != nil {
				e.tree, e.treeMoves = nil, nil
			}
		}()
		e.keepTree(s, move)
	}()
}

// A root move may be chosen instead of the best in the opening with
// Options.Vary when it was searched at least varyVisits (in tenths) as
// much and wins at most varyWinrate less often: only near equals, so that
// varying costs next to nothing. Below varyMinVisits of the best move's
// the search has not told the moves apart (with no time left it runs
// none), and the best (by its prior, when none ran) is kept: drawn among
// every legal move, an empty 19×19 board's first move was S6.
const (
	varyVisits    = 7
	varyWinrate   = 0.02
	varyMinVisits = 8
)

// varied returns a root child of root drawn at random (from seed and the
// move number) among those nearly as good as best (see varyVisits); best is
// one of them.
func varied(t *arena, root *node, best int32, seed int64, move int) int32 {
	b := t.at(best)
	visits, wr := b.visits.Load(), b.winrate()
	if visits < varyMinVisits {
		return best
	}
	var pool []int32
	for i := int32(0); i < int32(root.nchild); i++ {
		idx := root.first + i
		ch := t.at(idx)
		if !ch.illegal() && 10*ch.visits.Load() >= varyVisits*visits && ch.winrate() >= wr-varyWinrate {
			pool = append(pool, idx)
		}
	}
	if len(pool) < 2 {
		return best
	}
	r := rand.New(rand.NewPCG(uint64(seed), uint64(move)))
	return pool[r.IntN(len(pool))]
}

// better reports whether a is a better final choice than b: more visits,
// then the better win rate, then the better prior (which decides alone when
// time ran out before any playout).
func better(a, b *node) bool {
	va, vb := a.visits.Load(), b.visits.Load()
	if va != vb {
		return va > vb
	}
	if wa, wb := a.winrate(), b.winrate(); wa != wb {
		return wa > wb
	}
	return a.priorW/a.priorN > b.priorW/b.priorN
}

// cancelled returns ctx's error when ctx was cancelled, and nil when it is
// live or only past its deadline: time running out ends a search with the
// best move it has, a cancellation means the move is no longer wanted.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// settled reports whether the game is over on b under area counting by
// the ownership counts: every point ends with the owner it has on the
// board now (its stone's colour, or the colour its empty region reaches)
// in at least 90% of the playouts, so no dead stone is left on the board
// and no point is still open.
func (w *worker) settled(b *engine.Board) bool {
	w.loadGrid(b)
	w.scoreGrid(false)
	n := float64(w.ownN)
	for _, v := range w.s.points {
		owner := w.grid[v]
		if owner == gEmpty {
			owner = w.regionOwner[v]
		}
		var agree int32
		switch owner {
		case gBlack:
			agree = w.ownB[v]
		case gWhite:
			agree = w.ownW[v]
		default:
			agree = w.ownN - w.ownB[v] - w.ownW[v]
		}
		if float64(agree) < 0.9*n {
			return false
		}
	}
	return true
}

// nothingToGain reports whether c could gain no point by playing on from b:
// every point that counting b as it stands (all stones alive, empty regions
// to the only colour they reach) does not give c ends as c's in at most
// 10% of the playouts.
func (w *worker) nothingToGain(b *engine.Board, c engine.Color) bool {
	w.loadGrid(b)
	w.scoreGrid(false)
	mine := w.ownB
	if c == engine.White {
		mine = w.ownW
	}
	for _, v := range w.s.points {
		owner := w.grid[v]
		if owner == gEmpty {
			owner = w.regionOwner[v]
		}
		if owner != int8(c) && float64(mine[v]) > 0.1*float64(w.ownN) {
			return false
		}
	}
	return true
}

// passSettles runs n playouts from the position after a pass of the player
// to move and reports whether every point is still settled: the opponent
// cannot change the count by playing on.
func (e *Searcher) passSettles(s *search, n int) bool {
	w := newWorker(s, e.opts.Seed^0x5eed, 1<<20)
	for i := 0; i < n; i++ {
		if i&63 == 0 {
			select {
			case <-s.done:
				return false
			default:
			}
		}
		w.board = s.board
		w.stamp++
		w.simulate(&w.board, s.toPlay.Opponent(), 1, engine.PassVertex, 0)
	}
	return w.settled(&s.board)
}

// dynamicKomi returns the extra komi the search gives White in a handicap
// game: seven points a stone at the start, falling linearly to nothing by
// move 200 on 19×19 (proportionally sooner on smaller boards). Without it
// the search sees every move of White lose (and plays at random) or every
// move of Black win (and plays slack); with it both sides aim for a
// margin they can keep. Resignation waits until it has run out.
func dynamicKomi(size, handicap, moves int) float64 {
	if handicap < 2 {
		return 0
	}
	limit := 200 * size * size / 361
	if moves >= limit {
		return 0
	}
	return 7 * float64(handicap) * float64(limit-moves) / float64(limit)
}

// keepTree keeps, for the next search, only the subtree under the move
// being returned, in at most keepNodes nodes (the nodes searched most; see
// copySubtree), so an idle searcher holds little memory between moves; the
// rest of the tree is freed.
func (e *Searcher) keepTree(s *search, move engine.Move) {
	if e.opts.NoReuse || move.Kind == engine.Resign {
		e.tree, e.treeMoves = nil, nil
		return
	}
	idx, ok := childFor(s.tree, s.root, s.board.Vertex, move)
	if !ok {
		e.tree, e.treeMoves = nil, nil
		return
	}
	e.tree = copySubtree(s.tree, idx, e.opts.maxNodes(), keepNodes)
	e.treeMoves = append(e.treeMoves, move)
}

// keepNodes caps the tree kept between moves (about 10 MB).
const keepNodes = 256 << 10

// sameMove reports whether a and b are the same move (the point matters
// only for a Place).
func sameMove(a, b engine.Move) bool {
	return a.Color == b.Color && a.Kind == b.Kind && (a.Kind != engine.Place || a.Point == b.Point)
}

// vertexOf returns the vertex of a placed stone, and engine.PassVertex for
// another move.
func vertexOf(b *engine.Board, m engine.Move) int {
	if m.Kind != engine.Place {
		return engine.PassVertex
	}
	return b.Vertex(m.Point)
}
