package draughtsroom

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine/draughts"
	"github.com/gobot-dev/gobot/storage"

	drender "github.com/gobot-dev/gobot/render/draughts"
)

// TestAskedBoardFromOwnSide: /draughts board shows the board from the
// asker's side, as lidraughts shows each player theirs: Black's turned
// (it was White's for both in a game between people), White's and a
// spectator's as posted.
func TestAskedBoardFromOwnSide(t *testing.T) {
	rm := newTestRoom(t)
	st, err := draughts.NewState(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st, _, err = st.PlayMove(st.ToMove(), "32-28"); err != nil {
		t.Fatal(err)
	}
	ann, bob := storage.Player{UserID: "1", Name: "ann"}, storage.Player{UserID: "2", Name: "bob"}
	g := &storage.Game{ID: "7", Kind: draughtsKind, Sides: storage.Sides(ann, bob), State: st}
	picture := func(flip bool) []byte {
		var buf bytes.Buffer
		if err := drender.Game(&buf, st, drender.Options{Flip: flip}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for viewer, flip := range map[string]bool{"1": false, "2": true, "3": false} {
		m, err := rm.AskedMessage(context.Background(), g, now, viewer)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m.Files[0].Data, picture(flip)) {
			t.Errorf("the board %s asked for is not drawn from %s", viewer, map[bool]string{false: "White's side", true: "Black's side"}[flip])
		}
	}
}
