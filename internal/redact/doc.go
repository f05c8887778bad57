// Package redact masks secrets in text bound for a log or an error: the
// password of every URL's user part, always, and a known secret elsewhere
// only when it is long enough to be told from ordinary text.
package redact
