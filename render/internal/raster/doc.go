// Package raster holds what every board renderer of gobot composites
// with, whatever the game: sprites drawn once and composited many times,
// the quantiser that fits a paletted PNG's palette to a board and maps
// colours to it through a lazy lookup table, a set of dirty tiles to
// redraw, the wood's grain, the changed part of a GIF frame, and pools of
// working images and PNG encoder buffers so that a busy bot does not
// allocate megabytes a picture. It imports only the standard library.
package raster
