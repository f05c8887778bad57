package commands_test

import (
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
)

// TestE2EHistoryHandicap: the lists of finished games name a handicap
// game's stones with its board ("13×13 H3"), as OGS's game list has a
// handicap column: /go history and /go stats once listed a 3-stone game
// as "13×13", as if it were even.
func TestE2EHistoryHandicap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.d.NewUser("ann")
	dm := e.d.DM(ann)
	start := e.do(e.slash(dm, ann, "bot", discordtest.Str("level", "tester"), discordtest.Int("size", 13), discordtest.Str("color", "black"), discordtest.Int("handicap", 3)))
	if start.Ephemeral {
		t.Fatalf("/go bot handicap:3 refused: %q", start.Text())
	}
	id := e.game(dm.ID).ID
	e.do(e.slash(dm, ann, "resign"))
	line := "⚫ lost vs gobot (tester) · 13×13 H3 · W+R · unrated · <t:" // unrated: too short
	for _, sub := range []string{"history", "stats"} {
		if m := e.do(e.slash(dm, ann, sub)); !strings.Contains(m.Text(), line) {
			t.Errorf("/go %s = %q, want %q", sub, m.Text(), line)
		}
	}
	if m, want := e.do(e.slash(dm, ann, "sgf", discordtest.Str("game", id))), "Record of ⚫ ann vs ⚪ gobot tester, 13×13 H3, W+R, finished "; !strings.HasPrefix(m.Text(), want) {
		t.Errorf("/go sgf = %q, want %q", m.Text(), want)
	}
}
