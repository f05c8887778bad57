package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ScoringPhase is the state of a game's scoring phase after two passes: the
// current marking of dead stones, the estimate it started from, and which
// players have accepted the marking. Any change to the marking clears the
// acceptances; the phase is agreed when both players have accepted the
// same marking.
//
// A ScoringPhase belongs to one position of one game: its methods take that
// *Game and return ErrScoringStale for any other (for example after play
// was resumed and ended again; start a new phase then). It serialises to
// JSON (MarshalJSON) so that it can be stored next to the game. It is not
// safe for concurrent use.
type ScoringPhase struct {
	size      int
	moveCount int
	hash      uint64
	dead      []Point // sorted, whole chains
	proposal  []Point // the estimate's dead stones
	uncertain []Point // stones the estimate was unsure of, not yet toggled
	seki      []Point
	ownership []int8 // the estimate's ownership in percent, Row*size+Col; nil if none
	accepted  [3]bool
	marking   int // counts changes to the marking
}

// Estimate is the estimated status of every stone at the end of a game:
// the proposal a scoring phase starts from. Package engine/estimate makes
// one from playouts; an external engine's list of dead stones is one too.
type Estimate struct {
	// Dead lists the stones estimated dead, whole chains at a time, in
	// row-major order from A1.
	Dead []Point `json:"dead"`
	// Seki lists the stones alive in seki; the empty points they share
	// with the opponent are neutral (Ownership 0).
	Seki []Point `json:"seki,omitempty"`
	// Uncertain lists stones left alive although the estimate often gave
	// them to the opponent: the players should check them.
	Uncertain []Point `json:"uncertain,omitempty"`
	// Ownership gives, for each point (index Row*size+Col), who owns it at
	// the end: +1 surely Black, -1 surely White, 0 neutral or unknown; nil
	// when the estimate has none.
	Ownership []float64 `json:"ownership"`
	// Playouts is the number of playouts the estimate rests on (0 for one
	// made otherwise).
	Playouts int `json:"playouts"`
}

// IsDead reports whether p is listed in e.Dead.
func (e Estimate) IsDead(p Point) bool { return slices.Contains(e.Dead, p) }

// NewScoringPhase begins the scoring phase of g, whose play must have ended
// with two passes, with the proposal e: the dead stones of package
// engine/estimate (estimate.Dead), or a list from elsewhere (an external
// engine; only Dead, Seki, Uncertain and Ownership are used). Dead stones
// are extended to whole chains; points without stones are ignored.
func NewScoringPhase(g *Game, e Estimate) (*ScoringPhase, error) {
	if err := checkScoringGame(g); err != nil {
		return nil, err
	}
	size := g.Size()
	for _, list := range [][]Point{e.Dead, e.Seki, e.Uncertain} {
		for _, p := range list {
			if !p.Valid(size) {
				return nil, fmt.Errorf("estimate point %v on a %d×%d board: %w", p, size, size, ErrInvalidCoordinates)
			}
		}
	}
	if e.Ownership != nil && len(e.Ownership) != size*size {
		return nil, fmt.Errorf("estimate ownership of %d points for a %d×%d board: %w", len(e.Ownership), size, size, ErrInvalidState)
	}
	return makeScoringPhase(g, e), nil
}

func checkScoringGame(g *Game) error {
	if _, over := g.Result(); over {
		return ErrGameOver
	}
	if !g.PlayEnded() {
		return ErrPlayNotEnded
	}
	return nil
}

func makeScoringPhase(g *Game, e Estimate) *ScoringPhase {
	b := g.Board()
	s := &ScoringPhase{size: g.Size(), moveCount: g.MoveCount(), hash: b.Hash()}
	s.dead = wholeChains(b, e.Dead)
	s.proposal = append([]Point(nil), s.dead...)
	s.seki = stonesOnly(b, e.Seki)
	s.uncertain = stonesOnly(b, e.Uncertain)
	if e.Ownership != nil {
		s.ownership = make([]int8, len(e.Ownership))
		for i, o := range e.Ownership {
			s.ownership[i] = int8(min(max(o, -1), 1) * 100)
		}
	}
	return s
}

// wholeChains returns the stones of every chain with a stone in ps, sorted.
func wholeChains(b *Board, ps []Point) []Point {
	var mark [maxArea]bool
	for _, p := range ps {
		if !p.Valid(b.Size()) {
			continue
		}
		v := b.Vertex(p)
		if b.ColorAt(v) == Empty || mark[v] {
			continue
		}
		for s := v; ; {
			mark[s] = true
			if s = b.NextStone(s); s == v {
				break
			}
		}
	}
	return markedPoints(b, &mark)
}

// stonesOnly returns the points of ps that hold stones, sorted and without
// repeats.
func stonesOnly(b *Board, ps []Point) []Point {
	var mark [maxArea]bool
	for _, p := range ps {
		if p.Valid(b.Size()) && b.At(p) != Empty {
			mark[b.Vertex(p)] = true
		}
	}
	return markedPoints(b, &mark)
}

func markedPoints(b *Board, mark *[maxArea]bool) []Point {
	var out []Point
	size := b.Size()
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			if mark[b.Vertex(Point{c, r})] {
				out = append(out, Point{c, r})
			}
		}
	}
	return out
}

// Check returns ErrScoringStale unless g is in the position the phase was
// made for, with play ended and no result yet (ErrGameOver then).
func (s *ScoringPhase) Check(g *Game) error {
	if _, over := g.Result(); over {
		return ErrGameOver
	}
	if g.Size() != s.size || g.MoveCount() != s.moveCount || !g.PlayEnded() || g.Board().Hash() != s.hash {
		return ErrScoringStale
	}
	return nil
}

// Dead returns the stones marked dead, in row-major order from A1.
func (s *ScoringPhase) Dead() []Point { return append([]Point(nil), s.dead...) }

// IsDead reports whether the stone at p is marked dead.
func (s *ScoringPhase) IsDead(p Point) bool { return slices.Contains(s.dead, p) }

// Proposal returns the dead stones the estimate proposed at the start.
func (s *ScoringPhase) Proposal() []Point { return append([]Point(nil), s.proposal...) }

// IsProposal reports whether the current marking is the estimate's
// proposal (a bot accepts its own proposal, and only that).
func (s *ScoringPhase) IsProposal() bool { return slices.Equal(s.dead, s.proposal) }

// Uncertain returns the stones the estimate left alive without being sure,
// less those the players have toggled since: the players should check them.
func (s *ScoringPhase) Uncertain() []Point { return append([]Point(nil), s.uncertain...) }

// Seki returns the stones the estimate found alive in seki.
func (s *ScoringPhase) Seki() []Point { return append([]Point(nil), s.seki...) }

// Ownership returns the estimate's ownership of each point (Row*size+Col,
// +1 Black .. -1 White), or nil when the phase began without one.
func (s *ScoringPhase) Ownership() []float64 {
	if s.ownership == nil {
		return nil
	}
	out := make([]float64, len(s.ownership))
	for i, o := range s.ownership {
		out[i] = float64(o) / 100
	}
	return out
}

// Marking returns a number that changes with every change to the marking,
// so that a button made for one marking can tell that it is out of date.
func (s *ScoringPhase) Marking() int { return s.marking }

// Accepted reports whether c has accepted the current marking.
func (s *ScoringPhase) Accepted(c Color) bool {
	return (c == Black || c == White) && s.accepted[c]
}

// Agreed reports whether both players have accepted the current marking.
func (s *ScoringPhase) Agreed() bool { return s.accepted[Black] && s.accepted[White] }

// Accept records that c accepts the current marking and reports whether
// both players have now accepted it. c must be Black or White.
func (s *ScoringPhase) Accept(c Color) (agreed bool, err error) {
	if c != Black && c != White {
		return false, ErrInvalidColor
	}
	s.accepted[c] = true
	return s.Agreed(), nil
}

// Toggle changes the status of the stone at p and of the stones that go
// with it, and returns the stones it changed, in row-major order. Marking a
// chain dead also marks the other chains of its colour that lie with it in
// the same area of the opponent's (reached through empty points the
// estimate gives to the opponent, or the current marking when the phase has
// no estimate), unless they are pass-alive; bringing a
// chain back to life revives the dead chains of its colour in that area.
// Any change clears both acceptances. A point without a stone is an error
// wrapping ErrNoStone, one off the board ErrInvalidCoordinates; neither
// changes anything.
func (s *ScoringPhase) Toggle(g *Game, p Point) ([]Point, error) {
	if err := s.Check(g); err != nil {
		return nil, err
	}
	if !p.Valid(s.size) {
		return nil, fmt.Errorf("%v is off the %d×%d board (use %s): %w", p, s.size, s.size, CoordRange(s.size), ErrInvalidCoordinates)
	}
	b := g.Board()
	v := b.Vertex(p)
	if b.ColorAt(v) == Empty {
		return nil, fmt.Errorf("%v: %w", p, ErrNoStone)
	}
	makeDead := !s.IsDead(p)
	var mark [maxArea]bool
	for _, q := range s.dead {
		mark[b.Vertex(q)] = true
	}
	own := s.ownership
	if own == nil {
		// Without an estimate, the areas of the current marking.
		owner := g.Score(s.dead).Owner
		own = make([]int8, len(owner))
		for i, o := range owner {
			switch o {
			case Black:
				own[i] = 100
			case White:
				own[i] = -100
			}
		}
	}
	changed := toggleGroup(b, own, v, makeDead, &mark)
	s.dead = markedPoints(b, &mark)
	kept := s.uncertain[:0]
	for _, q := range s.uncertain {
		if !slices.Contains(changed, q) {
			kept = append(kept, q)
		}
	}
	s.uncertain = kept
	s.changed()
	return changed, nil
}

// toggleGroup sets the stones of the group at v to makeDead in mark and
// returns the stones it changed. The group spreads through empty points
// that own (percent, Row*size+Col) gives to the opponent.
func toggleGroup(b *Board, own []int8, v int, makeDead bool, mark *[maxArea]bool) []Point {
	c := b.ColorAt(v)
	sign := 1.0
	if c == White {
		sign = -1
	}
	var alive, safe [maxArea]bool
	if makeDead {
		b.PassAlive(c, &alive, &safe)
	}
	var seen, changed [maxArea]bool
	stack := []int{}
	addChain := func(h int) {
		for s := h; ; {
			seen[s] = true
			changed[s] = true
			stack = append(stack, s)
			if s = b.NextStone(s); s == h {
				break
			}
		}
	}
	addChain(v)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range b.Neighbours(u) {
			if b.IsBorder(n) || seen[n] {
				continue
			}
			switch b.ColorAt(n) {
			case Empty:
				if p := b.Point(n); sign*float64(own[p.Row*b.Size()+p.Col]) >= 0 {
					continue
				}
				seen[n] = true
				stack = append(stack, n)
			case c:
				if mark[n] == makeDead || alive[n] {
					continue // already in the wanted state, or certainly alive
				}
				addChain(n)
			}
		}
	}
	var out []Point
	size := b.Size()
	for r := 0; r < size; r++ {
		for col := 0; col < size; col++ {
			u := b.Vertex(Point{col, r})
			if changed[u] {
				mark[u] = makeDead
				out = append(out, Point{col, r})
			}
		}
	}
	return out
}

// SetDead replaces the marking with the given dead stones, extended to
// whole chains (points without stones are ignored). It clears the
// acceptances when the marking changes.
func (s *ScoringPhase) SetDead(g *Game, dead []Point) error {
	if err := s.Check(g); err != nil {
		return err
	}
	for _, p := range dead {
		if !p.Valid(s.size) {
			return fmt.Errorf("%v is off the %d×%d board (use %s): %w", p, s.size, s.size, CoordRange(s.size), ErrInvalidCoordinates)
		}
	}
	next := wholeChains(g.Board(), dead)
	if slices.Equal(next, s.dead) {
		return nil
	}
	s.dead = next
	s.changed()
	return nil
}

func (s *ScoringPhase) changed() {
	s.marking++
	s.accepted = [3]bool{}
}

// Score counts g with the current marking.
func (s *ScoringPhase) Score(g *Game) (Score, error) {
	if err := s.Check(g); err != nil {
		return Score{}, err
	}
	return g.Score(s.dead), nil
}

// Breakdown returns the score of g with the current marking, described
// line by line for people (see FormatScore).
func (s *ScoringPhase) Breakdown(g *Game) (string, error) {
	sc, err := s.Score(g)
	if err != nil {
		return "", err
	}
	b := g.Board()
	var dead [3]int
	for _, p := range s.dead {
		dead[b.At(p)]++
	}
	return FormatScore(sc, dead[Black], dead[White]), nil
}

// Finish ends g with the score of the current marking (whether or not both
// players accepted it: a phase that times out ends with the marking it
// has) and returns that score.
func (s *ScoringPhase) Finish(g *Game) (Score, error) {
	sc, err := s.Score(g)
	if err != nil {
		return Score{}, err
	}
	if err := g.End(Result{Winner: sc.Winner, Reason: ByScore, Margin: sc.Margin}); err != nil {
		return Score{}, err
	}
	return sc, nil
}

// FormatScore describes a score for people, one line per player and a
// result line, per the scoring method: under area scoring stones plus
// territory, under territory scoring territory plus prisoners plus dead
// stones; komi and handicap compensation for White; the number of dead
// stones of each colour taken off; the neutral points; and the result
// (B+3.5, Jigo).
//
//	Black: 45 stones + 31 territory = 76
//	White: 38 stones + 22 territory + 7.5 komi + 2 handicap = 69.5
//	Dead stones removed: 3 black, 4 white
//	Result: B+6.5
func FormatScore(sc Score, deadBlack, deadWhite int) string {
	var sb strings.Builder
	side := func(name string, sd Side, white bool) {
		var parts []string
		if sc.Scoring == TerritoryScoring {
			parts = append(parts,
				scorePlural(sd.Territory, "territory", "territory"),
				scorePlural(sd.Prisoners, "prisoner", "prisoners"),
				scorePlural(sd.Dead, "dead", "dead"))
		} else {
			parts = append(parts,
				scorePlural(sd.Stones, "stone", "stones"),
				scorePlural(sd.Territory, "territory", "territory"))
		}
		sum := strings.Join(parts, " + ")
		if white {
			// A negative komi (Black receives points) is taken away, as
			// a sum is written: "+ 7.5 komi", "− 3.5 komi".
			for _, t := range []struct {
				v    float64
				name string
			}{{sc.Komi, " komi"}, {sc.HandicapBonus, " handicap"}} {
				switch {
				case t.v > 0:
					sum += " + " + FormatKomi(t.v) + t.name
				case t.v < 0:
					sum += " − " + FormatKomi(-t.v) + t.name
				}
			}
		}
		fmt.Fprintf(&sb, "%s: %s = %s\n", name, sum, FormatKomi(sd.Total))
	}
	side("Black", sc.Black, false)
	side("White", sc.White, true)
	if deadBlack+deadWhite > 0 {
		fmt.Fprintf(&sb, "Dead stones removed: %d black, %d white\n", deadBlack, deadWhite)
	}
	// Neutral points (dame, and a seki's shared liberties) belong to
	// nobody under either scoring: said, so that the sums can be checked
	// against the board.
	if sc.Dame > 0 {
		fmt.Fprintf(&sb, "Neutral points: %d\n", sc.Dame)
	}
	sb.WriteString("Result: " + sc.String())
	return sb.String()
}

func scorePlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// DescribeResult returns a result as players read it: "B+3.5", "W+R" (by
// resignation), "B+T" (on time), "W+F" (forfeit) or "Jigo" for a tie on
// the board.
func DescribeResult(r Result) string {
	if r.Winner == Empty {
		if r.Reason == ByScore {
			return "Jigo"
		}
		return "Void"
	}
	return r.String()
}

// scoringPhaseJSON is the stored form of a ScoringPhase: points in GTP notation.
type scoringPhaseJSON struct {
	Size      int      `json:"size"`
	MoveCount int      `json:"move_count"`
	Hash      string   `json:"hash"`
	Dead      []string `json:"dead"`
	Proposal  []string `json:"proposal"`
	Uncertain []string `json:"uncertain,omitempty"`
	Seki      []string `json:"seki,omitempty"`
	Ownership []int8   `json:"ownership,omitempty"`
	Accepted  []Color  `json:"accepted,omitempty"` // "B", "W"
	Marking   int      `json:"marking"`
}

func scoringPointStrings(ps []Point) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func scoringParsePoints(ss []string, size int) ([]Point, error) {
	out := make([]Point, 0, len(ss))
	for _, s := range ss {
		p, err := ParsePoint(s, size)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sortPoints(out)
	return out, nil
}

// MarshalJSON writes the phase with points in GTP notation ("D4").
func (s *ScoringPhase) MarshalJSON() ([]byte, error) {
	j := scoringPhaseJSON{
		Size: s.size, MoveCount: s.moveCount, Hash: strconv.FormatUint(s.hash, 16),
		Dead: scoringPointStrings(s.dead), Proposal: scoringPointStrings(s.proposal),
		Uncertain: scoringPointStrings(s.uncertain), Seki: scoringPointStrings(s.seki),
		Ownership: s.ownership, Marking: s.marking,
	}
	for _, c := range []Color{Black, White} {
		if s.accepted[c] {
			j.Accepted = append(j.Accepted, c)
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes; anything malformed is an
// error wrapping ErrInvalidState and leaves s unchanged.
func (s *ScoringPhase) UnmarshalJSON(data []byte) error {
	var j scoringPhaseJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: scoring phase: %v", ErrInvalidState, err)
	}
	if j.Size < MinSize || j.Size > MaxSize {
		return fmt.Errorf("%w: scoring phase size %d", ErrInvalidState, j.Size)
	}
	hash, err := strconv.ParseUint(j.Hash, 16, 64)
	if err != nil {
		return fmt.Errorf("%w: scoring phase hash %q", ErrInvalidState, j.Hash)
	}
	if j.MoveCount < 0 || j.Marking < 0 {
		return fmt.Errorf("%w: scoring phase counters %d, %d", ErrInvalidState, j.MoveCount, j.Marking)
	}
	if j.Ownership != nil && len(j.Ownership) != j.Size*j.Size {
		return fmt.Errorf("%w: scoring phase ownership of %d points on %d×%d", ErrInvalidState, len(j.Ownership), j.Size, j.Size)
	}
	n := ScoringPhase{size: j.Size, moveCount: j.MoveCount, hash: hash, ownership: j.Ownership, marking: j.Marking}
	for _, f := range []struct {
		dst *[]Point
		src []string
	}{{&n.dead, j.Dead}, {&n.proposal, j.Proposal}, {&n.uncertain, j.Uncertain}, {&n.seki, j.Seki}} {
		ps, err := scoringParsePoints(f.src, j.Size)
		if err != nil {
			return fmt.Errorf("%w: scoring phase: %v", ErrInvalidState, err)
		}
		if len(ps) == 0 {
			ps = nil
		}
		*f.dst = ps
	}
	for _, c := range j.Accepted {
		if c != Black && c != White {
			return fmt.Errorf("%w: scoring phase accepted by %q", ErrInvalidState, c)
		}
		n.accepted[c] = true
	}
	*s = n
	return nil
}

// sortPoints orders points row-major from A1.
func sortPoints(ps []Point) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Row != ps[j].Row {
			return ps[i].Row < ps[j].Row
		}
		return ps[i].Col < ps[j].Col
	})
}
