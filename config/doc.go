// Package config reads gobot's configuration from the environment.
//
// It owns the list of environment variables, their defaults and their
// validation, and nothing else: it opens no database and no connection.
// Where another package owns a syntax, config calls that package's reader
// (engine/clock for GOBOT_DEFAULT_CLOCK, engine/gtp's ParsePrograms for
// GOBOT_GTP_ENGINES) and reports its reason under the variable's name.
// [Load] is called once by cmd/gobot; [Parse] takes an explicit environment
// so tests need not touch the process's. A missing or malformed value is
// reported as one line naming the variable ([*VarError]).
//
// The bot token is held in a [Secret], which prints, logs and marshals as
// "[redacted]" whatever the verb or encoder: only [Secret.Reveal] returns it.
// A password in DISCORD_API_URL is printed as "xxxxx", and an error about
// DISCORD_TOKEN_FILE does not quote its path (set to the token by mistake,
// it would print it). [Config.RedactHandler] is the logging boundary: it
// removes the token and the API password from every log record, whatever
// quotes them (a proxy's error body echoing the Authorization header), and
// [Config.Redact] does the same for one string.
// [Markdown] renders the table of variables that README.md embeds.
package config
