package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobot-dev/gobot/engine/game"
)

// The sentinel errors. Handlers wrap them in a *UserError when the user
// should read something more specific than the default message for the
// sentinel; errorMessage turns either into the ephemeral reply.
var (
	// ErrNoGame means there is no game in the channel the command came from.
	ErrNoGame = errors.New("commands: no game in this channel")
	// ErrGameRunning means a game is already being played in the channel.
	ErrGameRunning = errors.New("commands: a game is already running here")
	// ErrNotPlayer means the user is not one of the game's two players.
	ErrNotPlayer = errors.New("commands: not a player in this game")
	// ErrNotYourTurn means a player acted out of turn.
	ErrNotYourTurn = errors.New("commands: not your turn")
	// ErrStale means a button from an old message was pressed.
	ErrStale = errors.New("commands: stale button")
	// ErrConflict means another action on the same game was applied first.
	ErrConflict = errors.New("commands: another action was applied first")
	// ErrGameOver means the game has ended.
	ErrGameOver = errors.New("commands: the game is over")
	// ErrNotChallenged means someone other than the challenged user answered a challenge.
	ErrNotChallenged = errors.New("commands: only the challenged user can answer")
	// ErrNoChallenge means the challenge no longer exists (answered, withdrawn or expired).
	ErrNoChallenge = errors.New("commands: no such challenge")
	// ErrExpired means a challenge or request has expired.
	ErrExpired = errors.New("commands: expired")
	// ErrBadOption means an option value is missing or malformed.
	ErrBadOption = errors.New("commands: bad option")
	// ErrForbidden means the user lacks the permission a command needs.
	ErrForbidden = errors.New("commands: missing permission")
	// ErrUnknown means an interaction the router has no handler for.
	ErrUnknown = errors.New("commands: unknown interaction")
	// ErrUnknownComponent is ErrUnknown for a button or menu whose custom
	// ID no handler matches (one on a message from an older version of
	// gobot, say): the user pressed a button, not a command, and is told
	// so.
	ErrUnknownComponent = fmt.Errorf("%w: no handler for the component", ErrUnknown)
	// ErrNoUndo means there is no undo request to answer, or nothing to undo.
	ErrNoUndo = errors.New("commands: nothing to undo")
	// ErrNotScoring means a scoring-phase action outside the scoring phase.
	ErrNotScoring = errors.New("commands: the game is not in the scoring phase")
	// ErrBotBusy means the AI opponents are all busy and the move must wait.
	ErrBotBusy = errors.New("commands: the bot is busy")
	// ErrDiscord is a failed Discord API call.
	ErrDiscord = errors.New("commands: discord api error")
	// ErrDiscordNotFound is a Discord API 404 (for instance an expired interaction token).
	ErrDiscordNotFound = errors.New("commands: discord api: not found")
	// ErrDiscordUnauthorized is a Discord API 401: the bot token was refused.
	ErrDiscordUnauthorized = errors.New("commands: discord api: unauthorized")
	// ErrDiscordForbidden is a Discord API 403 (missing access or permission).
	ErrDiscordForbidden = errors.New("commands: discord api: forbidden")
	// ErrNoChannelPosts means a message outside any interaction could not be
	// sent: gobot may not post in the channel (a user install's private
	// channel) and the game's last interaction token has expired.
	ErrNoChannelPosts = errors.New("commands: the bot may not post in this channel and no interaction token is valid")
	// ErrQuarantined means the game in the channel could not be read (its
	// stored record is damaged) and has just been set aside: the channel is
	// free. The answer is public, so that both players learn what happened.
	ErrQuarantined = errors.New("commands: the game's record was damaged and set aside")
	// ErrWrongGame means a command of one kind of game (/go, /draughts)
	// used where the channel's game is of another.
	ErrWrongGame = errors.New("commands: the channel's game is of another kind")
	// ErrIllegalMove means a move the rules refuse.
	ErrIllegalMove = errors.New("commands: illegal move")
	// ErrBadSignature means an HTTP interaction whose signature did not verify.
	ErrBadSignature = errors.New("commands: bad interaction signature")
)

// UserError carries the sentence shown to the user together with the
// sentinel it is a case of, so code can branch on the sentinel and the user
// reads something specific ("Only @ann can answer this challenge.").
type UserError struct {
	Msg string
	Err error
}

func (e *UserError) Error() string {
	if e.Err == nil {
		return "commands: " + e.Msg
	}
	inner := e.Err.Error()
	if strings.Contains(inner, e.Msg) {
		// A game's refusal (game.Refusal) given to the user with its own
		// sentence already holds it: the log says it once.
		return inner
	}
	return inner + ": " + e.Msg
}

func (e *UserError) Unwrap() error { return e.Err }

// UserErr returns a *UserError for sentinel with the message shown to users.
func UserErr(sentinel error, msg string) error {
	return &UserError{Msg: msg, Err: sentinel}
}

// Quote returns user input for an error reply, in double quotes and cut to
// its first game.MaxQuoted characters (game.Quote): a 200 KB option value echoed
// whole would make Discord refuse the reply, and the user would see only
// "interaction failed".
func Quote(s string) string { return game.Quote(s) }
