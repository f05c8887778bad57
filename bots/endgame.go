package bots

import (
	"context"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// How every built-in level ends a game like a person: it passes when its
// opponent has passed and nothing is left to gain, resigns only when its
// estimate says the game is lost beyond doubt (never early, never in a
// close game) and never plays inside settled territory. The estimate is the
// ownership of each point in heavy playouts (mcts.EstimateOwnership), or the
// Monte Carlo search's own for the hard and max levels.

// Constants of the estimate.
const (
	// enclosedOwn is the ownership (from -1 to +1) from which a point of an
	// empty region that touches only one colour's stones, or such a stone,
	// is that colour's for sure: it ends as that colour's in at least 75%
	// of the playouts (light on a wall's eyes, the playouts kill some
	// walls that are safe).
	enclosedOwn = 0.5
	// openOwn is the ownership from which any other point is one colour's
	// for sure: at least 90% of the playouts.
	openOwn = 0.8
	// openSureOwn is the ownership from which an empty point of an open
	// region counts as the opponent's in a player's best case (see
	// margins): at least 95% of the playouts.
	openSureOwn = 0.9
	// judgePlayouts is the number of playouts of the weak levels' estimate.
	judgePlayouts = 160
	// judgeMinPlayouts is the least number of playouts of a Monte Carlo
	// search whose ownership judges anything settled (as the search's own
	// rule for passing asks): after a handful, every point looks owned for
	// sure.
	judgeMinPlayouts = 100
	// resignWinrate is the search's win rate below which hard and max may
	// resign (when the ownership agrees).
	resignWinrate = 0.1
	// replaceWinrate is how much lower than the search's choice, inside
	// enclosed territory, the search may rate a stone outside that replaces
	// it (see replaces).
	replaceWinrate = 0.05
	// mendPlayouts is the number of playouts of each of the two searches
	// that tell whether a stone inside the player's own territory mends a
	// defect there (see mends).
	mendPlayouts = 500
	// mendWinrate is the least gain in win rate that makes such a stone
	// worth playing: hard's stone that kept seven stones gained 0.79–0.92
	// in those searches (8 seeds), stones inside the settled territories of
	// a game won by 1.5 points -0.14 to 0.17 (TestMends).
	mendWinrate = 0.3
)

// judgement is a bot's estimate of how a position ends.
type judgement struct {
	b    *engine.Board
	own  []float64      // per point, index Row*size+Col: +1 always Black's, -1 always White's
	sure []engine.Color // per vertex: the colour that owns it for sure, or Empty
	// open marks the empty vertices of regions that touch stones of both
	// colours or none: on them the playouts guess, nothing encloses them.
	open []bool
}

// judge estimates the end of g's position with judgePlayouts heavy
// playouts seeded with seed. When ctx's deadline passes first (a clock
// running out), nothing is judged settled: the bot still answers at once.
func judge(ctx context.Context, g *engine.Game, seed int64) (judgement, error) {
	if opening(g) {
		// Nothing is settled yet and no level resigns: save the playouts.
		return newJudgement(g.Board(), make([]float64, g.Size()*g.Size())), nil
	}
	own, err := mcts.EstimateOwnership(ctx, g, judgePlayouts, seed)
	if err != nil {
		if cancelled(ctx) != nil || ctx.Err() == nil {
			return judgement{}, err
		}
		own = make([]float64, g.Size()*g.Size())
	}
	return newJudgement(g.Board(), own), nil
}

// newJudgement reads the ownership own of b's points (index Row*size+Col,
// from -1 for White to +1 for Black): a point is a colour's for sure when
// its ownership reaches openOwn, or enclosedOwn for a stone and for the
// points of an empty region whose only neighbouring stones are that
// colour's, judged there by the region's mean ownership: a search's
// ownership counts its own playouts' stones, first of all its choice, so
// the points around the move it weighs look less settled than the region
// they lie in (hard's G7, inside White's 30 points in settledClose, had
// White's ownership fall to 0.52–0.71 around it in 200 searches of 1,500
// playouts, and below 0.5 in about one in twenty).
func newJudgement(b *engine.Board, own []float64) judgement {
	j := judgement{b: b, own: own, sure: make([]engine.Color, b.Area()), open: make([]bool, b.Area())}
	size := b.Size()
	reach := make([]int8, b.Area())   // per empty vertex: bit 1 Black, bit 2 White
	mean := make([]float64, b.Area()) // per empty vertex: its region's mean ownership
	var region, stack []int
	for v := range reach {
		if b.ColorAt(v) != engine.Empty || b.IsBorder(v) || reach[v] != 0 {
			continue
		}
		region, stack = region[:0], append(stack[:0], v)
		reach[v] = 4
		bits := int8(4)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, u)
			for _, w := range b.Neighbours(u) {
				switch b.ColorAt(w) {
				case engine.Black:
					bits |= 1
				case engine.White:
					bits |= 2
				case engine.Empty:
					if !b.IsBorder(w) && reach[w] == 0 {
						reach[w] = 4
						stack = append(stack, w)
					}
				}
			}
		}
		sum := 0.0
		for _, u := range region {
			p := b.Point(u)
			sum += own[p.Row*size+p.Col]
		}
		for _, u := range region {
			reach[u], mean[u] = bits, sum/float64(len(region))
		}
	}
	for v := range j.sure {
		if !b.OnBoard(v) {
			continue
		}
		p := b.Point(v)
		o := own[p.Row*size+p.Col]
		threshold := openOwn
		switch {
		case b.ColorAt(v) != engine.Empty:
			threshold = enclosedOwn
		case reach[v] == 4|1 && mean[v] > 0, reach[v] == 4|2 && mean[v] < 0:
			o, threshold = mean[v], enclosedOwn
		default:
			j.open[v] = true
		}
		switch {
		case o >= threshold:
			j.sure[v] = engine.Black
		case o <= -threshold:
			j.sure[v] = engine.White
		}
	}
	return j
}

// settled reports whether the empty point at vertex v lies inside settled
// territory: it and every neighbour on the board belong for sure to one
// colour, so a stone there changes nothing (in one's own area) or dies (in
// the opponent's).
func (j judgement) settled(v int) bool {
	c := j.sure[v]
	if c == engine.Empty {
		return false
	}
	for _, n := range j.b.Neighbours(v) {
		if !j.b.IsBorder(n) && j.sure[n] != c {
			return false
		}
	}
	return true
}

// enclosed reports whether the empty point at vertex v lies inside settled
// territory that stones of one colour enclose: settled, in a region that
// touches that colour's stones only.
func (j judgement) enclosed(v int) bool {
	return j.settled(v) && !j.open[v]
}

// playable removes from moves (vertices of b) the points inside settled
// territory, except the last liberty of one of c's chains in atari: saving
// stones is never pointless. moves is filtered in place.
func (j judgement) playable(b *engine.Board, c engine.Color, moves []int) []int {
	out := moves[:0]
	for _, v := range moves {
		if !j.settled(v) || savesAtari(b, v, c) {
			out = append(out, v)
		}
	}
	return out
}

// savesAtari reports whether v is the last liberty of one of c's chains.
func savesAtari(b *engine.Board, v int, c engine.Color) bool {
	for _, n := range b.Neighbours(v) {
		if b.ColorAt(n) == c && b.InAtari(n) {
			return true
		}
	}
	return false
}

// fights reports whether c's stone at the empty vertex v takes a liberty
// of an opponent's chain of at most two (a capture or an atari, the vital
// point of a race) or saves one of c's chains in atari. The ownership of
// an unfinished fight is the playouts' guess, so a region that only one
// colour's stones touch can look settled while such a stone decides who
// owns it: max's search chose B3 at 73% inside White's "territory" in a
// 9×9 game against Pachi, and the rules' stone elsewhere lost the game
// (TestFightInsideTerritory; docs/strength.md counts such games).
func fights(b *engine.Board, v int, c engine.Color) bool {
	if savesAtari(b, v, c) {
		return true
	}
	for _, n := range b.Neighbours(v) {
		if b.ColorAt(n) == c.Opponent() && b.Liberties(n, 3) <= 2 {
			return true
		}
	}
	return false
}

// mends reports whether the move m of the player to move in g, a stone
// inside its own territory by the search's ownership, mends a defect
// there: two searches of mendPlayouts playouts with the same seed, of the
// position with the stone and of the position without it (the player
// passing instead), both with the opponent to move, give the player win
// rates at least mendWinrate apart. The search's ownership cannot tell,
// because the search plays the stone first: a cutting point or a shortage
// of liberties looks like territory for sure. Counting heavy playouts
// cannot tell either, because they also kill some safe walls, which a stone
// inside makes thicker. Without the searches (ctx done, or its deadline
// passed during them) the search's choice stands. After the opponent's
// pass it is false: passing back would end the game rather than give the
// opponent the move, and a stone elsewhere (see outside) is what is left
// to play.
func mends(ctx context.Context, g *engine.Game, m engine.Move, seed int64) bool {
	if opponentPassed(g) {
		return false
	}
	with, without := g.Clone(), g.Clone()
	if with.Play(m) != nil || without.Play(engine.PassMove(m.Color)) != nil {
		return true
	}
	a, err := mcts.Analyze(ctx, with, mendPlayouts, seed)
	if err != nil {
		return true
	}
	b, err := mcts.Analyze(ctx, without, mendPlayouts, seed)
	if err != nil || ctx.Err() != nil {
		return true // cut short by ctx's deadline: no judgement
	}
	gain := a.Winrate - b.Winrate // Black's
	if m.Color == engine.White {
		gain = -gain
	}
	return gain >= mendWinrate
}

// deadAfterPass is the dead-stone estimate of g (estimate.Dead, which
// gobot's scoring phase and its GTP final_score use) when the opponent
// has just passed, nil otherwise: what passWinsScored and wastedPoints
// judge by, made once a move.
func deadAfterPass(ctx context.Context, g *engine.Game) *engine.Estimate {
	if !opponentPassed(g) {
		return nil
	}
	e := estimate.Dead(ctx, g, estimate.Options{})
	return &e
}

// passWinsScored reports, with e the estimate of deadAfterPass, whether
// the opponent has just passed and passing back, which ends play, wins
// as the game would be scored now: with the dead stones of the
// dead-stone estimate taken off, when the estimate is
// sure of every chain (none Uncertain) and leaves at most a tenth of the
// board neutral. The Monte Carlo levels pass back then, whatever their
// search would choose: after GNU Go passed in a 19×19 game, hard, winning
// once the dead stones were taken off, played on for 50–62 moves of
// stones in territory that changed nothing (issue 34), because its search
// counts a pass back with every stone of the opponent's on the board
// alive. Counting the board as it stands (passWins) would pass back in a
// game lost with a dead group of one's own on the board, as max did on
// 9×9, losing by 73.5 instead of resigning (issue 34); it decides only
// when ctx left the estimate no time for a playout.
func passWinsScored(g *engine.Game, e *engine.Estimate) bool {
	if e == nil {
		return false
	}
	if e.Playouts == 0 {
		return passWins(g)
	}
	if len(e.Uncertain) > 0 {
		return false
	}
	sc := g.Score(e.Dead)
	return 10*sc.Dame <= g.Size()*g.Size() && sc.Winner == g.ToPlay()
}

// wastedPoints returns, with e the estimate of deadAfterPass, when g is
// scored by territory and the opponent has just passed, the vertices
// where a stone of the player to move would only cost it a point: empty points of its own territory as g
// would be counted now (dead stones off, by the dead-stone estimate
// estimate.Dead that the scoring phase proposes), next to no chain of its
// own in atari. Taking dead stones off the board by capturing them gains
// nothing there, and a level that is behind, whose search sees every
// move lose alike, captured six of them in its own area before passing
// back (a Japanese 9×9 game lost by 7.5 instead of 1.5). Nil otherwise,
// and when the estimate is unsure of a chain or had no time for a
// playout: then the search decides.
func wastedPoints(g *engine.Game, e *engine.Estimate) []bool {
	if g.Rules().Scoring != engine.TerritoryScoring || e == nil || e.Playouts == 0 || len(e.Uncertain) > 0 {
		return nil
	}
	sc := g.Score(e.Dead)
	b := g.Board()
	c := g.ToPlay()
	size := g.Size()
	wasted := make([]bool, b.Area())
	for v := range wasted {
		if !b.OnBoard(v) || b.ColorAt(v) != engine.Empty {
			continue
		}
		if p := b.Point(v); sc.Owner[p.Row*size+p.Col] != c {
			continue
		}
		wasted[v] = true
		for _, n := range b.Neighbours(v) {
			if b.ColorAt(n) == c && b.Liberties(n, 2) < 2 {
				wasted[v] = false
			}
		}
	}
	return wasted
}

// margins returns c's expected lead at the end by the estimate (the sum of
// the ownership, less White's bonus) and its lead in the best case, where
// every point becomes c's but the opponent's stones and territory, and c's
// dead stones, that the opponent owns in at least 90% of the playouts
// (openOwn) — and of the empty points of open regions, where the playouts
// may only guess, those it owns in at least 95% (openSureOwn): the
// territory around c's dead stones, which touches both colours. Without
// them, 9×9 games lost by 24.5 and 28.5 points with c's dead stones in the
// opponent's area looked winnable at best and the search passed instead
// of resigning (issue 34).
func (j judgement) margins(c engine.Color, whiteBonus float64) (expected, best float64) {
	sign := 1.0
	if c == engine.White {
		sign = -1
	}
	size := j.b.Size()
	points, lost := size*size, 0
	for v, s := range j.sure {
		if !j.b.OnBoard(v) {
			continue
		}
		p := j.b.Point(v)
		o := sign * j.own[p.Row*size+p.Col]
		expected += o
		if s == c.Opponent() && o <= -openOwn && (!j.open[v] || o <= -openSureOwn) {
			lost++
		}
	}
	bonus := -sign * whiteBonus
	return expected + bonus, float64(points-2*lost) + bonus
}

// lostBeyondDoubt reports whether c should resign g by the estimate: the
// game is not early (see early), c loses even in the best case
// (see margins), and by the expected count it loses by more than
// resignMargin, so a close game is always played out.
func (j judgement) lostBeyondDoubt(g *engine.Game, c engine.Color) bool {
	if early(g) {
		return false
	}
	expected, best := j.margins(c, whiteBonus(g))
	return best < 0 && expected < -resignMargin(len(j.own))
}

// resignMargin returns the least expected loss, in points, at which a level
// resigns on a board of the given number of points: a tenth of the board,
// and at least 8 (8.1 on 9×9, 36.1 on 19×19).
func resignMargin(points int) float64 {
	return max(8, float64(points)/10)
}

// opening reports whether g has fewer stones on the board than an eighth
// of its points (11 on 9×9) and the last move was no pass: no territory is
// settled so soon.
func opening(g *engine.Game) bool {
	b := g.Board()
	points := b.Size() * b.Size()
	last, ok := g.LastMove()
	return 8*(points-b.EmptyCount()) < points && (!ok || last.Kind != engine.Pass)
}

// early reports whether g is too young for any level to resign: fewer
// moves played, and fewer stones on the board, than half its points (41 on
// 9×9, 181 on 19×19).
func early(g *engine.Game) bool {
	b := g.Board()
	points := b.Size() * b.Size()
	stones := points - b.EmptyCount()
	return 2*max(g.MoveCount(), stones) < points
}
