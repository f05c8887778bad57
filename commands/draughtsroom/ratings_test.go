package draughtsroom

import (
	"fmt"
	"math"
	"strings"
	"testing"

	dbots "github.com/gobot-dev/gobot/bots/draughts"
)

// TestStartRatings: the built-in levels start where
// docs/draughts-strength.md's table of start ratings places them, each
// level's Score is the score its description gives, and a level without a
// Score (a Hub engine) and those after it have no start rating.
func TestStartRatings(t *testing.T) {
	levels := dbots.Builtin()
	starts := StartRatings(levels)
	var got []string
	for _, l := range levels {
		r, ok := starts[l.Name]
		if !ok {
			t.Fatalf("level %s has no start rating", l.Name)
		}
		got = append(got, fmt.Sprintf("%s %.1f ± %.1f", l.Name, r.Rating, r.RD))
		if l.Score > 0 {
			if pct := fmt.Sprintf(" %.0f%%.", math.RoundToEven(100*l.Score)); !strings.HasSuffix(l.Description, pct) {
				t.Errorf("level %s: description %q, want it to end with its score,%s", l.Name, l.Description, pct)
			}
		}
	}
	want := "beginner 536.5 ± 23.2 | novice 687.1 ± 59.4 | learner 821.8 ± 71.0 | casual 942.2 ± 81.4 | " +
		"easy 1062.6 ± 91.8 | medium 1146.8 ± 99.1 | steady 1281.5 ± 110.7 | keen 1395.3 ± 120.5 | " +
		"strong 1530.0 ± 132.2 | tough 1657.3 ± 143.2 | hard 1771.1 ± 153.0 | expert 1898.5 ± 164.0 | max 2012.3 ± 173.8"
	if s := strings.Join(got, " | "); s != want {
		t.Errorf("StartRatings =\n%s\nwant\n%s", s, want)
	}
	hub := dbots.Level{Name: "hub:scan"}
	withHub := StartRatings(append([]dbots.Level{levels[0], hub}, levels[1:]...))
	if _, ok := withHub["hub:scan"]; ok || len(withHub) != 1 {
		t.Errorf("StartRatings with a Hub engine after beginner = %v, want beginner's alone", withHub)
	}
}
