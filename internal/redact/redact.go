package redact

import (
	"regexp"
	"strings"
)

// Mask is what a secret is replaced by.
const Mask = "[redacted]"

// MinFreeText is the length from which a secret is masked wherever it
// occurs. A shorter one ("gobot", "postgres", "x") is also a word, a name
// or a letter of ordinary text: masking each of its occurrences would
// garble the log and, by the garbling, give the secret away ("starting
// [redacted]"). It is masked where it can be recognised: as a URL's
// password and as a connection string's password=.
const MinFreeText = 12

// userinfo matches the password of a URL's user part:
// scheme://user:PASSWORD@.
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#@:]*):([^\s/?#@]+)@`)

// Text returns s with the password of every URL in it masked, and each of
// secrets masked where it is a password (after "user:" and before "@", or
// after "password=") and, when it has at least MinFreeText characters,
// wherever it occurs.
func Text(s string, secrets []string) string {
	s = userinfo.ReplaceAllString(s, "${1}:"+Mask+"@")
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		if len(sec) >= MinFreeText {
			s = strings.ReplaceAll(s, sec, Mask)
			continue
		}
		s = strings.ReplaceAll(s, ":"+sec+"@", ":"+Mask+"@")
		s = strings.ReplaceAll(s, "password="+sec, "password="+Mask)
	}
	return s
}
