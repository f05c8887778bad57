package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/bots/arena"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/commands/goroom"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// registryPlayers offers the bots registry's levels to the commands.
type registryPlayers struct{ reg *bots.Registry }

var (
	_ goroom.Players  = registryPlayers{}
	_ goroom.Reviewer = registryPlayers{}
	_ goroom.Ranks    = registryPlayers{}
)

// RankOn is level's rank for a size×size board (bots.Level.RankOn): the
// built-in levels were measured on 9×9 only.
func (p registryPlayers) RankOn(level string, size int) (kyu, measured int) {
	for _, l := range p.reg.Levels() {
		if l.Name == level {
			r := l.RankOn(size)
			return r.Kyu, r.Size
		}
	}
	return 0, 0
}

func (p registryPlayers) Levels() []commands.Level {
	var out []commands.Level
	for _, l := range p.reg.Levels() {
		out = append(out, commands.Level{Name: l.Name, Description: l.Description})
	}
	return out
}

// GenMove waits for one of the registry's search slots and plays the
// level's move. A full queue of moves waiting for a slot is
// commands.ErrBotBusy: the bot's worker gives the move back to the queue
// of owed moves and tries again shortly.
func (p registryPlayers) GenMove(ctx context.Context, level string, g *engine.Game) (engine.Move, error) {
	// A different seed for every move of a game, the same on a replay.
	m, err := p.reg.GenMove(ctx, level, g, g.Seed()^int64(g.MoveCount()+1)*0x5851f42d4c957f2d, nil)
	if errors.Is(err, bots.ErrBusy) {
		return m, fmt.Errorf("%w: %w", commands.ErrBotBusy, err)
	}
	return m, err
}

// Review reviews a game through the registry's limiter.
func (p registryPlayers) Review(ctx context.Context, g *engine.Game, onQueued func(int), progress func(int, int)) (*review.Review, error) {
	return p.reg.Review(ctx, g, onQueued, progress)
}

// Estimate estimates a position's score through the registry's limiter.
func (p registryPlayers) Estimate(ctx context.Context, g *engine.Game, onQueued func(int)) (review.ScoreEstimate, error) {
	return p.reg.Estimate(ctx, g, onQueued)
}

// newRegistry builds the bot levels from the configuration. Log receives
// the registry's warnings (a GTP program's move replaced); nil discards
// them.
func newRegistry(cfg *config.Config, log *slog.Logger) (*bots.Registry, error) {
	reg, err := bots.NewRegistry(bots.Config{GTPPrograms: cfg.GTPEngines, MaxSearches: cfg.MaxSearches, Reviewer: cfg.ReviewEngine, Logger: log})
	if err != nil {
		// exec quotes a program it does not find, which may be a secret
		// pasted into the wrong variable.
		err = hideValues(err, programWords(cfg.GTPEngines)...)
		if len(cfg.GTPEngines) > 0 && strings.HasPrefix(err.Error(), "engine ") {
			return nil, fmt.Errorf("GOBOT_GTP_ENGINES: %w", err) // one of its programs: name the variable
		}
		return nil, fmt.Errorf("bots: %w", err)
	}
	return reg, nil
}

// logWaiting logs msg with args every interval, with how long it has been
// waiting, until the stop it returns is called; stop returns once the
// logging has ended.
func logWaiting(log *slog.Logger, every time.Duration, msg string, args ...any) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(ended)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				log.Info(msg, append(args, "waited", time.Since(start).Round(time.Second))...)
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// programWords lists the words of every command of programs, as
// gtp.SplitCommand reads them, for hideValues.
func programWords(programs map[string]string) []string {
	var words []string
	for _, command := range programs {
		argv, _ := gtp.SplitCommand(command)
		words = append(words, argv...)
	}
	return words
}

// newPlayers returns the configured levels as goroom.Players and the
// function that stops the GTP programs; log receives their warnings. A
// review engine of GOBOT_REVIEW_ENGINE is started and asked whether it can
// analyse, so that one that cannot stops the start instead of failing
// every /go review; it has bots.EngineStartTimeout to load, and the log
// says gobot is waiting for it.
func newPlayers(ctx context.Context, cfg *config.Config, log *slog.Logger) (goroom.Players, func(), error) {
	reg, err := newRegistry(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	if len(cfg.GTPEngines) > 0 {
		// Each program is started once and answers the handshake, as the
		// Hub engines and the review engine do: one that exits or speaks
		// no GTP stops the start rather than every game against it.
		log.Info("starting the GTP engines and checking that they answer GTP", "engines", len(cfg.GTPEngines), "timeout", bots.EngineStartTimeout)
		stop := logWaiting(log, 20*time.Second, "still waiting for the GTP engines to start")
		cctx, cancel := context.WithTimeout(ctx, bots.EngineStartTimeout+30*time.Second)
		err := reg.CheckEngines(cctx)
		cancel()
		stop()
		if err != nil {
			reg.Close()
			err = hideValues(err, programWords(cfg.GTPEngines)...)
			return nil, nil, fmt.Errorf("GOBOT_GTP_ENGINES: %w", err)
		}
	}
	stopWaiting := func() {}
	if cfg.ReviewEngine != "" {
		log.Info("starting the review engine and checking that it can analyse; a large network may take a minute or two to load",
			"engine", cfg.ReviewEngine, "timeout", bots.EngineStartTimeout)
		stopWaiting = logWaiting(log, 20*time.Second, "still waiting for the review engine to start", "engine", cfg.ReviewEngine)
	}
	// The start, then the rest of the handshake.
	cctx, cancel := context.WithTimeout(ctx, bots.EngineStartTimeout+30*time.Second)
	err = reg.CheckReviewer(cctx)
	cancel()
	stopWaiting()
	if errors.Is(err, review.ErrNoAnalysis) {
		reg.Close()
		return nil, nil, fmt.Errorf("GOBOT_REVIEW_ENGINE: %s cannot review games: it lists neither kata-analyze nor lz-analyze; choose a program that does (KataGo, Leela Zero) or mcts, the built-in search", cfg.ReviewEngine)
	}
	if err != nil {
		reg.Close()
		return nil, nil, fmt.Errorf("GOBOT_REVIEW_ENGINE: %s did not answer: %w", cfg.ReviewEngine, err)
	}
	return registryPlayers{reg}, func() { reg.Close() }, nil
}

// offlineRegistry builds the bot levels from the configuration that needs
// no Discord token (config.Offline), for the commands that play without
// Discord. The caller closes it.
func offlineRegistry() (*bots.Registry, error) {
	cfg, err := config.LoadFor(config.Offline)
	if err != nil {
		return nil, err
	}
	return newRegistry(cfg, nil)
}

// runArena runs bots/arena's command line with the configured levels.
func runArena(ctx context.Context, args []string, stdout io.Writer) error {
	reg, err := offlineRegistry()
	if err != nil {
		return err
	}
	defer reg.Close()
	err = arena.Main(ctx, args, stdout, reg)
	if errors.Is(err, arena.ErrInvalidConfig) {
		// A bad flag or a missing -a or -b: exit 2, as for other commands.
		return &usageError{err: err}
	}
	return err
}
