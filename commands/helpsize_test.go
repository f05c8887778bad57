package commands

import (
	"testing"

	"github.com/gobot-dev/gobot/engine/clock"
	"unicode/utf8"
)

// TestHelpFitsDiscord: /go help stays within Discord's embed limits: 6000
// characters in all, 1024 a field, 25 fields.
func TestHelpFitsDiscord(t *testing.T) {
	levels := []Level{{Name: "beginner", Description: "random"}, {Name: "hard", Description: "Monte Carlo tree search"}}
	for _, e := range helpText(levels, DefaultChallengeTTL, DefaultScoringTTL, clock.Default()) {
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
			t.Errorf("the help embed has %d characters, Discord allows 6000", total)
		}
	}
}
