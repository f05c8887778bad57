package redact

import "testing"

func TestText(t *testing.T) {
	for _, c := range []struct {
		in      string
		secrets []string
		want    string
	}{
		// A short secret is masked only where it is a password.
		{"starting gobot", []string{"gobot"}, "starting gobot"},
		{`FATAL: password authentication failed for user "gobot"`, []string{"gobot"}, `FATAL: password authentication failed for user "gobot"`},
		{"connect to postgres://gobot:gobot@db:5432/gobot failed", []string{"gobot"}, "connect to postgres://gobot:[redacted]@db:5432/gobot failed"},
		{"host=db user=gobot password=gobot", []string{"gobot"}, "host=db user=gobot password=[redacted]"},
		{"expected at most 5, lookup db.nonexistent.invalid", []string{"x"}, "expected at most 5, lookup db.nonexistent.invalid"},
		// Any URL's password is masked, known or not.
		{"dial https://u:pr0xy@proxy.example:8443/api", nil, "dial https://u:[redacted]@proxy.example:8443/api"},
		{"http://host:8080/path@x and mailto:a@b", nil, "http://host:8080/path@x and mailto:a@b"},
		// A long secret is masked wherever it occurs.
		{"echo Tr0ub4dor&3-long here", []string{"Tr0ub4dor&3-long"}, "echo [redacted] here"},
	} {
		if got := Text(c.in, c.secrets); got != c.want {
			t.Errorf("Text(%q, %q) =\n %q, want\n %q", c.in, c.secrets, got, c.want)
		}
	}
}
