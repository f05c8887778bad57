package web

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// TestSessionKeyKept: without a client secret (the console's page), a
// sign-in signed with Options.SessionKey is good for a page served again
// with that key, as the console serves it after a restart, and for no
// other; with no key given, each process has a key of its own; with a
// client secret, the key comes from the secret alone.
func TestSessionKeyKept(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	ss := session{UserID: "1", Name: "ann", Local: true, Expires: now.Add(time.Hour).Unix()}
	key := bytes.Repeat([]byte{7}, 32)
	tok := newSigner("", key).token(ss)
	if got, err := newSigner("", key).session(tok, now); err != nil || got != ss {
		t.Errorf("the same key after a restart: %+v, %v; want ann's session", got, err)
	}
	if _, err := newSigner("", bytes.Repeat([]byte{8}, 32)).session(tok, now); !errors.Is(err, errBadToken) {
		t.Errorf("another key: %v, want errBadToken", err)
	}
	if _, err := newSigner("", nil).session(newSigner("", nil).token(ss), now); !errors.Is(err, errBadToken) {
		t.Errorf("two processes without a key: %v, want errBadToken", err)
	}
	if _, err := newSigner("secret", key).session(newSigner("secret", nil).token(ss), now); err != nil {
		t.Errorf("the same client secret: %v", err)
	}
}
