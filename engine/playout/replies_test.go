package playout

import (
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestRepliesLearnAndForget teaches a table one playout won by Black and
// checks that Black replies by it (to the pair first, then to the last
// move alone), that White learned nothing, that an occupied reply is
// passed over, and that a playout Black loses with the same reply
// forgets it.
func TestRepliesLearnAndForget(t *testing.T) {
	b := board(t, `
		. . . . .
		. . . . .
		. . . . .
		. . . . .
		. . . . .`)
	v := func(s string) int32 { return int32(vertex(t, b, s)) }
	r := NewReplies(b.Area())
	// Context B2 (Black), W4 D4 (White); then B C3, W D3, B C4.
	moves := []int32{v("B2"), v("D4"), v("C3"), v("D3"), v("C4")}
	r.Learn(moves, engine.Black, engine.Black)

	p := Player{Rand: NewRand(1), Replies: r} // no other answer: the reply or a random move
	if got := p.MoveAfter(b, engine.Black, int(v("B2")), int(v("D4"))); got != int(v("C3")) {
		t.Errorf("Black's reply to B2, D4 = %v, want C3", b.Point(got))
	}
	if got := p.MoveAfter(b, engine.Black, int(v("A1")), int(v("D3"))); got != int(v("C4")) {
		t.Errorf("Black's reply to D3 alone = %v, want C4", b.Point(got))
	}
	if got := r.replyMove(b, engine.White, int(v("D4")), int(v("C3"))); got != 0 {
		t.Errorf("White's reply to C3 = %v, want none (White lost)", b.Point(got))
	}

	taken := *b
	taken.Play(int(v("C3")), engine.White)
	if got := r.replyMove(&taken, engine.Black, int(v("B2")), int(v("D4"))); got != 0 {
		t.Errorf("reply on an occupied point = %v, want none", taken.Point(got))
	}

	r.Learn(moves, engine.Black, engine.White)
	if got := r.replyMove(b, engine.Black, int(v("B2")), int(v("D4"))); got != 0 {
		t.Errorf("after a lost playout, Black's reply to B2, D4 = %v, want forgotten", b.Point(got))
	}
	if got := r.replyMove(b, engine.White, int(v("D4")), int(v("C3"))); got != int(v("D3")) {
		t.Errorf("after White's win, White's reply to D4, C3 = %v, want D3", b.Point(got))
	}
	r.Learn(moves, engine.Black, engine.Empty)
	if got := r.replyMove(b, engine.White, int(v("D4")), int(v("C3"))); got != int(v("D3")) {
		t.Errorf("a draw changed White's reply to %v, want D3 kept", b.Point(got))
	}
	r.Clear()
	if got := r.replyMove(b, engine.White, int(v("D4")), int(v("C3"))); got != 0 {
		t.Errorf("after Clear, White's reply = %v, want none", b.Point(got))
	}
}
