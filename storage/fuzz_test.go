package storage

import (
	"testing"
)

// FuzzDecodeGame feeds arbitrary bytes to the game record decoder, as a
// damaged file would: it must never panic, and whatever it accepts must
// encode and decode again to the same moves.
func FuzzDecodeGame(f *testing.F) {
	g := newGame(f, "c", "1", "2")
	g.ID = "x"
	play(f, goOf(g), "E5", "C3", "pass")
	g.Scoring = &ScoringState{Dead: []string{"C3"}}
	g.Undo = &UndoRequest{By: 1, MoveCount: 3}
	v, err := g.encode(5, t0)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v)
	f.Add([]byte(`{"id":"x","channel":"c","version":1,"black":{"user":"1"},"white":{"bot":"b"},"game":{"size":2,"rules":{},"first":"B","moves":["B A1","W B2","B pass"]}}`))
	f.Add([]byte(`{"id":"x","channel":"c","version":1,"game":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := decodeGame(testKinds, "c", data)
		if err != nil {
			return
		}
		v, err := g.encode(g.Version, t0)
		if err != nil {
			return // e.g. an undo request by nobody: decodable, refused on write
		}
		again, err := decodeGame(testKinds, "c", v)
		if err != nil {
			t.Fatalf("re-encoded record does not decode: %v\n%s", err, v)
		}
		if len(goOf(again).Moves()) != len(goOf(g).Moves()) {
			t.Fatalf("moves %v became %v", goOf(g).Moves(), goOf(again).Moves())
		}
	})
}
