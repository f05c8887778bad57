package arena

import (
	"context"
	"fmt"
	"github.com/gobot-dev/gobot/internal/stats"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/gtp"
)

// Player is one side of a match.
type Player struct {
	Name string // for the report
	// New returns the bot for one game; it is called once per game with a
	// seed derived from the match seed.
	New    func(seed int64) bots.Bot
	Budget bots.Budget
}

// PlayerFor returns the player of a level, with budget in place of the
// level's own when budget is not zero.
func PlayerFor(l bots.Level, budget bots.Budget) Player {
	if budget == (bots.Budget{}) {
		budget = l.Budget
	}
	return Player{Name: l.Name, New: l.New, Budget: budget}
}

// DefaultReferee is GNU Go as the referee: its final_score counts the final
// position by area, with its own judgement of dead stones.
var DefaultReferee = []string{"/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"}

// Config describes a match.
type Config struct {
	A, B  Player
	Games int // games to play; A takes Black in the even-numbered ones
	Size  int // board size; 9 when zero
	// Komi is White's compensation, area scoring; 7.5 when zero (use
	// 0.5 or -0.5 for a near-even game).
	Komi float64
	Seed int64 // seeds the players: game i uses Seed+2i and Seed+2i+1
	// Referee is the command line of a GTP program whose final_score
	// decides each game that ends by passes; nil means DefaultReferee
	// when it is installed, and an empty non-nil slice (or nil without
	// GNU Go) the Tromp–Taylor count of the final position, every stone
	// on the board counted alive.
	Referee []string
	// MaxMoves ends a game that runs too long, which is then scored as it
	// stands; 4×Size² when zero.
	MaxMoves int
	// Parallel is the number of games played at once; 1 when zero.
	Parallel int
	// SGFDir, when set, receives each game as game-NNN.sgf.
	SGFDir string
	// Progress, when set, is called after each game (from the goroutine
	// that played it; calls are serialised).
	Progress func(GameResult)
}

// GameResult is one game of a match.
type GameResult struct {
	Index        int
	Black, White string // the players' names
	AColor       engine.Color
	Winner       engine.Color // Empty for a draw
	Margin       float64      // points; 0 for a resignation
	Result       string       // in SGF notation: "B+3.5", "W+R", "0"
	Moves        int
	Duration     time.Duration
	// Think and Played are the time each colour spent choosing its moves
	// and how many it chose (a resignation included), indexed by
	// engine.Color.
	Think  [3]time.Duration
	Played [3]int
}

// AWon reports whether player A won the game.
func (r GameResult) AWon() bool { return r.Winner != engine.Empty && r.Winner == r.AColor }

// Report is the outcome of a match, from A's point of view.
type Report struct {
	A, B         string
	Games        int
	WinsA, WinsB int
	Draws        int
	// WinsAsBlack and WinsAsWhite split A's wins by colour.
	WinsAsBlack, WinsAsWhite int
	// WinRate is A's score rate (draws count half) and Low–High its 95%
	// Wilson interval.
	WinRate, Low, High float64
	Referee            string // how games ending by passes were scored
	Size               int
	Komi               float64
	Results            []GameResult
	Duration           time.Duration
	// MoveTimeA and MoveTimeB are each player's average time per move.
	MoveTimeA, MoveTimeB time.Duration
}

// String summarises the report in one paragraph.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s: %d games on %d×%d, komi %s, scored by %s\n", r.A, r.B, r.Games, r.Size, r.Size, engine.FormatKomi(r.Komi), r.Referee)
	fmt.Fprintf(&b, "%s won %d (%d as black, %d as white), %s won %d, %d drawn\n", r.A, r.WinsA, r.WinsAsBlack, r.WinsAsWhite, r.B, r.WinsB, r.Draws)
	fmt.Fprintf(&b, "%s win rate %.1f%% (95%% CI %.1f%%–%.1f%%) in %v\n", r.A, 100*r.WinRate, 100*r.Low, 100*r.High, r.Duration.Round(time.Second))
	fmt.Fprintf(&b, "average time per move: %s %v, %s %v", r.A, roundMoveTime(r.MoveTimeA), r.B, roundMoveTime(r.MoveTimeB))
	return b.String()
}

// Run plays the match and reports its result. It stops at the first error
// (a player or the referee failing, an illegal move, ctx cancelled) and
// returns it with the report of the games finished so far.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.A.New == nil || cfg.B.New == nil {
		return Report{}, fmt.Errorf("two players are needed: %w", ErrInvalidConfig)
	}
	if cfg.Games <= 0 {
		return Report{}, fmt.Errorf("%d games: %w", cfg.Games, ErrInvalidConfig)
	}
	if cfg.Size == 0 {
		cfg.Size = 9
	}
	if cfg.Size < engine.MinSize || cfg.Size > engine.MaxSize {
		return Report{}, fmt.Errorf("size %d: %w", cfg.Size, ErrInvalidConfig)
	}
	if cfg.Komi == 0 {
		cfg.Komi = 7.5
	}
	if !engine.ValidKomi(cfg.Komi) {
		return Report{}, fmt.Errorf("komi %v: %w", cfg.Komi, ErrInvalidConfig)
	}
	if cfg.MaxMoves <= 0 {
		cfg.MaxMoves = 4 * cfg.Size * cfg.Size
	}
	cfg.Parallel = max(cfg.Parallel, 1)
	if cfg.SGFDir != "" {
		if err := os.MkdirAll(cfg.SGFDir, 0o755); err != nil {
			return Report{}, fmt.Errorf("arena: sgf directory: %w", err)
		}
	}

	rep := Report{A: cfg.A.Name, B: cfg.B.Name, Size: cfg.Size, Komi: cfg.Komi, Referee: "Tromp–Taylor count"}
	argv := cfg.Referee
	if argv == nil {
		if _, err := os.Stat(DefaultReferee[0]); err == nil {
			argv = DefaultReferee
		} else {
			rep.Referee = "Tromp–Taylor count (no referee installed)"
		}
	}
	var referee *gtp.Client
	if len(argv) > 0 {
		var err error
		referee, err = gtp.StartClient(ctx, gtp.Spec{Name: "referee", Argv: argv}, gtp.ClientOptions{})
		if err != nil {
			return rep, fmt.Errorf("arena: referee: %w", err)
		}
		defer referee.Close()
		rep.Referee = strings.Join(argv, " ") + " (final_score)"
	}

	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < cfg.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res, err := playGame(ctx, cfg, i, referee)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("game %d: %w", i+1, err)
						cancel()
					}
				} else {
					rep.add(res)
					if cfg.Progress != nil {
						cfg.Progress(res)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < cfg.Games; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	rep.Duration = time.Since(start)
	rep.finish()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return rep, firstErr
}

// add counts one game.
func (r *Report) add(g GameResult) {
	r.Results = append(r.Results, g)
	r.Games++
	switch {
	case g.Winner == engine.Empty:
		r.Draws++
	case g.AWon():
		r.WinsA++
		if g.AColor == engine.Black {
			r.WinsAsBlack++
		} else {
			r.WinsAsWhite++
		}
	default:
		r.WinsB++
	}
}

// roundMoveTime rounds a time per move for the report: to the millisecond,
// or to 10 µs below a millisecond.
func roundMoveTime(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// finish computes the rates and the times per move, and orders the games.
func (r *Report) finish() {
	var think [2]time.Duration
	var played [2]int
	for _, g := range r.Results {
		a, b := g.AColor, g.AColor.Opponent()
		think[0] += g.Think[a]
		think[1] += g.Think[b]
		played[0] += g.Played[a]
		played[1] += g.Played[b]
	}
	if played[0] > 0 {
		r.MoveTimeA = think[0] / time.Duration(played[0])
	}
	if played[1] > 0 {
		r.MoveTimeB = think[1] / time.Duration(played[1])
	}
	slices.SortFunc(r.Results, func(a, b GameResult) int { return a.Index - b.Index })
	score := float64(r.WinsA) + float64(r.Draws)/2
	if r.Games > 0 {
		r.WinRate = score / float64(r.Games)
	}
	r.Low, r.High = stats.Wilson(score, float64(r.Games), stats.Z95)
}

// playGame plays game i of the match.
func playGame(ctx context.Context, cfg Config, i int, referee *gtp.Client) (GameResult, error) {
	start := time.Now()
	rules := engine.DefaultRules()
	rules.Komi = cfg.Komi
	rules.Scoring = engine.AreaScoring
	g, err := engine.NewGame(engine.Config{Size: cfg.Size, Rules: rules, Seed: cfg.Seed + int64(i)})
	if err != nil {
		return GameResult{}, err
	}
	a, b := cfg.A, cfg.B
	aColor := engine.Black
	if i%2 == 1 {
		aColor = engine.White
	}
	black, white := a, b
	if aColor == engine.White {
		black, white = b, a
	}
	players := map[engine.Color]Player{engine.Black: black, engine.White: white}
	bots := map[engine.Color]bots.Bot{
		engine.Black: black.New(cfg.Seed + 2*int64(i)),
		engine.White: white.New(cfg.Seed + 2*int64(i) + 1),
	}
	res := GameResult{Index: i, Black: black.Name, White: white.Name, AColor: aColor}
	for !g.Over() && g.MoveCount() < cfg.MaxMoves {
		c := g.ToPlay()
		t0 := time.Now()
		m, err := bots[c].GenMove(ctx, g, players[c].Budget)
		res.Think[c] += time.Since(t0)
		res.Played[c]++
		if err != nil {
			return res, fmt.Errorf("%s (%v) at move %d: %w", players[c].Name, c, g.MoveCount()+1, err)
		}
		if err := g.Play(m); err != nil {
			return res, fmt.Errorf("%s (%v) played %v at move %d: %w: %w", players[c].Name, c, m, g.MoveCount()+1, ErrIllegalMove, err)
		}
	}
	res.Moves = g.MoveCount()
	if r, ok := g.Result(); ok {
		res.Winner, res.Margin = r.Winner, r.Margin
	} else if referee != nil {
		res.Winner, res.Margin, err = referee.FinalScore(ctx, g)
		if err != nil {
			return res, fmt.Errorf("referee: %w", err)
		}
		if err := g.End(engine.Result{Winner: res.Winner, Reason: engine.ByScore, Margin: res.Margin}); err != nil {
			return res, err
		}
	} else {
		s := g.Score(nil)
		res.Winner, res.Margin = s.Winner, s.Margin
		if err := g.End(engine.Result{Winner: s.Winner, Reason: engine.ByScore, Margin: s.Margin}); err != nil {
			return res, err
		}
	}
	r, _ := g.Result()
	res.Result = r.String()
	res.Duration = time.Since(start)
	if cfg.SGFDir != "" {
		if err := writeSGF(cfg.SGFDir, i, g, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// writeSGF saves game i.
func writeSGF(dir string, i int, g *engine.Game, res GameResult) error {
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("game-%03d.sgf", i+1)))
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	info := engine.SGFInfo{PB: res.Black, PW: res.White, RE: res.Result, GN: fmt.Sprintf("arena game %d", i+1), DT: time.Now().UTC().Format("2006-01-02")}
	err = engine.WriteSGF(f, g, info)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("arena: write game %d: %w", i+1, err)
	}
	return nil
}
