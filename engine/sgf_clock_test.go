package engine_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// TestSGFTimeRoundTrip: TM and OT in the root, BL/WL and OB/OW on the
// moves, written and read back.
func TestSGFTimeRoundTrip(t *testing.T) {
	g := enginetest.NewGame(t, Config{Size: 9, Rules: DefaultRules()}, "E5", "C3", "G7", "pass")
	info := SGFInfo{
		TM: 600, OT: "5x30 byo-yomi",
		Times: map[int]SGFTime{1: {Left: 590.25}, 2: {Left: 30, Periods: 5}, 3: {Left: 0.04}, 4: {Left: 30, Periods: 4}},
	}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, g, info); err != nil {
		t.Fatal(err)
	}
	sgf := buf.String()
	for _, want := range []string{"TM[600]OT[5x30 byo-yomi]", ";B[ee]BL[590.3]", ";W[cg]WL[30]OW[5]", ";B[gc]BL[0]", ";W[]WL[30]OW[4]"} {
		if !strings.Contains(sgf, want) {
			t.Errorf("SGF does not contain %s:\n%s", want, sgf)
		}
	}
	_, got, err := ParseSGF(buf.Bytes())
	if err != nil {
		t.Fatalf("ParseSGF = %v\n%s", err, sgf)
	}
	want := map[int]SGFTime{1: {Left: 590.3}, 2: {Left: 30, Periods: 5}, 3: {Left: 0}, 4: {Left: 30, Periods: 4}}
	if got.TM != 600 || got.OT != "5x30 byo-yomi" || !reflect.DeepEqual(got.Times, want) {
		t.Errorf("read back TM %v, OT %q, times %v; want 600, %q, %v", got.TM, got.OT, got.Times, info.OT, want)
	}

	// A clock with no main time (byo-yomi only) writes TM[0], and reads
	// it back.
	buf.Reset()
	if err := WriteSGF(&buf, g, SGFInfo{OT: "2x10 byo-yomi"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "TM[0]OT[2x10 byo-yomi]") {
		t.Errorf("SGF of a clock with no main time does not contain TM[0]OT[2x10 byo-yomi]:\n%s", buf.String())
	}
	if _, got, err := ParseSGF(buf.Bytes()); err != nil || got.TM != 0 || got.OT != "2x10 byo-yomi" {
		t.Errorf("read back TM %v, OT %q, %v; want 0, 2x10 byo-yomi, nil", got.TM, got.OT, err)
	}
	// Without a clock, no TM.
	buf.Reset()
	if err := WriteSGF(&buf, g, SGFInfo{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "TM[") {
		t.Errorf("SGF without a clock has a TM:\n%s", buf.String())
	}

	// A record without times reads none; a time that is no number is
	// ignored.
	_, got, err = ParseSGF([]byte("(;GM[1]SZ[9];B[ee]BL[soon];W[cc])"))
	if err != nil || got.Times != nil || got.TM != 0 {
		t.Errorf("ParseSGF without times = %+v, %v", got.Times, err)
	}
}
