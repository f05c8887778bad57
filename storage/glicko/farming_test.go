package glicko

import (
	"fmt"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestHandicapCap: the 9-stone 9×9 game that cost a new player 464
// points for one loss to another new player (1500 → 1036) costs no more
// than an even loss between them (1500 → 1338), and the winner gains no
// more than an even win.
func TestHandicapCap(t *testing.T) {
	chinese := engine.DefaultRules()
	chinese.Komi = 0.5
	adv := HandicapRanks(9, 9, chinese)
	if s := fmt.Sprintf("%.2f", adv); s != "47.08" {
		t.Fatalf("HandicapRanks(9×9, 9 stones) = %s, want 47.08", s)
	}
	uncapped := Update(New(), []Result{{Opponent: Shifted(New(), -adv), Score: 0}})
	if s := fmt.Sprintf("%.0f", uncapped.Rating); s != "1036" {
		t.Errorf("the handicap loss uncapped = %s, want the 1036 found while playing", s)
	}
	b, w := Game(New(), New(), adv, 0)
	if s := fmt.Sprintf("%.1f %.1f", b.Rating, w.Rating); s != "1337.7 1662.3" {
		t.Errorf("Black loses with 9 stones on 9×9: black, white = %s, want 1337.7 1662.3 (an even game's)", s)
	}
	if r := Reach(New(), New()); fmt.Sprintf("%.1f", r) != "162.3" {
		t.Errorf("Reach(new, new) = %.1f, want 162.3", r)
	}
	// Within its reach a handicap still counts: Black's win with two
	// stones on 19×19 gains less than an even win.
	two := HandicapRanks(19, 2, chinese)
	hb, _ := Game(New(), New(), two, 1)
	eb, _ := Game(New(), New(), 0, 1)
	if hb.Rating >= eb.Rating || hb.Rating <= Initial {
		t.Errorf("two stones on 19×19, Black wins: %.1f, want between 1500 and an even win's %.1f", hb.Rating, eb.Rating)
	}
}

// TestMaxRatedHandicap: the table of rated handicaps is what MaxAdvantage
// allows at komi 0.5 under every preset, and one more stone is too many.
func TestMaxRatedHandicap(t *testing.T) {
	for _, size := range []int{9, 13, 19} {
		n := MaxRatedHandicap(size)
		for _, name := range engine.PresetNames {
			rules, _ := engine.Preset(name)
			rules.Komi = 0.5
			if adv := HandicapRanks(size, n, rules); adv > MaxAdvantage {
				t.Errorf("%s %d×%d, %d stones: %.2f ranks, more than %v", name, size, size, n, adv, MaxAdvantage)
			}
			if n < engine.MaxHandicap(size) {
				if adv := HandicapRanks(size, n+1, rules); adv <= MaxAdvantage {
					t.Errorf("%s %d×%d, %d stones: %.2f ranks, within %v", name, size, size, n+1, adv, MaxAdvantage)
				}
			}
		}
	}
	if got := fmt.Sprint(MaxRatedHandicap(9), MaxRatedHandicap(13), MaxRatedHandicap(19)); got != "2 3 9" {
		t.Errorf("MaxRatedHandicap(9, 13, 19) = %s, want 2 3 9", got)
	}
}

// TestAtRank: a bot level starts at the middle of its rank, with a
// deviation of its spread in ranks; a new player who beats beginner
// (30k, known to a rank) gains 3 points and beginner loses nothing that
// shows.
func TestAtRank(t *testing.T) {
	for _, tt := range []struct {
		kyu    int
		spread float64
		want   string
	}{
		{30, 1, "536.5 ± 23.2 (30k)"},
		{25, 2, "665.8 ± 57.5 (25k)"},
		{6, 2, "1512.8 ± 130.7 (6k)"},
		{3, 3, "1722.1 ± 223.2 (?)"},
	} {
		r := AtRank(tt.kyu, tt.spread)
		if got := fmt.Sprintf("%.1f ± %.1f (%s)", r.Rating, r.RD, Rank(r)); got != tt.want {
			t.Errorf("AtRank(%d, %v) = %s, want %s", tt.kyu, tt.spread, got, tt.want)
		}
	}
	beginner := AtRank(30, 1)
	p, bot := Game(New(), beginner, 0, 1)
	if got := fmt.Sprintf("%.2f %.2f", p.Rating, bot.Rating); got != "1502.73 536.40" {
		t.Errorf("a new player beats beginner: %s, want 1502.73 536.40", got)
	}
}

// TestEstablished gives the figures the help's wording rests on: two new
// players who win in turn are established (deviation below 160) after
// seven games each; a new player who beats the same new opponent every
// time is still provisional after 21 wins (1893 ± 181) and after 60.
func TestEstablished(t *testing.T) {
	if n := GamesToEstablish(); n != 7 {
		t.Errorf("GamesToEstablish() = %d, want 7", n)
	}
	x, y := New(), New()
	for i := 1; i <= 60; i++ {
		x, y = Game(x, y, 0, 1)
		if i == 21 {
			if got := x.String(); got != "1893 ± 181 (?)" {
				t.Errorf("after 21 straight wins: %s, want 1893 ± 181 (?)", got)
			}
		}
	}
	if !x.Provisional() {
		t.Errorf("after 60 straight wins: %v, want still provisional", x)
	}
}
