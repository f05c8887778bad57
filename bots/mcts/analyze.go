package mcts

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// Analysis is the search's judgement of one position, for reviews and
// score estimates rather than for play.
type Analysis struct {
	// ToPlay is who was to move in the position.
	ToPlay engine.Color
	// Winrate is Black's chance of winning, 0 to 1: the best move's win
	// rate for the player to move, turned to Black's side. In a position
	// where play has ended it is 1, 0 or 0.5 by the estimated score.
	Winrate float64
	// Score is Black's expected lead in points by area counting, komi and
	// White's handicap compensation included: the mean result of the
	// playouts through Best (of all the playouts, the sum of Ownership less
	// that komi, when none went through it). The playouts through other
	// moves would dilute it: a position where the player to move can
	// capture a group is worth the capture, not the average of the moves
	// the search tried.
	Score float64
	// Ownership holds, for each point (index Row*size+Col), how surely it
	// ends as Black's (+1) or White's (-1).
	Ownership []float64
	// Best is the move the search prefers (a Pass when play has ended).
	Best engine.Move
	// PV is the principal variation, starting with Best; empty when play
	// has ended.
	PV []engine.Move
	// Playouts is the number of playouts the judgement rests on.
	Playouts int
}

// Analyze judges g's position with a search of the given number of
// playouts on one thread: with equal seeds, equal positions give equal
// analyses. It never resigns or passes for tactical reasons the way
// GenMove does at the end of a game; in a position where play has ended
// (two passes) it counts the score from the playouts' ownership instead of
// searching. It does not modify g, and returns ctx's error when ctx is done
// first.
func Analyze(ctx context.Context, g *engine.Game, playouts int, seed int64) (Analysis, error) {
	if g == nil {
		return Analysis{}, ErrNoGame
	}
	if playouts <= 0 {
		return Analysis{}, ErrNoBudget
	}
	toPlay := g.ToPlay()
	a := Analysis{ToPlay: toPlay, Best: engine.PassMove(toPlay)}
	if g.Over() {
		est, err := EstimateScore(ctx, g, playouts, seed)
		if err != nil {
			return Analysis{}, err
		}
		a.Score, a.Ownership, a.Winrate, a.Playouts = est.Score, est.Ownership, 0.5, est.Playouts
		switch {
		case est.Score > 0:
			a.Winrate = 1
		case est.Score < 0:
			a.Winrate = 0
		}
		return a, nil
	}
	e := NewSearcher(Options{Seed: seed, Threads: 1, ResignThreshold: -1, NoReuse: true, NoEarlyStop: true,
		MaxNodes: 4 * playouts, analysis: true})
	move, err := e.GenMove(ctx, g, 0, playouts)
	if err != nil {
		return Analysis{}, err
	}
	st := e.Stats()
	a.Winrate = st.Winrate
	if toPlay == engine.White {
		a.Winrate = 1 - st.Winrate
	}
	a.Best, a.PV, a.Playouts = move, st.PV, st.Playouts
	if len(a.PV) == 0 || !sameMove(a.PV[0], move) {
		a.PV = []engine.Move{move}
	}
	// The expected area count is the sum of the ownership: a point is worth
	// +1 to Black when Black's, -1 when White's.
	a.Ownership = e.Ownership()
	for _, o := range a.Ownership {
		a.Score += o
	}
	a.Score -= whiteBonus(g)
	if e.lineN > 0 {
		a.Score = e.line
	}
	return a, nil
}

// ScoreEstimate is the outcome of playouts from one position.
type ScoreEstimate struct {
	// Ownership holds, for each point (index Row*size+Col), how often it
	// ended as Black's minus how often as White's, divided by Playouts.
	Ownership []float64
	// Score is Black's mean lead by area counting, komi and White's
	// handicap compensation included.
	Score float64
	// Stdev is the standard deviation of the playouts' scores.
	Stdev    float64
	Playouts int
}

// EstimateScore plays n heavy playouts from g's position, with the player
// to move first, and returns the ownership and the distribution of the
// final score. Like EstimateOwnership it works on finished games too. It
// does not modify g and stops with ctx's error when ctx is done.
func EstimateScore(ctx context.Context, g *engine.Game, n int, seed int64) (ScoreEstimate, error) {
	if g == nil {
		return ScoreEstimate{}, ErrNoGame
	}
	if n <= 0 {
		return ScoreEstimate{}, ErrNoBudget
	}
	e := NewSearcher(Options{Seed: seed, Threads: 1, analysis: true})
	s := e.newSearch(g, time.Now())
	w := newWorker(s, seed, 0)
	var sum, sumSq float64
	for i := 0; i < n; i++ {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return ScoreEstimate{}, fmt.Errorf("mcts: score estimate cancelled: %w", err)
			}
		}
		w.board = s.board
		w.stamp++
		score := w.simulate(&w.board, s.toPlay, 0, s.last, 0) - s.komi
		sum += score
		sumSq += score * score
	}
	est := ScoreEstimate{Ownership: make([]float64, s.size*s.size), Playouts: n}
	for i, v := range s.points {
		est.Ownership[i] = float64(w.ownB[v]-w.ownW[v]) / float64(w.ownN)
	}
	est.Score = sum / float64(n)
	est.Stdev = math.Sqrt(max(sumSq/float64(n)-est.Score*est.Score, 0))
	return est, nil
}

// whiteBonus returns what the playouts' area count gives White on top of
// the board (WhiteBonus).
func whiteBonus(g *engine.Game) float64 { return WhiteBonus(g) }

// WhiteBonus returns what an area count of g's position, as it will end,
// gives White on top of the board so that it comes out as g is scored:
// komi, plus the handicap compensation under area scoring. Under
// territory scoring (Japanese rules) it is komi plus the stones Black has
// placed more than White so far (Placed): a territory count (territory
// and prisoners) is the area count (stones and territory) less the stones
// each side placed, for a player's stones are those placed less those the
// opponent took, so every stone placed where it changes no point's owner
// costs its player a point. Filling
// one's own territory after the opponent's pass gains nothing by area,
// and lost a Japanese 9×9 game won by 3.5 points: tough played on for 14
// moves while its opponent passed, and lost by 10.5.
func WhiteBonus(g *engine.Game) float64 {
	r := g.Rules()
	if r.Scoring == engine.AreaScoring {
		return r.Komi + r.Handicap.Points(g.Handicap())
	}
	return r.Komi + float64(Placed(g))
}

// Placed returns how many more stones Black than White has placed in g:
// those on the board and those captured (handicap and set-up stones
// count as Black's or White's placed).
func Placed(g *engine.Game) int {
	b := g.Board()
	n := g.Captures(engine.White) - g.Captures(engine.Black)
	for r := 0; r < b.Size(); r++ {
		for c := 0; c < b.Size(); c++ {
			switch b.At(engine.Point{Col: c, Row: r}) {
			case engine.Black:
				n++
			case engine.White:
				n--
			}
		}
	}
	return n
}
