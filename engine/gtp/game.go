package gtp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// syncState is what the program's board holds: the game it was given, as far
// as it was played into it.
type syncState struct {
	valid    bool
	size     int
	komi     float64
	handicap int
	setup    []engine.Stone // stones on the board before the first move
	moves    []engine.Move
}

// wanted returns the state that matches g.
func wanted(g *engine.Game) (syncState, error) {
	cfg := g.Config()
	cfg.Handicap = 0
	start, err := engine.NewGame(cfg)
	if err != nil {
		return syncState{}, err
	}
	if setup := g.Setup(); len(setup) > 0 {
		if err := start.SetupStones(setup, g.FirstPlayer(), g.Handicap()); err != nil {
			return syncState{}, err
		}
	}
	s := syncState{valid: true, size: g.Size(), komi: g.Rules().Komi, handicap: g.Handicap(), moves: g.Moves()}
	b := start.Board()
	for r := 0; r < g.Size(); r++ {
		for col := 0; col < g.Size(); col++ {
			p := engine.Point{Col: col, Row: r}
			if c := b.At(p); c != engine.Empty {
				s.setup = append(s.setup, engine.Stone{Point: p, Color: c})
			}
		}
	}
	return s, nil
}

// Sync brings the program's board to g's position: only the new moves when
// the program already holds the start of g, otherwise boardsize, clear_board,
// komi, the set-up or handicap stones and every move.
func (c *Client) Sync(ctx context.Context, g *engine.Game) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.retry(ctx, func() error { return c.sync(ctx, g) })
}

// retry runs f, and runs it once more on a fresh process when the program
// crashed or garbled its answer; c.mu is held.
func (c *Client) retry(ctx context.Context, f func() error) error {
	err := f()
	if err != nil && retryable(err) && ctx.Err() == nil && !c.closed {
		err = f()
	}
	return err
}

// sync does Sync's work; c.mu is held.
func (c *Client) sync(ctx context.Context, g *engine.Game) error {
	want, err := wanted(g)
	if err != nil {
		return err
	}
	if err := c.ensure(ctx); err != nil {
		return err
	}
	t := c.opts.timeout()
	have := c.state
	if !have.valid || have.size != want.size || have.komi != want.komi || have.handicap != want.handicap ||
		!slices.Equal(have.setup, want.setup) || len(have.moves) > len(want.moves) ||
		!slices.Equal(have.moves, want.moves[:len(have.moves)]) {
		c.state = syncState{}
		if _, err := c.command(ctx, t, "boardsize "+strconv.Itoa(want.size)); err != nil {
			return err
		}
		if _, err := c.command(ctx, t, "clear_board"); err != nil {
			return err
		}
		// Some programs (Pachi) forget time_settings on clear_board: send
		// it again before the next genmove.
		c.timeSent = 0
		if _, err := c.command(ctx, t, "komi "+engine.FormatKomi(want.komi)); err != nil {
			return err
		}
		if err := c.placeSetup(ctx, want); err != nil {
			return err
		}
		have = syncState{valid: true, size: want.size, komi: want.komi, handicap: want.handicap, setup: want.setup}
		c.state = have
	}
	for _, m := range want.moves[len(have.moves):] {
		if _, err := c.command(ctx, t, "play "+m.Color.Letter()+" "+m.String()); err != nil {
			c.state = syncState{}
			return err
		}
		c.state.moves = append(c.state.moves, m)
	}
	return nil
}

// placeSetup puts the stones that stand before the first move: handicap
// stones with set_free_handicap where the program has it, anything else with
// play; c.mu is held.
func (c *Client) placeSetup(ctx context.Context, want syncState) error {
	if len(want.setup) == 0 {
		return nil
	}
	t := c.opts.timeout()
	allBlack := true
	for _, s := range want.setup {
		allBlack = allBlack && s.Color == engine.Black
	}
	if want.handicap >= 2 && allBlack && len(want.setup) == want.handicap && c.known["set_free_handicap"] {
		pts := make([]string, len(want.setup))
		for i, s := range want.setup {
			pts[i] = s.Point.String()
		}
		_, err := c.command(ctx, t, "set_free_handicap "+strings.Join(pts, " "))
		return err
	}
	for _, s := range want.setup {
		if _, err := c.command(ctx, t, "play "+s.Color.Letter()+" "+s.Point.String()); err != nil {
			return err
		}
	}
	return nil
}

// GenMove asks the program for the move of the player to move in g, after
// bringing its board to g's position. moveTime, when positive, is sent as
// the time for the move (time_settings, where the program has it: again
// after every clear_board, which makes some programs forget it) and adds
// to the genmove timeout. A crash or a garbled answer is retried once on a
// fresh process with the game replayed; a timeout is not. The move is
// checked against g's rules; an illegal one is an error wrapping ErrIllegal,
// and the program's board is resynchronised next time.
func (c *Client) GenMove(ctx context.Context, g *engine.Game, moveTime time.Duration) (engine.Move, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g.Over() {
		return engine.Move{}, fmt.Errorf("genmove: %w", engine.ErrGameOver)
	}
	color := g.ToPlay()
	var answer string
	err := c.retry(ctx, func() error {
		if err := c.sync(ctx, g); err != nil {
			return err
		}
		if moveTime > 0 && moveTime != c.timeSent && c.known["time_settings"] {
			secs := max(1, int((moveTime+time.Second/2)/time.Second))
			if _, err := c.command(ctx, c.opts.timeout(), fmt.Sprintf("time_settings 0 %d 1", secs)); err != nil && !errors.Is(err, ErrFailed) {
				return err
			}
			c.timeSent = moveTime
		}
		var err error
		answer, err = c.command(ctx, moveTime+c.opts.moveTimeout(), "genmove "+color.Letter())
		return err
	})
	if err != nil {
		c.state = syncState{}
		return engine.Move{}, err
	}
	m, err := engine.ParseMove(color, answer, g.Size())
	if err != nil {
		c.state = syncState{}
		return engine.Move{}, fmt.Errorf("%s: genmove answered %q: %w", c.spec.Name, answer, ErrProtocol)
	}
	if m.Kind == engine.Resign {
		return m, nil
	}
	// The program has played the move on its own board.
	c.state.moves = append(c.state.moves, m)
	if err := g.Check(m); err != nil {
		c.state = syncState{}
		return engine.Move{}, fmt.Errorf("%s: genmove answered %v: %w: %w", c.spec.Name, m, ErrIllegal, err)
	}
	return m, nil
}

// FinalScore brings the program's board to g's position and asks for its
// final_score, which it computes with its own judgement of dead stones. The
// result is in SGF notation: "B+3.5", "W+12" or "0".
func (c *Client) FinalScore(ctx context.Context, g *engine.Game) (engine.Color, float64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var answer string
	err := c.retry(ctx, func() error {
		if err := c.sync(ctx, g); err != nil {
			return err
		}
		var err error
		answer, err = c.command(ctx, c.opts.moveTimeout(), "final_score")
		return err
	})
	if err != nil {
		return engine.Empty, 0, err
	}
	return ParseScore(answer)
}

// ParseScore reads a score as GTP's final_score writes it: "B+3.5",
// "W+0.5", "0" (also "Jigo" and "B+R"-style resignations, margin 0).
func ParseScore(s string) (engine.Color, float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "0", "jigo", "draw":
		return engine.Empty, 0, nil
	}
	side, margin, ok := strings.Cut(s, "+")
	if !ok {
		return engine.Empty, 0, fmt.Errorf("score %q: %w", s, ErrProtocol)
	}
	var winner engine.Color
	switch strings.ToUpper(side) {
	case "B":
		winner = engine.Black
	case "W":
		winner = engine.White
	default:
		return engine.Empty, 0, fmt.Errorf("score %q: %w", s, ErrProtocol)
	}
	switch strings.ToUpper(margin) {
	case "R", "RESIGN", "T", "TIME", "F", "FORFEIT":
		return winner, 0, nil
	}
	v, err := strconv.ParseFloat(margin, 64)
	if err != nil || v < 0 {
		return engine.Empty, 0, fmt.Errorf("score %q: %w", s, ErrProtocol)
	}
	if v == 0 {
		return engine.Empty, 0, nil
	}
	return winner, v, nil
}
