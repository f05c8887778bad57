package web

import "errors"

// Errors of the board page's sign-in.
var (
	// errBadToken is a session token this gobot did not sign (or one cut
	// short or altered).
	errBadToken = errors.New("web: session token not valid")
	// errExpired is a session token past its expiry.
	errExpired = errors.New("web: session expired")
	// errNotFound is Discord's 404: it does not know what was asked.
	errNotFound = errors.New("web: not found at Discord")
)

// errBadMessage is a message from a page of the wrong shape or size; its
// text is the error frame's sentence.
type errBadMessage struct{ why string }

func (e *errBadMessage) Error() string { return e.why }
