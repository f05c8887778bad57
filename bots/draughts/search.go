package draughts

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
)

// Scores, in hundredths of a man. A won position is worth Win less the
// plies to the win; any score beyond WinBound is a win (or a loss) found
// by the search.
const (
	Win      = 30000
	WinBound = Win - maxPly
	inf      = 32000
	maxPly   = 128
	// pollEvery is how often, in nodes, a search looks at its context,
	// its clock and its node budget.
	pollEvery = 1 << 10
)

// Budget limits one search: the depth in plies, the nodes and the wall
// time, whichever comes first (and the context's deadline). A zero field
// sets no limit; the zero Budget searches for a second.
type Budget struct {
	Depth int
	Nodes int64
	Time  time.Duration
}

// Options tune a Searcher.
type Options struct {
	// Weights are the evaluation's; nil means DefaultWeights.
	Weights *Weights
	// TableBits sizes the transposition table: 2^TableBits entries of 16
	// bytes; 0 means 18 (4 MB).
	TableBits int
	// Seed seeds Noise.
	Seed int64
	// Noise, when positive, adds to each root move's score a random bonus
	// from 0 to Noise (hundredths of a man, drawn once per search from
	// Seed), so that a level varies its play among nearly equal moves.
	Noise int
	// Threats is how many times in a line the quiescence search looks one
	// ply further, at every move, when the side to move cannot capture
	// but its opponent could (a shot in the air): 0 trusts the static
	// value there.
	Threats int
	// Info, when set, is called after each iteration of the deepening
	// with the best line so far (for the Hub protocol's info lines).
	Info func(Result)
}

// Result is a search's answer: the move chosen, the line expected after
// it, its score for the side to move, the depth of the last iteration
// (completed, or begun and bettered), and the nodes and time spent.
type Result struct {
	Move  draughts.Move
	PV    []draughts.Move
	Score int
	Depth int
	Nodes int64
	Time  time.Duration
}

// Searcher is the alpha-beta search: iterative deepening with a principal
// variation search, a capture-extending quiescence search, a
// transposition table, killer and history move ordering, late-move
// reductions of quiet moves, forced moves extended, and draws by
// repetition and the counting rules seen through the game's history. It
// keeps its table and history heuristics from one search to the next (a
// game's moves); Clear forgets them. Not safe for concurrent use.
type Searcher struct {
	opts Options
	w    *Weights
	tt   table

	// The current search.
	ctx      context.Context
	start    time.Time
	deadline time.Time
	maxNodes int64
	nodes    int64
	stop     bool
	err      error

	stack   []uint64 // hashes: the game's history, then the line searched
	killers [maxPly][2]draughts.Move
	history [2][draughts.NumSquares + 1][draughts.NumSquares + 1]int32
	moves   [maxPly][draughts.MaxMoves]draughts.Move
	order   [maxPly][draughts.MaxMoves]int32
	perm    [maxPly][draughts.MaxMoves]uint8
	pv      [maxPly][maxPly]draughts.Move
	pvLen   [maxPly]int
}

// NewSearcher returns a search with the given options.
func NewSearcher(opts Options) *Searcher {
	bits := opts.TableBits
	if bits <= 0 {
		bits = 18
	}
	s := &Searcher{opts: opts, w: opts.Weights, tt: newTable(bits)}
	if s.w == nil {
		s.w = &DefaultWeights
	}
	return s
}

// Clear forgets what earlier searches learnt (a new game).
func (s *Searcher) Clear() {
	s.tt.clear()
	s.history = [2][draughts.NumSquares + 1][draughts.NumSquares + 1]int32{}
	s.killers = [maxPly][2]draughts.Move{}
}

// Nodes returns the nodes the last search visited.
func (s *Searcher) Nodes() int64 { return s.nodes }

// Search finds a move for the side to move in g within budget b. It
// returns ErrGameOver when the game is over by the rules, and ctx's error
// when ctx is cancelled (not when its deadline passes: then, as when the
// budget runs out, it answers with the best move found so far). A
// position with a single legal move is answered at once, unsearched.
func (s *Searcher) Search(ctx context.Context, g Game, b Budget) (Result, error) {
	if err := cancelled(ctx); err != nil {
		return Result{}, err
	}
	if len(g.History) == 0 {
		return Result{}, ErrGameOver
	}
	if g.Over() {
		return Result{}, ErrGameOver
	}
	p := g.Position()
	root := p.Generate(make([]draughts.Move, 0, draughts.MaxMoves))
	s.begin(ctx, g, b)
	res := Result{Move: root[0], PV: []draughts.Move{root[0]}}
	if len(root) == 1 {
		res.Time = time.Since(s.start)
		return res, nil
	}

	noise := make([]int, len(root))
	if s.opts.Noise > 0 {
		rng := rand.New(rand.NewPCG(uint64(s.opts.Seed), p.Hash()))
		for i := range noise {
			noise[i] = rng.IntN(s.opts.Noise + 1)
		}
	}
	order := make([]int, len(root))
	for i := range order {
		order[i] = i
	}
	s.orderRoot(&p, root, order)
	// Should time run out before the first iteration ends: the best
	// move by the captures it leads to.
	res = Result{Move: root[order[0]], PV: []draughts.Move{root[order[0]]}}

	maxDepth := b.Depth
	if maxDepth <= 0 || maxDepth > maxPly-8 {
		maxDepth = maxPly - 8
	}
	n := len(s.stack) - 1
	for depth := 1; depth <= maxDepth; depth++ {
		bestVal, bestIdx, bestScore := -inf, -1, 0
		var bestPV []draughts.Move
		for k, idx := range order {
			m := root[idx]
			q := p
			q.Play(m)
			qc := g.Counters.After(&p, m, &q)
			s.stack = append(s.stack[:n+1], q.Hash())
			irrev := 0
			if p.Irreversible(m) {
				irrev = n + 1
			}
			var score int
			if k == 0 {
				score = -s.alphaBeta(&q, qc, depth-1, 1, n+1, irrev, -inf, inf)
			} else {
				a := bestVal - noise[idx]
				score = -s.alphaBeta(&q, qc, depth-1, 1, n+1, irrev, -a-1, -a)
				if score > a && !s.stop {
					score = -s.alphaBeta(&q, qc, depth-1, 1, n+1, irrev, -inf, -a)
				}
			}
			if s.stop {
				break
			}
			if v := score + noise[idx]; v > bestVal {
				bestVal, bestIdx, bestScore = v, idx, score
				bestPV = append(bestPV[:0], m)
				bestPV = append(bestPV, s.pv[1][1:s.pvLen[1]]...)
			}
		}
		if bestIdx < 0 {
			break // stopped before the first move was searched
		}
		res = Result{Move: root[bestIdx], PV: bestPV, Score: bestScore, Depth: depth}
		// The best first, the others as they were.
		for i, idx := range order {
			if idx == bestIdx {
				copy(order[1:i+1], order[:i])
				order[0] = bestIdx
				break
			}
		}
		res.Nodes, res.Time = s.nodes, time.Since(s.start)
		if s.opts.Info != nil {
			s.opts.Info(res)
		}
		if s.stop {
			break
		}
		if abs(bestScore) > WinBound && Win-abs(bestScore) <= depth {
			break // a win or a loss seen to its end
		}
		if b.Time > 0 && time.Since(s.start) > b.Time/2 {
			break // the next iteration would not end in time
		}
	}
	res.Nodes, res.Time = s.nodes, time.Since(s.start)
	if s.err != nil {
		return Result{}, s.err
	}
	return res, nil
}

// begin sets up a search.
func (s *Searcher) begin(ctx context.Context, g Game, b Budget) {
	s.ctx = ctx
	s.start = time.Now()
	s.deadline = time.Time{}
	if b.Depth <= 0 && b.Nodes <= 0 && b.Time <= 0 {
		b.Time = time.Second
	}
	if b.Time > 0 {
		s.deadline = s.start.Add(b.Time)
	}
	if d, ok := ctx.Deadline(); ok && (s.deadline.IsZero() || d.Before(s.deadline)) {
		s.deadline = d
	}
	s.maxNodes = b.Nodes
	s.nodes = 0
	s.stop = false
	s.err = nil
	s.stack = s.stack[:0]
	for i := range g.History {
		s.stack = append(s.stack, g.History[i].Hash())
	}
	// Age the history heuristic.
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 8
			}
		}
	}
	s.killers = [maxPly][2]draughts.Move{}
}

// orderRoot orders the root moves by a quiescence search of each, best
// first (stable).
func (s *Searcher) orderRoot(p *draughts.Position, root []draughts.Move, order []int) {
	vals := make([]int, len(root))
	for i, m := range root {
		q := *p
		q.Play(m)
		vals[i] = -s.quiesce(&q, 1, -inf, inf, 0)
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && vals[order[j]] > vals[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// poll stops the search when its budget is spent or its context done.
func (s *Searcher) poll() {
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stop = true
		return
	}
	select {
	case <-s.ctx.Done():
		s.stop = true
		s.err = cancelled(s.ctx)
		return
	default:
	}
	if !s.deadline.IsZero() && !time.Now().Before(s.deadline) {
		s.stop = true
	}
}

// repeated reports whether the position at stack index n occurred before,
// back to the last irreversible move at index irrev.
func (s *Searcher) repeated(n, irrev int) bool {
	h := s.stack[n]
	for i := n - 4; i >= irrev; i -= 2 {
		if s.stack[i] == h {
			return true
		}
	}
	return false
}

// alphaBeta searches p (at stack index n, the last irreversible move at
// irrev) to depth, within (alpha, beta), and returns its score for the
// side to move.
func (s *Searcher) alphaBeta(p *draughts.Position, c draughts.Counters, depth, ply, n, irrev, alpha, beta int) int {
	s.pvLen[ply] = ply
	if c.Draw() != "" || s.repeated(n, irrev) {
		return 0
	}
	if depth <= 0 {
		return s.quiesce(p, ply, alpha, beta, s.opts.Threats)
	}
	s.nodes++
	if s.nodes%pollEvery == 0 {
		s.poll()
	}
	if s.stop {
		return 0
	}
	if ply >= maxPly-1 {
		return Evaluate(p, s.w)
	}
	// A win in fewer plies than any line from here cannot be bettered.
	if a := -Win + ply; a > alpha {
		alpha = a
		if alpha >= beta {
			return alpha
		}
	}

	key := p.Hash()
	ttMove := -1
	if e, ok := s.tt.probe(key); ok {
		ttMove = int(e.move) - 1
		if int(e.depth) >= depth && beta-alpha == 1 {
			score := fromTable(int(e.score), ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && score >= beta,
				e.bound == boundUpper && score <= alpha:
				return score
			}
		}
	}

	moves := p.Generate(s.moves[ply][:0])
	if len(moves) == 0 {
		return -Win + ply
	}
	if ttMove >= len(moves) {
		ttMove = -1 // a collision of keys
	}
	ext := 0
	if len(moves) == 1 && ply < 2*maxPly/3 {
		ext = 1 // a forced move costs no depth
	}
	s.scoreMoves(p, ply, moves, ttMove)
	us := p.Turn()
	alpha0 := alpha
	best, bestIdx := -inf, -1
	for i := range moves {
		idx := s.pick(ply, len(moves), i)
		m := moves[idx]
		q := *p
		q.Play(m)
		qc := c.After(p, m, &q)
		s.stack = append(s.stack[:n+1], q.Hash())
		nirrev := irrev
		if p.Irreversible(m) {
			nirrev = n + 1
		}
		d := depth - 1 + ext
		var score int
		if i == 0 {
			score = -s.alphaBeta(&q, qc, d, ply+1, n+1, nirrev, -beta, -alpha)
		} else {
			r := 0
			if depth >= 3 && i >= 3 && !m.IsCapture() && m != s.killers[ply][0] && m != s.killers[ply][1] {
				r = 1
			}
			score = -s.alphaBeta(&q, qc, d-r, ply+1, n+1, nirrev, -alpha-1, -alpha)
			if score > alpha && (r > 0 || score < beta) && !s.stop {
				score = -s.alphaBeta(&q, qc, d, ply+1, n+1, nirrev, -beta, -alpha)
			}
		}
		if s.stop {
			return 0
		}
		if score > best {
			best, bestIdx = score, idx
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if score >= beta {
					if !m.IsCapture() {
						if s.killers[ply][0] != m {
							s.killers[ply][1] = s.killers[ply][0]
							s.killers[ply][0] = m
						}
						h := &s.history[us][m.From][m.To]
						*h += int32(depth * depth)
						if *h > 1<<20 {
							*h = 1 << 20
						}
					}
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= alpha0:
		bound = boundUpper
	}
	s.tt.store(key, toTable(best, ply), depth, bound, bestIdx)
	return best
}

// quiesce plays out the captures, which are compulsory, and returns the
// static value of the first quiet position; where the opponent threatens
// a capture and threats allow it, it looks one ply further.
func (s *Searcher) quiesce(p *draughts.Position, ply, alpha, beta, threats int) int {
	s.pvLen[ply] = ply
	s.nodes++
	if s.nodes%pollEvery == 0 {
		s.poll()
	}
	if s.stop {
		return 0
	}
	if ply >= maxPly-1 {
		return Evaluate(p, s.w)
	}
	if p.CanCapture() {
		return s.quiesceMoves(p, p.Captures(s.moves[ply][:0]), ply, alpha, beta, threats)
	}
	if threats > 0 && s.threatened(p) {
		moves := p.Generate(s.moves[ply][:0])
		if len(moves) == 0 {
			return -Win + ply
		}
		return s.quiesceMoves(p, moves, ply, alpha, beta, threats-1)
	}
	if p.Pieces(p.Turn()).Count() <= 3 {
		var buf [draughts.MaxMoves]draughts.Move
		if p.CountMoves(buf[:0]) == 0 {
			return -Win + ply
		}
	}
	return Evaluate(p, s.w)
}

// quiesceMoves searches moves, all of them, in the quiescence search.
func (s *Searcher) quiesceMoves(p *draughts.Position, moves []draughts.Move, ply, alpha, beta, threats int) int {
	best := -inf
	for i, m := range moves {
		q := *p
		q.Play(m)
		score := -s.quiesce(&q, ply+1, -beta, -alpha, threats)
		if s.stop {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = moves[i]
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// threatened reports whether the opponent of the side to move could
// capture, were it to move.
func (s *Searcher) threatened(p *draughts.Position) bool {
	q := *p
	q.SetTurn(p.Turn().Opponent())
	return q.CanCapture()
}

// scoreMoves gives each move of ply its ordering score: the table's move,
// then captures (of kings first), killers, and quiet moves by history.
func (s *Searcher) scoreMoves(p *draughts.Position, ply int, moves []draughts.Move, ttMove int) {
	us := p.Turn()
	theirKings := uint64(p.Kings(us.Opponent()))
	ourMen := uint64(p.Men(us))
	crown := backRow[us.Opponent()]
	for i, m := range moves {
		if i == len(s.order[ply]) {
			break // pick takes the rest in the order generated
		}
		var v int32
		switch {
		case i == ttMove:
			v = 1 << 30
		case m.IsCapture():
			v = 1<<24 + int32(bits.OnesCount64(uint64(m.Captured)&theirKings))<<4
		case m == s.killers[ply][0]:
			v = 1 << 22
		case m == s.killers[ply][1]:
			v = 1 << 21
		default:
			v = s.history[us][m.From][m.To]
			if ourMen&squareBit[m.From] != 0 && crown&squareBit[m.To] != 0 {
				v += 1 << 20 // a man crowned
			}
		}
		s.order[ply][i] = v
		s.perm[ply][i] = uint8(i)
	}
}

// pick returns the index of the i-th move to search at ply: the best of
// those not yet searched.
func (s *Searcher) pick(ply, n, i int) int {
	o, pm := &s.order[ply], &s.perm[ply]
	if n > len(o) {
		// More moves than the buffers hold (a rare position with many
		// kings): the rest in the order generated.
		if i >= len(o) {
			return i
		}
		n = len(o)
	}
	best := i
	for j := i + 1; j < n; j++ {
		if o[j] > o[best] {
			best = j
		}
	}
	o[i], o[best] = o[best], o[i]
	pm[i], pm[best] = pm[best], pm[i]
	return int(pm[i])
}

// toTable and fromTable store a win's score relative to the node, so
// that it is right wherever the position is met again.
func toTable(score, ply int) int {
	switch {
	case score > WinBound:
		return score + ply
	case score < -WinBound:
		return score - ply
	}
	return score
}

func fromTable(score, ply int) int {
	switch {
	case score > WinBound:
		return score - ply
	case score < -WinBound:
		return score + ply
	}
	return score
}

// cancelled returns ctx's error when ctx was cancelled, and nil when it is
// live or only past its deadline: time running out makes a search answer
// with the best move it has, a cancellation means the move is no longer
// wanted.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
