package goroom

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// builtinLevels are the levels gobot offers, as cmd/gobot hands them to
// the commands, followed by three GTP programs as a host may configure.
func builtinLevels() []commands.Level {
	var levels []commands.Level
	for _, l := range bots.Builtin() {
		levels = append(levels, commands.Level{Name: l.Name, Description: l.Description})
	}
	for _, name := range []string{"gnugo", "pachi", "katago"} {
		levels = append(levels, commands.Level{Name: bots.GTPPrefix + name, Description: fmt.Sprintf("External engine %q, played over GTP.", name)})
	}
	return levels
}

// TestHelpFitsDiscord: /go help stays within Discord's embed limits: 6000
// characters in all, 1024 a field, 25 fields, with one level, with the
// built-in levels and a few engines, and with forty more engines; with
// gobot's defaults and with every server setting that the help states set
// at its longest (everyHere).
func TestHelpFitsDiscord(t *testing.T) {
	many := builtinLevels()
	for i := range 40 {
		many = append(many, commands.Level{Name: fmt.Sprintf("gtp:engine%d", i), Description: "External engine, played over GTP."})
	}
	for _, here := range []helpHere{{clock: clock.Default(), size: 19}, everyHere()} {
		for _, levels := range [][]commands.Level{builtinLevels()[:1], builtinLevels(), many} {
			testHelpFits(t, levels, here)
		}
	}
	// The terms above the help are the message's text: 2000 characters.
	if n := utf8.RuneCountInString(goTerms(everySetting())); n > 2000 {
		t.Errorf("/go help's terms with every setting have %d characters, Discord allows 2000", n)
	}
}

// everySetting is a server with every setting /go help states set, at
// its longest: 25 game channels, a limit of 100 games, both rating pools
// off; everyHere is its helpHere.
func everySetting() *storage.Settings {
	komi := -149.5
	clk := clock.Default()
	st := &storage.Settings{GuildID: "1", Clock: &clk, Size: 13, Ruleset: "japanese", Komi: &komi, MaxGames: 100,
		ServerRatingsOff: true, GlobalRatingsOff: true, LeaderboardHidden: true, ChallengeTTL: 30 * 24 * time.Hour}
	for i := range 25 {
		st.GameChannels = append(st.GameChannels, fmt.Sprintf("12345678901234567%02d", i))
	}
	return st
}

func everyHere() helpHere { return hereOf(everySetting(), clock.Default()) }

func testHelpFits(t *testing.T, levels []commands.Level, here helpHere) {
	t.Helper()
	for _, e := range helpText(levels, commands.DefaultChallengeTTL, commands.DefaultScoringTTL, here) {
		total := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
		if len(e.Fields) > 25 {
			t.Errorf("%d fields, Discord allows 25", len(e.Fields))
		}
		for _, f := range e.Fields {
			n := utf8.RuneCountInString(f.Value)
			if n > 1024 {
				t.Errorf("field %q has %d characters, Discord allows 1024", f.Name, n)
			}
			total += n + utf8.RuneCountInString(f.Name)
		}
		if total > 6000 {
			t.Errorf("with %d levels the help embed has %d characters, Discord allows 6000", len(levels), total)
		}
	}
}

// TestLevelRanksShown: /go help's "Bot levels" field lists the levels
// weakest first with their whole descriptions when they fit Discord's 6000
// characters, else each built-in level with its rank only ("• **tough**:
// about 9 kyu"); /go bot's level suggestions show the whole text
// (TestE2ELevelSuggestions).
func TestLevelRanksShown(t *testing.T) {
	here := helpHere{clock: clock.Default(), size: 19}
	levelsField := func(levels []commands.Level) string {
		for _, f := range helpText(levels, commands.DefaultChallengeTTL, commands.DefaultScoringTTL, here)[0].Fields {
			if f.Name == "Bot levels" {
				return f.Value
			}
		}
		t.Fatal("no Bot levels field in /go help")
		return ""
	}
	all := builtinLevels()
	want := `• **beginner**: about 30 kyu
• **easy**: about 25 kyu
• **casual**: about 23 kyu
• **steady**: about 20 kyu
• **keen**: about 17 kyu
• **medium**: about 13 kyu
• **strong**: about 11 kyu
• **tough**: about 9 kyu
• **hard**: about 6 kyu
• **max**: about 3 kyu
• **gtp:gnugo**: External engine "gnugo", played over GTP.
• **gtp:pachi**: External engine "pachi", played over GTP.
• **gtp:katago**: External engine "katago", played over GTP.
` + "`/go bot`'s level list says how each plays.\n"
	if got := levelsField(all); got != want {
		t.Errorf("Bot levels field with every level =\n%s\nwant\n%s", got, want)
	}
	// Every server setting stated too: the levels are still all named.
	here = everyHere()
	if got := levelsField(all); got != want {
		t.Errorf("Bot levels field with every level and every setting =\n%s\nwant\n%s", got, want)
	}
	here = helpHere{clock: clock.Default(), size: 19}
	few := []commands.Level{all[7], all[8]}
	want = "• **tough**: " + few[0].Description + "\n• **hard**: " + few[1].Description + "\n"
	if got := levelsField(few); got != want || !strings.HasPrefix(few[0].Description, "about 9 kyu · ") {
		t.Errorf("Bot levels field with two levels = %q, want %q", got, want)
	}
}

// TestHelpBotOptions: the help's sentence on /go bot, which refers to
// /go challenge's options, names every option of /go challenge that
// /go bot lacks (but opponent).
func TestHelpBotOptions(t *testing.T) {
	opts := map[string][]string{}
	for _, sub := range definition().Options {
		for _, o := range sub.Options {
			opts[sub.Name] = append(opts[sub.Name], o.Name)
		}
	}
	var sentence string
	for _, e := range helpText(builtinLevels(), commands.DefaultChallengeTTL, commands.DefaultScoringTTL, helpHere{clock: clock.Default(), size: 19}) {
		for _, f := range e.Fields {
			if _, s, ok := strings.Cut(f.Value, "`/go bot "); ok {
				sentence, _, _ = strings.Cut(s, "\n")
			}
		}
	}
	if sentence == "" {
		t.Fatal("the help does not explain /go bot")
	}
	for _, name := range opts["challenge"] {
		// The bot is the opponent.
		if name != "opponent" && !slices.Contains(opts["bot"], name) && !strings.Contains(sentence, "`"+name+"`") {
			t.Errorf("/go bot has no %s option, but the help's %q does not say so", name, sentence)
		}
	}
}

// TestHelpClockSyntax: /go help's Clocks field shows how to write a
// clock, lichess's `5+3` among them, and every example it gives is one
// the clock option reads.
func TestHelpClockSyntax(t *testing.T) {
	var field string
	for _, f := range helpText(builtinLevels(), commands.DefaultChallengeTTL, commands.DefaultScoringTTL, helpHere{clock: clock.Default(), size: 19})[0].Fields {
		if f.Name == "Clocks" {
			field = f.Value
		}
	}
	for _, ex := range []string{"fischer 3d +1d max 7d", "fischer 5m +3s max 10m", "5+3", "byoyomi 10m 5x30s", "canadian 10m 25/5m", "simple 1d", "absolute 20m"} {
		if !strings.Contains(field, "`"+ex+"`") {
			t.Errorf("/go help's Clocks field does not show `%s`:\n%s", ex, field)
		}
		if _, err := clock.Parse(ex); err != nil {
			t.Errorf("/go help's example `%s` does not parse: %v", ex, err)
		}
	}
}

// TestHelpOutage: /go help says which outages the clocks are given back,
// as the scheduler credits them (commands.OutageMin): a restart quicker
// than a heartbeat period is charged to the player to move.
func TestHelpOutage(t *testing.T) {
	want := "No clock runs while dead stones are agreed, nor while I am down for over " + clock.Format(commands.OutageMin) + "."
	for _, f := range helpText(builtinLevels(), commands.DefaultChallengeTTL, commands.DefaultScoringTTL, helpHere{clock: clock.Default(), size: 19})[0].Fields {
		if f.Name == "Clocks" && !strings.Contains(f.Value, want) {
			t.Errorf("/go help's Clocks field does not say %q:\n%s", want, f.Value)
		}
	}
	if want != "No clock runs while dead stones are agreed, nor while I am down for over 10 s." {
		t.Errorf("the sentence reads %q", want)
	}
}
