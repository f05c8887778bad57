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
