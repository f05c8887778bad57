package discordtest

import "errors"

// ErrNoOperation reports a request to a path or method that Discord's API
// does not have.
var ErrNoOperation = errors.New("discordtest: no such operation in Discord's API")

// ErrInvalidBody reports a request or response body that does not match
// the operation's schema.
var ErrInvalidBody = errors.New("discordtest: body does not match Discord's OpenAPI schema")
