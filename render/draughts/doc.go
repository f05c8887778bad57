// Package draughts draws international draughts (10×10) boards as
// pictures for the bot to post: a PNG of a position (Board, or Game for a
// game's current position with its last move), an animated GIF replay of
// a whole game (GIF) and a one-line description for screen readers
// (AltText). It is the draughts room of package render, and follows the
// Go board's ways.
//
// The board stands as players print it: square 1 the top-left dark
// square as White sees it, White's men at the bottom (31 to 50), or turned
// round for Black (Options.Flip). Light maple and dark walnut squares with
// a straight grain, each dark square's number small in its top-left
// corner; men are ivory and ebony discs with a rim and a turned groove,
// kings carry a gold crown. The last move is a green arrow from a dot on
// its start through every square it lands on (a capture's every leg) to
// its end, and the pieces it took stay on their squares, faded.
//
// A picture is about 800 pixels on a side; below about 450 the square
// numbers would be specks and are left out. The empty board and the piece
// sprites are drawn with github.com/fogleman/gg once per picture size and
// orientation and cached; each picture copies the empty board in palette
// indices, composites the pieces and the arrow only over the tiles they
// touch, and is written as a paletted PNG whose palette is fitted to the
// board; a square with a piece on it is worked out once in palette
// indices and copied after that. An 800-pixel board takes 2 to 3 ms of
// CPU and 45 to 65 KB (BenchmarkBoard). The cache is safe for concurrent
// use, so handlers may render at the same time.
//
// The package never writes files and reads nothing from the host: the
// font is the embedded Go Bold (golang.org/x/image/font/gofont). It
// imports engine/draughts and never commands.
package draughts
