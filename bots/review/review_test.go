package review

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// alternate returns n movers, Black first.
func alternate(n int) []engine.Color {
	out := make([]engine.Color, n)
	for i := range out {
		out[i] = engine.Black
		if i%2 == 1 {
			out[i] = engine.White
		}
	}
	return out
}

func TestSelectMistakes(t *testing.T) {
	tests := []struct {
		name string
		wr   []float64 // Black's chance after 0, 1, 2, … moves
		want []Mistake // Number, Color, Loss (rounded to 0.01)
	}{
		{
			name: "one blunder each",
			// Move 3 (Black) drops Black from 0.60 to 0.20; move 6
			// (White) gives back 0.50 of White's chance, move 2 0.08.
			wr: []float64{0.50, 0.52, 0.60, 0.20, 0.22, 0.25, 0.75, 0.76},
			want: []Mistake{
				{Number: 3, Color: engine.Black, Loss: 0.40},
				{Number: 6, Color: engine.White, Loss: 0.50},
				{Number: 2, Color: engine.White, Loss: 0.08},
			},
		},
		{
			name: "top three by loss, earlier first on a tie, noise ignored",
			wr: []float64{
				0.50,
				0.40, 0.40, // 1 B -0.10
				0.30, 0.30, // 3 B -0.10 (tie with 1)
				0.28, 0.28, // 5 B -0.02: noise
				0.10, 0.10, // 7 B -0.18
				0.05, 0.05, // 9 B -0.05
				0.06, // 11 B gains
			},
			want: []Mistake{
				{Number: 7, Color: engine.Black, Loss: 0.18},
				{Number: 1, Color: engine.Black, Loss: 0.10},
				{Number: 3, Color: engine.Black, Loss: 0.10},
			},
		},
		{name: "a game without mistakes", wr: []float64{0.5, 0.51, 0.5, 0.52, 0.5}},
		{name: "no moves", wr: []float64{0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelectMistakes(tt.wr, alternate(len(tt.wr)-1), 3, MinLoss)
			for i := range got {
				got[i].Loss = float64(int(got[i].Loss*100+0.5)) / 100
				got[i].Before, got[i].After = 0, 0
			}
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SelectMistakes(%v) = %+v, want %+v", tt.wr, got, tt.want)
			}
		})
	}
	// A series of points works the same way.
	got := SelectMistakes([]float64{0, 2, 9, 9, 9, -3}, alternate(5), 3, MinPoints)
	if want := []Mistake{{Number: 5, Color: engine.Black, Loss: 12}, {Number: 2, Color: engine.White, Loss: 7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("SelectMistakes on points = %+v, want %+v", got, want)
	}
}

func TestSwingsAndTurn(t *testing.T) {
	wr := []float64{0.5, 0.55, 0.3, 0.35, 0.8, 0.75, 0.95}
	if got, want := Swings(wr, 3), []int{4, 2, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("Swings = %v, want %v", got, want)
	}
	// A turn spread over three moves (as unbias spreads one) is one swing,
	// and a move next to it that turns the other way is another.
	spread := []float64{0.5, 0.5, 0.55, 0.7, 0.75, 0.75, 0.7, 0.7, 0.62, 0.6, 0.61}
	if got, want := Swings(spread, 3), []int{3, 8, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("Swings of spread turns = %v, want %v", got, want)
	}
	if got, want := Swings([]float64{0.5, 0.6, 0.7, 0.8}, 3), []int{1}; !reflect.DeepEqual(got, want) {
		t.Errorf("Swings of a steady rise = %v, want %v", got, want)
	}
	if got := TurningPoint(wr, engine.Black); got != 4 {
		t.Errorf("TurningPoint(Black) = %d, want 4", got)
	}
	if got := TurningPoint([]float64{0.5, 0.6, 0.7, 0.9}, engine.Black); got != 1 {
		t.Errorf("TurningPoint of a lead from move 1 = %d, want 1", got)
	}
	if got := TurningPoint([]float64{0.6, 0.6, 0.7}, engine.Black); got != 0 {
		t.Errorf("TurningPoint of a lead from the start = %d, want 0", got)
	}
	if got := TurningPoint([]float64{0.6, 0.6, 0.7}, engine.White); got != -1 {
		t.Errorf("TurningPoint of White winning from behind at the end = %d, want -1", got)
	}
	avg := AverageLoss([]float64{0.5, 0.4, 0.6, 0.6, 0.9}, alternate(4))
	if want := [2]float64{0.05, 0.25}; avg[0] < want[0]-1e-9 || avg[0] > want[0]+1e-9 || avg[1] < want[1]-1e-9 || avg[1] > want[1]+1e-9 {
		t.Errorf("AverageLoss = %v, want %v", avg, want)
	}
}

// fixed is an Evaluator that returns Black's chances from a list, and a
// lead of 40 points times the chance less 20.
type fixed struct{ wr []float64 }

func (f fixed) Name(int) string { return "fixed" }
func (f fixed) Evaluate(ctx context.Context, g *engine.Game) (Evaluation, error) {
	if err := ctx.Err(); err != nil {
		return Evaluation{}, err
	}
	best := engine.PlaceAt(g.ToPlay(), engine.Point{Col: 0, Row: 0})
	return Evaluation{Winrate: f.wr[g.MoveCount()], Score: 40*f.wr[g.MoveCount()] - 20, Best: best,
		PV: []engine.Move{best, engine.PassMove(g.ToPlay().Opponent())}}, nil
}

func playGame(t *testing.T, size int, moves ...string) *engine.Game {
	t.Helper()
	return enginetest.NewGame(t, engine.Config{Size: size, Rules: engine.DefaultRules()}, moves...)
}

func TestRun(t *testing.T) {
	g := playGame(t, 9, "E5", "C3", "G7", "D4", "resign")
	var progress []string
	r, err := Run(context.Background(), g, fixed{wr: []float64{0.5, 0.6, 0.55, 0.2, 0.3}}, func(done, total int) {
		progress = append(progress, strings.Repeat("#", done)+"/"+strings.Repeat("#", total))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 6 || progress[0] != "/#####" || progress[5] != "#####/#####" {
		t.Errorf("progress = %q", progress)
	}
	if len(r.Positions) != 5 || len(r.Moves) != 4 || r.Moves[3] != (Played{engine.White, "D4"}) {
		t.Fatalf("review: %d positions, moves %v", len(r.Positions), r.Moves)
	}
	want := []Mistake{{Number: 3, Color: engine.Black, Move: "G7", Before: 0.55, After: 0.2, Loss: 14, Best: "A1", PV: []string{"A1", "pass"}}}
	if len(r.Mistakes) != 2 || r.Mistakes[1].Number != 4 || r.Mistakes[1].Color != engine.White || r.Mistakes[0].Number != 3 || r.Mistakes[0].Move != "G7" || r.Mistakes[0].Best != "A1" ||
		!reflect.DeepEqual(r.Mistakes[0].PV, want[0].PV) || r.Mistakes[0].Loss != 14 || r.Mistakes[0].Before != 0.55 || r.Mistakes[0].After != 0.2 {
		t.Errorf("mistakes = %+v, want %+v", r.Mistakes, want)
	}
	s := r.Summary
	if s.Winner != engine.White || !s.Resigned || s.Turn != 3 || s.Swing != 3 {
		t.Errorf("summary = %+v, want White's win by resignation turning at move 3", s)
	}
	p := r.Paragraph()
	for _, want := range []string{"The game turned at move 3 (B G7): White took the lead", "the engine estimated the score at about W+8", "Black 17.5%, White 5.0%"} {
		if !strings.Contains(p, want) {
			t.Errorf("Paragraph() = %q, want it to contain %q", p, want)
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Review
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(&back, r) {
		t.Errorf("JSON round trip: %v\n%+v\n%+v", err, &back, r)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, g, fixed{wr: []float64{0.5, 0.6, 0.55, 0.2, 0.3}}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestRunMCTS reviews a short real game twice with the built-in engine:
// the same review both times.
func TestRunMCTS(t *testing.T) {
	g := playGame(t, 9, "E5", "E4", "D4", "D5", "C5", "F5", "pass", "pass")
	ev := MCTS{Playouts: 300, Seed: 1}
	r1, err := Run(context.Background(), g, ev, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Run(context.Background(), g, ev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r1, r2) {
		t.Errorf("two reviews of one game differ")
	}
	if r1.Engine != "mcts 300 playouts" || len(r1.Positions) != 9 {
		t.Errorf("engine %q, %d positions", r1.Engine, len(r1.Positions))
	}
	if last := r1.Positions[8]; last.Best != "" || last.PV != nil {
		t.Errorf("position after two passes has best %q PV %v, want none", last.Best, last.PV)
	}
}

// deadStonesMoves is a 9×9 game that both players passed out with a dead
// stone in each other's area: Black's H2 and White's B7. Counted with them
// dead, Black has 45 points and White 36 + 7.5 komi: B+1.5.
var deadStonesMoves = []string{"E5", "F5", "E6", "F6", "E4", "F4", "E7", "F7", "E3", "F3",
	"E8", "F8", "E2", "F2", "E9", "F9", "E1", "F1", "H2", "B7", "pass", "pass"}

// TestRunScoredGameWithDeadStones: the last position of a game decided by
// counting is its result, not the engine's guess, and the two passes that
// ended it are neither mistakes nor swings.
func TestRunScoredGameWithDeadStones(t *testing.T) {
	g := playGame(t, 9, deadStonesMoves...)
	if err := g.End(engine.Result{Winner: engine.Black, Reason: engine.ByScore, Margin: 1.5}); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), g, MCTS{Playouts: 500, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last := r.Positions[len(r.Positions)-1]; last.Winrate != 1 || last.Score != 1.5 {
		t.Errorf("last position: Black's chance %v, score %v; want 1 and 1.5 (the result)", last.Winrate, last.Score)
	}
	for _, m := range r.Mistakes {
		if m.Number > 20 {
			t.Errorf("the closing pass %d (%s) is a mistake: %+v", m.Number, m.Move, m)
		}
	}
	if s := r.Summary; s.Winner != engine.Black || s.Turn < 0 || s.Swing > 20 || s.FinalScore != 1.5 {
		t.Errorf("summary %+v: want Black the winner, ahead at the end, the swing a move before the passes, final score 1.5", s)
	}
	if p := r.Paragraph(); strings.Contains(p, "although") || strings.Contains(p, "pass") {
		t.Errorf("paragraph %q", p)
	}
}

// TestRunPassedAwayGame: two passes that give away a game still open
// are judged as moves: here White passes on a board holding one black
// stone and loses it all (B+73.5). The review must not say that Black won
// "although the engine saw White ahead at the end", nor leave the
// passes out: the game turned at White's pass, which is a mistake.
func TestRunPassedAwayGame(t *testing.T) {
	g := playGame(t, 9, "J9", "pass", "pass")
	if err := g.End(engine.Result{Winner: engine.Black, Reason: engine.ByScore, Margin: 73.5}); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), g, MCTS{Playouts: 2000, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if before := r.Positions[1].Winrate; before >= 0.5 {
		t.Fatalf("after B J9 Black's chance is %.2f: the test needs White ahead before the passes", before)
	}
	p := r.Paragraph()
	if strings.Contains(p, "although") || !strings.Contains(p, "The game turned at move 2 (W pass): Black took the lead there") {
		t.Errorf("paragraph %q, want the game turning at White's pass", p)
	}
	if len(r.Mistakes) == 0 || r.Mistakes[len(r.Mistakes)-1].Number != 2 || r.Mistakes[len(r.Mistakes)-1].Move != "pass" {
		t.Errorf("mistakes %+v, want White's pass (move 2) among them", r.Mistakes)
	}
}

// TestRunOneMove: a game of one move (aborted at once) is reviewed with a
// finite loss for it, and the review encodes as JSON to be stored (a
// loss of +Inf could not be, and every request reviewed it again).
func TestRunOneMove(t *testing.T) {
	g := playGame(t, 9, "E5")
	r, err := Run(context.Background(), g, MCTS{Playouts: 500, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Mistakes {
		if math.IsInf(m.Loss, 0) || math.IsNaN(m.Loss) {
			t.Errorf("move %d loses %v points", m.Number, m.Loss)
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("the review does not encode: %v", err)
	}
}

// TestRunPassedAwayBySecond: when the second pass gives the game away
// (White, behind, passes; Black, judged ahead, passes back and the count
// goes to White), Black's pass is the mistake, and White's pass is not
// made the point where White took the lead.
func TestRunPassedAwayBySecond(t *testing.T) {
	g := playGame(t, 9, "E5", "C3", "G7", "pass", "pass")
	sc := g.Score(nil)
	if sc.Winner != engine.White {
		t.Fatalf("the count is %s, the test needs White to win it", sc.Result())
	}
	if err := g.End(engine.Result{Winner: sc.Winner, Reason: engine.ByScore, Margin: sc.Margin}); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), g, MCTS{Playouts: 2000, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if before := r.Positions[3].Winrate; before <= 0.5 {
		t.Fatalf("before the passes Black's chance is %.2f: the test needs Black judged ahead", before)
	}
	if r.Positions[4].Counted {
		t.Errorf("the position after White's pass was given the count: White's pass made the turning point")
	}
	for _, m := range r.Mistakes {
		if m.Number == 4 {
			t.Errorf("White's pass (move 4) is a mistake: %+v", m)
		}
	}
	if len(r.Mistakes) == 0 || r.Mistakes[0].Number != 5 || r.Mistakes[0].Move != "pass" {
		t.Errorf("mistakes %+v, want Black's pass (move 5) first", r.Mistakes)
	}
}

// TestParagraphTurn: the summary names the move where the winner took
// the lead for good only when the review names it a mistake; a lead taken
// by moves that lost less (the wall game of issue 34, said to turn at a
// move that lost no points) is said to come in small steps.
func TestParagraphTurn(t *testing.T) {
	r := reviewOf([]float64{0.5, 0.55, 0.6, 0.2, 0.25})
	r.Moves[2].Move = "G7"
	r.Summary = Summary{Winner: engine.White, Turn: TurningPoint(r.Winrates(), engine.White)}
	if r.Summary.Turn != 3 {
		t.Fatalf("TurningPoint = %d, want 3", r.Summary.Turn)
	}
	want := "No single move turned the game: White pulled ahead in small steps and kept the lead to the end."
	if p := r.Paragraph(); !strings.HasPrefix(p, want) {
		t.Errorf("no mistake: Paragraph() = %q, want it to start %q", p, want)
	}
	r.Mistakes = []Mistake{{Number: 1, Color: engine.Black, Move: "E5", Loss: 3}}
	if p := r.Paragraph(); !strings.HasPrefix(p, want) {
		t.Errorf("a mistake elsewhere: Paragraph() = %q, want it to start %q", p, want)
	}
	r.Mistakes = append(r.Mistakes, Mistake{Number: 3, Color: engine.Black, Move: "G7", Loss: 14})
	want = "The game turned at move 3 (B G7): White took the lead there and kept it to the end."
	if p := r.Paragraph(); !strings.HasPrefix(p, want) {
		t.Errorf("the turn a mistake: Paragraph() = %q, want it to start %q", p, want)
	}
}

// TestParagraphNearEven: a winner the engine saw at 49% at the end won a
// game it saw about even, not one it saw the other side ahead in (a
// resigned 9×9 game whose last estimate was White's 51%); at 30% the
// other side was ahead.
func TestParagraphNearEven(t *testing.T) {
	for _, tt := range []struct {
		last float64
		want string
	}{
		{0.49, "Black won a game the engine saw about even at the end (Black's winning chance 49%)."},
		{0.46, "Black won a game the engine saw about even at the end (Black's winning chance 46%)."},
		{0.30, "Black won, although the engine saw White ahead at the end (White's winning chance 70%)."},
	} {
		r := reviewOf([]float64{0.5, 0.6, tt.last})
		r.Summary = Summary{Winner: engine.Black, Resigned: true, Turn: TurningPoint(r.Winrates(), engine.Black)}
		if p := r.Paragraph(); !strings.HasPrefix(p, tt.want) {
			t.Errorf("last chance %.2f: Paragraph() = %q, want it to start %q", tt.last, p, tt.want)
		}
	}
}

// TestParagraphNoResult: an aborted game (no result) has no winner: the
// summary says who the engine saw ahead when it stopped, not that someone
// "pulled ahead and kept the lead to the end" (a reviewer's aborted game
// of two moves read so).
func TestParagraphNoResult(t *testing.T) {
	for _, tt := range []struct {
		wr   []float64
		want string
	}{
		{[]float64{0.5, 0.55, 0.62}, "The game ended without a result after 2 moves, with Black ahead as the engine saw it (Black's winning chance 62%). "},
		{[]float64{0.5, 0.3}, "The game ended without a result after 1 move, with White ahead as the engine saw it (White's winning chance 70%). "},
		{[]float64{0.5, 0.55, 0.48}, "The game ended without a result after 2 moves, about even as the engine saw it (Black's winning chance 48%). "},
	} {
		r := reviewOf(tt.wr)
		r.Summary = Summary{Winner: engine.Black, NoResult: true, Turn: 1}
		if p := r.Paragraph(); !strings.HasPrefix(p, tt.want) || strings.Contains(p, "won") || strings.Contains(p, "kept the lead") {
			t.Errorf("%v: Paragraph() = %q, want it to start %q", tt.wr, p, tt.want)
		}
	}
}
