package review

import (
	"context"
	"math"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// finishedG3 is a 9×9 game (Chinese rules, komi 7.5) played to the end and
// passed out: counted, Black has 42 points and White 29 + 7.5, B+5.5. The
// playouts' mean gave W+2.5.
var finishedG3 = []string{
	"G6", "D3", "C5", "G3", "E6", "B4", "B5", "C4", "H4", "A5", "A6", "A4", "B6", "H3",
	"G5", "J4", "J5", "J3", "G4", "D5", "D6", "F3", "E5", "D4", "E4", "E3", "F4", "pass", "pass",
}

// finishedG4 is a 9×9 game with two handicap stones under Japanese rules
// (territory, komi 0.5), passed out.
var finishedG4 = []string{
	"D7", "C6", "G3", "C7", "E4", "D6", "D3", "D2", "E2", "C2", "C4", "B4", "H5", "E6", "D1",
	"H6", "G5", "J5", "J4", "J6", "H3", "C1", "E1", "G6", "F5", "C5", "D4", "F6", "E5", "D5", "pass", "pass",
}

// finishedG7 is a 9×9 game (Chinese rules, komi 7.5) passed out: W+12.5
// counted, W+9 by the playouts' mean.
var finishedG7 = []string{
	"E5", "C4", "E3", "G6", "C6", "F4", "C2", "F3", "E7", "E4", "B4", "B3", "C3", "B5", "G8", "D3",
	"B2", "E2", "A3", "C5", "B7", "H7", "D5", "D4", "H8", "B6", "C7", "A7", "A8", "A6", "B8", "F5",
	"J8", "F7", "F8", "D2", "A1", "G7", "E6", "C1", "A4", "J7", "B1", "D1", "F6", "A5", "pass", "pass",
}

// TestEstimateCountsSettledPosition: a position whose every region is
// settled is counted, by the game's own scoring, rather than estimated by
// playouts that take settled groups.
func TestEstimateCountsSettledPosition(t *testing.T) {
	ctx := context.Background()
	jp, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	jp.Komi = 0.5
	tests := []struct {
		name    string
		g       *engine.Game
		want    string
		scoring engine.Scoring
	}{
		{"g3 passed out", playGame(t, 9, finishedG3...), "B+5.5", engine.AreaScoring},
		{"g3 before the passes", playGame(t, 9, finishedG3[:27]...), "B+5.5", engine.AreaScoring},
		{"g3 after White's pass", playGame(t, 9, finishedG3[:28]...), "B+5.5", engine.AreaScoring},
		{"g7 passed out", playGame(t, 9, finishedG7...), "W+12.5", engine.AreaScoring},
		{"g4 territory", enginetest.NewGame(t, engine.Config{Size: 9, Rules: jp, Handicap: 2}, finishedG4...), "B+22.5", engine.TerritoryScoring},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			est, err := Estimate(ctx, tt.g, 2000, 1+int64(tt.g.MoveCount()))
			if err != nil {
				t.Fatal(err)
			}
			if got := ScoreText(est.Score); got != tt.want || !est.Counted || est.Stdev != 0 || est.Scoring != tt.scoring {
				t.Errorf("Estimate = %s (counted %v, stdev %.1f, %v), want %s counted by %v", got, est.Counted, est.Stdev, est.Scoring, tt.want, tt.scoring)
			}
		})
	}
}

// TestEstimateAgreesWithOwnership: the lead of a position still open is
// what the ownership shown adds up to, komi taken off.
func TestEstimateAgreesWithOwnership(t *testing.T) {
	g := playGame(t, 9, finishedG3[:12]...)
	est, err := Estimate(context.Background(), g, 500, 1)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, o := range est.Ownership {
		sum += o
	}
	if est.Counted || est.Scoring != engine.AreaScoring || math.Abs(sum-g.Rules().Komi-est.Score) > 1e-9 {
		t.Errorf("Estimate = %.2f (counted %v, %v), want the ownership's %.2f less komi %.1f by area", est.Score, est.Counted, est.Scoring, sum, g.Rules().Komi)
	}
}
