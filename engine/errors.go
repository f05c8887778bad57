package engine

import (
	"errors"
	"fmt"
)

// Error is an engine error with a stable code that callers can show, log or
// branch on (with errors.Is against the sentinels below, never by message).
type Error struct {
	code   string
	msg    string
	parent *Error // an error that this one is a kind of
}

func newError(code, msg string) *Error { return &Error{code: code, msg: msg} }

// Error returns the message, prefixed with the package name.
func (e *Error) Error() string { return "engine: " + e.msg }

// Is reports whether e is target or a kind of target (ErrSuperko is a kind of
// ErrKo).
func (e *Error) Is(target error) bool {
	for p := e; p != nil; p = p.parent {
		if p == target {
			return true
		}
	}
	return false
}

// Code returns the stable code of the first engine error in err's chain,
// such as "position_occupied", or "" when there is none.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.code
	}
	return ""
}

// The sentinel errors. A rejected move or command changes nothing.
var (
	// ErrInvalidCoordinates means a point could not be parsed or lies off
	// the board. Errors returned by ParsePoint wrap it with the valid range.
	ErrInvalidCoordinates = newError("invalid_coordinates", "invalid coordinates")
	// ErrResignTyped means "resign" was typed where a move was wanted:
	// resigning is an action of its own, not a move (ReadMove).
	ErrResignTyped = newError("resign_typed", "resigning is not a move")
	// ErrOccupied means the point already holds a stone.
	ErrOccupied = newError("position_occupied", "position occupied")
	// ErrNotYourTurn means a player moved out of turn.
	ErrNotYourTurn = newError("not_your_turn", "not your turn")
	// ErrSuicide means the move would leave its own group without liberties
	// and capture nothing, and the rules forbid suicide.
	ErrSuicide = newError("suicide_move", "suicide is not allowed")
	// ErrKo means the move retakes a ko immediately.
	ErrKo = newError("ko_violation", "ko: the stone cannot be retaken at once")
	// ErrSuperko means the move repeats an earlier whole-board position
	// under the game's superko rule. It is a kind of ErrKo.
	ErrSuperko = &Error{code: "ko_violation", msg: "superko: the move repeats an earlier position", parent: ErrKo}
	// ErrGameOver means the game has ended and accepts no more moves.
	ErrGameOver = newError("game_over", "the game is over")
	// ErrInvalidColor means a colour other than black or white.
	ErrInvalidColor = newError("invalid_color", "invalid colour")
	// ErrInvalidSize means a board size outside MinSize..MaxSize.
	ErrInvalidSize = newError("invalid_size", fmt.Sprintf("board size must be from %d to %d", MinSize, MaxSize))
	// ErrInvalidHandicap means a handicap the board size does not support,
	// or handicap stones placed after the first move.
	ErrInvalidHandicap = newError("invalid_handicap", "invalid handicap")
	// ErrInvalidKomi means komi outside -150..150 or not a multiple of 0.5.
	ErrInvalidKomi = newError("invalid_komi", "komi must be from -150 to 150 in steps of 0.5")
	// ErrInvalidRules means an unknown ruleset or rule name.
	ErrInvalidRules = newError("invalid_rules", "unknown rules")
	// ErrNothingToUndo means Undo was called with no move to take back.
	ErrNothingToUndo = newError("nothing_to_undo", "no move to undo")
	// ErrInvalidState means a serialised game that does not replay.
	ErrInvalidState = newError("invalid_state", "invalid game state")

	// ErrPlayNotEnded means a scoring phase was asked for while play goes
	// on: it begins only after two consecutive passes.
	ErrPlayNotEnded = newError("play_not_ended", "play has not ended: the scoring phase begins after two passes")
	// ErrNoStone means a point given to mark dead stones holds no stone.
	ErrNoStone = newError("no_stone", "there is no stone at that point")
	// ErrScoringStale means the game is no longer in the position the
	// scoring phase was made for (play resumed, or another game).
	ErrScoringStale = newError("scoring_stale", "the position has changed since the scoring phase began")
)
