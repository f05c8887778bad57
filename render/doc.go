// Package render draws Go boards as pictures for the bot to post: a PNG of a
// position after every move (Board, Game), an animated GIF of a whole game
// (GIF) and a one-line description of the position for screen readers
// (AltText); for game reviews, a win-rate graph (WinrateGraph, WinrateAlt),
// a mistake board with the preferred line (Variation) and an ownership
// board shaded by certainty (Ownership).
//
// The pictures show the board alone, with coordinates on all four sides as
// players type them (A–T without I, row 1 at the bottom); player names,
// captures and the side to move belong in the message text. A picture is
// about 800 pixels on a side whatever the board size, so 9×9 stones are big
// and 19×19 stays legible on a phone.
//
// Drawing is done with github.com/fogleman/gg, but only once per board size,
// theme and picture size: the empty board and the stone, marker and label
// sprites are cached, and each picture is composited from them and written
// as a paletted PNG whose palette is fitted to the theme. The cache is safe
// for concurrent use, so handlers may render at the same time.
//
// The package never writes files and reads nothing from the host: fonts are
// the embedded Go fonts (golang.org/x/image/font/gofont). It imports engine
// and never commands.
package render
