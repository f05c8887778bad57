package storage

import (
	"errors"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine"
)

// TestTeamSides: in a 2-vs-2 game the side's players take its moves in
// order (B1, W1, B2, W2, B1 …), each user is found on their side, and a
// user may not sit twice in a team game.
func TestTeamSides(t *testing.T) {
	ann, bob, cid, dan := human("1"), human("2"), human("3"), human("4")
	g := &Game{ChannelID: "c1", Sides: []Side{{Players: []Player{ann, cid}}, {Players: []Player{bob, dan}}}, State: engine.Own(newEngine(t, 9))}
	if err := g.validate(); err != nil {
		t.Fatalf("validate(2 vs 2) = %v", err)
	}
	var turns []string
	for _, m := range []string{"D4", "F6", "E5", "pass", "C3", "G7"} {
		c := goOf(g).ToPlay()
		p := g.Player(engine.SideOf(c))
		turns = append(turns, p.UserID)
		mv, err := engine.ReadMove(c, m, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := goOf(g).Play(mv); err != nil {
			t.Fatal(err)
		}
		g.Moved(p)
	}
	if g.MovedBy(2, 0).UserID != "3" || g.MovedBy(5, 1).UserID != "2" {
		t.Errorf("MovedBy(2), MovedBy(5) = %v, %v; want cid, bob", g.MovedBy(2, 0), g.MovedBy(5, 1))
	}
	// cid out: Black's turns go to ann alone, who alone decides for it.
	g.Out(cid)
	if ps := g.People(0); len(ps) != 1 || ps[0] != ann {
		t.Errorf("Black's people with cid out = %v, want ann", ps)
	}
	if ps := g.InGame(0); len(ps) != 1 || ps[0] != ann {
		t.Errorf("Black's players in the game with cid out = %v, want ann", ps)
	}
	if p := g.Player(0); p.UserID != "1" {
		t.Errorf("after cid is out, Black's next = %v, want ann", p)
	}
	g.Moved(ann)
	if p := g.Player(0); p.UserID != "1" {
		t.Errorf("after ann moved with cid out, Black's next = %v, want ann again", p)
	}
	g.Out(ann)
	if p := g.Player(0); p.Key() != "" {
		t.Errorf("with all of Black out, Black's next = %v, want nobody", p)
	}
	if got, want := turns, []string{"1", "2", "3", "4", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("turn order = %v, want %v", got, want)
	}
	if c, ok := g.SideOf("4"); !ok || c != 1 {
		t.Errorf("SideOf(dan) = %v, %v; want white", c, ok)
	}
	if _, ok := g.SideOf("9"); ok {
		t.Error("SideOf(a stranger) found a side")
	}
	if g.First(1).UserID != "2" {
		t.Errorf("First(white) = %v, want bob", g.First(1))
	}
	twice := &Game{ChannelID: "c2", Sides: []Side{{Players: []Player{ann, cid}}, {Players: []Player{bob, ann}}}, State: engine.Own(newEngine(t, 9))}
	if err := twice.validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("validate(ann on both sides of a team game) = %v, want ErrInvalid", err)
	}
	self := &Game{ChannelID: "c3", Sides: Sides(ann, ann), State: engine.Own(newEngine(t, 9))}
	if err := self.validate(); err != nil {
		t.Errorf("validate(a game against oneself) = %v", err)
	}
	five := &Game{ChannelID: "c4", Sides: []Side{{Players: []Player{ann, bob, cid, dan, human("5")}}, {Players: []Player{human("6")}}}, State: engine.Own(newEngine(t, 9))}
	if err := five.validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("validate(5 players on a side) = %v, want ErrInvalid", err)
	}
	one := &Game{ChannelID: "c5", Sides: []Side{{Players: []Player{ann}}}, State: engine.Own(newEngine(t, 9))}
	if err := one.validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("validate(a game of go with one side) = %v, want ErrInvalid", err)
	}
}
