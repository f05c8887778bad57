package commands_test

import (
	"strings"
	"testing"
)

// TestE2EHelpStatesServerTerms: /go help and /draughts help say what this
// server's admins chose where it differs from gobot's own: the ruleset and
// komi of a plain challenge (Go), the default clock and the challenges'
// expiry (draughts; Go's help says them in place), the game channels, the
// games at once, which rating pools count and whether the leaderboard
// shows. Before, /go help gave gobot's chinese and komi 7.5, said nothing
// of channels or limits, and described ratings "per server and global"
// and the leaderboard with both turned off.
func TestE2EHelpStatesServerTerms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	general, goCh, go2 := e.d.GuildChannel("general"), e.d.GuildChannel("go"), e.d.GuildChannel("go2")
	ann, _, _ := e.admins()
	carol := e.d.NewUser("carol")
	help := func(cmd string) string {
		if cmd == "go" {
			return e.do(e.slash(general, carol, "help")).Text()
		}
		return e.do(e.draughtsCmd(general, carol, "help")).Text()
	}
	// has checks that text has each of want, and none of not.
	has := func(what, text string, want, not []string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, text)
			}
		}
		for _, w := range not {
			if strings.Contains(text, w) {
				t.Errorf("%s has %q:\n%s", what, w, text)
			}
		}
	}
	has("/go help with gobot's defaults", help("go"), []string{"\nRatings: Glicko-2 as on OGS, per server and global; each bot level", "and two people's games past 3 rated in a day (bots excepted). ", "`/go leaderboard scope: page:`: established players, your place."}, []string{"On this server"})
	has("/draughts help with gobot's defaults", help("draughts"), nil, []string{"On this server"})

	for _, s := range [][2]string{{"ruleset", "japanese"}, {"komi", "0.5"}, {"channels", "<#" + goCh.ID + "> <#" + go2.ID + ">"}, {"max_games", "3"}, {"clock", "live"}, {"challenge_ttl", "2h"}, {"global_ratings", "off"}} {
		if m := e.do(e.set(general, ann, s[0], s[1])); !strings.HasPrefix(m.Text(), "✅") {
			t.Fatalf("set %s: %q", s[0], m.Text())
		}
	}
	where := "games start only in <#" + goCh.ID + ">, <#" + go2.ID + "> (threads there count too); each player may play at most 3 games at once; "
	has("/go help", help("go"), []string{
		"**On this server**, as its admins chose: a challenge without `ruleset:` or a handicap is japanese, komi 0.5; " + where +
			"games count in this server's ratings only, not the global ones, so games against bots are unrated.\n",
		"\nRatings: Glicko-2 as on OGS, this server's only; each bot level",
		"`/go leaderboard scope: page:`: established players, your place.",
	}, nil)
	has("/draughts help", help("draughts"), []string{
		"\n**On this server**, as its admins chose: the default clock is live; challenges expire after 2 hours; " + where +
			"games count in this server's ratings only, not the global ones, so games against bots are unrated.",
	}, nil)

	for _, s := range [][2]string{{"ratings", "off"}, {"leaderboard", "hidden"}} {
		e.do(e.set(general, ann, s[0], s[1]))
	}
	off := "no game is rated (both rating pools are off; games in a DM with me are rated globally); the leaderboard is hidden."
	has("/go help with ratings off", help("go"), []string{
		where + off + "\n",
		"\nRatings: Glicko-2 as on OGS, off on this server; each bot level",
		"; `/go leaderboard`: hidden here by the admins.",
	}, []string{"per server and global", "established players, your place"})
	has("/draughts help with ratings off", help("draughts"), []string{where + off}, nil)
}
