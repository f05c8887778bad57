package discordtest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SpecEnv names the variable that may point at Discord's openapi.json.
const SpecEnv = "DISCORD_OPENAPI_SPEC"

// Spec is Discord's OpenAPI description, loaded once, with the operations
// indexed by path template. It is safe for concurrent use.
type Spec struct {
	doc   *openapi3.T
	paths []template

	// Schemas are compiled from the raw document once and cached:
	// compiling on each call (as openapi3.Schema.VisitJSON does with JSON
	// Schema 2020-12) costs more than the rest of a test.
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

// specURL names the document inside the JSON Schema compiler.
const specURL = "https://discord.test/openapi.json"

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
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("discordtest: %w", err)
	}
	rawDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("discordtest: %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(specURL, rawDoc); err != nil {
		return nil, fmt.Errorf("discordtest: %s: %w", path, err)
	}
	s := &Spec{doc: doc, compiler: c, compiled: map[string]*jsonschema.Schema{}}
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

// pointer escapes JSON pointer tokens and joins them.
func pointer(tokens ...string) string {
	r := strings.NewReplacer("~", "~0", "/", "~1")
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + url.PathEscape(r.Replace(t)))
	}
	return b.String()
}

// refPointer turns "#/components/..." into a pointer, or returns "".
func refPointer(ref string) string {
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return ""
	}
	return p
}

// validate checks v against the schema at ptr in the spec.
func (s *Spec) validate(ptr string, v any) error {
	s.mu.Lock()
	sch, ok := s.compiled[ptr]
	if !ok {
		var err error
		sch, err = s.compiler.Compile(specURL + "#" + ptr)
		if err != nil {
			s.mu.Unlock()
			return fmt.Errorf("discordtest: compile schema %s: %w", ptr, err)
		}
		s.compiled[ptr] = sch
	}
	s.mu.Unlock()
	return sch.Validate(v)
}

// brief shortens a schema error: a oneOf over many component types explains
// every branch, and the first lines say what matters.
func brief(err error) string {
	var lines []string
	for _, line := range strings.Split(err.Error(), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "jsonschema validation failed") {
			lines = append(lines, line)
		}
	}
	msg := strings.Join(lines, "; ")
	const max = 1500
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
	base := pointer("paths", tmpl, strings.ToLower(method), "requestBody")
	if p := refPointer(op.RequestBody.Ref); p != "" {
		base = p
	}
	if rb.Content.Get(mediaType) == nil && mediaType == "multipart/form-data" && rb.Content.Get("application/json") != nil {
		mediaType = "application/json"
		if m, ok := body.(map[string]any); ok {
			body = withoutFiles(m)
		}
	}
	if rb.Content.Get(mediaType) == nil {
		return fmt.Errorf("%s %s does not accept %s: %w", method, tmpl, mediaType, ErrInvalidBody)
	}
	if err := s.validate(base+pointer("content", mediaType, "schema"), body); err != nil {
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
	code := strconv.Itoa(status)
	ref := op.Responses.Value(code)
	if ref == nil {
		code = strconv.Itoa(status/100) + "XX"
		ref = op.Responses.Value(code)
	}
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("%s %s has no %d response: %w", method, tmpl, status, ErrInvalidBody)
	}
	if ref.Value.Content.Get("application/json") == nil {
		if body != nil {
			return fmt.Errorf("%s %s %d response has no body: %w", method, tmpl, status, ErrInvalidBody)
		}
		return nil
	}
	base := pointer("paths", tmpl, strings.ToLower(method), "responses", code)
	if p := refPointer(ref.Ref); p != "" {
		base = p
	}
	if err := s.validate(base+pointer("content", "application/json", "schema"), body); err != nil {
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
