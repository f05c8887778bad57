// Package commands is the Discord side of gobot: the /go slash command and
// its buttons, the scoring-phase flow, the HTTP interactions endpoint and the
// REST adapter the bot answers through (REST, over a *discordgo.Session, whose
// rate limiter keeps Discord's per-route buckets and global limit).
//
// One entry point, Bot.Handle, takes every interaction (from the gateway, the
// HTTP endpoint or the console), and a Router dispatches it by command and
// subcommand name or by a component's custom ID, written as a path such as
// "game/<id>/pass/<move>". Handlers return errors; one place turns them into
// specific ephemeral replies and logs them, and a panicking handler answers
// with an apology instead of taking the bot down.
//
// A game whose stored record cannot be read is set aside (storage's
// quarantine, for `gobot doctor`) the first time it is read, by an
// interaction or the background scan: it is logged once with its channel,
// the players are told in the channel, and the channel is free again.
//
// Rules live in engine, persistence in storage, pictures in render and AI
// opponents in bots: this package only translates between them and Discord.
// It declares the small interfaces it needs (Discord for the REST calls,
// Store, Players), calls engine and render directly, and is, with
// cmd/gobot, the only package that imports discordgo. It never logs the bot
// token.
//
// Three front doors lead to Bot.Handle: the gateway (cmd/gobot passes each
// INTERACTION_CREATE), HTTPHandler (GOBOT_MODE=http, on InteractionsPath:
// Ed25519 signatures checked on the headers first, a bounded number of
// pooled body reads, PING, answers within Discord's 3 seconds, a replayed
// interaction answered with its first answer) and RunConsole (a terminal that
// types the same commands). Bot.Run does the background work: bot moves
// pending after a restart, expired challenges and scoring phases.
package commands
