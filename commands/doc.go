// Package commands is the Discord side of gobot: the /go slash command and
// its buttons, the scoring-phase flow, the HTTP interactions endpoint and the
// thin REST client the bot answers through.
//
// One entry point, Bot.Handle, takes every interaction (from the gateway, the
// HTTP endpoint or the console), and a Router dispatches it by command and
// subcommand name or by a component's custom ID, written as a path such as
// "game/<id>/pass/<move>". Handlers return errors; one place turns them into
// specific ephemeral replies and logs them, and a panicking handler answers
// with an apology instead of taking the bot down.
//
// Rules live in engine, persistence in storage, pictures in render and AI
// opponents in bots: this package only translates between them and Discord,
// through small interfaces it declares itself (Discord, Store, Players,
// Renderer). It is, with cmd/gobot, the only package that imports discordgo.
// It never logs the bot token.
package commands
