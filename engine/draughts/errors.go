package draughts

import (
	"errors"
	"fmt"

	"github.com/gobot-dev/gobot/engine/game"
)

// Error is a draughts error with a stable code that callers can show, log
// or branch on (with errors.Is against the sentinels below, never by
// message). Some sentinels are kinds of another (ErrMaximumCapture is a
// kind of ErrIllegalMove) or of the game contract's (ErrGameOver is a kind
// of game.ErrOver).
type Error struct {
	code   string
	msg    string
	kindOf error // an error that this one is a kind of, or nil
}

func newError(code, msg string, kindOf error) *Error {
	return &Error{code: code, msg: msg, kindOf: kindOf}
}

// Error returns the message, prefixed with the package name.
func (e *Error) Error() string { return "draughts: " + e.msg }

// Code returns the error's stable code, such as "maximum_capture".
func (e *Error) Code() string { return e.code }

// Is reports whether e is target or a kind of target.
func (e *Error) Is(target error) bool {
	return e == target || e.kindOf != nil && errors.Is(e.kindOf, target)
}

// Code returns the stable code of the first draughts error in err's
// chain, or "" when there is none.
func Code(err error) string {
	var d *detail
	if errors.As(err, &d) {
		return d.kind.code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.code
	}
	return ""
}

// detail is an error with a message of its own that is a kind of a
// sentinel: "draughts: square 51 is off the board (1 to 50)" is an
// ErrSquare.
type detail struct {
	kind *Error
	msg  string
}

func (d *detail) Error() string { return "draughts: " + d.msg }
func (d *detail) Unwrap() error { return d.kind }

// errorf returns an error of kind k with the message format makes.
func errorf(k *Error, format string, args ...any) error {
	return &detail{kind: k, msg: fmt.Sprintf(format, args...)}
}

// The sentinel errors. A refused move changes nothing.
var (
	// ErrSquare means a square number off the board or not a number.
	ErrSquare = newError("bad_square", "a square is a number from 1 to 50", nil)
	// ErrNotation means a move that is not written as squares joined by
	// '-' or 'x'.
	ErrNotation = newError("bad_notation", "write a move as 32-28 or 28x19", nil)
	// ErrIllegalMove means a move the rules do not allow. The errors
	// below it are kinds of it that say why.
	ErrIllegalMove = newError("illegal_move", "illegal move", nil)
	// ErrNoPiece means the move starts from a square without a piece of
	// the side to move.
	ErrNoPiece = newError("no_piece", "no piece of the side to move there", ErrIllegalMove)
	// ErrBackward means a man moving backwards without capturing.
	ErrBackward = newError("backward", "a man moves forward only, unless it captures", ErrIllegalMove)
	// ErrCaptureRequired means a move without capture when a capture is
	// possible: capturing is compulsory.
	ErrCaptureRequired = newError("capture_required", "a capture is compulsory", ErrIllegalMove)
	// ErrMaximumCapture means a capture that takes fewer pieces than
	// another: the maximum capture is compulsory.
	ErrMaximumCapture = newError("maximum_capture", "the maximum capture is compulsory", ErrIllegalMove)
	// ErrNotCapture means a move written as a capture ("32x28") that
	// names a legal move that captures nothing: the player is told the
	// plain move's text rather than having it played.
	ErrNotCapture = newError("not_capture", "a move written with 'x' must capture", ErrIllegalMove)
	// ErrAmbiguous means a capture written start and end only, when
	// several captures share them: the full path is needed.
	ErrAmbiguous = newError("ambiguous", "several captures share that start and end: write the full path", nil)
	// ErrNotYourTurn means a move by the side not to move. It is a kind
	// of game.ErrNotYourTurn.
	ErrNotYourTurn = newError("not_your_turn", "not your turn", game.ErrNotYourTurn)
	// ErrGameOver means a move or an end in a finished game. It is a
	// kind of game.ErrOver.
	ErrGameOver = newError("game_over", "the game is over", game.ErrOver)
	// ErrFEN means a FEN that does not read, or describes a position the
	// rules cannot reach (a man on its crowning row, a square taken
	// twice).
	ErrFEN = newError("bad_fen", "bad FEN", nil)
	// ErrOptions means options New refuses. It is a kind of
	// game.ErrOptions.
	ErrOptions = newError("bad_options", "bad options", game.ErrOptions)
	// ErrState means a JSON state that does not decode or replay. It is a
	// kind of game.ErrState.
	ErrState = newError("bad_state", "bad state", game.ErrState)
	// ErrResult means a result the game cannot have: a PDN whose Result
	// tag contradicts its final position, or an End with no reason.
	ErrResult = newError("bad_result", "the result contradicts the game", nil)
	// ErrPDN means a PDN record that does not read. PDN errors are
	// *PDNError values that carry the line and column and wrap it.
	ErrPDN = newError("bad_pdn", "bad PDN", nil)
)
