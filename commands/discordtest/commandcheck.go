package discordtest

import (
	"fmt"
	"unicode/utf8"
)

// Discord's limits on an application command, which its API enforces when
// commands are registered and the OpenAPI schema does not state: a
// registration that breaks one is refused whole (50035, Invalid Form Body),
// every command of the request with it.
const (
	maxCommandChars = 8000 // names, descriptions and choice values, summed
	maxOptions      = 25
	maxChoices      = 25
	maxNameLen      = 32
	maxDescLen      = 100
)

// checkCommand reports the first of Discord's limits that the command c (as
// decoded from a registration's JSON) breaks, or "".
func checkCommand(c map[string]any) string {
	name, _ := c["name"].(string)
	total := fieldChars(c, "name") + fieldChars(c, "description")
	if msg := checkOptions(name, c["options"], &total); msg != "" {
		return msg
	}
	if total > maxCommandChars {
		return fmt.Sprintf("command %s: its names, descriptions and choice values add up to %d characters, more than Discord's %d", name, total, maxCommandChars)
	}
	return ""
}

// checkOptions checks the options of path (a command or subcommand),
// adding their characters to total: required options first, at most 25,
// names and descriptions within their lengths, at most 25 choices.
func checkOptions(path string, list any, total *int) string {
	opts, _ := list.([]any)
	if len(opts) > maxOptions {
		return fmt.Sprintf("%s has %d options, more than Discord's %d", path, len(opts), maxOptions)
	}
	optional := ""
	for _, o := range opts {
		m, _ := o.(map[string]any)
		name, _ := m["name"].(string)
		desc, _ := m["description"].(string)
		at := path + " " + name
		switch {
		case name == "" || utf8.RuneCountInString(name) > maxNameLen:
			return fmt.Sprintf("%s: an option name must be 1 to %d characters", at, maxNameLen)
		case utf8.RuneCountInString(desc) > maxDescLen:
			return fmt.Sprintf("%s: its description has %d characters, more than %d", at, utf8.RuneCountInString(desc), maxDescLen)
		}
		*total += fieldChars(m, "name") + fieldChars(m, "description")
		typ, _ := m["type"].(float64)
		if typ == 1 || typ == 2 { // a subcommand or a group of them
			if msg := checkOptions(at, m["options"], total); msg != "" {
				return msg
			}
			continue
		}
		if req, _ := m["required"].(bool); req && optional != "" {
			return fmt.Sprintf("%s: a required option after the optional %s (Discord wants the required ones first)", at, optional)
		} else if !req {
			optional = name
		}
		choices, _ := m["choices"].([]any)
		if len(choices) > maxChoices {
			return fmt.Sprintf("%s has %d choices, more than Discord's %d", at, len(choices), maxChoices)
		}
		for _, ch := range choices {
			cm, _ := ch.(map[string]any)
			*total += fieldChars(cm, "name") + utf8.RuneCountInString(fmt.Sprint(cm["value"]))
		}
	}
	return ""
}

// fieldChars counts field of m as Discord does toward the size limit: its
// longest text among the default and the localizations.
func fieldChars(m map[string]any, field string) int {
	s, _ := m[field].(string)
	n := utf8.RuneCountInString(s)
	locs, _ := m[field+"_localizations"].(map[string]any)
	for _, v := range locs {
		if l, ok := v.(string); ok {
			n = max(n, utf8.RuneCountInString(l))
		}
	}
	return n
}
