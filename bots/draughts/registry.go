package draughts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/engine/game"
)

// Engine is an external engine as the registry uses it: asked for a move
// from a position and the moves after it, with a time to think. A Hub
// engine's client (engine/draughts/hub.Client) is one. It must be safe
// for concurrent use. An Engine that is also an io.Closer is closed with
// the registry.
type Engine interface {
	GenMove(ctx context.Context, start draughts.Position, moves []draughts.Move, moveTime time.Duration) (draughts.Move, error)
}

// Config configures a Registry.
type Config struct {
	// Engines are the Hub engines by name, offered as "hub:NAME" after
	// the built-in levels, in name order. cmd/gobot makes them from
	// GOBOT_HUB_ENGINES.
	Engines map[string]Engine
	// EngineTime is how long an engine thinks about a move; 0 means a
	// second.
	EngineTime time.Duration
	// Fallback is the built-in level that moves for an engine that fails
	// (exits, answers an illegal move); "" means "strong".
	Fallback string
	// Logger receives warnings (an engine's failure, a move replaced);
	// nil discards them.
	Logger *slog.Logger
}

// Registry holds the levels users can pick: the built-in ones and the
// configured Hub engines. It is safe for concurrent use (each move gets
// a player of its own; the engines take their requests one at a time).
// Close it to stop the engines.
type Registry struct {
	levels   []Level
	engines  map[string]Engine
	fallback Level
	log      *slog.Logger
}

// NewRegistry returns the registry of the built-in levels and cfg's
// engines.
func NewRegistry(cfg Config) (*Registry, error) {
	r := &Registry{levels: Builtin(), engines: cfg.Engines, log: cfg.Logger}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	name := cfg.Fallback
	if name == "" {
		name = "strong"
	}
	fb, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("draughts bots: fallback %q: %w", name, ErrUnknownLevel)
	}
	r.fallback = fb
	moveTime := cfg.EngineTime
	if moveTime <= 0 {
		moveTime = time.Second
	}
	names := make([]string, 0, len(cfg.Engines))
	for n := range cfg.Engines {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := cfg.Engines[n]
		if e == nil {
			return nil, fmt.Errorf("draughts bots: engine %q is nil", n)
		}
		r.levels = append(r.levels, Level{
			Name:        HubPrefix + n,
			Description: fmt.Sprintf("the Hub engine %s (a program this server runs), %v a move.", n, moveTime),
			Budget:      Budget{Time: moveTime},
			New:         func(int64) Player { return &enginePlayer{name: n, e: e, time: moveTime} },
		})
	}
	return r, nil
}

// Levels returns the levels on offer, weakest built-in first, then the
// engines.
func (r *Registry) Levels() []Level { return slices.Clone(r.levels) }

// Lookup finds a level by name, ignoring case; an engine may be named
// without its "hub:" prefix when no built-in level has that name.
func (r *Registry) Lookup(name string) (Level, bool) { return lookup(r.levels, name) }

// GenMove returns the move of level for the side to move in s, in the
// canonical text that s.Play takes. Seed varies the play of the levels
// that vary (give each move of a game its own, the same on a replay).
// It returns an error wrapping ErrUnknownLevel for a level it does not
// offer, ErrGameOver when the game is over, and ctx's error when ctx is
// cancelled; when ctx's deadline passes the level answers with the best
// move it has. An engine that fails is replaced for the move by the
// fallback level, with a warning logged.
func (r *Registry) GenMove(ctx context.Context, level string, s draughts.State, seed int64) (game.Move, error) {
	l, ok := r.Lookup(level)
	if !ok {
		return "", fmt.Errorf("%q: %w", level, ErrUnknownLevel)
	}
	if _, over := s.Result(); over {
		return "", ErrGameOver
	}
	g, err := GameOf(s)
	if err != nil {
		return "", err
	}
	m, err := l.New(seed).GenMove(ctx, g, l.Budget)
	if err != nil && strings.HasPrefix(l.Name, HubPrefix) && cancelled(ctx) == nil && !errors.Is(err, ErrGameOver) {
		r.log.Warn("a Hub engine failed: the fallback level moves instead", "level", l.Name, "fallback", r.fallback.Name, "err", err)
		m, err = r.fallback.New(seed).GenMove(ctx, g, r.fallback.Budget)
	}
	if err != nil {
		return "", err
	}
	p := g.Position()
	var buf [draughts.MaxMoves]draughts.Move
	legal := p.Generate(buf[:0])
	if !slices.Contains(legal, m) {
		// Every player checks its moves; this is the last guard.
		return "", fmt.Errorf("%s: %v in %s: %w", l.Name, m, p.FEN(), ErrIllegalMove)
	}
	return game.Move(p.Notation(m, legal)), nil
}

// Close closes the engines that can be closed.
func (r *Registry) Close() error {
	var errs []error
	for _, e := range r.engines {
		if c, ok := e.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// enginePlayer plays an engine's moves.
type enginePlayer struct {
	name string
	e    Engine
	time time.Duration
}

// GenMove asks the engine, with the budget's time (the registry's
// engine time when none), and checks its answer.
func (ep *enginePlayer) GenMove(ctx context.Context, g Game, b Budget) (draughts.Move, error) {
	if err := cancelled(ctx); err != nil {
		return draughts.Move{}, err
	}
	if len(g.History) == 0 || g.Over() {
		return draughts.Move{}, ErrGameOver
	}
	t := b.Time
	if t <= 0 {
		t = ep.time
	}
	m, err := ep.e.GenMove(ctx, g.History[0], g.Moves, t)
	if err != nil {
		return draughts.Move{}, fmt.Errorf("%s%s: %w", HubPrefix, ep.name, err)
	}
	p := g.Position()
	var buf [draughts.MaxMoves]draughts.Move
	if !slices.Contains(p.Generate(buf[:0]), m) {
		return draughts.Move{}, fmt.Errorf("%s%s: %v in %s: %w", HubPrefix, ep.name, m, p.FEN(), ErrIllegalMove)
	}
	return m, nil
}
