package draughts

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/engine/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Contract(t, Kind{}, nil, 20, 200)
}

func TestContractFromFEN(t *testing.T) {
	gametest.Contract(t, Kind{}, game.Options{"fen": "W:WK3,25,32,34,38:B9,19,22,24,K46"}, 5, 100)
}

func TestKind(t *testing.T) {
	k := Kind{}
	if k.Name() != "draughts" || !slices.Equal(k.SideNames(), []string{"White", "Black"}) {
		t.Errorf("Name, SideNames = %q, %q", k.Name(), k.SideNames())
	}
	var ks game.Kinds
	ks.Register(k)
	s, err := k.New(nil, 42)
	if err != nil {
		t.Fatal(err)
	}
	if s.ToMove() != 0 || s.Kind() != "draughts" || len(s.Legal()) != 9 || s.MoveCount() != 0 {
		t.Errorf("a new game: to move %d, kind %q, %d moves", s.ToMove(), s.Kind(), len(s.Legal()))
	}
	for _, tt := range []struct {
		opts game.Options
		err  string
	}{
		{game.Options{"size": "10"}, `draughts: unknown option "size": the only option is fen, a start position such as W:W31-50:B1-20`},
		{game.Options{"fen": "W:W3:B1"}, `draughts: option fen: FEN "W:W3:B1": a white man on 3 would have been crowned: write K3 for a king`},
	} {
		_, err := k.New(tt.opts, 0)
		if err == nil || err.Error() != tt.err || !errors.Is(err, game.ErrOptions) {
			t.Errorf("New(%v) = %v, want %q (game.ErrOptions)", tt.opts, err, tt.err)
		}
	}
	s, err = k.New(game.Options{"fen": "B:W28:B19,K1"}, 0)
	if err != nil || s.ToMove() != 1 {
		t.Errorf("New(fen, Black to move) = to move %v, %v", s.ToMove(), err)
	}
}

func TestJSON(t *testing.T) {
	s, _ := NewState(nil, 7)
	s = play(t, s, "32-28", "19-23", "28x19", "14x23")
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seed":7,"moves":["32-28","19-23","28x19","14x23"]}`
	if string(b) != want {
		t.Errorf("MarshalJSON = %s, want %s", b, want)
	}
	f, _ := NewState(game.Options{"fen": "W:WK3:B9,19,22,24"}, 0)
	f = play(t, f, "3x17x9x19x22")
	b, _ = json.Marshal(f)
	want = `{"fen":"W:WK3:B9,19,22,24","seed":0,"moves":["3x14x28x17"]}`
	if string(b) != want {
		t.Errorf("MarshalJSON = %s, want %s", b, want)
	}
	for _, tt := range []struct{ name, data string }{
		{"not JSON", `{`},
		{"an unknown field", `{"seed":0,"moves":[],"size":19}`},
		{"a bad FEN", `{"fen":"W:W3:B1","seed":0,"moves":[]}`},
		{"an illegal move", `{"seed":0,"moves":["32-23"]}`},
		{"a move not canonical", `{"seed":0,"moves":["32x28"]}`},
		{"a move after the end", `{"fen":"W:W28:B23","seed":0,"moves":["28x19","19-14"]}`},
		{"a finished game without result", `{"fen":"W:W28:B23","seed":0,"moves":["28x19"]}`},
		{"a wrong result", `{"fen":"W:W28:B23","seed":0,"moves":["28x19"],"result":{"winner":1,"reason":"rule","text":"0-2"}}`},
		{"a rule's result not reached", `{"seed":0,"moves":[],"result":{"winner":0,"reason":"rule","text":"2-0"}}`},
		{"a result's text wrong", `{"seed":0,"moves":[],"result":{"winner":0,"reason":"resignation","text":"1-1"}}`},
	} {
		_, err := Kind{}.Decode([]byte(tt.data))
		if !errors.Is(err, game.ErrState) || !errors.Is(err, ErrState) {
			t.Errorf("%s: Decode(%s) = %v, want game.ErrState", tt.name, tt.data, err)
		}
	}
}

func TestView(t *testing.T) {
	s, _ := NewState(game.Options{"fen": "W:WK3:B9,19,22,24"}, 0)
	s = play(t, s, "3x14x28x17")
	b, err := json.Marshal(s.View(game.NoSide))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"squares":["","","","","","","","","","","","","","","","","W","","","","","","","b","","","","","","","","","","","","","","","","","","","","","","","","","",""],` +
		`"toMove":"Black","lastMove":"3x14x28x17","lastPath":[3,14,28,17],"lastTaken":[9,19,22],"legal":["24-29","24-30"],"moveCount":1,"fen":"B:WK17:B24"}`
	if string(b) != want {
		t.Errorf("View =\n%s\nwant\n%s", b, want)
	}
}

// TestMoveFacts: the facts told again for each move, from a state read
// back from JSON, are those Play returned when it was played.
func TestMoveFacts(t *testing.T) {
	s, err := NewState(game.Options{"fen": "W:W6,25,32,34,38:B9,19,22,24,K46"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var played [][]game.Fact
	for i := 0; i < 60 && len(s.Legal()) > 0; i++ {
		legal := s.Legal()
		n, facts, err := s.PlayMove(s.ToMove(), string(legal[i%len(legal)]))
		if err != nil {
			t.Fatal(err)
		}
		played, s = append(played, facts), n
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Kind{}.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, fs := range played {
		for _, f := range fs {
			kinds = append(kinds, f.Kind)
		}
	}
	if !slices.Contains(kinds, "capture") || !slices.Contains(kinds, "crown") {
		t.Fatalf("the game played has facts %q, want a capture and a crowning among them", kinds)
	}
	for _, from := range []int{0, len(played) - 8, len(played) - 1, len(played), -1} {
		want := played[max(from, 0):]
		if len(want) == 0 {
			want = nil
		}
		if got := back.(State).MoveFacts(from); !reflect.DeepEqual(got, want) {
			t.Errorf("MoveFacts(%d) = %v, want %v", from, got, want)
		}
	}
}
