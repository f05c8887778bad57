package storage

import (
	"errors"
	"fmt"
)

// The sentinel errors. Every error the store returns for a domain reason
// wraps one of them (with the channel, game or challenge it concerns), so
// callers branch with errors.Is and never on the message. A call that fails
// with any of them has changed nothing.
var (
	// ErrNotFound means there is no such active game, challenge, archived
	// game or player record.
	ErrNotFound = errors.New("storage: not found")

	// ErrExists means the thing being created is already there: the channel
	// already has an active game, or the challenge or archived game ID is
	// taken.
	ErrExists = errors.New("storage: already exists")

	// ErrConflict means an optimistic write stated a version that is no
	// longer the stored one: somebody else changed the game first. Reload
	// and decide again.
	ErrConflict = errors.New("storage: version conflict")

	// ErrCorrupt means a stored record cannot be decoded or its moves do not
	// replay through the rules. It concerns that record only; the rest of
	// the store keeps working. The error names the channel or ID and wraps
	// the cause (often engine.ErrInvalidState).
	ErrCorrupt = errors.New("storage: corrupt record")

	// ErrExpired means the challenge has passed its expiry and can no longer
	// be accepted.
	ErrExpired = errors.New("storage: challenge expired")

	// ErrInvalid means the caller passed something the store refuses to
	// write: a missing channel ID, a nil engine game, an ID containing a
	// zero byte, a change to a field that cannot change.
	ErrInvalid = errors.New("storage: invalid argument")

	// ErrLocked means another process holds the database file open; Open
	// gave up after Options.Timeout instead of hanging. It wraps bbolt's
	// timeout error.
	ErrLocked = errors.New("storage: database is locked by another process")

	// ErrSchemaTooNew means the file was written by a newer gobot with a
	// schema version this build does not know. The store refuses to open it
	// rather than guess.
	ErrSchemaTooNew = errors.New("storage: database schema is newer than this program")

	// ErrNoSchema means a PostgreSQL database opened with
	// Options.ExistingSchema has no gobot schema: not gobot's database,
	// or one no gobot worker has started on yet.
	ErrNoSchema = errors.New("storage: no gobot schema in the database")

	// ErrSchemaTooOld means a PostgreSQL database opened with
	// Options.ExistingSchema has an older schema than this build's, which
	// only a worker of this build migrates (when it starts).
	ErrSchemaTooOld = errors.New("storage: database schema is older than this program")

	// ErrDamaged means the database file is not a sound bbolt file: cut short
	// (a full disk, an interrupted copy), empty, or with damaged pages. Open
	// refuses it rather than crash on it or start an empty database over it;
	// the error says to restore a copy made with `gobot backup`.
	ErrDamaged = errors.New("storage: database file is damaged")

	// ErrClosed means the store has been closed.
	ErrClosed = errors.New("storage: store is closed")

	// ErrAnnulled means the archived game to annul is annulled already.
	ErrAnnulled = errors.New("storage: game already annulled")

	// ErrLimit means a new game would take one of its people over their
	// server's limit of games at once (Settings.MaxGames). The error is
	// a *LimitError naming the player, the games they play and the limit.
	ErrLimit = errors.New("storage: too many games at once")

	// ErrBanned means one of a new game's people is banned on its server.
	// The error is a *BanError holding the ban.
	ErrBanned = errors.New("storage: banned on the server")
)

// ClaimedError is ClaimChallenge's refusal of a challenge another holder
// claims: Holder is that holder, as its ClaimChallenge named it ("" when
// the claim lapsed or was given back as the refusal was read), so that the
// caller can say what the other attempt is doing when the holder's name
// says so. It wraps ErrConflict.
type ClaimedError struct {
	ID     string
	Holder string
}

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("storage: challenge %s is claimed by %q: %v", e.ID, e.Holder, ErrConflict)
}

func (e *ClaimedError) Unwrap() error { return ErrConflict }

// CorruptError is the error for an active game's record that cannot be
// decoded or does not replay: it names the channel, so that a caller that
// loaded many games (ActiveGames) can tell which to quarantine. It wraps
// ErrCorrupt and the cause.
type CorruptError struct {
	ChannelID string
	Err       error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("storage: game in channel %s: %v: %v", e.ChannelID, ErrCorrupt, e.Err)
}

func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// CorruptChannels returns the channels of the corrupt game records that err
// reports (one *CorruptError, or several joined, as ActiveGames returns
// them), in order.
func CorruptChannels(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		var ce *CorruptError
		switch e := err.(type) {
		case nil:
		case *CorruptError:
			out = append(out, e.ChannelID)
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		default:
			if errors.As(err, &ce) {
				out = append(out, ce.ChannelID)
			}
		}
	}
	walk(err)
	return out
}
