package commands

import (
	"fmt"
	"time"

	"github.com/gobot-dev/gobot/storage/glicko"
)

// humanDuration says a time limit in words: "a day", "3 days", "12 hours",
// "90 minutes".
func HumanDuration(d time.Duration) string {
	switch {
	case d == 24*time.Hour:
		return "a day"
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d == time.Hour:
		return "an hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d == time.Minute:
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", (d+time.Minute-1)/time.Minute)
}

// establishing says when a rating stops being provisional, as the
// Glicko-2 arithmetic has it (glicko.GamesToEstablish).
func Establishing() string {
	return fmt.Sprintf("%d games for new players who win in turn; one-sided results take longer, or never get there",
		glicko.GamesToEstablish())
}
