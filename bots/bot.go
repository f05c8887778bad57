package bots

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
)

// Budget limits one move's search. The zero Budget lets each bot use its own
// default.
type Budget struct {
	// Time is the wall-clock limit for the move; 0 means no time limit
	// beyond the context's.
	Time time.Duration
	// Max, when above Time, makes Time a target: a Monte Carlo search
	// whose choice is still unclear then goes on, up to Max (a clock with
	// main time in hand spends more on unclear moves). Max set at or
	// below Time says that time not spent now is lost (a byo-yomi period
	// of one stone): a Monte Carlo search then searches up to Max and
	// stops early only when no playout left could change its choice (a
	// forced answer). Other bots take Time as their limit and ignore Max.
	Max time.Duration
	// Playouts bounds the work by count instead of time: simulations for
	// Monte Carlo search, nodes for minimax; random and greedy ignore it.
	// With a fixed seed and a Playouts budget (and no Time), a search is
	// deterministic.
	Playouts int
}

// Bot chooses moves. The colour to move is g.ToPlay(). GenMove must not
// modify g; it returns a legal move (Place, Pass or Resign) or an error: the
// context's error when it was cancelled, ErrGameOver when the game has ended.
// A context past its deadline is not cancelled: time running out, even
// before GenMove starts, makes a bot answer at once with the best move it
// has found (the built-in bots always have one), so that a clock never
// costs a move. Unless stated otherwise a Bot is not
// safe for concurrent use; Level.New makes a fresh one per caller.
type Bot interface {
	Name() string
	GenMove(ctx context.Context, g *engine.Game, b Budget) (engine.Move, error)
}

// begin makes the checks every built-in bot starts with.
func begin(ctx context.Context, g *engine.Game) error {
	if g == nil {
		return fmt.Errorf("bots: nil game: %w", ErrGameOver)
	}
	if g.Over() {
		return ErrGameOver
	}
	return cancelled(ctx)
}

// cancelled returns ctx's error when ctx was cancelled, and nil when it is
// live or only past its deadline: time running out makes a bot answer with
// the best move it has, a cancellation means the move is no longer wanted.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// deadline returns when a search with budget b started now must stop; the
// zero time means no limit.
func deadline(ctx context.Context, b Budget) time.Time {
	var d time.Time
	if b.Time > 0 {
		d = time.Now().Add(b.Time)
	}
	if cd, ok := ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	return d
}

// candidates appends to dst the vertices where c may place a stone on b
// under the board's own rules (superko is not checked) without filling one
// of its own eyes, in board order (rows from the bottom).
func candidates(dst []int, b *engine.Board, c engine.Color) []int {
	size := b.Size()
	for r := 0; r < size; r++ {
		for col := 0; col < size; col++ {
			v := b.Vertex(engine.Point{Col: col, Row: r})
			if b.ColorAt(v) == engine.Empty && !b.IsEye(v, c) && b.Legal(v, c) {
				dst = append(dst, v)
			}
		}
	}
	return dst
}

// legalAt reports whether the player to move may place a stone at vertex v
// under the game's full rules, superko included.
func legalAt(g *engine.Game, b *engine.Board, v int) bool {
	return g.Check(engine.PlaceAt(g.ToPlay(), b.Point(v))) == nil
}

// place returns the move of the player to move at vertex v.
func place(g *engine.Game, b *engine.Board, v int) engine.Move {
	return engine.PlaceAt(g.ToPlay(), b.Point(v))
}

// sensibleMoves starts GenMove for Random and Greedy: after begin's checks
// it returns g's board and the candidates of the player to move that lie
// outside settled territory by the estimate (see judgement.playable), and
// without its own area once the opponent has passed (and, under
// territory scoring, without the points where a stone would only cost a
// point: see wastedPoints). It returns no moves
// when passing back wins (see passWins) or when the opponent has passed and
// nothing is left to play, so that the bot passes, and resign true when the
// estimate says the game is lost beyond doubt (checked first). seed seeds
// the estimate.
func sensibleMoves(ctx context.Context, g *engine.Game, seed int64) (b *engine.Board, moves []int, resign bool, err error) {
	if err := begin(ctx, g); err != nil {
		return nil, nil, false, err
	}
	b = g.Board()
	c := g.ToPlay()
	j, err := judge(ctx, g, seed)
	if err != nil {
		return nil, nil, false, err
	}
	// Resigning comes first: on the board as it stands a dead group
	// counts alive, so passing back may look like a win in a game lost
	// beyond doubt (issue 34).
	if j.lostBeyondDoubt(g, c) {
		return b, nil, true, nil
	}
	if passWins(g) {
		return b, nil, false, nil
	}
	moves = j.playable(b, c, candidates(nil, b, c))
	if opponentPassed(g) {
		moves = dropOwnArea(moves, b, c)
	}
	if g.Rules().Scoring == engine.TerritoryScoring {
		if wasted := wastedPoints(g, deadAfterPass(ctx, g)); wasted != nil {
			moves = slices.DeleteFunc(moves, func(v int) bool { return wasted[v] })
		}
	}
	return b, moves, false, nil
}

// passWins reports whether the opponent has just passed and passing back,
// which ends play, would win on the board as it stands, counted under the
// game's rules with no stones marked dead. A bot that is ahead then ends the
// game rather than fill its own territory. Not while more than a tenth of
// the board is neutral (touching both colours): winning by the komi on an
// open board after a pass in the opening (or a GTP controller's genmove
// for the player not to move, which reads as the other's pass) is no end a
// player would choose; there the search decides.
func passWins(g *engine.Game) bool {
	if !opponentPassed(g) {
		return false
	}
	sc := g.Score(nil)
	return 10*sc.Dame <= g.Size()*g.Size() && sc.Winner == g.ToPlay()
}

// opponentPassed reports whether the last move was the opponent's pass.
func opponentPassed(g *engine.Game) bool {
	last, ok := g.LastMove()
	return ok && last.Kind == engine.Pass && last.Color != g.ToPlay()
}

// dropOwnArea removes from moves the points of empty regions that touch only
// c's stones: filling one's own area gains nothing under area scoring and
// only weakens the group around it. The random and greedy players use it
// once the opponent has passed, so that they pass back instead of filling
// their territory stone by stone.
func dropOwnArea(moves []int, b *engine.Board, c engine.Color) []int {
	own := make([]bool, b.Area())
	seen := make([]bool, b.Area())
	var region, stack []int
	for _, v := range moves {
		if seen[v] {
			continue
		}
		region, stack = region[:0], append(stack[:0], v)
		seen[v] = true
		reach := 0
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, u)
			for _, w := range b.Neighbours(u) {
				switch {
				case b.IsBorder(w):
				case b.ColorAt(w) == c:
					reach |= 1
				case b.ColorAt(w) == c.Opponent():
					reach |= 2
				case !seen[w]:
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
		if reach == 1 {
			for _, u := range region {
				own[u] = true
			}
		}
	}
	out := moves[:0]
	for _, v := range moves {
		if !own[v] {
			out = append(out, v)
		}
	}
	return out
}

// areaMargin returns Black's lead on board b counted by area (stones plus
// empty regions that reach only one colour), less komi: the Tromp–Taylor
// count of the position as it stands. It allocates nothing; work must hold
// at least b.Area() entries.
func areaMargin(b *engine.Board, komi float64, work []int32) float64 {
	area := b.Area()
	mark := work[:area]
	for i := range mark {
		mark[i] = 0
	}
	var stack [engine.MaxSize * engine.MaxSize]int16
	score := 0
	size := b.Size()
	stamp := int32(0)
	for r := 0; r < size; r++ {
		for col := 0; col < size; col++ {
			v := b.Vertex(engine.Point{Col: col, Row: r})
			switch b.ColorAt(v) {
			case engine.Black:
				score++
				continue
			case engine.White:
				score--
				continue
			}
			if mark[v] != 0 {
				continue
			}
			stamp++
			mark[v] = stamp
			n := 0
			stack[0] = int16(v)
			sp := 1
			reach := 0 // bit 1 black, bit 2 white
			for sp > 0 {
				sp--
				u := int(stack[sp])
				n++
				for _, w := range b.Neighbours(u) {
					if b.IsBorder(w) {
						continue
					}
					switch b.ColorAt(w) {
					case engine.Black:
						reach |= 1
					case engine.White:
						reach |= 2
					default:
						if mark[w] == 0 {
							mark[w] = stamp
							stack[sp] = int16(w)
							sp++
						}
					}
				}
			}
			switch reach {
			case 1:
				score += n
			case 2:
				score -= n
			}
		}
	}
	return float64(score) - komi
}

// whiteBonus returns what an area count of g's position, as it will end,
// gives White so that it comes out as g is scored (mcts.WhiteBonus): komi
// plus White's handicap compensation under area scoring, komi plus the
// stones Black placed more than White under territory scoring.
func whiteBonus(g *engine.Game) float64 { return mcts.WhiteBonus(g) }
