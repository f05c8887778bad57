package gtptest

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestServe: a Program answers each command as its Reply says, with the
// command's id, and returns the exit status of the reply that exits.
func TestServe(t *testing.T) {
	p := &Program{Commands: []Command{
		{Name: "protocol_version", Run: Answer("2")},
		{Name: "list_commands"},
		{Name: "play", Run: func(args []string) Reply {
			if Arg(args, 1) == "" {
				return Fail("syntax error")
			}
			return Reply{OK: true}
		}},
		{Name: "badid", Run: func([]string) Reply { return Reply{OK: true, ID: "999", Text: "pass"} }},
		{Name: "garbage", Run: func([]string) Reply { return Reply{Raw: "thinking\n\n"} }},
		{Name: "analyze", Run: func([]string) Reply { return Reply{OK: true, Stream: "info move A1"} }},
		{Name: "quiet", Run: func([]string) Reply { return Reply{Silent: true} }},
		{Name: "quit", Run: func([]string) Reply { return Reply{OK: true, Exit: true, Status: 4} }},
	}, Every: time.Hour} // the stream ends with the next command, before any tick
	p.Commands[1].Run = Answer(p.List())
	in := "1 protocol_version\n\n2 list_commands\nplay b\n3 play b A1\n4 badid\n5 garbage\n6 analyze\n7 nope\n8 quiet\n9 quit\n10 protocol_version\n"
	var out bytes.Buffer
	if status := p.Serve(strings.NewReader(in), &out); status != 4 {
		t.Errorf("Serve = %d, want quit's status 4", status)
	}
	want := "=1 2\n\n" +
		"=2 protocol_version\nlist_commands\nplay\nbadid\ngarbage\nanalyze\nquiet\nquit\n\n" +
		"? syntax error\n\n" +
		"=3 \n\n" +
		"=999 pass\n\n" +
		"thinking\n\n" +
		"=6\ninfo move A1\n\n" +
		"?7 unknown command\n\n" +
		"=9 \n\n"
	if out.String() != want {
		t.Errorf("Serve wrote\n%q\nwant\n%q", out.String(), want)
	}
}
