package review

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gobot-dev/gobot/engine"
)

// Format is the version of the Review encoding; a stored review of another
// format is made again. Format 2 counts settled positions, fills sealed
// areas for the built-in search and filters its side-to-move bias; format
// 3 measures the built-in search's losses between positions with the same
// player to move and judges would-be mistakes again (see ConfirmedLosses
// and Review.rejudge); format 4 filters the bias out of the first and the
// last position of the graph too (see unbias); format 5 calls no position
// settled where an opponent's stone could live inside a small sealed
// region (see territory.invadable) and names only swings of MinSwing or
// more that are more than a count confirming the search (Review.Swings);
// format 6 names a move only when a better one, played and judged, leads
// by MinPoints more (see Review.checkBetter), even the search's own
// choice; format 7 estimates the positions of a short run of settled
// ones that play leaves (see uncountShortRuns); format 8 counts and
// estimates a game scored by territory (Japanese rules) by territory;
// format 9 leaves counted positions out of the graph's filter (see
// unbias).
const Format = 9

// Current reports whether a review stored in the given format reads as
// this build would make it (format 8 let a format-7 review of a game
// scored by area stand; format 9 changed reviews of both scorings).
func Current(format int) bool {
	return format == Format
}

// MistakesPerPlayer is how many mistakes a review names for each player.
const MistakesPerPlayer = 3

// MinLoss is the smallest drop of a player's winning chance (0 to 1) that
// counts in the graph's swings and the average loss: below it the
// evaluator's judgement is noise.
const MinLoss = 0.03

// MinPoints is the smallest number of points a move must lose to count as
// a mistake.
const MinPoints = 2.0

// Review is the judgement of a whole game.
type Review struct {
	Format int    `json:"format"`
	Engine string `json:"engine"` // what judged it: "mcts 1500 playouts", "gtp:katago"
	Size   int    `json:"size"`
	// Positions has one entry per position: before the first move, then
	// after each move (len(Moves)+1 entries).
	Positions []Position `json:"positions"`
	// Moves are the game's moves in GTP notation ("D4", "pass"), Black's
	// and White's in turn as the game had them.
	Moves []Played `json:"moves"`
	// Mistakes are the biggest mistakes, MistakesPerPlayer at most for each
	// player, Black's first, each player's biggest first.
	Mistakes []Mistake `json:"mistakes"`
	Summary  Summary   `json:"summary"`

	// territory says that the game is scored by territory, where a dame
	// is worth nothing (see finish).
	territory bool
}

// Played is one move of the game.
type Played struct {
	Color engine.Color `json:"color"`
	Move  string       `json:"move"`
}

// Position is the judgement of one position.
type Position struct {
	// Winrate is Black's chance of winning, 0 to 1, as the graph shows
	// it: for the built-in search, its judgements with the side-to-move
	// bias filtered out (see unbias).
	Winrate float64 `json:"wr"`
	// Score is Black's expected lead in points (area, komi included).
	Score float64 `json:"score"`
	// Judged is Black's chance as the evaluator judged it, before unbias
	// filtered it (0 when the review has no filter).
	Judged float64 `json:"judged,omitempty"`
	// Counted says that the position was counted rather than estimated:
	// every region was settled (see territory), or play had ended and
	// the game was scored. Score and Winrate are then exact.
	Counted bool `json:"counted,omitempty"`
	// Best is the move the evaluator prefers for the player to move, and PV
	// its variation starting with Best (GTP notation); empty when play
	// had ended.
	Best string   `json:"best,omitempty"`
	PV   []string `json:"pv,omitempty"`
}

// Mistake is a move that lost its player a good part of the game.
type Mistake struct {
	Number int          `json:"number"` // move number, from 1
	Color  engine.Color `json:"color"`
	Move   string       `json:"move"`
	// Before and After are the player's own winning chances before and
	// after the move.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Loss is what the move lost, in the unit of the series it was
	// selected from: points, in a review (the drop of the player's
	// expected lead).
	Loss float64 `json:"loss"`
	// Best and PV are what the evaluator preferred in the position before
	// the move, and its variation (at most 6 moves, starting with Best).
	Best string   `json:"best"`
	PV   []string `json:"pv"`
}

// Summary is what a paragraph about the game says.
type Summary struct {
	// Winner is who won, from the game's result, or who was ahead at the
	// end when the game had none; Empty for a tie.
	Winner engine.Color `json:"winner"`
	// Resigned is set when the game ended by resignation (or time or
	// forfeit), so its score was never counted.
	Resigned bool `json:"resigned,omitempty"`
	// NoResult is set when the game ended without a result (aborted):
	// Winner is then only who the engine saw ahead at the end.
	NoResult bool `json:"noResult,omitempty"`
	// Turn is the move after which Winner stayed ahead to the end, 0
	// when Winner was never behind after the start, -1 when Winner was
	// not ahead at the end of play (before the two passes that ended it).
	Turn int `json:"turn"`
	// Swing is the move that changed Black's winning chance the most,
	// the two passes that ended the game left out.
	Swing int `json:"swing"`
	// FinalScore is Black's estimated lead in the last position: the
	// counted result in a game decided by counting.
	FinalScore float64 `json:"finalScore"`
	// AvgLoss is each player's average loss of winning chance per move,
	// Black's then White's.
	AvgLoss [2]float64 `json:"avgLoss"`
}

// Evaluator judges one position. Implementations must not modify g, must
// give the same answer for the same position when they say they are
// deterministic, and must return when ctx is done.
type Evaluator interface {
	// Name says what judges, for the review's Engine.
	Name(size int) string
	Evaluate(ctx context.Context, g *engine.Game) (Evaluation, error)
}

// Evaluation is an Evaluator's judgement of one position.
type Evaluation struct {
	Winrate   float64 // Black's chance of winning, 0 to 1
	Score     float64 // Black's expected lead (area, komi included)
	Ownership []float64
	Best      engine.Move
	PV        []engine.Move
}

// Positions returns every position of g: before the first move, then after
// each move, as games of their own that can be judged (the result of g, a
// resignation for instance, is left out). Play that resumed after two
// passes is followed.
func Positions(g *engine.Game) ([]*engine.Game, error) {
	cfg := g.Config()
	cfg.Handicap = 0
	start, err := engine.NewGame(cfg)
	if err != nil {
		return nil, err
	}
	if setup := g.Setup(); len(setup) > 0 {
		if err := start.SetupStones(setup, g.FirstPlayer(), g.Handicap()); err != nil {
			return nil, err
		}
	}
	out := []*engine.Game{start.Clone()}
	cur := start
	for i, m := range g.Moves() {
		if cur.PlayEnded() {
			if err := cur.Resume(); err != nil {
				return nil, fmt.Errorf("review: resume before move %d: %w", i+1, err)
			}
		}
		if err := cur.Play(m); err != nil {
			return nil, fmt.Errorf("review: move %d %v: %w", i+1, m, err)
		}
		out = append(out, cur.Clone())
	}
	return out, nil
}

// Run reviews g with ev: it judges every position in order, calling
// progress (if not nil) with the number of positions judged and their
// total before it starts and after each one. It returns ctx's error when
// ctx ends first.
func Run(ctx context.Context, g *engine.Game, ev Evaluator, progress func(done, total int)) (*Review, error) {
	positions, err := Positions(g)
	if err != nil {
		return nil, err
	}
	r := &Review{Format: Format, Engine: ev.Name(g.Size()), Size: g.Size(), territory: g.Rules().Scoring == engine.TerritoryScoring}
	for _, m := range g.Moves() {
		r.Moves = append(r.Moves, Played{Color: m.Color, Move: m.String()})
	}
	total := len(positions)
	if progress != nil {
		progress(0, total)
	}
	// kept[i] is what the built-in search's fill kept before position i,
	// and judged[i] what the evaluator judged for position i (nil when it
	// was counted).
	kept := make([]map[int]engine.Color, len(positions)+1)
	judged := make([]*engine.Game, len(positions))
	for i, pos := range positions {
		p, j, filled, err := judge(ctx, ev, pos, kept[i])
		kept[i+1], judged[i] = filled, j
		if err != nil {
			return nil, fmt.Errorf("review: position after move %d: %w", i, err)
		}
		r.Positions = append(r.Positions, p)
		if progress != nil {
			progress(i+1, total)
		}
	}
	if err := r.uncountShortRuns(ctx, ev, positions, judged, kept); err != nil {
		return nil, err
	}
	res, hasResult := g.Result()
	if last := positions[len(positions)-1]; hasResult && res.Reason == engine.ByScore && last.PlayEnded() {
		// The game was counted with the dead stones both players agreed
		// on: its last position is worth exactly the result, whatever the
		// search's playouts make of those stones.
		p := &r.Positions[len(r.Positions)-1]
		p.Winrate, p.Score, p.Counted = 0.5, 0, true
		switch res.Winner {
		case engine.Black:
			p.Winrate, p.Score = 1, res.Margin
		case engine.White:
			p.Winrate, p.Score = 0, -res.Margin
		}
	}
	m, biased := ev.(MCTS)
	var sure func(losses []float64) ([]float64, []*better, error)
	if biased {
		r.unbias()
		sure = func(losses []float64) ([]float64, []*better, error) {
			return r.rejudge(ctx, searched{positions, judged, kept}, m, losses)
		}
	}
	if err := r.finish(res, hasResult, sure); err != nil {
		return nil, err
	}
	return r, nil
}

// minSettledRun is the fewest positions in a row that must be settled for
// them to be counted when an estimated position follows them.
const minSettledRun = 3

// uncountShortRuns judges again with ev, as estimated positions, the
// counted positions of a run of fewer than minSettledRun between two
// estimated ones (judged[i] and kept[i] as in Run). Settling is judged by
// the dead-stone estimate, position by position, and a position can look
// settled while play goes on: in a 19×19 game of GNU Go against itself
// the positions after moves 209 and 216 were counted (the graph at 100%)
// between estimated ones (65% and 59%), and the jumps to the count and
// back were the game's two biggest swings, though GNU Go went on to play
// 18 moves that changed the count. A settled position that play leaves at
// once is no count to trust; a run of minSettledRun or more, and the one
// that ends the game, stay counted.
func (r *Review) uncountShortRuns(ctx context.Context, ev Evaluator, positions, judged []*engine.Game, kept []map[int]engine.Color) error {
	n := len(positions)
	for i := 0; i < n; {
		if !r.Positions[i].Counted {
			i++
			continue
		}
		end := i
		for end < n && r.Positions[end].Counted {
			end++
		}
		if i > 0 && end < n && end-i < minSettledRun {
			for j := i; j < end; j++ {
				t := analyse(ctx, positions[j])
				p, jg, _, err := judgeOpen(ctx, ev, positions[j], t, kept[j])
				if err != nil {
					return fmt.Errorf("review: position after move %d: %w", j, err)
				}
				r.Positions[j], judged[j] = p, jg
			}
		}
		i = end
	}
	return nil
}

// rejudgeSeeds is how many more times, each with another seed, the
// built-in search judges the positions around a move it finds a mistake.
// One: a review then costs about a quarter more CPU time (6.3 s instead
// of 5.1 for a 60-move 9×9 game, 51 s instead of 41 for a 250-move 19×19
// one; two more seeds doubled it on 9×9).
const rejudgeSeeds = 1

// rejudge measures again the loss of each move that the built-in search
// finds a mistake (losses[i], from ConfirmedLosses, at least MinPoints;
// its own choice too): the positions its loss rests on are judged
// rejudgeSeeds more times with other seeds (s.judged[i] is what the search
// judged for position i, its sealed areas filled; nil for a counted
// position). A judgement of this search can be several points off in a
// position with big areas still open, and another seed says otherwise as
// often as not: that is the estimate's noise. The move's loss becomes the
// mean of its losses by each seed, and it is no mistake (0) unless that
// mean exceeds MinPoints by its standard error; with one more seed, unless
// both seeds see it lose MinPoints. A move that passes is then compared
// with the better moves (checkBetter), and is a mistake only when one of
// them leads by MinPoints more; its loss is the smaller of the two
// measures, and rejudge returns the better move with it. The moves are
// measured again biggest loss first, until MistakesPerPlayer of a
// player's stand; the player's smaller ones then count as none.
func (r *Review) rejudge(ctx context.Context, s searched, m MCTS, losses []float64) ([]float64, []*better, error) {
	judged := s.judged
	out := slices.Clone(losses)
	betters := make([]*better, len(losses))
	series := make([][]float64, rejudgeSeeds+1)
	series[0] = make([]float64, len(r.Positions))
	for i, p := range r.Positions {
		series[0][i] = p.Score
	}
	for k := 1; k <= rejudgeSeeds; k++ {
		series[k] = make([]float64, len(r.Positions))
		for i := range series[k] {
			series[k][i] = math.NaN()
		}
	}
	movers := make([]engine.Color, len(r.Moves))
	for i, mv := range r.Moves {
		movers[i] = mv.Color
	}
	var candidates []int
	for i, l := range losses {
		if l >= MinPoints && !(r.Positions[i].Counted && r.Positions[i+1].Counted) {
			candidates = append(candidates, i)
		}
	}
	slices.SortStableFunc(candidates, func(a, b int) int { return cmp.Compare(losses[b], losses[a]) })
	named := map[engine.Color]int{}
	for _, i := range candidates {
		if named[movers[i]] == MistakesPerPlayer {
			out[i] = 0
			continue
		}
		var each []float64
		for k, sk := range series {
			for j := max(0, i-1); j <= min(len(judged)-1, i+2); j++ {
				if !math.IsNaN(sk[j]) {
					continue
				}
				if r.Positions[j].Counted || judged[j] == nil {
					sk[j] = r.Positions[j].Score
					continue
				}
				other := MCTS{Playouts: m.Playouts, Seed: m.Seed + int64(k)*rejudgeSeedStep}
				e, err := other.Evaluate(ctx, judged[j])
				if err != nil {
					return nil, nil, fmt.Errorf("review: position after move %d: %w", j, err)
				}
				sk[j] = e.Score
			}
			l := confirmedLoss(sk, movers, i)
			if math.IsInf(l, 1) {
				// Too few positions around the move (a game of one or
				// two moves) to judge it twice: its own loss, as
				// ConfirmedLosses falls back to.
				l = ownLead(sk[i], movers[i]) - ownLead(sk[i+1], movers[i])
			}
			each = append(each, l)
		}
		mean, se := meanAndError(each)
		out[i] = mean
		if mean-se < MinPoints {
			out[i] = min(mean, 0)
			continue
		}
		after := make([]float64, len(series))
		for k, sk := range series {
			after[k] = sk[i+1]
		}
		b, err := r.checkBetter(ctx, s, m, i, after)
		if err != nil {
			return nil, nil, err
		}
		if b == nil {
			out[i] = 0
			continue
		}
		out[i] = min(mean, b.gain)
		betters[i] = b
		named[movers[i]]++
	}
	return out, betters, nil
}

// searched is what Run keeps of the positions the built-in search judged:
// each position of the game, what the search judged for it (its sealed
// areas filled; nil when it was counted), and kept[i], the fill kept
// before position i (see judge).
type searched struct {
	positions []*engine.Game
	judged    []*engine.Game
	kept      []map[int]engine.Color
}

// better is the move a mistake is compared with, checked by checkBetter:
// the move, its line (at most 6 moves, starting with it), and gain, the
// points it is worth more than the move played.
type better struct {
	move string
	pv   []string
	gain float64
}

// checkBetter looks for a move clearly better than move i+1, which the
// positions around it show losing: after[k] is Black's lead after the move
// by the judgement with the k-th seed of rejudge. A loss measured over the
// positions around a move says that something went wrong there, not that a
// better move existed: in the games of testdata/reviewer, reviews named
// GNU Go's best moves as mistakes of 5 to 10 points, their "better" move
// an invasion that lost (after it the opponent's reply was worth 27 to 57
// points). So each alternative is played and the position after it judged
// with the same budget and seeds as the position after the move, and the
// move is a mistake only when the best alternative leads by MinPoints more
// than it (the mean gain exceeding MinPoints by its standard error). The
// alternatives are the search's choice before the move and the opponent's
// reply after it (the point the opponent wanted is often the one to take),
// other than the move itself: the search's own choice can be the blunder
// (in g9g, a move that left two groups in atari at one point, which the
// opponent took for 25 points). A move inside a calm region the opponent
// has sealed is never offered. Nor is a move compared with one after which
// the position is counted: the count is exact, and the estimate after the
// alternative is what misjudged the positions before it (in g9d, a stone
// in atari next to an open area let the playouts give White 11 points
// until White's answer to the atari closed the game). A pass that ends the
// game or gives it away is compared with the estimate after the
// alternative all the same: the count after it is the game's result, and
// only the alternative lets play go on. checkBetter returns nil when no
// alternative is better by that much.
func (r *Review) checkBetter(ctx context.Context, s searched, m MCTS, i int, after []float64) (*better, error) {
	pos := s.positions[i]
	mover := pos.ToPlay()
	var alts []engine.Move
	for _, name := range []string{r.Positions[i].Best, r.Positions[i+1].Best} {
		if name == "" || name == r.Moves[i].Move {
			continue
		}
		mv, err := engine.ParseMove(mover, name, pos.Size())
		if err != nil || pos.Check(mv) != nil || slices.ContainsFunc(alts, func(a engine.Move) bool { return sameMove(a, mv) }) {
			continue
		}
		alts = append(alts, mv)
	}
	if len(alts) == 0 {
		return nil, nil
	}
	t := analyse(ctx, pos)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := pos.Board()
	var best *better
	for _, mv := range alts {
		if mv.Kind == engine.Place && t.insideSealed(b.Vertex(mv.Point), mover.Opponent()) {
			continue
		}
		next := pos.Clone()
		if err := next.Play(mv); err != nil {
			continue
		}
		p, j, _, err := judge(ctx, m, next, s.kept[i+1])
		if err != nil {
			return nil, fmt.Errorf("review: %s instead of move %d: %w", mv, i+1, err)
		}
		if r.Positions[i+1].Counted && !p.Counted && r.Moves[i].Move != "pass" {
			continue
		}
		var gains []float64
		for k, played := range after {
			lead := p.Score
			if k > 0 && j != nil {
				other := MCTS{Playouts: m.Playouts, Seed: m.Seed + int64(k)*rejudgeSeedStep}
				e, err := other.Evaluate(ctx, j)
				if err != nil {
					return nil, fmt.Errorf("review: %s instead of move %d: %w", mv, i+1, err)
				}
				lead = e.Score
			}
			gains = append(gains, ownLead(lead, mover)-ownLead(played, mover))
		}
		mean, se := meanAndError(gains)
		if mean-se < MinPoints || best != nil && mean <= best.gain {
			continue
		}
		pv := []string{mv.String()}
		if len(p.PV) > 0 && p.PV[0] != "pass" {
			pv = append(pv, p.PV...)
		}
		best = &better{move: mv.String(), pv: pv[:min(len(pv), 6)], gain: mean}
	}
	return best, nil
}

// rejudgeSeedStep separates the seeds of rejudge's judgements from those
// of the positions' first ones (Seed plus the number of moves).
const rejudgeSeedStep = 1 << 20

// meanAndError returns the mean of xs and its standard error.
func meanAndError(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// unbias filters the side-to-move bias out of the built-in search's win
// rates. Its playouts favour the player to move: from the same position
// it gives Black about 14% more with Black to move than with White to
// move on 19×19 (13 points; measured on the professional game in
// testdata; 5.5% and 6.5 points on the hard games of testdata/hard19,
// see docs/reviews.md), more than the move is worth, so judgements made
// with Black and White to move in turn zigzag. The graph shows each estimated
// position as a quarter of the one before, half of its own and a quarter
// of the one after (a filter that passes a steady value and removes what
// alternates from one move to the next); counted positions keep their
// exact value. The first and the last position, which have one
// neighbour, count it twice: half of their own and half of their
// neighbour's (format 3 left them as judged, so the graph fell or rose by
// half the bias at the first move, often one of its three biggest swings,
// and a game that was resigned ended on a judgement with the bias). A
// counted neighbour is no neighbour here (format 9): it has no bias to
// filter, and a quarter of its exact 0% or 100% pulled the estimate
// beside it across one half, so that the pass that gave a game away
// (60% → 0%) showed as 46% → 0%, no swing, and the graph put the turn of
// the game on the opponent's pass before it.
func (r *Review) unbias() {
	raw := r.Winrates()
	for i := range r.Positions {
		r.Positions[i].Judged = raw[i]
	}
	estimated := func(i int) bool { return i >= 0 && i < len(raw) && !r.Positions[i].Counted }
	for i := range raw {
		before, after := estimated(i-1), estimated(i+1)
		switch {
		case !estimated(i):
		case before && after:
			r.Positions[i].Winrate = (raw[i-1] + 2*raw[i] + raw[i+1]) / 4
		case before:
			r.Positions[i].Winrate = (raw[i-1] + raw[i]) / 2
		case after:
			r.Positions[i].Winrate = (raw[i] + raw[i+1]) / 2
		}
	}
}

// judge judges one position. A position whose every region is settled
// is counted (see territory); any other goes to ev, the built-in search
// with the big sealed regions filled (see territory.sealedPosition: kept
// are the points filled in the position before, and judge returns those
// it fills), and the variation it gives is cut at its first move that the
// real position does not allow. judge also returns the position ev judged
// (the filled one for the built-in search), nil when it counted.
func judge(ctx context.Context, ev Evaluator, pos *engine.Game, kept map[int]engine.Color) (Position, *engine.Game, map[int]engine.Color, error) {
	t := analyse(ctx, pos)
	if err := ctx.Err(); err != nil {
		return Position{}, nil, nil, err
	}
	if t.settled {
		p := t.settledPosition(pos)
		if pos.Over() {
			p.Best, p.PV = "", nil
		}
		return p, nil, nil, nil
	}
	return judgeOpen(ctx, ev, pos, t, kept)
}

// judgeOpen judges pos with ev, whatever t (pos analysed) says of its
// regions: the built-in search's sealed areas are filled (see judge).
func judgeOpen(ctx context.Context, ev Evaluator, pos *engine.Game, t *territory, kept map[int]engine.Color) (Position, *engine.Game, map[int]engine.Color, error) {
	var e Evaluation
	var err error
	var filled map[int]engine.Color
	judged := pos
	if m, ok := ev.(MCTS); ok {
		judged, filled = t.sealedPosition(pos, kept)
		e, err = m.Evaluate(ctx, judged)
	} else {
		e, err = ev.Evaluate(ctx, pos)
	}
	if err != nil {
		return Position{}, nil, nil, err
	}
	p := Position{Winrate: clamp01(e.Winrate), Score: e.Score}
	if pos.Over() {
		return p, judged, filled, nil
	}
	line := pos.Clone()
	for i, m := range e.PV {
		if line.Play(m) != nil {
			break
		}
		if i == 0 && !sameMove(m, e.Best) {
			break
		}
		p.PV = append(p.PV, m.String())
	}
	p.Best = e.Best.String()
	if len(p.PV) == 0 {
		if pos.Check(e.Best) != nil {
			e.Best = engine.PassMove(pos.ToPlay())
			p.Best = e.Best.String()
		}
		p.PV = []string{p.Best}
	}
	return p, judged, filled, nil
}

// sameMove reports whether a and b are the same move.
func sameMove(a, b engine.Move) bool {
	return a.Color == b.Color && a.Kind == b.Kind && (a.Kind != engine.Place || a.Point == b.Point)
}

// closing returns the number of moves before the two passes that ended
// the game, or the number of moves when it did not end by two passes.
// Those passes only close the game: they are neither mistakes nor swings.
// But passes that give away a game still open (the position before them
// not settled, and judged won by the side the count then gives it
// against) are moves like any other, judged as the others are.
func (r *Review) closing() int {
	n := len(r.Moves)
	if n < 2 || r.Moves[n-1].Move != "pass" || r.Moves[n-2].Move != "pass" {
		return n
	}
	if len(r.Positions) > n {
		before, end := r.Positions[n-2], r.Positions[n]
		if !before.Counted && (before.Winrate-0.5)*(end.Winrate-0.5) < 0 {
			return n
		}
	}
	return n - 2
}

// MinSwing is the smallest change of Black's winning chance (0 to 1) that
// a review names as a swing: a game whose moves all changed it by less
// has no big swings, and its small changes are the evaluator's noise.
const MinSwing = 0.10

// Swings returns the numbers of the n moves that changed Black's winning
// chance the most (see Swings), by MinSwing or more, leaving out the two
// passes that only closed the game (see closing) and the moves that only
// turned the search's judgement into a count (see countOnly).
func (r *Review) Swings(n int) []int {
	wr := r.Winrates()[:min(len(r.Positions), r.closing()+1)]
	var out []int
	for _, m := range Swings(wr, len(wr)) {
		if len(out) == n {
			break
		}
		if math.Abs(wr[m]-wr[m-1]) < MinSwing-epsilon || r.countOnly(m) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// countOnly reports whether move m led from an estimated position to a
// counted one whose winner the estimate already favoured (or saw even): the
// graph then jumps from the search's chance to the count's exact 0% or
// 100% (81% → 100% at the last move of a game) without any turn of the
// game, and that jump is no swing.
func (r *Review) countOnly(m int) bool {
	before, after := r.Positions[m-1], r.Positions[m]
	return !before.Counted && after.Counted && (before.Winrate-0.5)*(after.Winrate-0.5) >= 0
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }

// finish selects the mistakes and writes the summary from the positions.
// With sure set (the built-in search judged them), each move's loss is
// measured between positions with the same player to move (see
// ConfirmedLosses) and sure measures again those that would be mistakes
// (see rejudge); its error is finish's.
func (r *Review) finish(res engine.Result, hasResult bool, sure func(losses []float64) ([]float64, []*better, error)) error {
	if n := len(r.Moves); n >= 2 && r.Moves[n-1].Move == "pass" && r.Moves[n-2].Move == "pass" && r.closing() == n && len(r.Positions) > n {
		// The game was passed away (see closing). When the first to pass
		// is the side the count goes against, the opponent could end it
		// by passing too, and did: the position the first pass left is
		// worth what the count then gave. (When the second pass gave it
		// away, both passes are judged as they were estimated.)
		end := r.Positions[n]
		if own(end.Winrate, r.Moves[n-2].Color) < 0.5 {
			r.Positions[n-1].Winrate, r.Positions[n-1].Score, r.Positions[n-1].Counted = end.Winrate, end.Score, true
		}
	}
	wr := r.Winrates()
	movers := make([]engine.Color, len(r.Moves))
	for i, m := range r.Moves {
		movers[i] = m.Color
	}
	// Mistakes are ranked by the points they lose: the win rate of a
	// playout search saturates (a blunder in a position it already
	// judges lost costs little winning chance) and sways with the side
	// to move, while the expected score keeps counting the stones lost.
	// A move the evaluator itself preferred is no mistake by a GTP
	// program's judgements, whatever the noise of the next one says; the
	// built-in search's choices are checked as any move is (see
	// checkBetter), as its own choice can be the blunder.
	scores := make([]float64, len(r.Positions))
	for i, p := range r.Positions {
		scores[i] = p.Score
	}
	closing := r.closing()
	losses := MoveLosses(scores, movers)
	exact := make([]bool, len(losses))
	for i := range losses {
		// Between counted positions a move loses what the count after it
		// falls short of the count after the best move: a dame, when one
		// is left, is worth a point by area, nothing by territory.
		before := r.Positions[i]
		exact[i] = before.Counted && r.Positions[i+1].Counted
		if exact[i] && !r.territory && before.Best != "" && before.Best != "pass" {
			losses[i]++
		}
	}
	var betters []*better
	if sure != nil {
		losses = ConfirmedLosses(scores, movers, losses, exact)
		var err error
		if losses, betters, err = sure(losses[:min(len(losses), closing)]); err != nil {
			return err
		}
	}
	per := map[engine.Color]int{}
	for _, c := range selectLosses(losses, movers, len(movers), MinPoints) {
		i := c.Number - 1
		m := r.Moves[i]
		before := r.Positions[i]
		// The better move of a loss the built-in search measured is the
		// one checkBetter found better: the search's own choice may be
		// the move played.
		var b *better
		if i < len(betters) {
			b = betters[i]
		}
		checked := sure != nil && !exact[i]
		if checked && b == nil || !checked && m.Move == before.Best || c.Number > closing || per[c.Color] == MistakesPerPlayer {
			continue
		}
		per[c.Color]++
		c.Before, c.After = own(wr[i], c.Color), own(wr[c.Number], c.Color)
		c.Move, c.Best = m.Move, before.Best
		c.PV = before.PV[:min(len(before.PV), 6)]
		if b != nil {
			c.Best, c.PV = b.move, b.pv
		}
		r.Mistakes = append(r.Mistakes, c)
	}
	s := Summary{AvgLoss: AverageLoss(wr, movers)}
	if sw := r.Swings(1); len(sw) > 0 {
		s.Swing = sw[0]
	}
	if len(r.Positions) > 0 {
		s.FinalScore = r.Positions[len(r.Positions)-1].Score
	}
	s.NoResult = !hasResult
	switch {
	case hasResult:
		s.Winner = res.Winner
		s.Resigned = res.Reason != engine.ByScore
	case wr[len(wr)-1] > 0.5:
		s.Winner = engine.Black
	case wr[len(wr)-1] < 0.5:
		s.Winner = engine.White
	}
	// Where the game turned is the evaluator's judgement of play: the
	// closing passes only turn it into the counted result.
	s.Turn = TurningPoint(wr[:closing+1], s.Winner)
	r.Summary = s
	return nil
}

// Winrates returns Black's winning chance in each position.
func (r *Review) Winrates() []float64 {
	wr := make([]float64, len(r.Positions))
	for i, p := range r.Positions {
		wr[i] = p.Winrate
	}
	return wr
}

// SelectMistakes picks the biggest mistakes from a game's series of
// judgements from Black's side: values[i] is Black's winning chance (or
// expected lead in points) after i moves and movers[i] the colour of move
// i+1 (so len(values) == len(movers)+1). A move's loss is the drop of its
// player's own chance (or lead); moves that lose less than minLoss are not
// mistakes. It returns at most n mistakes per player, Black's first, each
// player's biggest first (the earlier move first on a tie), with Number,
// Color and Loss filled in.
func SelectMistakes(values []float64, movers []engine.Color, n int, minLoss float64) []Mistake {
	return selectLosses(MoveLosses(values, movers), movers, n, minLoss)
}

// MoveLosses returns what each move lost its player by a series of
// judgements from Black's side (as SelectMistakes reads them): the drop of
// the player's own chance or lead from the position before the move to
// the one after, negative for a gain.
func MoveLosses(values []float64, movers []engine.Color) []float64 {
	var out []float64
	for i, c := range movers {
		if i+1 >= len(values) {
			break
		}
		loss := values[i] - values[i+1]
		if c == engine.White {
			loss = -loss
		}
		out = append(out, loss)
	}
	return out
}

// ConfirmedLosses returns what each move lost its player by a playout
// search's series of judgements (values, from Black's side, as MoveLosses
// reads them), keeping losses[i] where exact[i] says that move i+1 went
// from one counted position to another. Two errors of such a series make
// one-move losses unreliable. Its playouts favour the player to move, so
// every move seems to lose what the player to move gains, and that bias
// changes along the game (with the sealed areas, for one); and a single
// judgement can be several points off (a wall that seals a region is worth
// the region, which the playouts do not see until it is closed), which
// makes the move before it look like a mistake and the reply look like
// one too. So a move's loss is measured only between positions with the
// same player to move, which cancels the bias, and must be seen by two
// judgements: from the position before the opponent's previous move to
// the position after the move, and from the position before the move to
// the position after the opponent's reply. The loss is the smaller of the
// two: what the move lost beyond what the opponent's moves on either side
// of it lost. A single misjudged position then names no mistake, and
// neither does a loss the opponent hands straight back, which the search
// would name on both sides; a loss the opponent keeps (a group taken) is
// seen by both judgements.
func ConfirmedLosses(values []float64, movers []engine.Color, losses []float64, exact []bool) []float64 {
	out := make([]float64, len(losses))
	for i := range out {
		if i < len(exact) && exact[i] {
			out[i] = losses[i]
			continue
		}
		out[i] = confirmedLoss(values, movers, i)
		if math.IsInf(out[i], 1) {
			out[i] = losses[i]
		}
	}
	return out
}

// confirmedLoss returns the loss of move i+1 by values as ConfirmedLosses
// measures it, +Inf when the series is too short for both judgements.
func confirmedLoss(values []float64, movers []engine.Color, i int) float64 {
	c := movers[i]
	loss := math.Inf(1)
	if i >= 1 && i+1 < len(values) {
		loss = ownLead(values[i-1], c) - ownLead(values[i+1], c)
	}
	if i+2 < len(values) {
		loss = min(loss, ownLead(values[i], c)-ownLead(values[i+2], c))
	}
	return loss
}

// ownLead turns Black's lead into c's.
func ownLead(black float64, c engine.Color) float64 {
	if c == engine.White {
		return -black
	}
	return black
}

// selectLosses picks the biggest mistakes from each move's loss (see
// SelectMistakes).
func selectLosses(losses []float64, movers []engine.Color, n int, minLoss float64) []Mistake {
	var out []Mistake
	for _, c := range []engine.Color{engine.Black, engine.White} {
		var ms []Mistake
		for i, mc := range movers {
			if mc != c || i >= len(losses) {
				continue
			}
			loss := losses[i]
			if loss >= minLoss {
				ms = append(ms, Mistake{Number: i + 1, Color: c, Loss: loss})
			}
		}
		slices.SortStableFunc(ms, func(a, b Mistake) int {
			switch {
			case a.Loss > b.Loss+epsilon:
				return -1
			case a.Loss < b.Loss-epsilon:
				return 1
			}
			return a.Number - b.Number
		})
		out = append(out, ms[:min(n, len(ms))]...)
	}
	return out
}

// epsilon is the difference below which two losses or swings are equal.
const epsilon = 1e-9

// own turns Black's winning chance into c's.
func own(black float64, c engine.Color) float64 {
	if c == engine.White {
		return 1 - black
	}
	return black
}

// AverageLoss returns each player's average loss of winning chance per
// move (gains count as no loss), Black's then White's.
func AverageLoss(winrates []float64, movers []engine.Color) [2]float64 {
	var sum [2]float64
	var n [2]int
	for i, c := range movers {
		if i+1 >= len(winrates) {
			break
		}
		k := 0
		if c == engine.White {
			k = 1
		}
		sum[k] += max(0, own(winrates[i], c)-own(winrates[i+1], c))
		n[k]++
	}
	var avg [2]float64
	for k := range avg {
		if n[k] > 0 {
			avg[k] = sum[k] / float64(n[k])
		}
	}
	return avg
}

// Swings returns the numbers of the n moves that changed Black's winning
// chance the most, biggest first (the earlier move first on a tie). A
// move next to one that changed it the same way by more (or as much,
// earlier) is part of that one's swing and is not returned: the graph of
// the built-in search spreads a turn of the game over the move before
// and the move after (see unbias), and a turn is one swing, not three.
// Fewer than n moves are returned when the graph has fewer swings.
func Swings(winrates []float64, n int) []int {
	change := func(m int) float64 { return winrates[m] - winrates[m-1] }
	delta := func(m int) float64 { return math.Abs(change(m)) }
	sameWay := func(a, b int) bool { return change(a)*change(b) > 0 }
	moves := make([]int, 0, len(winrates))
	for i := 1; i < len(winrates); i++ {
		if i > 1 && sameWay(i-1, i) && delta(i-1) >= delta(i)-epsilon ||
			i+1 < len(winrates) && sameWay(i, i+1) && delta(i+1) > delta(i)+epsilon {
			continue
		}
		moves = append(moves, i)
	}
	slices.SortStableFunc(moves, func(a, b int) int {
		switch da, db := delta(a), delta(b); {
		case da > db+epsilon:
			return -1
		case da < db-epsilon:
			return 1
		}
		return a - b
	})
	return moves[:min(n, len(moves))]
}

// TurningPoint returns the move after which winner's winning chance stayed
// above one half to the end, 0 when it was never at or below one half
// after the start (or there is no winner), and -1 when the winner was not
// ahead at the end (a resignation in a good position, a lost count).
func TurningPoint(winrates []float64, winner engine.Color) int {
	if winner == engine.Empty || len(winrates) == 0 {
		return 0
	}
	if own(winrates[len(winrates)-1], winner) <= 0.5 {
		return -1
	}
	for i := len(winrates) - 1; i >= 1; i-- {
		if own(winrates[i-1], winner) <= 0.5 {
			if own(winrates[i], winner) > 0.5 {
				return i
			}
			return 0
		}
	}
	return 0
}

// NearEven is how far from one half the winner's chance at the end may
// be for a paragraph to call the game about even rather than the other
// side ahead: a playout search's judgement of a close position sways by
// more than that from one seed to the next.
const NearEven = 0.05

// Paragraph writes the summary as one paragraph of plain text: where the
// game turned (or, for a game that ended without a result, who the engine
// saw ahead at the end: nobody won it), the estimated score of a game that
// was resigned, and each player's average loss per move. The move where
// the winner took the lead for good is named only when it is one of the
// review's mistakes: the
// graph crosses one half at some move whenever the lead changes hands,
// and in a game won in small steps the crossing is the search's noise
// about an even position (the wall game of issue 34 "turned" at a move
// that lost no points, 47% to 50.5%), not a move that lost the game.
func (r *Review) Paragraph() string {
	s := r.Summary
	var parts []string
	n := len(r.Moves)
	end := r.Positions[min(r.closing(), len(r.Positions)-1)].Winrate // Black's
	moves := fmt.Sprintf("%d moves", n)
	if n == 1 {
		moves = "1 move"
	}
	switch {
	case s.NoResult && math.Abs(end-0.5) < NearEven:
		parts = append(parts, fmt.Sprintf("The game ended without a result after %s, about even as the engine saw it (Black's winning chance %.0f%%).", moves, 100*end))
	case s.NoResult:
		leader := engine.Black
		if end < 0.5 {
			leader = engine.White
		}
		parts = append(parts, fmt.Sprintf("The game ended without a result after %s, with %s ahead as the engine saw it (%s's winning chance %.0f%%).",
			moves, name(leader), name(leader), 100*own(end, leader)))
	case s.Winner == engine.Empty:
		if n == 1 {
			parts = append(parts, "A close game of 1 move.")
		} else {
			parts = append(parts, fmt.Sprintf("A close game of %d moves.", n))
		}
	case s.Turn < 0 && own(end, s.Winner) >= 0.5-NearEven:
		// A chance of 49% is a coin flip, not the other side ahead.
		parts = append(parts, fmt.Sprintf("%s won a game the engine saw about even at the end (%s's winning chance %.0f%%).",
			name(s.Winner), name(s.Winner), 100*own(end, s.Winner)))
	case s.Turn < 0:
		parts = append(parts, fmt.Sprintf("%s won, although the engine saw %s ahead at the end (%s's winning chance %.0f%%).",
			name(s.Winner), name(s.Winner.Opponent()), name(s.Winner.Opponent()), 100*own(end, s.Winner.Opponent())))
	case s.Turn > 0 && r.isMistake(s.Turn):
		m := r.Moves[s.Turn-1]
		parts = append(parts, fmt.Sprintf("The game turned at move %d (%s %s): %s took the lead there and kept it to the end.",
			s.Turn, m.Color.Letter(), m.Move, name(s.Winner)))
	case s.Turn > 0:
		parts = append(parts, fmt.Sprintf("No single move turned the game: %s pulled ahead in small steps and kept the lead to the end.", name(s.Winner)))
	default:
		parts = append(parts, fmt.Sprintf("%s led from the start and never gave the lead away.", name(s.Winner)))
	}
	if s.Swing > 0 && s.Swing != s.Turn {
		m := r.Moves[s.Swing-1]
		parts = append(parts, fmt.Sprintf("The biggest swing was move %d (%s %s).", s.Swing, m.Color.Letter(), m.Move))
	}
	if s.Resigned {
		// A count where the last position was settled; else the search's
		// estimate, which is no count.
		said := "estimated the score at about"
		if r.Positions[len(r.Positions)-1].Counted {
			said = "counted about"
		}
		parts = append(parts, fmt.Sprintf("When the game ended the engine %s %s.", said, ScoreText(s.FinalScore)))
	}
	parts = append(parts, fmt.Sprintf("Average loss of winning chance per move: Black %.1f%%, White %.1f%%.",
		100*s.AvgLoss[0], 100*s.AvgLoss[1]))
	return strings.Join(parts, " ")
}

// isMistake reports whether move n is one of the review's mistakes.
func (r *Review) isMistake(n int) bool {
	return slices.ContainsFunc(r.Mistakes, func(m Mistake) bool { return m.Number == n })
}

// name returns "Black" or "White".
func name(c engine.Color) string {
	if c == engine.White {
		return "White"
	}
	return "Black"
}

// ScoreText writes Black's lead as a result, to the nearest half point:
// "B+4.5", "W+12", "even".
func ScoreText(lead float64) string {
	half := math.Round(2*lead) / 2
	switch {
	case half > 0:
		return "B+" + engine.FormatKomi(half)
	case half < 0:
		return "W+" + engine.FormatKomi(-half)
	}
	return "even"
}
