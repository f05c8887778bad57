package discordtest

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// SpecEnv names the variable that may point at Discord's openapi.json.
const SpecEnv = "DISCORD_OPENAPI_SPEC"

// ErrNoOperation reports a request to a path or method that Discord's API
// does not have.
var ErrNoOperation = errors.New("discordtest: no such operation in Discord's API")

// ErrInvalidBody reports a request or response body that does not match
// the operation's schema.
var ErrInvalidBody = errors.New("discordtest: body does not match Discord's OpenAPI schema")

// Spec is Discord's OpenAPI description, loaded once, with the operations
// indexed by path template. It is safe for concurrent use.
type Spec struct {
	doc   *openapi3.T
	paths []template
}

// template is one path of the spec split into segments; "{x}" segments
// match any one non-empty segment.
type template struct {
	path     string
	segments []string
	literals int
}

func splitPath(p string) []string { return strings.Split(strings.Trim(p, "/"), "/") }

func newTemplate(p string) template {
	t := template{path: p, segments: splitPath(p)}
	for _, s := range t.segments {
		if !strings.HasPrefix(s, "{") {
			t.literals++
		}
	}
	return t
}

// match reports whether path (without query) matches t, and its parameters.
func (t template) match(path string) (map[string]string, bool) {
	segs := splitPath(path)
	if len(segs) != len(t.segments) {
		return nil, false
	}
	params := map[string]string{}
	for i, s := range t.segments {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			if segs[i] == "" {
				return nil, false
			}
			params[s[1:len(s)-1]] = segs[i]
			continue
		}
		if s != segs[i] {
			return nil, false
		}
	}
	return params, true
}

// bestMatch returns the matching template with the most literal segments,
// so that /applications/@me wins over /applications/{application_id}.
func bestMatch(ts []template, path string) (template, map[string]string, bool) {
	var (
		best   template
		params map[string]string
		found  bool
	)
	for _, t := range ts {
		if p, ok := t.match(path); ok && (!found || t.literals > best.literals) {
			best, params, found = t, p, true
		}
	}
	return best, params, found
}

var (
	specOnce   sync.Once
	specShared *Spec
	specErr    error
)

// LoadSpec loads (once per process) the spec found by FindSpec. It returns
// nil and the reason when the file is absent, and an error when it is
// present but unreadable.
func LoadSpec() (*Spec, string, error) {
	path, reason := FindSpec()
	if path == "" {
		return nil, reason, nil
	}
	specOnce.Do(func() { specShared, specErr = ReadSpec(path) })
	return specShared, "", specErr
}

// FindSpec locates openapi.json: $DISCORD_OPENAPI_SPEC, else
// ../shared/discord-api-spec/openapi.json next to the module root. It
// returns "" and why when there is none.
func FindSpec() (path, reason string) {
	if p := os.Getenv(SpecEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("%s=%s: %v", SpecEnv, p, err)
		}
		return p, ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err.Error()
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "..", "shared", "discord-api-spec", "openapi.json")
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Sprintf("no Discord OpenAPI spec at %s (set %s to use another)", p, SpecEnv)
			}
			return p, ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "no go.mod above the working directory, so no Discord OpenAPI spec"
		}
		dir = parent
	}
}

// ReadSpec loads and checks an OpenAPI document.
func ReadSpec(path string) (*Spec, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("discordtest: load %s: %w", path, err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("discordtest: %s is OpenAPI %s, want 3.1", path, doc.OpenAPI)
	}
	s := &Spec{doc: doc}
	for p := range doc.Paths.Map() {
		s.paths = append(s.paths, newTemplate(p))
	}
	sort.Slice(s.paths, func(i, j int) bool { return s.paths[i].path < s.paths[j].path })
	return s, nil
}

// Operation finds the operation for method and path (relative to the API
// base, e.g. /channels/1/messages) and returns its path template.
func (s *Spec) Operation(method, path string) (*openapi3.Operation, string, error) {
	t, _, ok := bestMatch(s.paths, path)
	if !ok {
		return nil, "", fmt.Errorf("%s %s: %w", method, path, ErrNoOperation)
	}
	op := s.doc.Paths.Value(t.path).GetOperation(strings.ToUpper(method))
	if op == nil {
		return nil, t.path, fmt.Errorf("%s %s: %w", method, t.path, ErrNoOperation)
	}
	return op, t.path, nil
}

var schemaOpts = []openapi3.SchemaValidationOption{openapi3.EnableJSONSchema2020()}

// errorAt matches kin-openapi's doubled JSON paths; the "at '/x'" after
// them says the same once.
var errorAt = regexp.MustCompile(`error at "[^"]*": `)

// brief shortens a schema error: a oneOf over many component types explains
// every branch, and the first lines say what matters.
func brief(err error) string {
	var parts []string
	skip := false
	for _, line := range strings.Split(err.Error(), "\n") {
		if rest, ok := strings.CutPrefix(line, " | "); ok {
			skip, line = false, rest
		}
		if strings.HasPrefix(line, "Schema:") {
			skip = true
		}
		if !skip && strings.TrimSpace(line) != "" {
			line = strings.ReplaceAll(line, "validation failed due to: ", "")
			line = errorAt.ReplaceAllString(line, "")
			parts = append(parts, strings.TrimSpace(line))
		}
	}
	msg := strings.Join(parts, "; ")
	const max = 1200
	if len(msg) > max {
		msg = msg[:max] + "…"
	}
	return msg
}

// ValidateRequest checks a request body, already decoded from JSON (for
// multipart, the payload_json object with one "files[n]" string property
// per uploaded file), against the operation's requestBody schema for
// mediaType. A multipart body is checked against the JSON schema where the
// spec describes no multipart form (as for interaction callbacks).
func (s *Spec) ValidateRequest(method, path, mediaType string, body any) error {
	op, tmpl, err := s.Operation(method, path)
	if err != nil {
		return err
	}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		if body != nil {
			return fmt.Errorf("%s %s takes no body: %w", method, tmpl, ErrInvalidBody)
		}
		return nil
	}
	rb := op.RequestBody.Value
	if body == nil {
		if rb.Required {
			return fmt.Errorf("%s %s requires a body: %w", method, tmpl, ErrInvalidBody)
		}
		return nil
	}
	mt := rb.Content.Get(mediaType)
	if mt == nil && mediaType == "multipart/form-data" {
		mt = rb.Content.Get("application/json")
		if m, ok := body.(map[string]any); ok {
			body = withoutFiles(m)
		}
	}
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return fmt.Errorf("%s %s does not accept %s: %w", method, tmpl, mediaType, ErrInvalidBody)
	}
	if err := s.doc.ValidateSchemaJSON(mt.Schema.Value, body, append(schemaOpts, openapi3.VisitAsRequest())...); err != nil {
		return fmt.Errorf("%s %s request: %w: %s", method, tmpl, ErrInvalidBody, brief(err))
	}
	return nil
}

func withoutFiles(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !strings.HasPrefix(k, "files[") {
			out[k] = v
		}
	}
	return out
}

// ValidateResponse checks a JSON answer with the given status against the
// operation's responses. A status the operation does not list is an error;
// a listed status without a JSON schema (such as 204) must have no body.
func (s *Spec) ValidateResponse(method, path string, status int, body any) error {
	op, tmpl, err := s.Operation(method, path)
	if err != nil {
		return err
	}
	ref := op.Responses.Value(strconv.Itoa(status))
	if ref == nil {
		ref = op.Responses.Value(strconv.Itoa(status/100) + "XX")
	}
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("%s %s has no %d response: %w", method, tmpl, status, ErrInvalidBody)
	}
	mt := ref.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		if body != nil {
			return fmt.Errorf("%s %s %d response has no body: %w", method, tmpl, status, ErrInvalidBody)
		}
		return nil
	}
	if err := s.doc.ValidateSchemaJSON(mt.Schema.Value, body, append(schemaOpts, openapi3.VisitAsResponse())...); err != nil {
		return fmt.Errorf("%s %s %d response: %w: %s", method, tmpl, status, ErrInvalidBody, brief(err))
	}
	return nil
}

// ValidateCallback checks an interaction response, such as the body of the
// bot's answer to an interaction POST, against the callback endpoint's
// request schema.
func (s *Spec) ValidateCallback(body any) error {
	return s.ValidateRequest(http.MethodPost, "/interactions/1/token/callback", "application/json", body)
}
