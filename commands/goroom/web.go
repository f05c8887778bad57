package goroom

import "github.com/gobot-dev/gobot/commands"

// seatName is the seat a page claimed, as a refusal names it.
func seatName(s string) string {
	if s == "" {
		return "any side"
	}
	return commands.Clip(s, 20)
}
