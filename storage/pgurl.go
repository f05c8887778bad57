package storage

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/gobot-dev/gobot/internal/redact"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A PostgreSQL URL (GOBOT_DATABASE_URL, migrate-db's --to) holds a
// password, so nothing that reads it may quote it. Two readers of it
// disagree on a password with a character a URL reserves: net/url (which
// config's redaction used) ends the user's part at the last '@' before
// the path, pgx (like libpq) at the first, so that the rest of the
// password becomes the host, and pgx's error named it ("lookup dor&3@db:
// no such host"). CheckPostgresURL refuses such a URL before pgx sees it,
// saying what to encode and quoting none of it.

// postgresExample is the shape of a PostgreSQL URL, for the messages.
const postgresExample = "postgres://gobot:password@db:5432/gobot"

// URLError is the refusal of a PostgreSQL URL. Reason says what is wrong
// in words that quote no part of the URL; it wraps ErrInvalid.
type URLError struct {
	Reason string
}

func (e *URLError) Error() string { return "storage: the database URL " + e.Reason }

func (e *URLError) Unwrap() error { return ErrInvalid }

// CheckPostgresURL checks a PostgreSQL URL as OpenPostgres reads it,
// without connecting: a postgres:// URL whose user name and password have
// every character a URL reserves percent-encoded, with a host and port
// that net/url reads and options that pgx accepts. Its error is a
// *URLError, and no error of it quotes any part of raw.
func CheckPostgresURL(raw string) error {
	rest, ok := strings.CutPrefix(raw, "postgres://")
	if !ok {
		rest, ok = strings.CutPrefix(raw, "postgresql://")
	}
	if !ok {
		return &URLError{Reason: "is not a postgres:// URL (such as " + postgresExample + ")"}
	}
	if unencodedUserinfo(rest) {
		return &URLError{Reason: "has a character in its user name or password that a URL reserves: percent-encode it (@ as %40, / as %2F, ? as %3F, # as %23, % as %25), " +
			"or leave the password out of the URL and set PGPASSWORD to it"}
	}
	if _, err := pgxpool.ParseConfig(raw); err != nil {
		if _, uerr := url.Parse(raw); uerr != nil {
			// Neither reads it (their reasons may quote the URL). A user
			// part with a space or a reserved character is the likely
			// cause ("p ss", "p@ss/w?rd#%"); else the host or the port.
			if at := strings.LastIndexByte(rest, '@'); at >= 0 && strings.ContainsAny(rest[:at], " \t@/?#%") {
				return &URLError{Reason: "has a character in its user name or password that a URL does not allow as it is: percent-encode it " +
					"(a space as %20, @ as %40, / as %2F, ? as %3F, # as %23, % as %25), or leave the password out of the URL and set PGPASSWORD to it"}
			}
			return &URLError{Reason: "cannot be read as a URL: check its host and port (such as " + postgresExample + ")"}
		}
		return &URLError{Reason: "cannot be used: " + parseReason(err, raw)}
	}
	return nil
}

// unencodedUserinfo reports whether rest, a PostgreSQL URL after its
// scheme, has a user name or password with a character a URL reserves
// left as it is, which net/url and pgx would read differently: a second
// '@' before the path, an '@' in the path (a password with '/', whose
// rest pgx would take for the database's name), a '?' or '#' before the
// '@', a '%' that starts no escape, or a host part that is no host:port
// with an '@' further on.
func unencodedUserinfo(rest string) bool {
	head, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		head, path = rest[:i], rest[i:]
		if q := strings.IndexAny(path, "?#"); q >= 0 {
			path = path[:q]
		}
	}
	at := strings.IndexByte(head, '@')
	switch {
	case strings.Count(head, "@") > 1, strings.Contains(path, "@"):
		return true
	case at >= 0:
		userinfo := head[:at]
		return strings.ContainsAny(userinfo, "?#") || badEscape(userinfo)
	case strings.Contains(rest, "@"):
		// "gobot:pa?ss@db…": the host part ends inside the password.
		end := strings.IndexAny(head, "?#")
		if end < 0 {
			end = len(head)
		}
		_, port, found := strings.Cut(head[:end], ":")
		_, err := strconv.Atoi(port)
		return found && err != nil
	}
	return false
}

// badEscape reports whether s has a '%' not followed by two hex digits.
func badEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return true
		}
		i += 2
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// parseReason is pgx's reason for refusing raw ("sslmode is invalid"),
// without the URL it quotes and with any piece of the password taken out.
func parseReason(err error, raw string) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return redactPassword(err.Error(), raw)
	}
	bare := *pe
	bare.ConnString = ""
	return redactPassword(strings.TrimPrefix(bare.Error(), "cannot parse ``: "), raw)
}

// passwordOf returns the password of raw, as written and decoded, when it
// has one.
func passwordOf(raw string) []string {
	written := WrittenPassword(raw)
	if written == "" {
		return nil
	}
	ps := []string{written}
	if p, err := url.PathUnescape(written); err == nil && p != written {
		ps = append(ps, p)
	}
	return ps
}

// redactPassword replaces the password of raw in s by "[redacted]" where
// it can be recognised (redact.Text): in a URL always, elsewhere when it
// is long enough not to be a word of the text.
func redactPassword(s, raw string) string {
	return redact.Text(s, passwordOf(raw))
}

// textError is an error whose text was rewritten (the database URL's
// password taken out, pgx's lines joined into one); it still wraps the
// original for errors.Is.
type textError struct {
	msg string
	err error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.err }

// redactErr returns err with the password of raw taken out of its text.
func redactErr(err error, raw string) error {
	if err == nil {
		return nil
	}
	if msg := redactPassword(err.Error(), raw); msg != err.Error() {
		return &textError{msg: msg, err: err}
	}
	return err
}

// oneLine returns err with its lines joined: pgx writes one line per
// address it tried.
func oneLine(err error) error {
	if msg := strings.ReplaceAll(err.Error(), "\n\t", "; "); msg != err.Error() {
		return &textError{msg: strings.ReplaceAll(msg, "\n", " "), err: err}
	}
	return err
}

// WrittenPassword returns the password of a URL as it is written there
// (percent-encoded), or "".
func WrittenPassword(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, _ := strings.Cut(rest[:at], ":")
	return pw
}
