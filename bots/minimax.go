package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// Minimax searches a few moves ahead with alpha–beta pruning and a
// heuristic evaluation (stones on the board, an influence estimate of
// territory, chains in atari or short of liberties, captures), deepening one
// ply at a time until its time or node budget runs out. Moves are ordered by
// the previous iteration's best move, captures, escapes from atari, ataris,
// killer moves and a history table; beyond the first reply only the most
// promising moves are searched (beyond the root on boards larger than 9×9).
// Root moves inside settled territory are not searched, a game lost beyond
// doubt is resigned, and among root moves within minimaxVary of the best
// the seed chooses. With NewMinimaxMC it evaluates by playouts instead (see
// mcminimax.go): that is the medium level.
type Minimax struct {
	rng      *rand.Rand
	maxDepth int
	mc       bool // Monte Carlo evaluation (NewMinimaxMC)

	// Nodes counts the positions visited by the last GenMove, and Depth is
	// the deepest iteration it completed: for benchmarks and tests.
	Nodes int64
	Depth int
}

var _ Bot = (*Minimax)(nil)

// Defaults for Minimax.
const (
	minimaxMaxDepth     = 32              // iterations stop here even with time left
	minimaxDefaultTime  = 1 * time.Second // when the budget sets neither time nor nodes
	minimaxWide         = 90              // ply 1 is searched at full width up to this many moves
	minimaxBeam1        = 20              // moves searched at ply 1 beyond that
	minimaxBeam         = 12              // moves searched at each deeper ply
	minimaxCheckEvery   = 256             // nodes between looks at the clock
	minimaxMaxPly       = 64
	minimaxMaxTable     = 1 << 20 // best moves remembered, about 40 MB at most
	minimaxWinScore     = 10000
	minimaxNoMove       = -1
	minimaxTerritoryCap = 2   // influence reaches this far from a stone
	minimaxQuiesce      = 6   // captures searched beyond the horizon
	minimaxVary         = 0.3 // root moves this close to the best (in points) may be chosen instead
)

// NewMinimax returns a minimax player. The seed breaks ties between equal
// moves, so the same seed and a node budget give the same moves.
func NewMinimax(seed int64) *Minimax {
	return &Minimax{rng: newRand(seed), maxDepth: minimaxMaxDepth}
}

// NewMinimaxMC returns the medium level's minimax player: the best of its
// candidate moves, each worth the opponent's best reply to it as a small
// Monte Carlo tree search from the position after it finds and rates it,
// in place of the static evaluation (see mcminimax.go). Budget.Playouts
// counts playouts.
func NewMinimaxMC(seed int64) *Minimax {
	m := NewMinimax(seed)
	m.mc = true
	return m
}

// Name returns "minimax".
func (m *Minimax) Name() string { return "minimax" }

// GenMove searches the position and returns the best move found within the
// budget: Budget.Time bounds the time (one second when the budget is
// zero), Budget.Playouts the number of nodes.
func (m *Minimax) GenMove(ctx context.Context, g *engine.Game, budget Budget) (engine.Move, error) {
	m.Nodes, m.Depth = 0, 0
	if err := begin(ctx, g); err != nil {
		return engine.Move{}, err
	}
	c := g.ToPlay()
	if budget.Time <= 0 && budget.Playouts <= 0 {
		budget.Time = minimaxDefaultTime
	}
	b := g.Board()
	j, err := judge(ctx, g, m.rng.Int64())
	if err != nil {
		return engine.Move{}, err
	}
	if j.lostBeyondDoubt(g, c) {
		return engine.ResignMove(c), nil
	}
	if passWins(g) { // after resigning: see sensibleMoves
		return engine.PassMove(c), nil
	}
	s := newSearch(ctx, g, b, budget, m.rng)
	moves := s.rootMoves(b, c, j)
	if m.mc {
		ev, err := mcts.NewEvaluator(g, m.rng.Int64())
		if err != nil {
			return engine.Move{}, err
		}
		v, ranked := s.genMoveMC(b, c, moves, ev, m.rng.Int64())
		if err := cancelled(ctx); err != nil && !ranked {
			return engine.Move{}, err
		}
		if v == engine.PassVertex {
			return engine.PassMove(c), nil
		}
		return place(g, b, v), nil
	}
	best := moves[0].v
	for depth := 1; depth <= m.maxDepth; depth++ {
		v, ok := s.root(b, c, depth, moves)
		if !ok {
			break
		}
		best, m.Depth = v, depth
		if s.decided {
			break
		}
	}
	m.Nodes = s.nodes
	if err := cancelled(ctx); err != nil && m.Depth == 0 {
		return engine.Move{}, err
	}
	if best == engine.PassVertex {
		return engine.PassMove(c), nil
	}
	return place(g, b, best), nil
}

// rootEntry is a root move with its score from the last iteration.
type rootEntry struct {
	v     int
	score float64
}

// search is one GenMove's state.
type search struct {
	ctx       context.Context
	g         *engine.Game
	deadline  time.Time
	nodeLimit int64
	nodes     int64
	stopped   bool
	decided   bool // the result is known exactly: no point searching deeper

	komi    float64 // White's bonus: komi and handicap compensation
	ko      engine.KoRule
	jitter  []float64 // per-vertex tie breaks from the seed
	vary    []float64 // per-vertex bonus at the root, below minimaxVary
	boards  [minimaxMaxPly + 1]engine.Board
	path    [minimaxMaxPly + 1]uint64 // position keys along the path
	moveBuf [minimaxMaxPly + 1][]scored
	killers [minimaxMaxPly + 1][2]int
	history [3][]int32
	tt      map[uint64]int // best move found in a position (key with side to move)
	work    []int32
	dist    [2][]int8
	queue   []int16
}

type scored struct {
	v     int
	order float64
}

func newSearch(ctx context.Context, g *engine.Game, b *engine.Board, budget Budget, rng *rand.Rand) *search {
	area := b.Area()
	s := &search{
		ctx:       ctx,
		g:         g,
		deadline:  deadline(ctx, budget),
		nodeLimit: int64(budget.Playouts),
		komi:      whiteBonus(g),
		ko:        g.Rules().Ko,
		jitter:    make([]float64, area),
		vary:      make([]float64, area),
		tt:        make(map[uint64]int),
		work:      make([]int32, area),
		queue:     make([]int16, 0, area),
	}
	for i := range s.jitter {
		s.jitter[i] = rng.Float64() * 0.01
		s.vary[i] = rng.Float64() * minimaxVary
	}
	s.history[engine.Black] = make([]int32, area)
	s.history[engine.White] = make([]int32, area)
	s.dist[0] = make([]int8, area)
	s.dist[1] = make([]int8, area)
	return s
}

// key is the position key used for repetition and the move table: the
// board's hash and the side to move.
func key(b *engine.Board, toPlay engine.Color) uint64 {
	if toPlay == engine.White {
		return b.Hash() ^ 0x5bd1e9955bd1e995
	}
	return b.Hash()
}

// stop reports whether the search must end now, looking at the clock and
// the context every minimaxCheckEvery nodes.
func (s *search) stop() bool {
	if s.stopped {
		return true
	}
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stopped = true
		return true
	}
	if s.nodes%minimaxCheckEvery == 0 {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			s.stopped = true
		}
	}
	return s.stopped
}

// rootMoves lists the moves at the root that are legal under the game's full
// rules and lie outside settled territory by the estimate j, with pass
// last.
func (s *search) rootMoves(b *engine.Board, c engine.Color, j judgement) []rootEntry {
	var out []rootEntry
	for _, v := range j.playable(b, c, candidates(nil, b, c)) {
		if legalAt(s.g, b, v) {
			out = append(out, rootEntry{v: v, score: s.orderScore(b, v, c, 0, engine.PassVertex)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return append(out, rootEntry{v: engine.PassVertex, score: math.Inf(-1)})
}

// root searches every root move to depth and returns the best; ok is false
// when the search was stopped before the iteration finished.
func (s *search) root(b *engine.Board, c engine.Color, depth int, moves []rootEntry) (int, bool) {
	passes := s.g.ConsecutivePasses()
	s.path[0] = key(b, c)
	alpha, beta := math.Inf(-1), math.Inf(1)
	bestV, bestScore := moves[0].v, math.Inf(-1)
	exact := true
	for i := range moves {
		mv := &moves[i]
		child := &s.boards[1]
		*child = *b
		np := 0
		if mv.v != engine.PassVertex {
			child.Play(mv.v, c)
		} else {
			np = passes + 1
		}
		s.nodes++
		// Search with a window minimaxVary below the best, so that the
		// moves that nearly tie with it get exact scores to choose from;
		// pass a little lower still, so that a tie with it is told apart
		// from a fail-low bound.
		a := alpha - minimaxVary
		if mv.v == engine.PassVertex {
			a -= 0.01
		}
		var score float64
		if np >= 2 {
			score = s.terminal(child, c)
		} else {
			score = -s.negamax(child, c.Opponent(), depth-1, -beta, -a, np, 1, mv.v)
		}
		if s.stopped {
			return 0, false
		}
		if math.Abs(score) < minimaxWinScore/2 && np < 2 {
			exact = false
		}
		mv.score = score
		// The choice among nearly equal moves varies with the seed (each
		// gets a random bonus below minimaxVary); passing gets the whole
		// bonus, so that it is preferred to a move that gains nothing, such
		// as filling one's own territory.
		bonus := minimaxVary
		if mv.v != engine.PassVertex {
			bonus = s.vary[mv.v]
		}
		if score+bonus > bestScore {
			bestScore, bestV = score+bonus, mv.v
		}
		alpha = max(alpha, score)
	}
	// Search the best first next time; pass stays last unless it is best.
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].score > moves[j].score })
	s.decided = exact
	return bestV, true
}

// negamax returns the value of b for toPlay, searched depth plies deep.
// passes counts the consecutive passes that led here, last the move that
// did (for ordering).
func (s *search) negamax(b *engine.Board, toPlay engine.Color, depth int, alpha, beta float64, passes, ply, last int) float64 {
	if s.stop() {
		return 0
	}
	k := key(b, toPlay)
	s.path[ply] = k
	if depth <= 0 || ply >= minimaxMaxPly {
		return s.quiesce(b, toPlay, alpha, beta, minimaxQuiesce, ply)
	}
	moves := s.genMoves(b, toPlay, ply, last, k)
	opp := toPlay.Opponent()
	best := math.Inf(-1)
	bestV := engine.PassVertex
	child := &s.boards[ply+1]
	limit := beamWidth(ply, len(moves))
	for i := 0; i <= limit; i++ {
		v := engine.PassVertex
		if i < limit {
			// Selection sort, one step at a time: a cut-off usually
			// comes after a few moves, so sorting them all is waste.
			best := i
			for j := i + 1; j < len(moves); j++ {
				if moves[j].order > moves[best].order {
					best = j
				}
			}
			moves[i], moves[best] = moves[best], moves[i]
			v = moves[i].v
		}
		*child = *b
		np := passes + 1
		if v != engine.PassVertex {
			child.Play(v, toPlay)
			np = 0
			if s.repeats(child, opp, ply) {
				continue
			}
		}
		s.nodes++
		var score float64
		if np >= 2 {
			score = s.terminal(child, toPlay)
		} else {
			score = -s.negamax(child, opp, depth-1, -beta, -alpha, np, ply+1, v)
		}
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestV = score, v
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			if v != engine.PassVertex {
				kl := &s.killers[ply]
				if kl[0] != v {
					kl[1], kl[0] = kl[0], v
				}
				s.history[toPlay][v] += int32(depth * depth)
			}
			break
		}
	}
	if len(s.tt) < minimaxMaxTable {
		s.tt[k] = bestV
	}
	return best
}

// quiesce resolves captures beyond the horizon: the side to move may
// stand on the evaluation or take any chain in atari, up to qdepth captures
// deep, so that a leaf is not scored in the middle of an exchange.
func (s *search) quiesce(b *engine.Board, toPlay engine.Color, alpha, beta float64, qdepth, ply int) float64 {
	stand := s.evaluate(b, toPlay)
	if stand >= beta || qdepth == 0 || ply >= minimaxMaxPly || s.stop() {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	opp := toPlay.Opponent()
	var libs [8]int
	n := 0
	area := b.Area()
	for v := 0; v < area && n < len(libs); v++ {
		if b.ColorAt(v) != opp || b.Chain(v) != v || !b.InAtari(v) {
			continue
		}
		l := b.AtariLiberty(v)
		dup := false
		for _, x := range libs[:n] {
			dup = dup || x == l
		}
		if !dup && b.Legal(l, toPlay) {
			libs[n] = l
			n++
		}
	}
	child := &s.boards[ply+1]
	for _, l := range libs[:n] {
		*child = *b
		child.Play(l, toPlay)
		if s.repeats(child, opp, ply) {
			continue
		}
		s.nodes++
		s.path[ply+1] = key(child, opp)
		score := -s.quiesce(child, opp, -beta, -alpha, qdepth-1, ply+1)
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
			if alpha >= beta {
				break
			}
		}
	}
	return best
}

// beamWidth returns how many of the n moves at ply are searched: all of
// them at the root, and at the first reply on boards up to 9×9 (the
// opponent's best answer is where tactics hide), the most promising beyond.
func beamWidth(ply, n int) int {
	switch {
	case ply == 0:
		return n
	case ply == 1 && n <= minimaxWide:
		return n
	case ply == 1:
		return minimaxBeam1
	}
	return min(n, minimaxBeam)
}

// repeats reports whether the position after a move, with toPlay to move,
// repeats one on the search path or in the game under its superko rule.
func (s *search) repeats(b *engine.Board, toPlay engine.Color, ply int) bool {
	if s.ko == engine.SimpleKo {
		return false
	}
	k := key(b, toPlay)
	for i := 0; i <= ply; i++ {
		if s.path[i] == k || (s.ko == engine.PositionalSuperko && s.path[i]^k == 0x5bd1e9955bd1e995) {
			return true
		}
	}
	return s.g.Seen(b.Hash(), toPlay)
}

// genMoves lists the legal moves at ply that do not fill an own eye, with
// their ordering scores, unsorted: negamax picks them best first and, beyond
// the first plies, only the most promising. Pass is not included: negamax
// always tries it last.
func (s *search) genMoves(b *engine.Board, c engine.Color, ply, last int, k uint64) []scored {
	buf := s.moveBuf[ply][:0]
	ttMove, hasTT := s.tt[k]
	n := b.EmptyCount()
	for i := 0; i < n; i++ {
		v := b.EmptyVertex(i)
		if b.IsEye(v, c) || !b.Legal(v, c) {
			continue
		}
		o := s.orderScore(b, v, c, ply, last)
		if hasTT && v == ttMove {
			o += 1e6
		}
		buf = append(buf, scored{v, o})
	}
	s.moveBuf[ply] = buf
	return buf
}

// orderScore guesses how good c playing at v is, for move ordering: cheap
// tactics first (captures, escapes, ataris, self-ataris), then killers,
// history, nearness to the last move and the centre.
func (s *search) orderScore(b *engine.Board, v int, c engine.Color, ply, last int) float64 {
	opp := c.Opponent()
	o := s.jitter[v]
	libs := b.NeighbourCount(v, engine.Empty)
	ownSafe := false
	for _, n := range b.Neighbours(v) {
		switch b.ColorAt(n) {
		case opp:
			if b.InAtari(n) {
				o += 1000 * float64(b.ChainSize(n))
				libs++
			} else if b.Liberties(n, 3) == 2 {
				o += 30 * float64(b.ChainSize(n))
			}
		case c:
			if b.InAtari(n) {
				o += 500 * float64(b.ChainSize(n))
			} else {
				ownSafe = ownSafe || b.Liberties(n, 3) >= 3
			}
		}
	}
	if libs <= 1 && !ownSafe {
		o -= 300 // likely self-atari
	}
	kl := s.killers[ply]
	if v == kl[0] {
		o += 200
	} else if v == kl[1] {
		o += 150
	}
	o += float64(s.history[c][v]) * 0.01
	if last != engine.PassVertex {
		d := manhattan(b, v, last)
		if d <= 2 {
			o += float64(3-d) * 5
		}
	}
	// Prefer the third and fourth lines to the edge early on.
	p := b.Point(v)
	size := b.Size()
	edge := min(p.Col, p.Row, size-1-p.Col, size-1-p.Row)
	switch {
	case edge == 0:
		o -= 6
	case edge == 1 && size > 7:
		o -= 2
	}
	return o
}

// manhattan returns the distance between two vertices of b.
func manhattan(b *engine.Board, u, v int) int {
	pu, pv := b.Point(u), b.Point(v)
	dx, dy := pu.Col-pv.Col, pu.Row-pv.Row
	return abs(dx) + abs(dy)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// terminal returns the exact area count of b after two passes, from the
// point of view of c, who passed last (so the score is for c).
func (s *search) terminal(b *engine.Board, c engine.Color) float64 {
	m := areaMargin(b, s.komi, s.work)
	if c == engine.White {
		m = -m
	}
	// Scale finished games beyond any heuristic value so a won ending is
	// preferred to an estimate, and a lost one avoided.
	if m > 0 {
		return minimaxWinScore + m
	}
	if m < 0 {
		return -minimaxWinScore + m
	}
	return 0
}
