package draughts

import (
	"errors"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
)

// play plays moves from s, failing t on a refusal.
func play(t *testing.T, s State, moves ...string) State {
	t.Helper()
	for _, m := range moves {
		n, _, err := s.PlayMove(s.ToMove(), m)
		if err != nil {
			t.Fatalf("after %q: Play(%s) = %v", s.Moves(), m, err)
		}
		s = n
	}
	return s
}

// wander finds n plies of king moves from s, none a capture, each to a
// position not seen before and leaving the opponent no capture (a search
// with backtracking), plays them, and returns the state before the last
// ply and the last.
func wander(t *testing.T, s State, n int) (before, after State) {
	t.Helper()
	p := s.Position()
	seen := map[uint64]bool{p.Hash(): true}
	var line []Move
	var walk func(p Position, depth int) bool
	walk = func(p Position, depth int) bool {
		if depth == n {
			return true
		}
		for _, m := range p.Generate(nil) {
			q := p
			q.Play(m)
			if m.IsCapture() || !p.Kings(p.Turn()).Has(m.From) || seen[q.Hash()] || q.CanCapture() {
				continue
			}
			seen[q.Hash()] = true
			line = append(line, m)
			if walk(q, depth+1) {
				return true
			}
			line = line[:len(line)-1]
		}
		return false
	}
	if !walk(p, 0) {
		t.Fatalf("no %d plies of new king moves from\n%v", n, p)
	}
	for i, m := range line {
		if _, over := s.Result(); over {
			t.Fatalf("after %d plies: over %+v", i, *s.result)
		}
		p := s.Position()
		before, s = s, play(t, s, p.Notation(m, p.Generate(nil)))
	}
	return before, s
}

func TestRepetition(t *testing.T) {
	// Kings go to and fro; the men stay out of the way.
	board := `
 B . . . .
. . . . b
 . . . . b
. . . . .
 . . . . .
. . . . .
 w . . . .
w . . . .
 . . . . .
. . . . W
White to move`
	s := stateAt(t, diagram(t, board))
	cycle := []string{"50-44", "1-7", "44-50", "7-1"}
	s = play(t, s, cycle...)
	s = play(t, s, cycle[:3]...)
	if _, over := s.Result(); over {
		t.Fatalf("over after 7 plies, the start position seen twice")
	}
	s = play(t, s, cycle[3])
	r, over := s.Result()
	want := game.Result{Winner: game.NoSide, Reason: ByRepetition, Text: "1-1"}
	if !over || r != want {
		t.Fatalf("after the third repetition Result() = %+v, %v, want %+v", r, over, want)
	}
	if s.ToMove() != game.NoSide || len(s.Legal()) != 0 {
		t.Errorf("a drawn game still has a side to move or legal moves")
	}
	if _, _, err := s.Play(0, "50-44"); !errors.Is(err, game.ErrOver) || !errors.Is(err, ErrGameOver) {
		t.Errorf("Play after the end = %v, want ErrGameOver", err)
	}
	// After a man's move, positions count afresh.
	s = stateAt(t, diagram(t, board))
	s = play(t, s, cycle...)
	s = play(t, s, "31-26", "1-7", "50-44", "7-1", "44-50", "1-7", "50-44", "7-1")
	if _, over := s.Result(); over {
		t.Errorf("over with the position after 31-26 seen twice")
	}
	s = play(t, s, "44-50")
	if r, _ := s.Result(); r.Reason != ByRepetition {
		t.Errorf("the position after 31-26 seen three times: Result() = %+v", r)
	}
}

func TestTwentyFiveMoveRule(t *testing.T) {
	board := `
 B . . . .
. . . . b
 . . . . b
. . . . .
 . . . . .
. . . . .
 . . . . .
w . . . .
 w . . . .
. . . . W
White to move`
	s := stateAt(t, diagram(t, board))
	before, after := wander(t, s, 50)
	if _, over := before.Result(); over {
		t.Fatalf("over after 49 plies of kings")
	}
	if c := before.Counters(); c.KingMoves != 49 {
		t.Errorf("after 49 king moves, Counters = %+v", c)
	}
	r, over := after.Result()
	want := game.Result{Winner: game.NoSide, Reason: By25Moves, Text: "1-1"}
	if !over || r != want {
		t.Fatalf("after 50 plies of kings Result() = %+v, %v, want %+v", r, over, want)
	}
	// A man's move resets the count.
	s = play(t, s, "36-31")
	if c := s.Counters(); c.KingMoves != 0 {
		t.Errorf("after a man's move, KingMoves = %d", c.KingMoves)
	}
}

func TestEndgameRules(t *testing.T) {
	tests := []struct {
		name  string
		board string
		rule  Endgame
		plies int
		want  game.Reason
	}{{
		name: "three kings against one: 16 moves each",
		board: `
 . . B . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . W W W
White to move`,
		rule: Endgame16, plies: 32, want: By16Moves,
	}, {
		name: "a king and two men against a king: 16 moves each",
		board: `
 . . B . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
w . . . .
 w . . . .
. . W . .
White to move`,
		rule: Endgame16, plies: 32, want: By16Moves,
	}, {
		name: "two kings against one: 5 moves each",
		board: `
 . . B . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . W W .
White to move`,
		rule: Endgame5, plies: 10, want: By5Moves,
	}, {
		name: "Black's three against White's king",
		board: `
 . B B . .
. . . b .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . W . .
Black to move`,
		rule: Endgame16, plies: 32, want: By16Moves,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stateAt(t, diagram(t, tt.board))
			if c := s.Counters(); c.Endgame != tt.rule {
				t.Fatalf("Counters() = %+v, want endgame %v", c, tt.rule)
			}
			before, after := wander(t, s, tt.plies)
			if _, over := before.Result(); over {
				t.Fatalf("over after %d plies", tt.plies-1)
			}
			r, over := after.Result()
			want := game.Result{Winner: game.NoSide, Reason: tt.want, Text: "1-1"}
			if !over || r != want {
				t.Fatalf("after %d plies Result() = %+v, %v, want %+v", tt.plies, r, over, want)
			}
		})
	}
}

// TestEndgameOf sorts the material as FMJD 6.3 and 6.4 do: a lone king
// against three pieces with a king among them (16 moves), against two
// pieces or one with a king among them (5 moves); anything else, a lone
// man or no king on the other side, falls under neither.
func TestEndgameOf(t *testing.T) {
	for _, tt := range []struct {
		fen  string
		want Endgame
	}{
		{"W:WK46,K47,K48:BK5", Endgame16}, // three kings
		{"W:WK46,K47,38:BK5", Endgame16},  // two kings and a man
		{"W:WK46,37,38:BK5", Endgame16},   // a king and two men
		{"B:WK46:BK5,K4,14", Endgame16},   // Black's three
		{"W:WK46,K47:BK5", Endgame5},      // two kings
		{"W:WK46,38:BK5", Endgame5},       // a king and a man
		{"W:WK46:BK5", Endgame5},          // king against king
		{"B:WK46:BK5,14", Endgame5},       // Black's king and man
		{"W:W36,37,38:BK5", NoEndgame},    // three men
		{"W:W37,38:BK5", NoEndgame},       // two men
		{"W:W38:BK5", NoEndgame},          // a man
		{"W:WK46,K47,K48:B5", NoEndgame},  // the lone piece is a man
		{"W:WK46,K47,K48,K49:BK5", NoEndgame},
		{"W:WK46,K47:BK5,K4", NoEndgame},
		{"W:WK46,38:BK5,14", NoEndgame},
	} {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatalf("ParseFEN(%s) = %v", tt.fen, err)
		}
		if got := EndgameOf(&p); got != tt.want {
			t.Errorf("EndgameOf(%s) = %v, want %v", tt.fen, got, tt.want)
		}
	}
}

// TestEndgameRulesInPlay plays games into the endgame rules (FMJD 6.3
// and 6.4, as lidraughts counts them): the count starts with the capture
// or the crowning that makes the material, runs on while the material
// stays under the same rule (a second king crowned, the lone king taking
// the man of a king and a man), starts again when the lone king's capture
// turns three against one into two against one, and the game is drawn
// after exactly 16 (or 5) moves of each side from there, not a ply
// sooner. The count survives a reload of the game.
func TestEndgameRulesInPlay(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string // the moves that reach the rule
		rule  Endgame  // the rule after them
		plies int      // the plies counted under it after them
		want  game.Reason
	}{{
		name:  "a capture leaves two kings and a man against a king",
		fen:   "W:WK46,28,K50:BK1,23",
		moves: []string{"28x19"},
		rule:  Endgame16, plies: 0, want: By16Moves,
	}, {
		name:  "three men against a king: the count starts when one is crowned",
		fen:   "W:W6,48,49:BK45",
		moves: []string{"6-1"},
		rule:  Endgame16, plies: 0, want: By16Moves,
	}, {
		name:  "a second man crowned: the count runs on",
		fen:   "W:W6,7,8:BK45",
		moves: []string{"6-1", "45-40", "7-2"},
		rule:  Endgame16, plies: 2, want: By16Moves,
	}, {
		name:  "the lone king takes one of three: 5 moves each from the capture",
		fen:   "W:WK46,28,K50:BK1,23",
		moves: []string{"28x19", "1-6", "19-13", "6-1", "46-23", "1x29"},
		rule:  Endgame5, plies: 0, want: By5Moves,
	}, {
		name:  "a capture leaves a king and a man against a king",
		fen:   "W:WK46,28:BK1,23",
		moves: []string{"28x19"},
		rule:  Endgame5, plies: 0, want: By5Moves,
	}, {
		name:  "the lone king takes the man: the count runs on, king against king",
		fen:   "W:WK46,28:BK1,23",
		moves: []string{"28x19", "1-18", "19-13", "18x9"},
		rule:  Endgame5, plies: 3, want: By5Moves,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewState(game.Options{"fen": tt.fen}, 0)
			if err != nil {
				t.Fatalf("NewState(%s) = %v", tt.fen, err)
			}
			s = play(t, s, tt.moves...)
			if c := s.Counters(); c.Endgame != tt.rule || c.Plies != tt.plies {
				t.Fatalf("after %v: Counters() = %+v, want endgame %v, %d plies", tt.moves, c, tt.rule, tt.plies)
			}
			limit := 32 // 16 moves each, in plies
			if tt.rule == Endgame5 {
				limit = 10 // 5 moves each
			}
			before, after := wander(t, s, limit-tt.plies)
			if r, over := before.Result(); over {
				t.Fatalf("over after %d plies under the rule: %+v", limit-1, r)
			}
			if c := before.Counters(); c.Endgame != tt.rule || c.Plies != limit-1 {
				t.Errorf("a ply before the draw: Counters() = %+v, want %d plies", c, limit-1)
			}
			r, over := after.Result()
			want := game.Result{Winner: game.NoSide, Reason: tt.want, Text: "1-1"}
			if !over || r != want {
				t.Fatalf("after %d plies under the rule Result() = %+v, %v, want %+v", limit, r, over, want)
			}
			// Reloaded a ply before, the game is drawn by the same move.
			b, err := before.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			d, err := DecodeState(b)
			if err != nil {
				t.Fatalf("DecodeState(%s) = %v", b, err)
			}
			if d.Counters() != before.Counters() {
				t.Errorf("reloaded: Counters() = %+v, want %+v", d.Counters(), before.Counters())
			}
			moves := after.Moves()
			if r, _ := play(t, d, string(moves[len(moves)-1])).Result(); r != want {
				t.Errorf("reloaded, then the last move: Result() = %+v, want %+v", r, want)
			}
		})
	}
}

// TestEndgameWinOnLastMove: the move that would complete the count but
// takes the lone king wins; the rules draw only a game still going.
func TestEndgameWinOnLastMove(t *testing.T) {
	s, err := NewState(game.Options{"fen": "W:WK46,28:BK1,23"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 28x19 leaves a king and a man against a king, Black to move: the
	// tenth ply after it is White's fifth move, 11x2, taking the king.
	s = play(t, s, "28x19", "1-6", "19-13", "6-1", "13-8", "1-6", "8-2", "6-1", "2-11", "1-7")
	if c := s.Counters(); c.Endgame != Endgame5 || c.Plies != 9 {
		t.Fatalf("before the last move: Counters() = %+v, want the 5-move rule, 9 plies", c)
	}
	s = play(t, s, "11x2")
	want := game.Result{Winner: game.Side(White), Reason: game.ByRule, Text: "2-0"}
	if r, over := s.Result(); !over || r != want {
		t.Errorf("after 11x2: Result() = %+v, %v, want %+v", r, over, want)
	}
}

func TestEndgameCountStartsWhenReached(t *testing.T) {
	// White's 4 kings against a king: no rule. 10x? takes nothing; the
	// count starts when a capture leaves three against one.
	p := diagram(t, `
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
. . . . .
 . . . . .
W W W W .
White to move`)
	if e := EndgameOf(&p); e != NoEndgame {
		t.Errorf("4 kings against none: EndgameOf = %v", e)
	}
	c := Counters{Endgame: Endgame5, Plies: 7}
	q, _ := ParseFEN("B:WK46,K47,K48:BK5")
	m := Move{From: 10, To: 5}
	before, _ := ParseFEN("B:WK46,K47,K48:BK10")
	if n := c.After(&before, m, &q); n.Endgame != Endgame16 || n.Plies != 0 || n.KingMoves != 1 {
		t.Errorf("entering the 16-move rule from the 5-move rule: %+v", n)
	}
	c = Counters{Endgame: Endgame16, Plies: 7, KingMoves: 7}
	if n := c.After(&before, m, &q); n.Endgame != Endgame16 || n.Plies != 8 || n.KingMoves != 8 {
		t.Errorf("staying under the 16-move rule: %+v", n)
	}
}

func TestNoMoveLoses(t *testing.T) {
	tests := []struct {
		fen    string
		winner game.Side
		text   string
	}{
		{"W:W46:B41,37", 1, "0-2"}, // White's only man is blocked
		{"W:W:B1", 1, "0-2"},       // White has no piece
		{"B:W45:B", 0, "2-0"},      // Black has no piece
	}
	for _, tt := range tests {
		s, err := NewState(game.Options{"fen": tt.fen}, 0)
		if err != nil {
			t.Fatalf("NewState(%s) = %v", tt.fen, err)
		}
		r, over := s.Result()
		want := game.Result{Winner: tt.winner, Reason: game.ByRule, Text: tt.text}
		if !over || r != want {
			t.Errorf("%s: Result() = %+v, %v, want %+v", tt.fen, r, over, want)
		}
	}
	// Taking the last piece wins, and says so.
	s, _ := NewState(game.Options{"fen": "W:W28:B23"}, 0)
	n, facts, err := s.Play(0, "28x19")
	if err != nil {
		t.Fatal(err)
	}
	if r, over := n.Result(); !over || r.Text != "2-0" || r.Reason != game.ByRule {
		t.Errorf("after taking the last piece: %+v %v", r, over)
	}
	want := []game.Fact{
		{Kind: "capture", Text: "White 28x19 captures 1 piece"},
		{Kind: "end", Text: "Black cannot move: White wins 2-0"},
	}
	if len(facts) != len(want) || facts[0] != want[0] || facts[1] != want[1] {
		t.Errorf("facts = %+v, want %+v", facts, want)
	}
}

func TestEnd(t *testing.T) {
	s, _ := NewState(nil, 0)
	for _, tt := range []struct {
		r    game.Result
		text string
	}{
		{game.Result{Winner: game.NoSide, Reason: game.ByAgreement}, "1-1"},
		{game.Result{Winner: 0, Reason: game.ByResignation}, "2-0"},
		{game.Result{Winner: 1, Reason: game.ByTime}, "0-2"},
	} {
		e, err := s.End(tt.r)
		if err != nil {
			t.Fatalf("End(%+v) = %v", tt.r, err)
		}
		r, over := e.Result()
		if !over || r.Text != tt.text || r.Winner != tt.r.Winner || r.Reason != tt.r.Reason {
			t.Errorf("End(%+v): Result() = %+v, %v, want text %s", tt.r, r, over, tt.text)
		}
		if _, err := e.End(tt.r); !errors.Is(err, game.ErrOver) {
			t.Errorf("End twice = %v, want game.ErrOver", err)
		}
		// The JSON keeps it.
		b, _ := e.MarshalJSON()
		d, err := Kind{}.Decode(b)
		if err != nil {
			t.Fatalf("Decode(%s) = %v", b, err)
		}
		if r2, _ := d.Result(); r2 != r {
			t.Errorf("decoded result %+v, want %+v", r2, r)
		}
	}
	if _, err := s.End(game.Result{Winner: 5, Reason: game.ByResignation}); !errors.Is(err, ErrResult) {
		t.Errorf("End(winner 5) = %v, want ErrResult", err)
	}
}
