package config

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"

	"github.com/gobot-dev/gobot/internal/redact"
	"github.com/gobot-dev/gobot/storage"
)

// secrets returns the secret values the configuration holds: the token,
// the client secret, PGPASSWORD and the passwords in DISCORD_API_URL and
// GOBOT_DATABASE_URL (as written and decoded), when set.
func (c *Config) secrets() []string {
	var s []string
	for _, sec := range []Secret{c.Token, c.ClientSecret, c.DBPassword} {
		if t := sec.Reveal(); t != "" {
			s = append(s, t)
		}
	}
	for _, raw := range []string{c.APIURL, c.DatabaseURL.Reveal()} {
		// As written (percent-encoded) and as meant; read by hand, for
		// a URL of several hosts that url.Parse refuses.
		if written := storage.WrittenPassword(raw); written != "" {
			s = append(s, written)
			if p, err := url.PathUnescape(written); err == nil && p != written {
				s = append(s, p)
			}
		}
	}
	return s
}

// Redact returns s with the secrets of the configuration (the token, the
// passwords) replaced by "[redacted]": for text that may quote them
// without meaning to, such as an error that carries a REST answer or a
// proxy's echo of the request. The password of every URL in s is masked;
// a secret elsewhere only when it is long enough to be recognised
// (redact.MinFreeText characters): a short database password ("gobot")
// masked wherever its letters occur would garble the log and give itself
// away. ShortSecrets names those.
func (c *Config) Redact(s string) string {
	return redact.Text(s, c.secrets())
}

// ShortSecrets names the secrets of the configuration too short to be
// masked outside a URL (see Redact), for a warning at start-up that quotes
// none of them.
func (c *Config) ShortSecrets() []string {
	var names []string
	short := func(name, v string) {
		if v != "" && len(v) < redact.MinFreeText {
			names = append(names, name)
		}
	}
	short("DISCORD_TOKEN", c.Token.Reveal())
	short("DISCORD_CLIENT_SECRET", c.ClientSecret.Reveal())
	short("PGPASSWORD", c.DBPassword.Reveal())
	short("the password in DISCORD_API_URL", storage.WrittenPassword(c.APIURL))
	short("the password in GOBOT_DATABASE_URL", storage.WrittenPassword(c.DatabaseURL.Reveal()))
	return names
}

// RedactHandler wraps h so that no record reaches it with a secret of the
// configuration in its message or in any attribute (strings, errors and
// other values are formatted and redacted; groups are walked). It is the
// logging boundary: whatever a library or an error puts in a record, the
// token and the API password are replaced by "[redacted]".
func (c *Config) RedactHandler(h slog.Handler) slog.Handler {
	return &redactHandler{next: h, secrets: c.secrets()}
}

type redactHandler struct {
	next    slog.Handler
	secrets []string
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.attr(a)
	}
	return &redactHandler{next: h.next.WithAttrs(clean), secrets: h.secrets}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{next: h.next.WithGroup(name), secrets: h.secrets}
}

func (h *redactHandler) redact(s string) string {
	return redact.Text(s, h.secrets)
}

// attr redacts one attribute: strings are redacted, groups walked, and any
// other value that would print a secret is replaced by its redacted text.
func (h *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.redact(v.String()))
	case slog.KindGroup:
		as := v.Group()
		clean := make([]any, len(as))
		for i, g := range as {
			clean[i] = h.attr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		text := fmt.Sprint(v.Any())
		if red := h.redact(text); red != text {
			return slog.String(a.Key, red)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
