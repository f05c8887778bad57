package bots

import (
	"fmt"
	"strings"
	"testing"
)

// TestLevelRanks: every built-in level has a measured rank, the one its
// description starts with, and a spread of one to three ranks.
func TestLevelRanks(t *testing.T) {
	for _, l := range Builtin() {
		if want := fmt.Sprintf("about %d kyu · ", l.Kyu); !strings.HasPrefix(l.Description, want) {
			t.Errorf("%s: Kyu %d, description %q", l.Name, l.Kyu, l.Description)
		}
		if l.Spread < 1 || l.Spread > 3 {
			t.Errorf("%s: Spread %v, want 1 to 3 ranks", l.Name, l.Spread)
		}
	}
}

// TestRankOn: a level's rank for a board size is its 9×9 rank, marked as
// measured on 9×9, unless one was measured on that size; a level never
// measured has none on any size.
func TestRankOn(t *testing.T) {
	for _, l := range Builtin() {
		for _, size := range []int{9, 13, 19} {
			want := Rank{Kyu: l.Kyu, Spread: l.Spread, Size: 9}
			if got := l.RankOn(size); got != want {
				t.Errorf("%s on %d×%d: %+v, want %+v", l.Name, size, size, got, want)
			}
		}
	}
	hard, _ := Lookup("hard")
	hard.SizeRanks = map[int]Rank{19: {Kyu: 12, Spread: 3}}
	if got, want := hard.RankOn(19), (Rank{Kyu: 12, Spread: 3, Size: 19}); got != want {
		t.Errorf("hard with a 19×19 rank, on 19×19: %+v, want %+v", got, want)
	}
	if got, want := hard.RankOn(13), (Rank{Kyu: hard.Kyu, Spread: hard.Spread, Size: 9}); got != want {
		t.Errorf("hard with a 19×19 rank, on 13×13: %+v, want %+v", got, want)
	}
	if got := (Level{Name: "gtp:gnugo"}).RankOn(19); got != (Rank{}) {
		t.Errorf("a GTP program's rank: %+v, want none", got)
	}
}
