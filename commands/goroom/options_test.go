package goroom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine/clock"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine"
)

func TestParseSetup(t *testing.T) {
	tests := []struct {
		line     string
		size     int
		color    string
		rules    string
		komi     float64
		handicap int
		wantErr  string
	}{
		{line: "/go bot", size: 19, color: "black", rules: "chinese", komi: 7.5},
		{line: "/go bot size:9 color:white ruleset:japanese", size: 9, color: "white", rules: "japanese", komi: 6.5},
		{line: "/go bot handicap:4", size: 19, color: "black", rules: "chinese", komi: 0.5, handicap: 4},
		{line: "/go bot handicap:1", size: 19, color: "black", rules: "chinese", komi: 0.5, handicap: 0},
		{line: "/go bot handicap:3 komi:0", size: 19, color: "black", rules: "chinese", komi: 0, handicap: 3},
		{line: "/go bot komi:-3.5", size: 19, color: "black", rules: "chinese", komi: -3.5},
		// As gobot writes it ("komi −3.5"), copied back into the console.
		{line: "/go bot komi:\u22123.5", size: 19, color: "black", rules: "chinese", komi: -3.5},
		{line: "/go bot komi:6.25", wantErr: "steps of 0.5"},
		{line: "/go bot komi:200", wantErr: "from -150 to 150"},
		{line: "/go bot handicap:12", wantErr: "0 to 9"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			r := slashRequest(t, tt.line)
			s, err := parseSetup(r, "black", nil)
			if tt.wantErr != "" {
				var ue *commands.UserError
				if !errors.As(err, &ue) || !strings.Contains(ue.Msg, tt.wantErr) {
					t.Fatalf("parseSetup(%q) error = %v, want %q", tt.line, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Size != tt.size || s.Color != tt.color || s.Rules.Name != tt.rules || s.Rules.Komi != tt.komi || s.Handicap != tt.handicap {
				t.Fatalf("parseSetup(%q) = %d %s %s komi %v handicap %d; want %d %s %s komi %v handicap %d", tt.line,
					s.Size, s.Color, s.Rules.Name, s.Rules.Komi, s.Handicap, tt.size, tt.color, tt.rules, tt.komi, tt.handicap)
			}
		})
	}
}

// TestKomiMinusZero: komi:-0 is komi 0, shown as "0" and recorded KM[0]
// (it was "komi -0" on every board and KM[-0] in the record).
func TestKomiMinusZero(t *testing.T) {
	s, err := parseSetup(slashRequest(t, "/go bot komi:-0"), "black", nil)
	if err != nil || math.Signbit(s.Rules.Komi) || engine.FormatKomi(s.Rules.Komi) != "0" {
		t.Errorf("komi:-0 = %v (%q), %v; want 0", s.Rules.Komi, engine.FormatKomi(s.Rules.Komi), err)
	}
}

// slashRequest is a Request for a console-style command line.
func slashRequest(t *testing.T, line string) *commands.Request {
	t.Helper()
	data, _, err := commands.ParseSlash(line, []*discordgo.ApplicationCommand{definition()}, nil)
	if err != nil {
		t.Fatalf("parseSlash(%q): %v", line, err)
	}
	// The router makes the Request a handler gets.
	var got *commands.Request
	rt := commands.NewRouter()
	for _, sub := range definition().Options {
		rt.Command(commands.CommandName+"/"+sub.Name, func(ctx context.Context, r *commands.Request) error { got = r; return nil })
	}
	if err := rt.Dispatch(context.Background(), &commands.Request{Interaction: &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: data}}); err != nil || got == nil {
		t.Fatalf("dispatch %q: %v", line, err)
	}
	return got
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in      string
		size    int
		want    engine.Move
		wantErr string
	}{
		{"D4", 19, engine.PlaceAt(engine.Black, engine.Point{Col: 3, Row: 3}), ""},
		{" q16 ", 19, engine.PlaceAt(engine.Black, engine.Point{Col: 15, Row: 15}), ""},
		{"J9", 9, engine.PlaceAt(engine.Black, engine.Point{Col: 8, Row: 8}), ""},
		{"pass", 9, engine.PassMove(engine.Black), ""},
		{"PASS", 9, engine.PassMove(engine.Black), ""},
		{"K5", 9, engine.Move{}, "K5 is off this 9×9 board: valid points are A1–J9"},
		{"A10", 9, engine.Move{}, "A10 is off this 9×9 board"},
		// As a CJK input method types them: fullwidth, the ideographic space.
		{"Ｄ４", 19, engine.PlaceAt(engine.Black, engine.Point{Col: 3, Row: 3}), ""},
		{"ｑ　１６", 19, engine.PlaceAt(engine.Black, engine.Point{Col: 15, Row: 15}), ""},
		{"ｐａｓｓ", 9, engine.PassMove(engine.Black), ""},
		// Leading zeros in the row are read: E05 is E5.
		{"e05", 9, engine.PlaceAt(engine.Black, engine.Point{Col: 4, Row: 4}), ""},
		{"Q016", 19, engine.PlaceAt(engine.Black, engine.Point{Col: 15, Row: 15}), ""},
		{"E00", 9, engine.Move{}, "E00 is off this 9×9 board: valid points are A1–J9"},
		{"A010", 9, engine.Move{}, "A010 is off this 9×9 board"},
		{"I03", 9, engine.Move{}, "skip the letter I"},
		{"I3", 9, engine.Move{}, "skip the letter I"},
		{"", 9, engine.Move{}, "Give a point such as D4"},
		{"4D", 13, engine.Move{}, "A1–N13"},
		{"resign", 9, engine.Move{}, "/go resign"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseMove(engine.Black, tt.in, tt.size)
			if tt.wantErr != "" {
				msg, _ := commands.ErrorMessage(err)
				if err == nil || !strings.Contains(msg, tt.wantErr) {
					t.Fatalf("parseMove(%q) = %v, %q; want error %q", tt.in, got, msg, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("parseMove(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestDefinitions(t *testing.T) {
	defs := newTestApp(t).Definitions()
	if len(defs) != 2 || defs[0].Name != "go" || defs[1].Name != "go-admin" {
		t.Fatalf("Definitions = %d commands, want /go and /go-admin (the test's App has Go's room alone)", len(defs))
	}
	var subs []string
	for _, o := range defs[0].Options {
		subs = append(subs, o.Name)
		if len(o.Description) == 0 || len(o.Description) > 100 {
			t.Errorf("subcommand %s: description of %d characters", o.Name, len(o.Description))
		}
		for _, opt := range o.Options {
			for _, c := range opt.Choices {
				if n := len([]rune(c.Name)); n == 0 || n > 100 {
					t.Errorf("%s %s: choice name %q", o.Name, opt.Name, c.Name)
				}
			}
		}
	}
	want := "challenge bot rengo vote play pass resign undo board sgf replay review estimate history games dead stats leaderboard help abort vacation"
	if strings.Join(subs, " ") != want {
		t.Errorf("subcommands %v, want %s", subs, want)
	}
	// Every subcommand has a handler.
	routed := routedPaths(newTestApp(t))
	for _, s := range subs {
		if _, ok := routed["go/"+s]; !ok {
			t.Errorf("no handler for /go %s", s)
		}
	}
	if c := *defs[0].Contexts; len(c) != 3 {
		t.Errorf("contexts %v, want guild, bot DM and private channel", c)
	}
	if it := *defs[0].IntegrationTypes; len(it) != 2 {
		t.Errorf("integration types %v, want guild and user install", it)
	}
}

// routedPaths are the command paths tb's App routes.
func routedPaths(tb *testApp) map[string]bool {
	out := map[string]bool{}
	for _, p := range tb.Router().Commands() {
		out[p] = true
	}
	return out
}

// TestAdminDefinition: /go-admin is for Manage Server by default, in
// servers only (as Discord's JSON says it), and each of its subcommands
// has a handler.
func TestAdminDefinition(t *testing.T) {
	def := commands.AdminDefinition()
	raw, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Perms    string `json:"default_member_permissions"`
		DM       *bool  `json:"dm_permission"`
		Contexts []int  `json:"contexts"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		t.Fatal(err)
	}
	if wire.Perms != "32" || wire.DM == nil || *wire.DM || fmt.Sprint(wire.Contexts) != "[0]" {
		t.Errorf("/go-admin: default_member_permissions %q, dm_permission %v, contexts %v; want \"32\", false, [0]", wire.Perms, wire.DM, wire.Contexts)
	}
	routed := routedPaths(newTestApp(t))
	var paths []string
	for _, o := range def.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			for _, sub := range o.Options {
				paths = append(paths, "go-admin/"+o.Name+"/"+sub.Name)
			}
			continue
		}
		paths = append(paths, "go-admin/"+o.Name)
	}
	if want := "go-admin/help go-admin/settings/show go-admin/settings/set go-admin/settings/reset go-admin/games go-admin/adjudicate go-admin/annul go-admin/ban go-admin/unban go-admin/bans go-admin/log"; strings.Join(paths, " ") != want {
		t.Errorf("/go-admin = %v, want %s", paths, want)
	}
	for _, p := range paths {
		if _, ok := routed[p]; !ok {
			t.Errorf("no handler for %s", p)
		}
	}
}

// TestHelpRulesets: /go help names each ruleset once, then what it means.
func TestHelpRulesets(t *testing.T) {
	var field string
	for _, f := range helpText(nil, commands.DefaultChallengeTTL, commands.DefaultScoringTTL, helpHere{clock: clock.Default(), size: 19})[0].Fields {
		if f.Name == "Rulesets" {
			field = f.Value
		}
	}
	for _, name := range engine.PresetNames {
		r, _ := engine.Preset(name)
		line := fmt.Sprintf("• **%s**: %s scoring", name, r.Scoring)
		if !strings.Contains(field, line) {
			t.Errorf("help's rulesets = %q, want a line starting %q", field, line)
		}
		if strings.Contains(field, name+": "+name) || strings.Contains(field, "**: "+name+" (") {
			t.Errorf("help repeats the name of %s: %q", name, field)
		}
	}
}

// TestHelpTimeLimits: /go help states the configured time limits, and the
// shorter scoring limit of live games where it is shorter.
func TestHelpTimeLimits(t *testing.T) {
	tests := []struct {
		challenge, scoring time.Duration
		want               []string
	}{
		{commands.DefaultChallengeTTL, commands.DefaultScoringTTL, []string{"expire after a day", "after a day (5 minutes in live games) the marking stands"}},
		{2 * time.Hour, 72 * time.Hour, []string{"expire after 2 hours", "after 3 days (5 minutes in live games) the marking stands"}},
		{90 * time.Minute, time.Hour, []string{"expire after 90 minutes", "after an hour (5 minutes in live games) the marking stands"}},
		// No longer than a live game's limit: one limit for every game.
		{time.Hour, 2 * time.Minute, []string{"expire after an hour", "after 2 minutes the marking stands"}},
	}
	for _, tt := range tests {
		var text strings.Builder
		for _, f := range helpText(nil, tt.challenge, tt.scoring, helpHere{clock: clock.Default(), size: 19})[0].Fields {
			text.WriteString(f.Value)
			if len(f.Value) > 1024 {
				t.Errorf("help field %q is %d characters, over Discord's 1024", f.Name, len(f.Value))
			}
		}
		for _, w := range tt.want {
			if !strings.Contains(text.String(), w) {
				t.Errorf("help with limits %v, %v does not say %q", tt.challenge, tt.scoring, w)
			}
		}
	}
}

// TestDescribeSetup: a game's set-up names the ruleset once, without
// nested parentheses.
func TestDescribeSetup(t *testing.T) {
	chinese, _ := engine.Preset("chinese")
	japanese, _ := engine.Preset("japanese")
	tests := []struct {
		size     int
		rules    engine.Rules
		handicap int
		want     string
	}{
		{9, chinese, 0, "9×9, chinese rules: area scoring, positional superko, komi 7.5"},
		{19, japanese, 3, "19×19, japanese rules: territory scoring, simple ko, komi 6.5, 3 handicap stones"},
	}
	for _, tt := range tests {
		if got := describeSetup(tt.size, tt.rules, tt.handicap); got != tt.want {
			t.Errorf("describeSetup(%d, %s, %d) = %q, want %q", tt.size, tt.rules.Name, tt.handicap, got, tt.want)
		}
	}
}
