// Package discordtest is a stand-in for Discord in tests: it signs
// interaction payloads the way Discord does, builds them in Discord's
// documented JSON shape, and runs a fake REST API on loopback that keeps a
// small model of channels, messages and interactions, records every call,
// and checks every request body (and its own answers) against Discord's
// official OpenAPI 3.1 description. The fake time that a test's bot, store
// and fake Discord share is internal/clocktest's Clock.
//
// It is test support only: nothing outside _test.go files imports it. It
// deliberately does not import discordgo, so that the payloads it sends are
// written from Discord's documentation, not from the library the bot uses
// to read them.
//
// The OpenAPI file is looked for at ../shared/discord-api-spec/openapi.json
// relative to the module root (the directory holding go.mod), or at the
// path in DISCORD_OPENAPI_SPEC. Where it is absent, validation is skipped
// and the test log says so once; when the CI variable is set, the test
// fails instead, so CI never passes without the check.
package discordtest
