package draughts

import (
	"context"
	"fmt"
	"github.com/gobot-dev/gobot/internal/stats"
	"math/rand/v2"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

// MatchOptions configure a match between two levels.
type MatchOptions struct {
	// Games is the number of games, played in pairs from the same opening
	// with colours swapped; 0 means 40.
	Games int
	// Opening is the number of random plies that start each pair's
	// games, so that the games differ; 0 means 4.
	Opening int
	// MaxPlies ends a game that goes on longer as a draw; 0 means 300.
	MaxPlies int
	// Seed seeds the openings and the players.
	Seed int64
	// Budget, when set, gives a level's budget instead of its own (to
	// play a level at a fixed count of nodes, say).
	Budget func(Level) Budget
	// Progress, when set, is told of each game as it ends.
	Progress func(GameRecord)
}

// GameRecord is one game of a match.
type GameRecord struct {
	Game         int    // from 1
	White, Black string // the levels' names
	Result       string // "2-0", "0-2" or "1-1", as PDN writes it
	Reason       game.Reason
	Plies        int
	Moves        []game.Move
	Time         [2]time.Duration // each level's thinking, A then B
}

// MatchResult is a match's score from the first level's side: wins,
// draws and losses, the score (draws count half) and its 95% Wilson
// interval, and each level's time per move.
type MatchResult struct {
	A, B                string
	Wins, Draws, Losses int
	Score               float64 // (wins + draws/2) / games
	Low, High           float64
	TimePerMove         [2]time.Duration
	Games               []GameRecord
}

// String writes the result on one line.
func (r MatchResult) String() string {
	return fmt.Sprintf("%s vs %s: +%d =%d -%d, %.1f%% (95%% %.1f–%.1f%%), %v vs %v a move",
		r.A, r.B, r.Wins, r.Draws, r.Losses, 100*r.Score, 100*r.Low, 100*r.High,
		r.TimePerMove[0].Round(time.Millisecond), r.TimePerMove[1].Round(time.Millisecond))
}

// Match plays a match between levels a and b: pairs of games from the
// same random opening, a taking White in the first of each pair. It is
// long: keep it out of default test runs (see TestLadder).
func Match(ctx context.Context, a, b Level, opts MatchOptions) (MatchResult, error) {
	if opts.Games <= 0 {
		opts.Games = 40
	}
	if opts.Opening <= 0 {
		opts.Opening = 4
	}
	if opts.MaxPlies <= 0 {
		opts.MaxPlies = 300
	}
	budget := opts.Budget
	if budget == nil {
		budget = func(l Level) Budget { return l.Budget }
	}
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), 0x6c6164646572))
	res := MatchResult{A: a.Name, B: b.Name}
	var moves [2]int
	var start draughts.State
	for i := 0; i < opts.Games; i++ {
		if i%2 == 0 {
			var err error
			if start, err = opening(rng, opts.Opening); err != nil {
				return res, err
			}
		}
		levels := [2]Level{a, b} // White, Black
		aSide := 0
		if i%2 == 1 {
			levels = [2]Level{b, a}
			aSide = 1
		}
		seed := opts.Seed*1000 + int64(i)
		players := [2]Player{levels[0].New(seed), levels[1].New(seed + 500)}
		s := start
		rec := GameRecord{Game: i + 1, White: levels[0].Name, Black: levels[1].Name}
		for s.ToMove() != game.NoSide && s.MoveCount() < opts.MaxPlies {
			side := s.ToMove()
			g, err := GameOf(s)
			if err != nil {
				return res, err
			}
			t0 := time.Now()
			m, err := players[side].GenMove(ctx, g, budget(levels[side]))
			if err != nil {
				return res, fmt.Errorf("game %d, %s: %w", i+1, levels[side].Name, err)
			}
			who := int(side)
			if aSide == 1 {
				who = 1 - who
			}
			rec.Time[who] += time.Since(t0)
			moves[who]++
			p := g.Position()
			n, _, err := s.PlayMove(side, p.Notation(m, p.Generate(nil)))
			if err != nil {
				return res, fmt.Errorf("game %d, %s plays %v: %w", i+1, levels[side].Name, m, err)
			}
			s = n
		}
		r, over := s.Result()
		if !over {
			r = game.Result{Winner: game.NoSide, Reason: "move limit", Text: "1-1"}
		}
		rec.Result, rec.Reason, rec.Plies, rec.Moves = r.Text, r.Reason, s.MoveCount(), s.Moves()
		switch r.Winner {
		case game.NoSide:
			res.Draws++
		case game.Side(aSide):
			res.Wins++
		default:
			res.Losses++
		}
		res.TimePerMove[0] += rec.Time[0]
		res.TimePerMove[1] += rec.Time[1]
		res.Games = append(res.Games, rec)
		if opts.Progress != nil {
			opts.Progress(rec)
		}
	}
	n := float64(res.Wins + res.Draws + res.Losses)
	res.Score = (float64(res.Wins) + float64(res.Draws)/2) / n
	res.Low, res.High = stats.Wilson(float64(res.Wins)+float64(res.Draws)/2, n, stats.Z95)
	for k := range moves {
		if moves[k] > 0 {
			res.TimePerMove[k] /= time.Duration(moves[k])
		}
	}
	return res, nil
}

// opening returns a game after plies random moves from the start.
func opening(rng *rand.Rand, plies int) (draughts.State, error) {
	s, err := draughts.NewState(nil, 0)
	if err != nil {
		return s, err
	}
	for i := 0; i < plies && s.ToMove() != game.NoSide; i++ {
		legal := s.Legal()
		if s, _, err = s.PlayMove(s.ToMove(), string(legal[rng.IntN(len(legal))])); err != nil {
			return s, err
		}
	}
	return s, nil
}
