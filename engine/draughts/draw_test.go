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
