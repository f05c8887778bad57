package discordtest

import (
	"strings"
	"testing"
)

// TestCheckCommand: the fake refuses what Discord refuses at registration
// and its schema does not say: a required option after an optional one,
// and a command of more than 8,000 characters.
func TestCheckCommand(t *testing.T) {
	opt := func(name string, required bool) any {
		return map[string]any{"type": 3.0, "name": name, "description": "d", "required": required}
	}
	sub := func(opts ...any) map[string]any {
		return map[string]any{"name": "go", "description": "Go", "options": []any{
			map[string]any{"type": 1.0, "name": "ban", "description": "d", "options": opts},
		}}
	}
	if msg := checkCommand(sub(opt("user", true), opt("reason", true), opt("days", false))); msg != "" {
		t.Errorf("required options first: %q", msg)
	}
	if msg := checkCommand(sub(opt("user", true), opt("days", false), opt("reason", true))); !strings.Contains(msg, "go ban reason: a required option after the optional days") {
		t.Errorf("a required option after an optional one: %q", msg)
	}
	var choices []any
	for range 25 {
		choices = append(choices, map[string]any{"name": strings.Repeat("n", 100), "value": strings.Repeat("v", 100)})
	}
	big := sub(map[string]any{"type": 3.0, "name": "a", "description": "d", "choices": choices},
		map[string]any{"type": 3.0, "name": "b", "description": "d", "choices": choices})
	if msg := checkCommand(big); !strings.Contains(msg, "add up to 10012 characters, more than Discord's 8000") {
		t.Errorf("a command of 10,012 characters: %q", msg)
	}
	big["description_localizations"] = map[string]any{"fr": strings.Repeat("x", 90)}
	if msg := checkCommand(big); !strings.Contains(msg, "add up to 10100 characters") {
		t.Errorf("a localization longer than the default counts instead: %q", msg)
	}
}
