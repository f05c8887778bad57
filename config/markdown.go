package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/caarlos0/env/v11"
)

// Var documents one environment variable.
type Var struct {
	Name        string // e.g. "GOBOT_MODE"
	Default     string // "" when there is none
	Description string
}

// Vars lists every variable gobot reads, in a stable order.
func Vars() []Var {
	params, err := env.GetFieldParams(&raw{})
	if err != nil {
		// The tags of raw are constant; a failure is a programmer error
		// caught by the package's tests.
		panic("config: bad env tags: " + err.Error())
	}
	t := reflect.TypeFor[raw]()
	vars := make([]Var, 0, len(params))
	for i, p := range params {
		f := t.Field(i)
		def := p.DefaultValue
		if d, ok := f.Tag.Lookup("docDefault"); ok {
			def = d
		}
		vars = append(vars, Var{Name: p.Key, Default: def, Description: f.Tag.Get("doc")})
	}
	return vars
}

// Markdown renders Vars as a GitHub-flavoured Markdown table, the one
// README.md embeds between "<!-- config:begin -->" and "<!-- config:end -->"
// (go test ./config -update rewrites it there).
func Markdown() string {
	var b strings.Builder
	b.WriteString("| Variable | Default | Description |\n|---|---|---|\n")
	for _, v := range Vars() {
		def := "—"
		if v.Default != "" {
			def = v.Default
			if !strings.Contains(def, " ") {
				def = "`" + def + "`"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, def, strings.ReplaceAll(v.Description, "|", `\|`))
	}
	return b.String()
}
