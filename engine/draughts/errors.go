package draughts

import "errors"

// Placeholder sentinels; filled in below.
var ErrSquare = errors.New("draughts: bad square")
