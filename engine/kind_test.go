package engine_test

import (
	"errors"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/engine/game/gametest"
)

func TestKindContract(t *testing.T) {
	gametest.Contract(t, engine.Kind{}, game.Options{"size": "9"}, 12, 120)
	gametest.Contract(t, engine.Kind{}, game.Options{"size": "7", "rules": "japanese", "handicap": "2"}, 6, 80)
}

func TestKindNew(t *testing.T) {
	for _, tt := range []struct {
		opts game.Options
		want string // the refusal, or "" for a game
		komi float64
	}{
		{game.Options{}, "", 7.5},
		{game.Options{"size": "13", "rules": "japanese"}, "", 6.5},
		{game.Options{"handicap": "1"}, "", 0.5},
		{game.Options{"handicap": "4", "komi": "-2"}, "", -2},
		{game.Options{"komi": "\u22123.5"}, "", -3.5}, // U+2212, the minus sign
		{game.Options{"komi": "\u20133.5"}, "", -3.5}, // an en dash
		{game.Options{"size": "26"}, `The board size must be a number from 2 to 25, not "26".`, 0},
		{game.Options{"rules": "ing"}, `Unknown ruleset "ing": choose chinese, japanese, tromp-taylor, simple.`, 0},
		{game.Options{"size": "9", "handicap": "10"}, `A 9×9 board takes from 0 to 9 handicap stones, not "10".`, 0},
		{game.Options{"komi": "7.3"}, `Komi must be from -150 to 150 in steps of 0.5, not "7.3".`, 0},
		{game.Options{"colour": "black"}, `Go has no option "colour": the options are size, rules, komi and handicap.`, 0},
	} {
		s, err := engine.Kind{}.New(tt.opts, 1)
		if tt.want != "" {
			text, _ := game.Explain(err)
			if text != tt.want || !errors.Is(err, game.ErrOptions) {
				t.Errorf("New(%v) = %v; want refusal %q wrapping ErrOptions", tt.opts, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("New(%v) = %v", tt.opts, err)
		}
		if k := s.(engine.State).Game().Rules().Komi; k != tt.komi {
			t.Errorf("New(%v) komi = %v, want %v", tt.opts, k, tt.komi)
		}
	}
}

func TestKindPlay(t *testing.T) {
	s, err := engine.Kind{}.New(game.Options{"size": "5"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	play := func(side game.Side, m string) []game.Fact {
		t.Helper()
		mv, err := s.ParseMove(side, m)
		if err != nil {
			t.Fatalf("ParseMove(%q) = %v", m, err)
		}
		next, facts, err := s.Play(side, mv)
		if err != nil {
			t.Fatalf("Play(%d, %q) = %v", side, m, err)
		}
		s = next
		return facts
	}
	// White's stone at A1 is captured by B2... build: B A2, W A1, B B1.
	play(0, "a2")
	play(1, "A01")
	facts := play(0, " B1 ")
	if len(facts) != 1 || facts[0].Text != "black captures 1 stone." {
		t.Errorf("capture facts = %+v", facts)
	}
	if _, _, err := s.Play(1, "B1"); !errors.Is(err, engine.ErrOccupied) {
		t.Errorf("Play on an occupied point = %v, want ErrOccupied", err)
	} else if text, _ := game.Explain(err); text != "B1 is already taken by a black stone." {
		t.Errorf("occupied refusal = %q", text)
	}
	if _, err := s.ParseMove(1, "I3"); err == nil {
		t.Error(`ParseMove("I3") succeeded`)
	} else if text, _ := game.Explain(err); text != "Go coordinates skip the letter I: after H comes J. Valid points here: A1–E5." {
		t.Errorf(`ParseMove("I3") refusal = %q`, text)
	}
	if _, err := s.ParseMove(1, "resign"); !errors.Is(err, engine.ErrResignTyped) {
		t.Errorf(`ParseMove("resign") = %v, want ErrResignTyped`, err)
	}
	play(1, "pass")
	facts = play(0, "pass")
	if s.ToMove() != game.NoSide || len(s.Legal()) != 0 || len(facts) != 1 || facts[0].Kind != "scoring" {
		t.Errorf("after two passes: to move %d, %d legal, facts %+v", s.ToMove(), len(s.Legal()), facts)
	}
	if _, over := s.Result(); over {
		t.Error("two passes gave a result before the count")
	}
	end, err := s.End(game.Result{Winner: 0, Reason: engine.ReasonScore, Text: "B+3.5"})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := end.Result(); r.Text != "B+3.5" || r.Winner != 0 || r.Reason != engine.ReasonScore {
		t.Errorf("result = %+v, want B+3.5 by score", r)
	}
	v := end.View(game.NoSide).(engine.View)
	if v.Rows[3] != "X...." || v.Rows[4] != ".X..." || v.Result != "B+3.5" {
		t.Errorf("view rows = %q", v.Rows)
	}
}

// TestRefuseLoneSuicide: under rules that allow suicide (Tromp-Taylor),
// a lone stone's suicide is still refused, as a repetition; the refusal
// says so rather than that suicide is not allowed.
func TestRefuseLoneSuicide(t *testing.T) {
	tt, _ := engine.Preset("tromp-taylor")
	g := enginetest.Game(t, `
		. . . . .
		. . . . .
		. . . . .
		O . . . .
		. O . . .`, enginetest.Rules(tt), enginetest.ToPlay(engine.Black))
	p, _ := engine.ParsePoint("A1", 5)
	m := engine.PlaceAt(engine.Black, p)
	err := engine.RefuseMove(g.Check(m), m, g)
	var r *game.Refusal
	want := "A1 would be the suicide of a lone stone: tromp-taylor rules allow suicide, but this one would leave the board as it was, a repetition that superko forbids."
	if !errors.As(err, &r) || r.Text != want {
		t.Errorf("RefuseMove = %v, want %q", err, want)
	}
}
