package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// endedGame builds a game from a diagram (see enginetest.Diagram) under
// rules, Black to move and seed 1, and ends play with two passes. It
// returns the stones marked x and o, from A1.
func endedGame(t *testing.T, diagram string, rules Rules) (*Game, []Point) {
	t.Helper()
	d := enginetest.Parse(t, diagram)
	g := d.Game(t, enginetest.Rules(rules), enginetest.Seed(1))
	for i := 0; i < 2; i++ {
		if err := g.Play(PassMove(g.ToPlay())); err != nil {
			t.Fatalf("pass: %v", err)
		}
	}
	return g, d.Marked
}

// estimatedPhase begins the scoring phase of g with the estimate's
// proposal.
func estimatedPhase(g *Game, opts estimate.Options) (*ScoringPhase, error) {
	return NewScoringPhase(g, estimate.Dead(context.Background(), g, opts))
}

// mustPhase is estimatedPhase for a game whose play has ended: an error
// ends the test.
func mustPhase(t *testing.T, g *Game, opts estimate.Options) *ScoringPhase {
	t.Helper()
	s, err := estimatedPhase(g, opts)
	if err != nil {
		t.Fatalf("NewScoringPhase: %v", err)
	}
	return s
}

// pointList writes points as a GTP list: "B2 G7".
func pointList(ps []Point) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

func TestScoringPhaseToggleAndAccept(t *testing.T) {
	g, want := endedGame(t, enginetest.Territory, DefaultRules())
	s := mustPhase(t, g, estimate.Options{})
	if got := pointList(s.Dead()); got != pointList(want) {
		t.Fatalf("proposal Dead() = %s, want %s\n%v", got, pointList(want), g.Board())
	}
	if !s.IsProposal() {
		t.Errorf("IsProposal() = false at the start")
	}
	if agreed, err := s.Accept(Black); agreed || err != nil {
		t.Fatalf("Accept(Black) = %v, %v, want false, nil", agreed, err)
	}
	// Bringing G7 back revives H6 with it: they are dead together.
	changed, err := s.Toggle(g, Point{6, 6})
	if err != nil {
		t.Fatalf("Toggle(G7): %v", err)
	}
	if got, want := pointList(changed), "H6 G7"; got != want {
		t.Errorf("Toggle(G7) changed %s, want %s", got, want)
	}
	if s.Accepted(Black) {
		t.Errorf("Accepted(Black) still true after a change")
	}
	if got, want := pointList(s.Dead()), "B2"; got != want {
		t.Errorf("Dead() after toggle = %s, want %s", got, want)
	}
	// And marking H6 dead again takes G7 along.
	changed, err = s.Toggle(g, Point{7, 5})
	if err != nil {
		t.Fatalf("Toggle(H6): %v", err)
	}
	if got, want := pointList(changed), "H6 G7"; got != want {
		t.Errorf("Toggle(H6) changed %s, want %s", got, want)
	}
	// Marking an alive wall dead takes just its chain (the rest of Black's
	// stones are not in White's area).
	changed, err = s.Toggle(g, Point{2, 8})
	if err != nil {
		t.Fatalf("Toggle(C9): %v", err)
	}
	if got := len(changed); got == 0 || !slices.Contains(changed, Point{2, 8}) {
		t.Errorf("Toggle(C9) changed %s", pointList(changed))
	}
	if _, err := s.Toggle(g, Point{2, 8}); err != nil {
		t.Fatalf("Toggle(C9) back: %v", err)
	}
	if got := pointList(s.Dead()); got != pointList(want) {
		t.Errorf("Dead() after toggling back = %s, want %s", got, pointList(want))
	}
	marking := s.Marking()
	if agreed, _ := s.Accept(White); agreed {
		t.Errorf("Accept(White) alone agreed")
	}
	if agreed, _ := s.Accept(Black); !agreed {
		t.Errorf("Accept(White), Accept(Black) did not agree")
	}
	if s.Marking() != marking {
		t.Errorf("Accept changed Marking() from %d to %d", marking, s.Marking())
	}
	sc, err := s.Finish(g)
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	r, ok := g.Result()
	if !ok || r.Winner != sc.Winner || r.Margin != sc.Margin || r.Reason != ByScore {
		t.Errorf("Result() = %+v, %v after Finish, want %v by score", r, ok, sc)
	}
	if err := s.Check(g); !errors.Is(err, ErrGameOver) {
		t.Errorf("Check after Finish = %v, want ErrGameOver", err)
	}
}

func TestScoringPhaseErrors(t *testing.T) {
	g, _ := endedGame(t, enginetest.Territory, DefaultRules())
	s := mustPhase(t, g, estimate.Options{Playouts: 50})
	before, _ := json.Marshal(s)
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"toggle empty point", func() error { _, err := s.Toggle(g, Point{0, 0}); return err }, ErrNoStone},
		{"toggle off board", func() error { _, err := s.Toggle(g, Point{9, 0}); return err }, ErrInvalidCoordinates},
		{"accept empty", func() error { _, err := s.Accept(Empty); return err }, ErrInvalidColor},
		{"set dead off board", func() error { return s.SetDead(g, []Point{{-1, 3}}) }, ErrInvalidCoordinates},
		{"other game", func() error {
			other, _ := endedGame(t, enginetest.Territory, DefaultRules())
			other.Resume()
			_, err := s.Toggle(other, Point{6, 6})
			return err
		}, ErrScoringStale},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.do(); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			after, _ := json.Marshal(s)
			if string(after) != string(before) {
				t.Errorf("state changed:\n%s\nwant\n%s", after, before)
			}
		})
	}
	playing := enginetest.Game(t, enginetest.Territory, enginetest.Seed(1))
	if _, err := estimatedPhase(playing, estimate.Options{}); !errors.Is(err, ErrPlayNotEnded) {
		t.Errorf("NewScoringPhase during play = %v, want ErrPlayNotEnded", err)
	}
}

func TestScoringPhaseJSON(t *testing.T) {
	g, _ := endedGame(t, enginetest.Territory, DefaultRules())
	s := mustPhase(t, g, estimate.Options{Playouts: 100})
	if _, err := s.Toggle(g, Point{1, 1}); err != nil {
		t.Fatal(err)
	}
	s.Accept(White)
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, data)
	if err := back.Check(g); err != nil {
		t.Errorf("Check after round trip: %v", err)
	}
	if !back.Accepted(White) || back.Accepted(Black) {
		t.Errorf("acceptances lost in round trip: %s", data)
	}
	bad := []string{
		`{"size":40,"hash":"0"}`,
		`{"size":9,"hash":"zz"}`,
		`{"size":9,"hash":"1","dead":["Z99"]}`,
		`{"size":9,"hash":"1","accepted":[""]}`,
		`{"size":9,"hash":"1","ownership":[1,2,3]}`,
	}
	for _, in := range bad {
		keep := *back
		if err := json.Unmarshal([]byte(in), &keep); !errors.Is(err, ErrInvalidState) {
			t.Errorf("Unmarshal(%s) = %v, want ErrInvalidState", in, err)
		}
		if got, _ := json.Marshal(&keep); string(got) != string(data) {
			t.Errorf("Unmarshal(%s) changed the phase", in)
		}
	}
}

func TestFormatScore(t *testing.T) {
	g, _ := endedGame(t, enginetest.Territory, DefaultRules())
	jp, _ := Preset("japanese")
	gj, _ := endedGame(t, enginetest.Territory, jp)
	tests := []struct {
		name string
		g    *Game
		want []string
	}{
		{"area", g, []string{"Black: ", " stones + ", " territory = ", "White: ", "7.5 komi", "Dead stones removed: 2 black, 1 white", "Result: "}},
		{"territory", gj, []string{" territory + ", " prisoners + ", " dead = ", "6.5 komi", "Result: "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustPhase(t, tc.g, estimate.Options{})
			got, err := s.Breakdown(tc.g)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Breakdown() =\n%s\nwant it to contain %q", got, w)
				}
			}
			sc, _ := s.Score(tc.g)
			if !strings.HasSuffix(got, "Result: "+sc.String()) {
				t.Errorf("Breakdown() =\n%s\nwant it to end with the result %s", got, sc)
			}
		})
	}
}

func TestDescribeResult(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Winner: Black, Reason: ByScore, Margin: 3.5}, "B+3.5"},
		{Result{Winner: White, Reason: ByResignation}, "W+R"},
		{Result{Winner: White, Reason: ByTime}, "W+T"},
		{Result{Winner: Empty, Reason: ByScore}, "Jigo"},
	}
	for _, tc := range tests {
		if got := DescribeResult(tc.r); got != tc.want {
			t.Errorf("DescribeResult(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// The scoring phase after two passes: the estimate proposes dead stones, a
// player toggles a group, both accept, and the game ends with the count.
func ExampleScoringPhase() {
	g, _ := NewGame(Config{Size: 9, Rules: DefaultRules(), Seed: 1})
	// Black's invasion at G3 fails inside White's area.
	for _, s := range []string{
		"B C5", "W E5", "B C4", "W E4", "B C6", "W E6", "B C3", "W E3", "B C7", "W E7",
		"B C2", "W E2", "B C8", "W E8", "B C1", "W E1", "B C9", "W E9", "B G3", "W pass", "B pass",
	} {
		c, v, _ := strings.Cut(s, " ")
		col, _ := ParseColor(c)
		m, _ := ParseMove(col, v, 9)
		if err := g.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	s, err := estimatedPhase(g, estimate.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("proposed dead:", s.Dead())
	changed, _ := s.Toggle(g, Point{Col: 6, Row: 2}) // G3: "that stone is alive"
	fmt.Println("toggled:", changed, "dead now:", s.Dead())
	s.Toggle(g, Point{Col: 6, Row: 2}) // "no, it is dead after all"
	s.Accept(Black)
	agreed, _ := s.Accept(White)
	fmt.Println("agreed:", agreed)
	breakdown, _ := s.Breakdown(g)
	fmt.Println(breakdown)
	s.Finish(g)
	r, _ := g.Result()
	fmt.Println(DescribeResult(r))
	// Output:
	// proposed dead: [G3]
	// toggled: [G3] dead now: []
	// agreed: true
	// Black: 9 stones + 18 territory = 27
	// White: 9 stones + 36 territory + 7.5 komi = 52.5
	// Dead stones removed: 1 black, 0 white
	// Neutral points: 9
	// Result: W+25.5
	// W+25.5
}

// TestScoringPhaseFromList starts from a bare list of dead stones, as an
// external engine gives them: groups follow the areas of the marking.
func TestScoringPhaseFromList(t *testing.T) {
	g, _ := endedGame(t, enginetest.Territory, DefaultRules())
	s, err := NewScoringPhase(g, Estimate{Dead: []Point{{6, 6}, {1, 1}, {0, 0}}}) // G7, B2 and an empty A1
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pointList(s.Dead()), "B2 G7"; got != want {
		t.Fatalf("Dead() = %s, want %s", got, want)
	}
	if s.Ownership() != nil {
		t.Errorf("Ownership() = %v, want nil without an estimate", s.Ownership())
	}
	changed, err := s.Toggle(g, Point{7, 5}) // H6: its area is not White's yet
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pointList(changed), "H6"; got != want {
		t.Errorf("Toggle(H6) changed %s, want %s", got, want)
	}
	changed, err = s.Toggle(g, Point{6, 6}) // G7 back: H6 lies with it in White's area
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pointList(changed), "H6 G7"; got != want {
		t.Errorf("Toggle(G7) changed %s, want %s", got, want)
	}
	if _, err := NewScoringPhase(g, Estimate{Dead: []Point{{9, 9}}}); !errors.Is(err, ErrInvalidCoordinates) {
		t.Errorf("NewScoringPhase(J10 on 9×9) = %v, want ErrInvalidCoordinates", err)
	}
	if _, err := NewScoringPhase(g, Estimate{Ownership: make([]float64, 3)}); !errors.Is(err, ErrInvalidState) {
		t.Errorf("NewScoringPhase(3 ownership values) = %v, want ErrInvalidState", err)
	}
}

// roundTrip decodes a scoring phase from data, which must encode it again
// as data.
func roundTrip(t *testing.T, data []byte) *ScoringPhase {
	t.Helper()
	var back ScoringPhase
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("Unmarshal(%s): %v", data, err)
	}
	again, _ := json.Marshal(&back)
	if string(again) != string(data) {
		t.Fatalf("round trip:\n%s\nwant\n%s", again, data)
	}
	return &back
}

// FuzzScoringPhaseJSON feeds arbitrary JSON to UnmarshalJSON: it must never
// panic, and what it accepts must survive a round trip.
func FuzzScoringPhaseJSON(f *testing.F) {
	f.Add([]byte(`{"size":9,"move_count":40,"hash":"1f","dead":["C3","D4"],"proposal":["C3"],"accepted":["B"],"marking":2}`))
	f.Add([]byte(`{"size":19,"hash":"0","dead":[],"ownership":[1,2]}`))
	f.Add([]byte(`{"size":2,"hash":"ffffffffffffffff","seki":["A1","B2"],"uncertain":["A2"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s ScoringPhase
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		out, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("Marshal after Unmarshal(%s): %v", data, err)
		}
		roundTrip(t, out)
	})
}

// TestFormatScoreNegativeKomi: a negative komi is taken from White's sum,
// as a sum is written ("− 3.5 komi"), not added as "+ -3.5 komi".
func TestFormatScoreNegativeKomi(t *testing.T) {
	sc := Score{Scoring: TerritoryScoring, Komi: -3.5,
		Black: Side{Territory: 45, Total: 45},
		White: Side{Territory: 37, Total: 33.5}}
	got := FormatScore(sc, 0, 0)
	if want := "White: 37 territory + 0 prisoners + 0 dead \u2212 3.5 komi = 33.5\n"; !strings.Contains(got, want) {
		t.Errorf("FormatScore =\n%s\nwant it to contain %q", got, want)
	}
	sc.Komi = 6.5
	if want := "White: 37 territory + 0 prisoners + 0 dead + 6.5 komi = 33.5\n"; !strings.Contains(FormatScore(sc, 0, 0), want) {
		t.Errorf("FormatScore =\n%s\nwant it to contain %q", FormatScore(sc, 0, 0), want)
	}
}
