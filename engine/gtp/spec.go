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

// String returns the spec as ParsePrograms reads it.
func (s Spec) String() string {
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
	return s.Name + "=" + strings.Join(args, " ")
}

// ParsePrograms reads a list of programs: entries NAME=COMMAND separated by
// semicolons or newlines, where COMMAND is split into arguments at spaces
// and tabs, and single or double quotes group an argument that contains
// spaces (no escapes, no shell). Blank entries and entries starting with #
// are skipped. Names are case-insensitive and are returned in lower case;
// they must be unique.
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
			return nil, fmt.Errorf("engine entry %q: want NAME=COMMAND: %w", entry, ErrInvalidSpec)
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if err := checkName(name); err != nil {
			return nil, fmt.Errorf("engine entry %q: %w", entry, err)
		}
		if seen[name] {
			return nil, fmt.Errorf("engine %q listed twice: %w", name, ErrInvalidSpec)
		}
		seen[name] = true
		argv, err := SplitCommand(command)
		if err != nil {
			return nil, fmt.Errorf("engine %q: %w", name, err)
		}
		specs = append(specs, Spec{Name: name, Argv: argv})
	}
	return specs, nil
}

// checkName reports whether name can name an engine.
func checkName(name string) error {
	if name == "" || len(name) > 32 {
		return fmt.Errorf("engine name %q must have 1 to 32 characters: %w", name, ErrInvalidSpec)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("engine name %q: use letters, digits, '-', '_' or '.': %w", name, ErrInvalidSpec)
		}
	}
	return nil
}

// SplitCommand splits a command line into arguments at spaces and tabs;
// single or double quotes group an argument and are removed. There are no
// escapes and no other shell syntax.
func SplitCommand(s string) ([]string, error) {
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
		return nil, fmt.Errorf("command %q: unclosed %c quote: %w", s, quote, ErrInvalidSpec)
	}
	if inArg {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("empty command: %w", ErrInvalidSpec)
	}
	return args, nil
}
