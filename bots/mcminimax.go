package bots

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// Minimax with a Monte Carlo evaluation (the medium level): the move is the
// maximum over its candidates of their worth, and a candidate's worth is
// the opponent's best reply to it — the minimum — as a small Monte Carlo
// tree search from the position after it finds it and rates it. The
// candidates are the best of a quick ranking by playouts (successive
// halving) and the best few by move ordering. The static evaluation of
// evaluate cannot tell a living group from a dead one and lost most games
// to GNU Go level 1 (1 of 7, by 15 to 88 points); playouts can.

// Constants of the Monte Carlo minimax.
const (
	mcFirst     = 8       // playouts of every candidate in the first round of ranking
	mcMoves     = 8       // candidates read by a tree search, the best by the ranking
	mcKnown     = 3       // candidates read as well, the best by move ordering
	mcTreeNodes = 1 << 16 // tree nodes of each reading (about 2.6 MB)
	// mcLeadWeight is the worth of one point of lead next to the share of
	// playouts won, in the ranking (see mcLeaf.worth).
	mcLeadWeight = 0.005
	// mcVary is how much less often than the best (in share of playouts
	// won) a candidate may win and still be chosen by the seed.
	mcVary = 0.01
)

// mcLeaf is the position after a candidate with its ranking playouts.
type mcLeaf struct {
	board  engine.Board
	toPlay engine.Color
	last   int
	sum    float64 // Black's lead summed over the playouts
	wins   int     // playouts Black won
	n      int
}

// worth returns the leaf's worth for c: the share of the playouts c won,
// and mcLeadWeight a point of its mean lead to tell equal shares apart.
// The share, not the lead, comes first: a lead swollen by the few
// playouts in which an invasion lives (the playouts kill badly) would
// otherwise lure the search into hopeless invasions.
func (l *mcLeaf) worth(c engine.Color) float64 {
	if l.n == 0 {
		return 0
	}
	lead, won := l.sum/float64(l.n), float64(l.wins)/float64(l.n)
	if c == engine.White {
		lead, won = -lead, 1-won
	}
	return won + mcLeadWeight*lead
}

// mcMove is a candidate move at the root.
type mcMove struct {
	v    int
	self mcLeaf // the position after it, for the ranking
	// bonus rewards a capture: its stones count twice more. The playouts
	// take dead stones anyway, so without it the search sees no hurry to
	// take stones in atari, and a person would.
	bonus  float64
	read   float64 // the reading's worth: the share of wins after the best reply
	readOK bool
}

// value returns the candidate's worth for c by the ranking.
func (m *mcMove) value(c engine.Color) float64 {
	return m.self.worth(c) + m.bonus
}

// genMoveMC chooses among the root moves (pass excluded) by Monte Carlo
// minimax within the search's budget: s.deadline and s.nodeLimit, counted
// in playouts; seed seeds the readings. It returns engine.PassVertex when there are no moves, and
// ranked false when the budget ran out before every move had playouts.
func (s *search) genMoveMC(b *engine.Board, c engine.Color, roots []rootEntry, ev *mcts.Evaluator, seed int64) (v int, ranked bool) {
	moves := make([]*mcMove, 0, len(roots))
	for _, r := range roots {
		if r.v == engine.PassVertex {
			continue
		}
		m := &mcMove{v: r.v}
		m.self.board = *b
		m.bonus = 2 * mcLeadWeight * float64(m.self.board.Play(r.v, c))
		m.self.toPlay, m.self.last = c.Opponent(), r.v
		moves = append(moves, m)
	}
	if len(moves) == 0 {
		return engine.PassVertex, true
	}
	byOrder := slices.Clone(moves) // roots come sorted by move ordering
	if len(moves) == 1 {
		return moves[0].v, true
	}
	var playouts int64
	out := func() bool {
		if s.nodeLimit > 0 && playouts >= s.nodeLimit {
			return true
		}
		return s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline))
	}
	eval := func(l *mcLeaf, n int) {
		lead, wins := ev.Score(&l.board, l.toPlay, l.last, n)
		l.sum += lead * float64(n)
		l.wins += wins
		l.n += n
		playouts += int64(n)
	}
	// Rank the moves by their own playouts, by successive halving: every
	// move gets mcFirst playouts, then the better half twice as many more,
	// and so on until mcMoves are left.
	ranked = true
	field := moves
	for n := mcFirst; ; n *= 2 {
		for _, m := range field {
			if out() {
				ranked = false
				break
			}
			eval(&m.self, n)
		}
		slices.SortStableFunc(field, func(a, b *mcMove) int {
			return -cmp.Compare(a.value(c), b.value(c))
		})
		if !ranked || len(field) <= mcMoves {
			break
		}
		field = field[:max(mcMoves, len(field)/2)]
	}
	top := field[:min(len(field), mcMoves)]
	// The moves that move ordering likes best (captures, escapes from
	// atari) are read too, whatever their first playouts said.
	for _, m := range byOrder[:min(len(byOrder), mcKnown)] {
		if !slices.Contains(top, m) {
			top = append(top, m)
		}
	}
	// Read each of those moves with a small Monte Carlo tree search from
	// the position after it, the budget left shared equally: the search
	// finds the opponent's best reply, and its win rate gives the move's
	// worth.
	read := 0
	for i, m := range top {
		left := len(top) - i
		var moveTime time.Duration
		if !s.deadline.IsZero() {
			if moveTime = time.Until(s.deadline) / time.Duration(left); moveTime <= 0 {
				break
			}
		}
		n := 0
		if s.nodeLimit > 0 {
			if n = int((s.nodeLimit - playouts) / int64(left)); n <= 0 {
				break
			}
		}
		child := s.g.Clone()
		if err := child.Play(engine.PlaceAt(c, b.Point(m.v))); err != nil {
			continue // a superko repetition: rootMoves let no such move through
		}
		e := mcts.NewSearcher(mcts.Options{Seed: seed + int64(i), Threads: 1, NoReuse: true, ResignThreshold: -1, MaxNodes: mcTreeNodes})
		if _, err := e.GenMove(s.ctx, child, moveTime, n); err != nil {
			break // cancelled, or out of time: the moves read so far decide
		}
		st := e.Stats()
		m.read, m.readOK = 1-st.Winrate, true
		playouts += int64(st.Playouts)
		read++
	}
	if read == 0 {
		return top[0].v, ranked
	}
	// The best by its reading; the seed chooses among those within mcVary
	// of it.
	best, bestScore := top[0].v, math.Inf(-1)
	for _, m := range top {
		if !m.readOK {
			continue
		}
		if v := m.read + m.bonus + s.vary[m.v]/minimaxVary*mcVary; v > bestScore {
			best, bestScore = m.v, v
		}
	}
	return best, true
}
