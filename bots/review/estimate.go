package review

import (
	"context"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// ScoreEstimate is the score of one position as /go estimate shows it.
type ScoreEstimate struct {
	// ScoreEstimate holds the ownership, Black's lead and its spread. In a
	// counted position the ownership is the count's (+1, -1 or 0 a point)
	// and Stdev is 0.
	mcts.ScoreEstimate
	// Counted says that every region of the position was settled (see
	// territory), so Score is its count rather than an estimate.
	Counted bool
	// Scoring is how Score counts: the game's own scoring. The playouts
	// count by area; under territory scoring their count is turned into
	// the territory count by the stones each side placed (see
	// mcts.WhiteBonus).
	Scoring engine.Scoring
}

// Estimate estimates the score of g's position. A position whose every
// region is settled is counted, by the game's own scoring, with the dead
// stones of the dead-stone estimate: the playouts would let invaders live
// in sealed areas and take settled groups, and on a finished 9×9 board
// could call the loser the winner (B+5.5 counted, W+2.5 by their mean).
// Any other position gets n playouts from it with its big sealed areas
// filled (see territory.sealedPosition), and Black's lead is what their
// ownership adds up to (komi and White's handicap compensation taken
// off, and under territory scoring the stones Black placed more than
// White: mcts.WhiteBonus), so the headline agrees with the ownership
// shown. It does not
// modify g and returns ctx's error when ctx ends first.
func Estimate(ctx context.Context, g *engine.Game, n int, seed int64) (ScoreEstimate, error) {
	t := analyse(ctx, g)
	if err := ctx.Err(); err != nil {
		return ScoreEstimate{}, err
	}
	if t.settled {
		sc := g.Score(t.est.Dead)
		own := make([]float64, len(sc.Owner))
		for i, c := range sc.Owner {
			switch c {
			case engine.Black:
				own[i] = 1
			case engine.White:
				own[i] = -1
			}
		}
		lead := sc.Margin
		switch sc.Winner {
		case engine.White:
			lead = -sc.Margin
		case engine.Empty:
			lead = 0
		}
		return ScoreEstimate{ScoreEstimate: mcts.ScoreEstimate{Ownership: own, Score: lead}, Counted: true, Scoring: sc.Scoring}, nil
	}
	judged, _ := t.sealedPosition(g, nil)
	est, err := mcts.EstimateScore(ctx, judged, n, seed)
	if err != nil {
		return ScoreEstimate{}, err
	}
	var sum float64
	for _, o := range est.Ownership {
		sum += o
	}
	est.Score = sum - mcts.WhiteBonus(g)
	return ScoreEstimate{ScoreEstimate: est, Scoring: g.Rules().Scoring}, nil
}
