package clock

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/game"
)

// TestSideWireFormat: a clock's sides are written as records have always
// had them ("B", "W", nothing for none), and read in every form a record
// holds.
func TestSideWireFormat(t *testing.T) {
	k := New(Control{System: Fischer, Main: time.Minute, Increment: time.Second})
	k.Start(Second, time.Unix(0, 0).UTC())
	k.Log = []Mark{{Move: 1, Left: time.Minute, Color: First}}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"control":{"system":3,"main":60000000000,"increment":1000000000},"black":{"main":60000000000},"white":{"main":60000000000},"to_move":"W","since":"1970-01-01T00:00:00Z","log":[{"m":1,"l":60000000000,"c":"B"}]}`
	if string(b) != want {
		t.Errorf("clock JSON\n got %s\nwant %s", b, want)
	}
	for text, want := range map[string]Side{`""`: NoSide, `"B"`: First, `"W"`: Second, `"black"`: First, `"White"`: Second} {
		var s Side
		if err := json.Unmarshal([]byte(text), &s); err != nil || s != want {
			t.Errorf("read %s = %v, %v; want %v", text, s, err, want)
		}
	}
	var s Side
	if err := json.Unmarshal([]byte(`"red"`), &s); err == nil {
		t.Errorf(`read "red" = %v, want an error`, s)
	}
	for gs, want := range map[game.Side]Side{0: First, 1: Second, game.NoSide: NoSide} {
		if got := Of(gs); got != want || got.Game() != gs {
			t.Errorf("Of(%d) = %v (back: %d), want %v", gs, got, got.Game(), want)
		}
	}
}
