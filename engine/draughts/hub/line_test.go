package hub

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gobot-dev/gobot/engine/draughts"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		in   string
		want Line
	}{
		{"hub", Line{Command: "hub"}},
		{"go think", Line{Command: "go", Args: []Arg{{Name: "think"}}}},
		{`id name=Scan version=3.1 author="Fabien Letouzey" country=France`, Line{Command: "id", Args: []Arg{
			{"name", "Scan"}, {"version", "3.1"}, {"author", "Fabien Letouzey"}, {"country", "France"}}}},
		{`pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28 19-23"`, Line{Command: "pos", Args: []Arg{
			{"pos", "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"}, {"moves", "32-28 19-23"}}}},
		{"  level   move-time = 1.5  ", Line{Command: "level", Args: []Arg{{"move-time", "1.5"}}}},
		{`param name=x value="" type=string`, Line{Command: "param", Args: []Arg{{"name", "x"}, {"value", ""}, {"type", "string"}}}},
	}
	for _, tt := range tests {
		got, err := ParseLine(tt.in)
		if err != nil {
			t.Errorf("ParseLine(%q) error = %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseLine(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{"", "   ", "=x", `go x="unclosed`, "level depth=", `pos "x"`} {
		if _, err := ParseLine(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseLine(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
}

func TestLineString(t *testing.T) {
	l := NewLine("info", "depth", "3", "score", "0.25", "pv", "32-28 19-23", "flag", "")
	want := `info depth=3 score=0.25 pv="32-28 19-23" flag`
	if got := l.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	back, err := ParseLine(want)
	if err != nil || !reflect.DeepEqual(back, l) {
		t.Errorf("ParseLine(String()) = %#v, %v, want %#v", back, err, l)
	}
}

func TestMoveText(t *testing.T) {
	// White takes two pieces: 28x19 then on; the Hub form names both.
	p, err := draughts.ParseFEN("W:W28:B23,14")
	if err != nil {
		t.Fatal(err)
	}
	moves := p.Generate(nil)
	if len(moves) != 1 {
		t.Fatalf("%s: %v, want one capture", p.FEN(), moves)
	}
	text := MoveText(moves[0])
	if text != "28x10x14x23" {
		t.Errorf("MoveText = %q, want 28x10x14x23", text)
	}
	for _, in := range []string{"28x10x14x23", "28x10x23x14", "28x10", "28x10x14", "28x19x10"} {
		m, err := ParseMove(&p, in)
		if err != nil || m != moves[0] {
			t.Errorf("ParseMove(%q) = %v, %v, want %v", in, m, err, moves[0])
		}
	}
	for _, in := range []string{"28-22", "28x10x15", "x", "51-46"} {
		if _, err := ParseMove(&p, in); !errors.Is(err, ErrMove) {
			t.Errorf("ParseMove(%q) error = %v, want ErrMove", in, err)
		}
	}
	s := draughts.Start()
	if m, err := ParseMove(&s, "32-28"); err != nil || MoveText(m) != "32-28" {
		t.Errorf("ParseMove(32-28) = %v, %v", m, err)
	}
}

func TestAllot(t *testing.T) {
	tests := []struct {
		l    Limit
		want string
	}{
		{Limit{}, "0s"},
		{Limit{Depth: 5}, "0s"},
		{Limit{MoveTime: 2e9}, "1.88s"},
		{Limit{Time: 60e9}, "1.88s"},            // a thirtieth
		{Limit{Time: 60e9, Moves: 10}, "5.68s"}, // a tenth
		{Limit{Time: 1e9, Inc: 2e9}, "1.405s"},  // at most half of time and increment
	}
	for _, tt := range tests {
		if got := tt.l.Allot().String(); got != tt.want {
			t.Errorf("%+v.Allot() = %s, want %s", tt.l, got, tt.want)
		}
	}
}
