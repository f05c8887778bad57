package bots

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// EngineStartTimeout bounds the start of a GTP program, playing or
// reviewing, until its first answer, unless Config.GTP sets StartTimeout:
// it may load a large network first, and KataGo's takes a minute or more
// on a CPU. It applies to every start, CheckReviewer's at start-up as one
// after a crash; the other commands keep Config.GTP's Timeout.
const EngineStartTimeout = 2 * time.Minute

// reviewSeed seeds the built-in search's reviews and estimates: a constant,
// so that a game gets the same review every time.
const reviewSeed = 1

// newReviewer returns the evaluator that Config.Reviewer names: the
// built-in Monte Carlo search for "" or "mcts", or a client of the
// configured GTP program "gtp:NAME" (its own process, not one of the
// players').
func (r *Registry) newReviewer(cfg Config) (review.Evaluator, *gtp.Client, error) {
	name := strings.ToLower(strings.TrimSpace(cfg.Reviewer))
	if name == "" || name == "mcts" {
		return review.MCTS{Seed: reviewSeed}, nil, nil
	}
	if !strings.HasPrefix(name, GTPPrefix) {
		return nil, nil, fmt.Errorf("review engine %q: want mcts or gtp:NAME: %w", cfg.Reviewer, ErrInvalidConfig)
	}
	for _, e := range r.externals {
		if e.spec.Name == name[len(GTPPrefix):] {
			c := gtp.NewClient(e.spec, e.opts)
			return &review.GTP{Client: c, Time: cfg.ReviewTime, Seed: reviewSeed}, c, nil
		}
	}
	return nil, nil, fmt.Errorf("review engine %q is not among the GTP engines: %w", cfg.Reviewer, ErrInvalidConfig)
}

// CheckReviewer makes sure the reviewer can judge positions: a GTP
// program is started, given EngineStartTimeout to answer, and must list
// kata-analyze or lz-analyze (else the error wraps review.ErrNoAnalysis);
// the built-in search always can.
func (r *Registry) CheckReviewer(ctx context.Context) error {
	if g, ok := r.reviewer.(*review.GTP); ok {
		return g.Check(ctx)
	}
	return nil
}

// Reviewer names what reviews games: "mcts N playouts" (per position, on
// 9×9) or "gtp:NAME".
func (r *Registry) Reviewer() string { return r.reviewer.Name(9) }

// Review reviews the whole game g (see review.Run) once it has a search
// slot: it waits in the same queue as the bot moves, reporting its place
// to onQueued (which may be nil), and then holds one slot until it ends.
// progress (which may be nil) hears of every position judged. It returns
// ErrBusy when the queue is full and the context's error when ctx ends.
func (r *Registry) Review(ctx context.Context, g *engine.Game, onQueued func(position int), progress func(done, total int)) (*review.Review, error) {
	release, err := r.limiter.Acquire(ctx, onQueued)
	if err != nil {
		return nil, err
	}
	defer release()
	return review.Run(ctx, g, r.reviewer, progress)
}

// EstimatePlayouts returns the playouts of a score estimate on a board of
// the given size.
func EstimatePlayouts(size int) int {
	if size <= 9 {
		return 2000
	}
	return 1000
}

// Estimate estimates the score of g's position (see review.Estimate: the
// count of a settled position, else the built-in search's playouts with
// the sealed areas filled) once it has a search slot, waiting in the same
// queue as bot moves.
func (r *Registry) Estimate(ctx context.Context, g *engine.Game, onQueued func(position int)) (review.ScoreEstimate, error) {
	release, err := r.limiter.Acquire(ctx, onQueued)
	if err != nil {
		return review.ScoreEstimate{}, err
	}
	defer release()
	return review.Estimate(ctx, g, EstimatePlayouts(g.Size()), reviewSeed+int64(g.MoveCount()))
}
