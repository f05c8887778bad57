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
	// errClientRefused is the token endpoint's invalid_client: gobot's
	// client ID and secret are not the application's (a setting wrong,
	// not a player's code).
	errClientRefused = errors.New("web: Discord refused gobot's client credentials")
	// errDiscordOut is Discord unreachable, or failing for a moment (5xx,
	// 429): trying again later may work.
	errDiscordOut = errors.New("web: Discord unavailable")
)

// errBadMessage is a message from a page of the wrong shape or size; its
// text is the error frame's sentence.
type errBadMessage struct{ why string }

func (e *errBadMessage) Error() string { return e.why }
