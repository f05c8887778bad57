// Package web is gobot's board page: a live board of Go or draughts in
// any browser, and inside Discord as an Activity. It serves, under /play,
// the page's assets (HTML, CSS and plain JavaScript modules, embedded with
// go:embed, with Discord's Embedded App SDK vendored as its own built
// files), a few JSON endpoints to sign in, and a WebSocket over which the
// page receives every change of the games it shows and sends its clicks.
//
// It owns who is on the page and what reaches it: signing in (a name from
// a loopback address, beside the console only: Options.Local; Discord's
// OAuth2 code exchanged with the client secret in an Activity),
// short-lived signed session tokens, the WebSocket's origin check, size
// and rate limits and message decoding, and the fan-out of each game's
// state to everyone watching it.
//
// It must not decide anything about a game. A click becomes an Action
// handed to the App (package commands), which runs it as the slash command
// or button it stands for: the same version check, clock, bot queue,
// rating, scoring and undo rules, and the same refusals. The page shows
// the App's GameView as it is; the App's change feed (OnChange) tells this
// package when to send it again. It must not log a session token, an
// OAuth2 code or access token, or the client secret.
package web
