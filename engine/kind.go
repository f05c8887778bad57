package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobot-dev/gobot/engine/game"
)

// KindName is Go's name in records and registries.
const KindName = "go"

// Kind is the game of Go as the core sees it (package engine/game): its
// sides are Black (side 0) and White (side 1), its moves are GTP vertices
// ("D4") and "pass", and its State wraps a Game. The zero value is ready.
type Kind struct{}

var _ game.Kind = Kind{}

// Name returns "go".
func (Kind) Name() string { return KindName }

// SideNames returns Black and White.
func (Kind) SideNames() []string { return []string{"Black", "White"} }

// The options New reads.
const (
	OptSize     = "size"     // board size, default 19
	OptRules    = "rules"    // ruleset preset, default chinese
	OptKomi     = "komi"     // komi, default the ruleset's (0.5 with a handicap)
	OptHandicap = "handicap" // handicap stones, default 0; 1 is Black first at komi 0.5
)

// New starts a game of Go from options size, rules, komi and handicap, as
// people type them; a handicap gives White komi 0.5 unless komi is given.
func (Kind) New(opts game.Options, seed int64) (game.State, error) {
	cfg := Config{Size: 19, Rules: DefaultRules(), Seed: seed}
	for name := range opts {
		switch name {
		case OptSize, OptRules, OptKomi, OptHandicap:
		default:
			return nil, game.Refuse(game.ErrOptions, fmt.Sprintf("Go has no option %q: the options are size, rules, komi and handicap.", name))
		}
	}
	if v, ok := opts[OptSize]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < MinSize || n > MaxSize {
			return nil, game.Refuse(fmt.Errorf("%w: %w", game.ErrOptions, ErrInvalidSize), fmt.Sprintf("The board size must be a number from %d to %d, not %q.", MinSize, MaxSize, v))
		}
		cfg.Size = n
	}
	if v, ok := opts[OptRules]; ok {
		r, err := Preset(v)
		if err != nil {
			return nil, game.Refuse(fmt.Errorf("%w: %w", game.ErrOptions, err), fmt.Sprintf("Unknown ruleset %q: choose %s.", v, strings.Join(PresetNames, ", ")))
		}
		cfg.Rules = r
	}
	if v, ok := opts[OptHandicap]; ok {
		h, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || h < 0 || h > MaxHandicap(cfg.Size) {
			return nil, game.Refuse(fmt.Errorf("%w: %w", game.ErrOptions, ErrInvalidHandicap), fmt.Sprintf("A %d×%d board takes from 0 to %d handicap stones, not %q.", cfg.Size, cfg.Size, MaxHandicap(cfg.Size), v))
		}
		if h > 0 {
			cfg.Rules.Komi = 0.5
		}
		if h >= 2 {
			cfg.Handicap = h
		}
	}
	if v, ok := opts[OptKomi]; ok {
		k, err := ParseKomi(v)
		if err != nil || !ValidKomi(k) {
			return nil, game.Refuse(fmt.Errorf("%w: %w", game.ErrOptions, ErrInvalidKomi), fmt.Sprintf("Komi must be from -150 to 150 in steps of 0.5, not %q.", v))
		}
		cfg.Rules.Komi = k
	}
	g, err := NewGame(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", game.ErrOptions, err)
	}
	return State{g: g}, nil
}

// Decode reads a State written by State.MarshalJSON (a Game's JSON).
func (Kind) Decode(data []byte) (game.State, error) {
	g := new(Game)
	if err := g.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("%w: %w", game.ErrState, err)
	}
	return State{g: g}, nil
}

// State is a Game as a value of the game contract: Play and End work on a
// copy. Its zero value is not usable; make one with Kind.New, Kind.Decode
// or NewState.
type State struct {
	g *Game
}

var _ game.State = State{}

// NewState returns g as a State. The State keeps its own copy.
func NewState(g *Game) State { return State{g: g.Clone()} }

// Game returns a copy of the state's game, for Go's own handlers (scoring,
// undo, review) and its renderer.
func (s State) Game() *Game { return s.g.Clone() }

// Own returns g as a State without copying it: the State owns g from now
// on, and the caller changes it only through GameOf. It is for a holder
// that owns its state (a game loaded from the store, changed and written
// back), where NewState's copy would be wasted.
func Own(g *Game) State { return State{g: g} }

// GameOf returns the game of Go that st holds, not a copy: changing it
// changes st, so it is only for a holder that owns st (see Own). It is nil
// when st is not a game of Go.
func GameOf(st game.State) *Game {
	s, ok := st.(State)
	if !ok {
		return nil
	}
	return s.g
}

// Kind returns "go".
func (State) Kind() string { return KindName }

// Size returns the board's size.
func (s State) Size() int { return s.g.Size() }

// Rules returns the game's rules.
func (s State) Rules() Rules { return s.g.Rules() }

// Handicap returns the number of handicap stones.
func (s State) Handicap() int { return s.g.Handicap() }

// SideOf returns the side that plays colour c: Black 0, White 1.
func SideOf(c Color) game.Side {
	switch c {
	case Black:
		return 0
	case White:
		return 1
	}
	return game.NoSide
}

// ColorOf returns the colour that side s plays.
func ColorOf(s game.Side) Color {
	switch s {
	case 0:
		return Black
	case 1:
		return White
	}
	return Empty
}

// ToMove returns the side to move, or NoSide once play has ended (two
// passes: the scoring phase, Go's own, is under way) or the game is over.
func (s State) ToMove() game.Side {
	if s.g.Over() {
		return game.NoSide
	}
	return SideOf(s.g.ToPlay())
}

// ParseMove reads a move as a player types it: a point such as "D4" (in
// any case, "E05" for E5) or "pass".
func (s State) ParseMove(side game.Side, text string) (game.Move, error) {
	m, err := ReadMove(ColorOf(side), text, s.g.Size())
	if err != nil {
		return "", err
	}
	return game.Move(m.String()), nil
}

// Legal lists the points where the side to move may play, then "pass".
func (s State) Legal() []game.Move {
	if s.g.Over() {
		return nil
	}
	pts := s.g.Legal()
	ms := make([]game.Move, 0, len(pts)+1)
	for _, p := range pts {
		ms = append(ms, game.Move(p.String()))
	}
	return append(ms, "pass")
}

// Play plays side's move and returns the new state. Its facts are the
// stones captured ("capture") and the end of play by two passes
// ("scoring").
func (s State) Play(side game.Side, m game.Move) (game.State, []game.Fact, error) {
	c := ColorOf(side)
	if c == Empty {
		return nil, nil, game.Refuse(ErrInvalidColor, "There is no such side in a game of Go.")
	}
	mv, err := ReadMove(c, string(m), s.g.Size())
	if err != nil {
		return nil, nil, err
	}
	g := s.g.Clone()
	before := g.Captures(c)
	if err := g.Play(mv); err != nil {
		return nil, nil, RefuseMove(err, mv, s.g)
	}
	var facts []game.Fact
	if n := g.Captures(c) - before; n > 0 {
		facts = append(facts, game.Fact{Kind: "capture", Text: fmt.Sprintf("%s captures %s.", c, plural(n, "stone"))})
	}
	if g.PlayEnded() {
		facts = append(facts, game.Fact{Kind: "scoring", Text: "Both players passed: mark the dead stones and accept the count."})
	}
	return State{g: g}, facts, nil
}

// End ends the game with a result reached off the board. Go writes it as
// SGF does: "B+R", "W+T", "B+F", or the count for a result by score.
func (s State) End(r game.Result) (game.State, error) {
	if _, over := s.g.Result(); over {
		return nil, game.ErrOver
	}
	er := Result{Winner: ColorOf(r.Winner)}
	switch r.Reason {
	case game.ByResignation:
		er.Reason = ByResignation
	case game.ByTime:
		er.Reason = ByTime
	case game.ByForfeit:
		er.Reason = ByForfeit
	case game.ByAgreement:
		if r.Winner != game.NoSide {
			return nil, game.Refuse(game.ErrOptions, "An agreed result in Go is a draw.")
		}
		er.Reason = ByScore
	default:
		er.Reason = ByScore
		er.Margin = scoreMargin(r.Text)
	}
	g := s.g.Clone()
	if err := g.End(er); err != nil {
		return nil, err
	}
	return State{g: g}, nil
}

// scoreMargin reads the margin of an SGF result by score, "B+3.5"; 0 for
// anything else.
func scoreMargin(text string) float64 {
	_, m, ok := strings.Cut(text, "+")
	if !ok {
		return 0
	}
	v, err := strconv.ParseFloat(m, 64)
	if err != nil {
		return 0
	}
	return v
}

// Result returns the result in the contract's terms, Text in SGF notation.
func (s State) Result() (game.Result, bool) {
	r, ok := s.g.Result()
	if !ok {
		return game.Result{}, false
	}
	res := game.Result{Winner: SideOf(r.Winner), Text: r.String()}
	switch r.Reason {
	case ByResignation:
		res.Reason = game.ByResignation
	case ByTime:
		res.Reason = game.ByTime
	case ByForfeit:
		res.Reason = game.ByForfeit
	default:
		res.Reason = ReasonScore
	}
	return res, true
}

// ReasonScore is Go's reason for a game decided by counting.
const ReasonScore game.Reason = "score"

// MoveCount returns the number of moves played, passes included.
func (s State) MoveCount() int { return s.g.MoveCount() }

// View is what a client draws of a game of Go: the board as rows of
// ".", "X" (black) and "O" (white) from the top row down, the side to move,
// the last move, the ko point and the captures.
type View struct {
	Size     int      `json:"size"`
	Rows     []string `json:"rows"`
	ToMove   string   `json:"to_move,omitempty"` // "black", "white"; "" when play has ended
	Last     string   `json:"last,omitempty"`    // "D4", "pass"
	Ko       string   `json:"ko,omitempty"`      // the point the side to move may not take now
	Captures [2]int   `json:"captures"`          // stones captured by Black, by White
	Moves    int      `json:"moves"`
	Result   string   `json:"result,omitempty"`
}

// View returns the whole position: Go hides nothing from anyone.
func (s State) View(game.Side) any {
	g := s.g
	b := g.Board()
	v := View{Size: g.Size(), Moves: g.MoveCount(), Captures: [2]int{g.Captures(Black), g.Captures(White)}}
	for r := g.Size() - 1; r >= 0; r-- {
		row := make([]byte, g.Size())
		for c := range row {
			switch b.At(Point{c, r}) {
			case Black:
				row[c] = 'X'
			case White:
				row[c] = 'O'
			default:
				row[c] = '.'
			}
		}
		v.Rows = append(v.Rows, string(row))
	}
	if !g.Over() {
		v.ToMove = g.ToPlay().String()
		if p := b.Ko(g.ToPlay()); p != NoPoint {
			v.Ko = p.String()
		}
	}
	if m, ok := g.LastMove(); ok {
		v.Last = m.String()
	}
	if r, ok := g.Result(); ok {
		v.Result = r.String()
	}
	return v
}

// MarshalJSON writes the game's JSON: configuration, set-up and moves.
func (s State) MarshalJSON() ([]byte, error) { return json.Marshal(s.g) }

// Refusal returns err, an error from Game.Play or Check, with the sentence a
// player is shown (game.Refusal). Errors without a sentence pass through.
func Refusal(err error) error {
	if _, ok := game.Explain(err); ok {
		return err
	}
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return &game.Refusal{Err: err, Text: r.text}
		}
	}
	return err
}

// joinedStones counts the stones of the chain m would make on b: the stone
// and the chains of its colour next to it.
func joinedStones(b *Board, m Move) int {
	v := b.Vertex(m.Point)
	n, heads := 1, []int{}
	for _, u := range b.Neighbours(v) {
		if b.ColorAt(u) == m.Color && !slices.Contains(heads, b.Chain(u)) {
			heads = append(heads, b.Chain(u))
			n += b.ChainSize(u)
		}
	}
	return n
}

// RefuseMove returns err, the error of g.Play(m), with the sentence a
// player is shown, naming the point where it can.
func RefuseMove(err error, m Move, g *Game) error {
	if err == nil || m.Kind != Place {
		return Refusal(err)
	}
	var text string
	switch {
	case errors.Is(err, ErrOccupied):
		text = fmt.Sprintf("%s is already taken by a %s stone.", m.Point, g.Board().At(m.Point))
	case errors.Is(err, ErrSuperko):
		text = fmt.Sprintf("%s would repeat an earlier whole-board position, which the %s superko rule forbids.", m.Point, g.Rules().Ko)
	case errors.Is(err, ErrKo):
		text = fmt.Sprintf("Ko: %s would retake the ko at once. Play a ko threat elsewhere first, then you may retake.", m.Point)
	case errors.Is(err, ErrSuicide):
		text = fmt.Sprintf("%s would be suicide: the stone would have no liberties and capture nothing.", m.Point)
		if g.Rules().Suicide {
			// The rules allow suicide, but a lone stone's takes itself
			// off and leaves the board as it was: a repetition.
			text = fmt.Sprintf("%s would be the suicide of a lone stone: %s rules allow suicide, but this one would leave the board as it was, a repetition that superko forbids.", m.Point, g.Rules().Name)
		}
		if n := joinedStones(g.Board(), m); n > 1 {
			text = fmt.Sprintf("%s would be suicide: it would leave the group of %d stones it joins without liberties, and capture nothing.", m.Point, n)
		}
	case errors.Is(err, ErrInvalidCoordinates):
		text = fmt.Sprintf("%s is off this %d×%d board: valid points are %s.", m.Point, g.Size(), g.Size(), CoordRange(g.Size()))
	default:
		return Refusal(err)
	}
	return &game.Refusal{Err: err, Text: text}
}

// refusals are the sentences for the rules' sentinels, checked in order
// (ErrSuperko before ErrKo).
var refusals = []struct {
	err  error
	text string
}{
	{ErrSuperko, "That move would repeat an earlier whole-board position, which this game's superko rule forbids."},
	{ErrKo, "Ko: you cannot retake the ko at once. Play elsewhere first (a ko threat), then you may take it back."},
	{ErrOccupied, "There is already a stone there."},
	{ErrSuicide, "Suicide is not allowed: that stone would have no liberties and capture nothing."},
	{ErrNotYourTurn, "It is not your turn."},
	{ErrGameOver, "This game is over."},
	{ErrInvalidCoordinates, "Those are not coordinates on this board."},
	{ErrInvalidHandicap, "That handicap is not possible on this board size."},
	{ErrInvalidKomi, "Komi must be between -150 and 150, in steps of 0.5."},
	{ErrInvalidRules, "Unknown ruleset: choose chinese, japanese, tromp-taylor or simple."},
	{ErrNothingToUndo, "There is nothing to undo."},
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
