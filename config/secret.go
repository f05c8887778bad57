package config

import (
	"fmt"
	"log/slog"
)

// redacted is what a Secret prints as.
const redacted = "[redacted]"

// Secret is a string that never prints itself: every fmt verb, slog,
// encoding/json and encoding.TextMarshaler see "[redacted]" (or "" when it
// is empty, so a missing secret is visible as missing). Call Reveal to get
// the value, at the one place that needs it.
type Secret string

// Reveal returns the secret's value.
func (s Secret) Reveal() string { return string(s) }

// String returns "[redacted]", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString implements fmt.GoStringer for %#v.
func (s Secret) GoString() string { return fmt.Sprintf("config.Secret(%q)", s.String()) }

// Format implements fmt.Formatter so that no verb (%d, %x, %q...) reaches
// the underlying string.
func (s Secret) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprint(f, s.GoString())
	case verb == 'q':
		fmt.Fprintf(f, "%q", s.String())
	default:
		fmt.Fprint(f, s.String())
	}
}

// LogValue implements slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText implements encoding.TextMarshaler (and so JSON and XML).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
