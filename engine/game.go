package engine

import (
	"fmt"
)

// Stone is a stone placed by setup (handicap, SGF AB/AW).
type Stone struct {
	Point Point
	Color Color
}

// Config is what a new game is made from.
type Config struct {
	Size     int   // 2..25
	Rules    Rules // from Preset, with any overrides
	Handicap int   // fixed handicap stones, 0 or 2..MaxHandicap(Size)
	Seed     int64 // for whatever randomness the game's users need
}

// Reason says how a game ended.
type Reason int8

// The ways a game ends.
const (
	ByScore Reason = iota
	ByResignation
	ByTime
	ByForfeit
)

// Result is the outcome of a finished game.
type Result struct {
	Winner Color   `json:"winner"` // Empty for a tie (jigo) or no result
	Reason Reason  `json:"reason"`
	Margin float64 `json:"margin,omitempty"` // points, for ByScore
}

// String returns the result in SGF notation: "B+3.5", "W+R", "B+T", "W+F"
// or "0" for a tie.
func (r Result) String() string {
	if r.Winner == Empty {
		return "0"
	}
	switch r.Reason {
	case ByResignation:
		return r.Winner.Letter() + "+R"
	case ByTime:
		return r.Winner.Letter() + "+T"
	case ByForfeit:
		return r.Winner.Letter() + "+F"
	}
	return r.Winner.Letter() + "+" + FormatKomi(r.Margin)
}

// Game is a game of Go with its full history: the checked door into the
// rules. Play validates every move against the rules (turn, occupied point,
// suicide, ko and superko) and a rejected move changes nothing. A Game
// serialises to JSON as its configuration plus its moves and replays them
// when decoded. It is not safe for concurrent use.
type Game struct {
	cfg      Config
	setup    []Stone // handicap and other set-up stones, before any move
	first    Color   // who moves first after set-up
	handicap int     // number of handicap stones (fixed or free)
	moves    []Move  // places and passes, in order
	resumes  []int   // len(moves) at each return from two passes to play
	result   *Result

	board  Board
	toPlay Color
	passes int             // consecutive passes
	seen   map[uint64]bool // superko history
}

// NewGame starts a game: the board is set up with fixed handicap stones when
// cfg.Handicap >= 2, and then White moves first.
func NewGame(cfg Config) (*Game, error) {
	if cfg.Size < MinSize || cfg.Size > MaxSize {
		return nil, fmt.Errorf("size %d: %w", cfg.Size, ErrInvalidSize)
	}
	if cfg.Rules.Name == "" {
		cfg.Rules = DefaultRules()
	}
	if !AnyKomi(cfg.Rules.Komi) {
		return nil, fmt.Errorf("komi %v: %w", cfg.Rules.Komi, ErrInvalidKomi)
	}
	g := &Game{cfg: cfg, first: Black}
	if cfg.Handicap == 1 || cfg.Handicap < 0 {
		return nil, fmt.Errorf("handicap %d (want 0 or 2 to %d): %w", cfg.Handicap, MaxHandicap(cfg.Size), ErrInvalidHandicap)
	}
	if cfg.Handicap >= 2 {
		pts, err := HandicapPoints(cfg.Size, cfg.Handicap)
		if err != nil {
			return nil, err
		}
		for _, p := range pts {
			g.setup = append(g.setup, Stone{p, Black})
		}
		g.first = White
		g.handicap = cfg.Handicap
	}
	g.reset()
	return g, nil
}

// reset sets the board to the position after set-up, with no moves.
func (g *Game) reset() {
	g.board = Board{size: g.cfg.Size, stride: g.cfg.Size + 2, AllowSuicide: g.cfg.Rules.Suicide}
	g.board.Clear()
	for _, s := range g.setup {
		g.board.SetStone(s.Point, s.Color)
	}
	g.toPlay = g.first
	g.passes = 0
	g.seen = map[uint64]bool{g.key(): true}
}

// key is the superko key of the current position.
func (g *Game) key() uint64 {
	h := g.board.hash
	if g.cfg.Rules.Ko == SituationalSuperko && g.toPlay == White {
		h ^= sideKey
	}
	return h
}

// Size returns the board size.
func (g *Game) Size() int { return g.cfg.Size }

// Rules returns the game's rules.
func (g *Game) Rules() Rules { return g.cfg.Rules }

// Config returns the configuration the game was created with.
func (g *Game) Config() Config { return g.cfg }

// Seed returns the game's seed.
func (g *Game) Seed() int64 { return g.cfg.Seed }

// Handicap returns the number of handicap stones (fixed or free).
func (g *Game) Handicap() int { return g.handicap }

// Setup returns the set-up stones (handicap, SGF AB/AW) in order.
func (g *Game) Setup() []Stone { return append([]Stone(nil), g.setup...) }

// FirstPlayer returns who moved first after set-up.
func (g *Game) FirstPlayer() Color { return g.first }

// Board returns a copy of the current position.
func (g *Game) Board() *Board {
	b := g.board
	return &b
}

// ToPlay returns the colour to move.
func (g *Game) ToPlay() Color { return g.toPlay }

// Moves returns a copy of the moves played (places and passes).
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// MoveCount returns the number of moves played.
func (g *Game) MoveCount() int { return len(g.moves) }

// LastMove returns the last move played, and false when there is none.
func (g *Game) LastMove() (Move, bool) {
	if len(g.moves) == 0 {
		return Move{}, false
	}
	return g.moves[len(g.moves)-1], true
}

// Captures returns the number of stones c has captured.
func (g *Game) Captures(c Color) int { return g.board.caps[c] }

// ConsecutivePasses returns the number of passes at the end of the history
// since the last stone or resumption of play.
func (g *Game) ConsecutivePasses() int { return g.passes }

// PlayEnded reports whether two consecutive passes have ended play (and the
// game awaits scoring, Resume or End).
func (g *Game) PlayEnded() bool { return g.passes >= 2 }

// Over reports whether the game has a result, or play has ended by passes.
func (g *Game) Over() bool { return g.result != nil || g.passes >= 2 }

// Result returns the game's result and whether it has one.
func (g *Game) Result() (Result, bool) {
	if g.result == nil {
		return Result{}, false
	}
	return *g.result, true
}

// Check reports whether m is legal now, without playing it. The error is
// one of the sentinels (possibly wrapped).
func (g *Game) Check(m Move) error {
	if g.result != nil || (g.passes >= 2 && m.Kind != Resign) {
		return ErrGameOver
	}
	switch m.Kind {
	case Resign:
		if m.Color != Black && m.Color != White {
			return ErrInvalidColor
		}
		return nil
	case Pass:
		if m.Color != g.toPlay {
			return ErrNotYourTurn
		}
		return nil
	}
	if m.Color != g.toPlay {
		return ErrNotYourTurn
	}
	if !m.Point.Valid(g.cfg.Size) {
		return fmt.Errorf("%v is off the %d×%d board (use %s): %w", m.Point, g.cfg.Size, g.cfg.Size, CoordRange(g.cfg.Size), ErrInvalidCoordinates)
	}
	b := &g.board
	v := b.Vertex(m.Point)
	if b.color[v] != Empty {
		return fmt.Errorf("%v: %w", m.Point, ErrOccupied)
	}
	if v == b.koPoint && m.Color == b.koColor {
		return fmt.Errorf("%v: %w", m.Point, ErrKo)
	}
	if !b.Legal(v, m.Color) {
		return fmt.Errorf("%v: %w", m.Point, ErrSuicide)
	}
	if g.cfg.Rules.Ko != SimpleKo {
		next := *b
		next.Play(v, m.Color)
		h := next.hash
		if g.cfg.Rules.Ko == SituationalSuperko && m.Color.Opponent() == White {
			h ^= sideKey
		}
		if g.seen[h] {
			return fmt.Errorf("%v: %w", m.Point, ErrSuperko)
		}
	}
	return nil
}

// Play validates and plays m. Resignation ends the game at once (either
// player may resign at any time); two consecutive passes end play.
func (g *Game) Play(m Move) error {
	if err := g.Check(m); err != nil {
		return err
	}
	switch m.Kind {
	case Resign:
		g.result = &Result{Winner: m.Color.Opponent(), Reason: ByResignation}
		return nil
	case Pass:
		g.board.Play(PassVertex, m.Color)
		g.passes++
	default:
		g.board.Play(g.board.Vertex(m.Point), m.Color)
		g.passes = 0
	}
	g.moves = append(g.moves, Move{Color: m.Color, Kind: m.Kind, Point: pointOf(m)})
	g.toPlay = m.Color.Opponent()
	g.seen[g.key()] = true
	return nil
}

func pointOf(m Move) Point {
	if m.Kind == Place {
		return m.Point
	}
	return NoPoint
}

// Undo takes back the last move. A resigned or ended game cannot be undone
// past its result; undoing a pass after two passes resumes play.
func (g *Game) Undo() error {
	if g.result != nil {
		return ErrGameOver
	}
	if len(g.moves) == 0 {
		return ErrNothingToUndo
	}
	moves := g.moves[:len(g.moves)-1]
	resumes := g.resumes
	for len(resumes) > 0 && resumes[len(resumes)-1] > len(moves) {
		resumes = resumes[:len(resumes)-1]
	}
	return g.replay(moves, resumes)
}

// replay rebuilds the game from set-up with the given moves, checking each.
// On error the game is left as it was.
func (g *Game) replay(moves []Move, resumes []int) error {
	saved := *g
	g.moves = make([]Move, 0, len(moves))
	g.resumes = nil
	g.reset()
	ri := 0
	for i, m := range moves {
		for ri < len(resumes) && resumes[ri] == i {
			if err := g.Resume(); err != nil {
				*g = saved
				return fmt.Errorf("resume before move %d: %w", i+1, err)
			}
			ri++
		}
		if err := g.Play(m); err != nil {
			*g = saved
			return fmt.Errorf("move %d (%v %v): %w", i+1, m.Color.Letter(), m, err)
		}
	}
	for ri < len(resumes) && resumes[ri] == len(moves) {
		if err := g.Resume(); err != nil {
			*g = saved
			return err
		}
		ri++
	}
	return nil
}

// Resume returns a game whose play was ended by two passes to play, with
// the same player to move (as when players disagree about dead stones).
func (g *Game) Resume() error {
	if g.result != nil || g.passes < 2 {
		return ErrGameOver
	}
	g.passes = 0
	g.resumes = append(g.resumes, len(g.moves))
	return nil
}

// End records the result of a game decided off the board: by counting
// after the scoring phase, by time or by forfeit.
func (g *Game) End(r Result) error {
	if g.result != nil {
		return ErrGameOver
	}
	g.result = &r
	return nil
}

// SetupStones adds set-up stones (free handicap placement, SGF AB/AW/AE with
// Empty to remove) and sets who moves next. It is allowed only before the
// first move. handicap, when non-zero, records the stones as a handicap.
func (g *Game) SetupStones(stones []Stone, toPlay Color, handicap int) error {
	if len(g.moves) > 0 || g.result != nil {
		return fmt.Errorf("set-up after the first move: %w", ErrInvalidHandicap)
	}
	for _, s := range stones {
		if !s.Point.Valid(g.cfg.Size) {
			return fmt.Errorf("set-up stone %v: %w", s.Point, ErrInvalidCoordinates)
		}
	}
	if toPlay != Black && toPlay != White {
		return ErrInvalidColor
	}
	g.setup = append(g.setup, stones...)
	g.first = toPlay
	if handicap > 0 {
		g.handicap = handicap
	}
	g.reset()
	return nil
}

// Legal returns the points where the player to move may place a stone now,
// checked with the full rules including superko.
func (g *Game) Legal() []Point {
	var pts []Point
	if g.Over() {
		return pts
	}
	for r := 0; r < g.cfg.Size; r++ {
		for c := 0; c < g.cfg.Size; c++ {
			p := Point{c, r}
			if g.Check(PlaceAt(g.toPlay, p)) == nil {
				pts = append(pts, p)
			}
		}
	}
	return pts
}

// Score counts the current position with the given dead stones.
func (g *Game) Score(dead []Point) Score {
	return ScoreBoard(&g.board, g.cfg.Rules, dead, g.handicap)
}

// Rebuild returns a new game with g's set-up and its first n moves played
// under rules (g's with another komi or ko rule, say), resuming play after
// two passes where g goes on. It fails when a move is illegal under rules.
func (g *Game) Rebuild(rules Rules, n int) (*Game, error) {
	cfg := g.Config()
	cfg.Rules = rules
	cfg.Handicap = 0
	ng, err := NewGame(cfg)
	if err != nil {
		return nil, err
	}
	if len(g.Setup()) > 0 || g.FirstPlayer() != ng.FirstPlayer() {
		if err := ng.SetupStones(g.Setup(), g.FirstPlayer(), g.Handicap()); err != nil {
			return nil, err
		}
	}
	for i, m := range g.Moves()[:n] {
		if ng.PlayEnded() {
			if err := ng.Resume(); err != nil {
				return nil, err
			}
		}
		if err := ng.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%s %v): %w", i+1, m.Color.Letter(), m, err)
		}
	}
	return ng, nil
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.setup = append([]Stone(nil), g.setup...)
	c.moves = append([]Move(nil), g.moves...)
	c.resumes = append([]int(nil), g.resumes...)
	c.seen = make(map[uint64]bool, len(g.seen))
	for k, v := range g.seen {
		c.seen[k] = v
	}
	if g.result != nil {
		r := *g.result
		c.result = &r
	}
	return &c
}

// Seen reports whether the board with the given Zobrist hash (Board.Hash)
// and toPlay to move has occurred in this game, as the game's superko rule
// compares positions. Searches use it to check superko against the game's
// history; it is meaningless under SimpleKo.
func (g *Game) Seen(hash uint64, toPlay Color) bool {
	if g.cfg.Rules.Ko == SituationalSuperko && toPlay == White {
		hash ^= sideKey
	}
	return g.seen[hash]
}
