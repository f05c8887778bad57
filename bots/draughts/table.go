package draughts

// The transposition table: two-entry buckets indexed by the position's
// Zobrist hash (draughts.Position.Hash), each entry keeping the full key,
// the score with its bound, the depth searched and the best move as its
// index in the position's legal moves (Generate lists them in a fixed
// order).
type entry struct {
	key   uint64
	score int16
	depth int8
	bound uint8
	move  uint8 // index+1 in Generate's list; 0 for none
	_     [3]byte
}

// The bounds a stored score is.
const (
	boundUpper uint8 = 1 // the score is at most this
	boundLower uint8 = 2 // at least this
	boundExact uint8 = 3
)

// table is a transposition table of 2^bits entries.
type table struct {
	entries []entry
	mask    uint64 // selects a bucket's first entry
}

func newTable(bits int) table {
	if bits < 1 {
		bits = 1
	}
	n := 1 << bits
	return table{entries: make([]entry, n), mask: uint64(n-1) &^ 1}
}

// probe returns the entry of key, if the table has it.
func (t *table) probe(key uint64) (entry, bool) {
	i := key & t.mask
	if e := t.entries[i]; e.key == key && e.bound != 0 {
		return e, true
	}
	if e := t.entries[i+1]; e.key == key && e.bound != 0 {
		return e, true
	}
	return entry{}, false
}

// store keeps a result in key's bucket: in key's own entry if there is
// one, else in the shallower of the two.
func (t *table) store(key uint64, score, depth int, bound uint8, move int) {
	i := key & t.mask
	a, b := &t.entries[i], &t.entries[i+1]
	e := a
	switch {
	case a.key == key:
	case b.key == key:
		e = b
	case b.depth < a.depth:
		e = b
	}
	if e.key == key && int(e.depth) > depth && bound != boundExact {
		return // keep the deeper result of the same position
	}
	if move >= 255 {
		move = -1 // beyond what an entry holds
	}
	if move < 0 && e.key == key {
		move = int(e.move) - 1 // keep the move we knew
	}
	*e = entry{key: key, score: int16(score), depth: int8(min(depth, 127)), bound: bound, move: uint8(move + 1)}
}

// clear empties the table.
func (t *table) clear() { clear(t.entries) }
