package glicko

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
)

// TestGlickmanExample reproduces the worked example of Glickman's
// "Example of the Glicko-2 system": a 1500 ± 200 player beats 1400 ± 30
// and loses to 1550 ± 100 and 1700 ± 300 in one rating period, ending at
// 1464.06 / 151.52 / 0.05999. The paper rounds its intermediate values
// (μ' = -0.2069, φ' = 0.8722) before converting back, so the exact
// arithmetic gives 1464.0507 / 151.5165 / 0.0599960: equal at the paper's
// precision (its rating and deviation to ±0.01, its volatility truncated
// to five decimals).
func TestGlickmanExample(t *testing.T) {
	p := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	got := Update(p, []Result{
		{Opponent: Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	})
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Trunc(got.Volatility*1e5) != 5999 {
		t.Errorf("Update = %.4f / %.4f / %.7f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Volatility)
	}
	// In the paper's own rounding: μ' to four decimals.
	mu := math.Round((got.Rating-Initial)/scale*1e4) / 1e4
	if s := fmt.Sprintf("%.2f", mu*scale+Initial); s != "1464.06" {
		t.Errorf("rating from μ' rounded as the paper does = %s, want 1464.06", s)
	}
}

// TestTwoNewPlayers: the first game between two new players.
func TestTwoNewPlayers(t *testing.T) {
	b, w := Game(New(), New(), 0, 1)
	if s := fmt.Sprintf("%.1f %.1f", b.Rating, w.Rating); s != "1662.3 1337.7" {
		t.Errorf("winner, loser = %s, want 1662.3 1337.7", s)
	}
	if b.RD != w.RD || math.Abs(b.Rating-Initial-(Initial-w.Rating)) > 1e-9 {
		t.Errorf("the update is not symmetric: %v, %v", b, w)
	}
	// A draw moves nobody.
	b, w = Game(New(), New(), 0, 0.5)
	if b.Rating != Initial || w.Rating != Initial || b.RD >= InitialRD {
		t.Errorf("draw: %v, %v; want 1500 each, smaller deviations", b, w)
	}
}

func TestAged(t *testing.T) {
	r := Rating{Rating: 1600, RD: 60, Volatility: 0.06}
	if got := Aged(r, 12*time.Hour); got != r {
		t.Errorf("Aged(half a day) = %v, want unchanged", got)
	}
	year := Aged(r, 366*24*time.Hour)
	if year.Rating != r.Rating || year.RD < 200 || year.RD > 220 {
		t.Errorf("Aged(a year) = %v, want RD about 210", year)
	}
	if got := Aged(r, 100*365*24*time.Hour); got.RD != MaxRD {
		t.Errorf("Aged(a century) = %v, want RD %v", got, MaxRD)
	}
}

func TestRank(t *testing.T) {
	for _, tt := range []struct {
		rating, rd float64
		want       string
	}{
		{1500, 60, "6k"},
		{1500, 200, "?"},
		{1500, ProvisionalRD, "?"},
		{1000, 60, "16k"},
		{2000, 60, "1d"},
		{2400, 60, "6d"},
		{100, 60, "30k"},
		{5000, 60, "9d"},
	} {
		if got := Rank(Rating{Rating: tt.rating, RD: tt.rd, Volatility: 0.06}); got != tt.want {
			t.Errorf("Rank(%v ± %v) = %s, want %s", tt.rating, tt.rd, got, tt.want)
		}
	}
	for _, rating := range []float64{600, 1500, 2400} {
		if got := RatingOf(RankValue(rating)); math.Abs(got-rating) > 1e-9 {
			t.Errorf("RatingOf(RankValue(%v)) = %v", rating, got)
		}
	}
}

func TestHandicapRanks(t *testing.T) {
	chinese := engine.DefaultRules()
	japanese, _ := engine.Preset("japanese")
	withKomi := func(r engine.Rules, k float64) engine.Rules { r.Komi = k; return r }
	for _, tt := range []struct {
		name    string
		size, h int
		rules   engine.Rules
		want    float64
	}{
		{"even game at the ruleset's komi", 19, 0, chinese, 0},
		{"even game, japanese", 9, 0, japanese, 0},
		// 7 points of komi not given (7.5 → 0.5), one free move (13),
		// less White's 2 points of compensation: 18 points of 13.
		{"two stones, chinese", 19, 2, withKomi(chinese, 0.5), 18.0 / 13},
		{"two stones, japanese", 19, 2, withKomi(japanese, 0.5), 18.0 / 12},
		{"no komi, 19×19", 19, 0, withKomi(japanese, 0), 6.5 / 12},
		{"no komi, 13×13", 13, 0, withKomi(japanese, 0), 3 * 6.5 / 12},
		{"no komi, 9×9", 9, 0, withKomi(japanese, 0), 6 * 6.5 / 12},
		{"reverse komi", 19, 0, withKomi(japanese, 12.5), -6.0 / 12},
	} {
		if got := HandicapRanks(tt.size, tt.h, tt.rules); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: HandicapRanks = %v, want %v", tt.name, got, tt.want)
		}
	}
	// A handicap makes Black's win worth less and its loss cost more.
	evenB, _ := Game(New(), New(), 0, 1)
	hcapB, hcapW := Game(New(), New(), 2, 1)
	evenW, _ := Game(New(), New(), 0, 0)
	if hcapB.Rating >= evenB.Rating {
		t.Errorf("black's win with 2 ranks of handicap gains %v, even %v", hcapB.Rating, evenB.Rating)
	}
	if hcapW.Rating <= evenW.Rating {
		t.Errorf("white's loss giving 2 ranks costs less than an even loss: %v vs %v", hcapW.Rating, evenW.Rating)
	}
}
