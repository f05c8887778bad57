package gtp

import (
	"fmt"
	"strings"
)

// Spec names a program and the command line that runs it in GTP mode.
type Spec struct {
	Name string   // as users pick it: lower-case letters, digits, '-', '_', '.'
	Argv []string // program and arguments, run without a shell
}

// String returns the spec as ParsePrograms reads it: NAME=COMMAND.
func (s Spec) String() string { return s.Name + "=" + s.Command() }

// Command returns the command line as SplitCommand reads it: the
// arguments separated by spaces, quoted where they hold a space, a tab or
// a quote, or are empty.
func (s Spec) Command() string {
	args := make([]string, len(s.Argv))
	for i, a := range s.Argv {
		if a == "" || strings.ContainsAny(a, " \t'\"") {
			if strings.Contains(a, "'") {
				a = `"` + a + `"`
			} else {
				a = "'" + a + "'"
			}
		}
		args[i] = a
	}
	return strings.Join(args, " ")
}

// ParsePrograms reads a list of programs: entries NAME=COMMAND separated by
// semicolons or newlines, where COMMAND is split into arguments at spaces
// and tabs, and single or double quotes group an argument that contains
// spaces (no escapes, no shell). Blank entries and entries starting with #
// are skipped. Names are case-insensitive and are returned in lower case;
// they must be unique. It is the one reader of this syntax (the
// GOBOT_GTP_ENGINES variable, `gobot arena -gtp`); its error is a
// *SpecError saying what is wrong.
//
//	gnugo=/usr/games/gnugo --mode gtp --level 10; katago=/opt/katago gtp -config '/etc/kata go.cfg'
func ParsePrograms(s string) ([]Spec, error) {
	var specs []Spec
	seen := map[string]bool{}
	for _, entry := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" || strings.HasPrefix(entry, "#") {
			continue
		}
		name, command, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, specError("entry %q is not NAME=COMMAND", entry)
		}
		name = strings.TrimSpace(name)
		if !validName(strings.ToLower(name)) {
			return nil, specError("name %q must be 1 to 32 letters, digits, '-', '_' or '.'", name)
		}
		name = strings.ToLower(name)
		if seen[name] {
			return nil, specError("program %q is listed twice", name)
		}
		seen[name] = true
		if strings.TrimSpace(command) == "" {
			return nil, specError("program %q has no command", name)
		}
		argv, reason := splitCommand(command)
		if reason != "" {
			return nil, specError("program %q: %s", name, reason)
		}
		specs = append(specs, Spec{Name: name, Argv: argv})
	}
	return specs, nil
}

// validName reports whether name can name a program: it is then also a
// level name ("gtp:NAME") and a slash command's choice value.
func validName(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// SplitCommand splits a command line into arguments at spaces and tabs;
// single or double quotes group an argument and are removed. There are no
// escapes and no other shell syntax. Its error is a *SpecError.
func SplitCommand(s string) ([]string, error) {
	args, reason := splitCommand(s)
	if reason != "" {
		return nil, specError("%s", reason)
	}
	return args, nil
}

// splitCommand is SplitCommand, with what is wrong as a reason.
func splitCommand(s string) ([]string, string) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote = r
			inArg = true
		case r == ' ' || r == '\t' || r == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Sprintf("command %q has an unclosed %c quote", strings.TrimSpace(s), quote)
	}
	if inArg {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, "the command is empty"
	}
	return args, ""
}

// specError returns a *SpecError with the formatted reason.
func specError(format string, args ...any) *SpecError {
	return &SpecError{Reason: fmt.Sprintf(format, args...)}
}
