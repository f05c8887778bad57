package review

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/bots/mcts"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// ErrNoAnalysis means the configured program speaks neither kata-analyze
// nor lz-analyze.
var ErrNoAnalysis = errors.New("review: the engine speaks neither kata-analyze nor lz-analyze")

// DefaultAnalysisTime is how long a GTP program thinks about each position
// when GTP.Time is zero.
const DefaultAnalysisTime = 500 * time.Millisecond

// GTP judges positions with an external program over GTP: kata-analyze
// (KataGo: win rate, score lead and ownership) where the program lists it,
// else lz-analyze (Leela Zero and others: win rate only; the score and
// ownership then come from a short estimate by the built-in playouts).
// Each position gets Time of the program's thinking; a program's review is
// only as repeatable as the engine. Positions where play has ended are
// counted by the built-in engine.
type GTP struct {
	Client *gtp.Client
	Time   time.Duration // per position; 0 means DefaultAnalysisTime
	Seed   int64         // for the built-in estimates
}

var _ Evaluator = (*GTP)(nil)

// Name returns "gtp:NAME".
func (e *GTP) Name(int) string { return "gtp:" + e.Client.Spec().Name }

// Check asks the program whether it can judge positions: it must list
// kata-analyze or lz-analyze. Otherwise the error wraps ErrNoAnalysis; a
// program that does not start or answer gives its own error. It starts
// the program, so that a host learns at start-up, not from a user's
// first review.
func (e *GTP) Check(ctx context.Context) error {
	for _, command := range []string{"kata-analyze", "lz-analyze"} {
		ok, err := e.Client.Knows(ctx, command)
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name(0), err)
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("%s: %w", e.Name(0), ErrNoAnalysis)
}

// Evaluate asks the program about g's position.
func (e *GTP) Evaluate(ctx context.Context, g *engine.Game) (Evaluation, error) {
	if g.Over() {
		return MCTS{Playouts: 200, Seed: e.Seed}.Evaluate(ctx, g)
	}
	kata, err := e.Client.Knows(ctx, "kata-analyze")
	if err != nil {
		return Evaluation{}, err
	}
	command := "kata-analyze " + g.ToPlay().Letter() + " 10 ownership true"
	if !kata {
		lz, err := e.Client.Knows(ctx, "lz-analyze")
		if err != nil {
			return Evaluation{}, err
		}
		if !lz {
			return Evaluation{}, fmt.Errorf("%s: %w", e.Name(0), ErrNoAnalysis)
		}
		command = "lz-analyze " + g.ToPlay().Letter() + " 10"
	}
	d := e.Time
	if d <= 0 {
		d = DefaultAnalysisTime
	}
	line, err := e.Client.Analyze(ctx, g, command, d)
	if err != nil {
		return Evaluation{}, err
	}
	ev, hasScore, err := ParseAnalysis(line, g.Size(), g.ToPlay(), kata)
	if err != nil {
		return Evaluation{}, fmt.Errorf("%s: %w", e.Name(0), err)
	}
	if !hasScore {
		est, err := mcts.EstimateScore(ctx, g, 200, e.Seed+int64(g.MoveCount()))
		if err != nil {
			return Evaluation{}, err
		}
		ev.Score, ev.Ownership = est.Score, est.Ownership
	}
	return ev, nil
}

// ParseAnalysis reads one line of kata-analyze (kata) or lz-analyze output
// for a position with toPlay to move: the best move's win rate and
// variation ("order 0", else the first), and with kata-analyze its score
// lead and the ownership. Everything is turned to Black's side. It reports
// whether the line had a score.
func ParseAnalysis(line string, size int, toPlay engine.Color, kata bool) (Evaluation, bool, error) {
	f := strings.Fields(line)
	var ev Evaluation
	hasScore, found := false, false
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "info":
			info, score, first, next, err := parseInfo(f, i+1, size, toPlay, kata)
			if err != nil {
				return Evaluation{}, false, err
			}
			if !found || first {
				ev.Winrate, ev.Best, ev.PV = info.Winrate, info.Best, info.PV
				if score != nil {
					ev.Score, hasScore = *score, true
				}
				found = true
			}
			i = next - 1
		case "ownership":
			n := size * size
			if len(f)-i-1 < n {
				return Evaluation{}, false, fmt.Errorf("ownership with %d values, want %d: %w", len(f)-i-1, n, gtp.ErrProtocol)
			}
			own := make([]float64, n)
			for k := 0; k < n; k++ {
				v, err := strconv.ParseFloat(f[i+1+k], 64)
				if err != nil {
					return Evaluation{}, false, fmt.Errorf("ownership value %q: %w", f[i+1+k], gtp.ErrProtocol)
				}
				if toPlay == engine.White {
					v = -v
				}
				// The program starts at the top left (A19); ours at A1.
				row, col := size-1-k/size, k%size
				own[row*size+col] = v
			}
			ev.Ownership = own
			i += n
		}
	}
	if !found {
		return Evaluation{}, false, fmt.Errorf("no move in %q: %w", clip(line), gtp.ErrProtocol)
	}
	return ev, hasScore, nil
}

// parseInfo reads one "info" entry from f[i:]: its win rate, move and
// variation for Black, its score lead when it has one, and whether it is
// the program's first choice (order 0). It returns the index after it.
func parseInfo(f []string, i, size int, toPlay engine.Color, kata bool) (ev Evaluation, score *float64, first bool, next int, err error) {
	for i < len(f) && f[i] != "info" && f[i] != "ownership" {
		key := f[i]
		if key == "pv" {
			i++
			c := toPlay
			for i < len(f) && f[i] != "info" && f[i] != "ownership" {
				m, err := engine.ParseMove(c, f[i], size)
				if err != nil {
					return ev, nil, false, 0, fmt.Errorf("variation move %q: %w", f[i], gtp.ErrProtocol)
				}
				ev.PV = append(ev.PV, m)
				c = c.Opponent()
				i++
			}
			continue
		}
		if i+1 >= len(f) {
			return ev, nil, false, 0, fmt.Errorf("%s without a value: %w", key, gtp.ErrProtocol)
		}
		val := f[i+1]
		switch key {
		case "move":
			m, err := engine.ParseMove(toPlay, val, size)
			if err != nil {
				return ev, nil, false, 0, fmt.Errorf("move %q: %w", val, gtp.ErrProtocol)
			}
			ev.Best = m
		case "winrate":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return ev, nil, false, 0, fmt.Errorf("winrate %q: %w", val, gtp.ErrProtocol)
			}
			if !kata {
				w /= 10000
			}
			if toPlay == engine.White {
				w = 1 - w
			}
			ev.Winrate = w
		case "scoreLead":
			s, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return ev, nil, false, 0, fmt.Errorf("scoreLead %q: %w", val, gtp.ErrProtocol)
			}
			if toPlay == engine.White {
				s = -s
			}
			score = &s
		case "order":
			first = val == "0"
		}
		i += 2
	}
	if len(ev.PV) == 0 && ev.Best.Color != engine.Empty {
		ev.PV = []engine.Move{ev.Best}
	}
	return ev, score, first, i, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
