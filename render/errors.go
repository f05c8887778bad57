package render

import "errors"

// The sentinel errors. A rejected call writes nothing to its writer.
var (
	// ErrNilBoard means Board, Game or GIF was given no position.
	ErrNilBoard = errors.New("render: no board or game given")
	// ErrImageSize means Options.Size or GIFOptions.Size is outside
	// MinPixels..MaxPixels.
	ErrImageSize = errors.New("render: image size out of range")
	// ErrUnknownTheme means a Theme value or theme name that is not one of
	// the package's themes.
	ErrUnknownTheme = errors.New("render: unknown theme")
	// ErrOffBoard means a point in the options (last move, dead stone,
	// move number) lies off the board.
	ErrOffBoard = errors.New("render: point off the board")
	// ErrOwnerLength means Options.Owner is neither empty nor one entry per
	// point of the board.
	ErrOwnerLength = errors.New("render: ownership map does not match the board")
	// ErrBadNumber means a move number that is not positive.
	ErrBadNumber = errors.New("render: move numbers must be positive")
	// ErrNoData means a win-rate graph without positions, or a mark on a
	// move the graph does not have.
	ErrNoData = errors.New("render: no win rate for that move")
	// ErrIllegalVariation means a variation move that cannot be played on
	// the board it is drawn on.
	ErrIllegalVariation = errors.New("render: illegal move in the variation")
	// ErrBadDelay means a negative frame delay for GIF.
	ErrBadDelay = errors.New("render: negative frame delay")
)
