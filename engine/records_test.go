package engine_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

// The records test reads the real game records in testdata/sgf/real (see
// the README there for where each came from): professional, server and
// engine games, old FF[1] and FF[3] files, records with variations,
// comments, set-up, passes and the oddities real files have. For every
// record it checks that ParseSGF reads it, that its main line replays and
// that WriteSGF and ParseSGF give back every position. engine/gtp's
// records_test.go loads the same records into GNU Go 3.8 and the GTP
// server, which must agree.

// recordFailures are the records ParseSGF must refuse, with why. Each must
// fail with an *SGFError that says where.
var recordFailures = map[string]string{
	"cgoban_problem_setup_after_pass.sgf": "a problem that adds stones (AW, AB) after the first move, a pass: " +
		"a Game holds set-up only before the first move, and ParseSGF says so rather than drop the stones",
}

// recordScores are records whose last node marks the dead stones (TB/TW)
// and whose RE gives the margin, with the scoring the server used: the
// count of the final position must give the recorded result.
var recordScores = map[string]string{
	"kgs_9x9_aya_gnugo_territory_marks.sgf":          "chinese",
	"kgs_9x9_dariush_gnugo_passes_marks.sgf":         "chinese",
	"kgs_13x13_crazystone_gnugo_territory_marks.sgf": "chinese",
	"igs_pandanet_handicap_territory.sgf":            "japanese", // IGS counts territory; the record has no RU
}

func realRecords(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "sgf", "real", "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in testdata/sgf/real: %v", err)
	}
	return files
}

// TestRealRecordsParse reads every record, replays its main line and checks
// the round trip through WriteSGF; it needs no GNU Go.
func TestRealRecordsParse(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range realRecords(t) {
		name := filepath.Base(f)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g, info, err := ParseSGF(data)
			if reason, ok := recordFailures[name]; ok {
				var se *SGFError
				if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 || !errors.Is(err, ErrSGF) {
					t.Fatalf("ParseSGF = %v, want an *SGFError with a position (%s)", err, reason)
				}
				t.Logf("refused as expected (%s): %v", reason, err)
				return
			}
			if err != nil {
				t.Fatalf("ParseSGF: %v", err)
			}
			pos := enginetest.Replay(t, name, g)
			if got, want := pos[len(pos)-1], enginetest.PositionOf(g); got != want {
				t.Fatalf("replayed end position %+v, ParseSGF's %+v", got, want)
			}

			if preset, ok := recordScores[name]; ok {
				rules, err := Preset(preset)
				if err != nil {
					t.Fatal(err)
				}
				rules.Komi = g.Rules().Komi
				end, err := g.Rebuild(rules, g.MoveCount())
				if err != nil {
					t.Fatal(err)
				}
				want, err := ParseResult(info.RE)
				if err != nil {
					t.Fatal(err)
				}
				if got := end.Score(info.Dead); got.Winner != want.Winner || got.Margin != want.Margin {
					t.Errorf("%s count with the marked dead stones %v = %s, want RE[%s]", preset, info.Dead, got.Result(), info.RE)
				}
			}

			var buf bytes.Buffer
			if err := WriteSGF(&buf, g, *info); err != nil {
				t.Fatalf("WriteSGF: %v", err)
			}
			g2, info2, err := ParseSGF(buf.Bytes())
			if err != nil {
				t.Fatalf("ParseSGF(WriteSGF(record)): %v\n%s", err, buf.String())
			}
			if g2.Size() != g.Size() || g2.Rules() != g.Rules() || g2.Handicap() != g.Handicap() || g2.FirstPlayer() != g.FirstPlayer() {
				t.Errorf("round trip: size %d rules %v handicap %d first %v, want %d %v %d %v",
					g2.Size(), g2.Rules(), g2.Handicap(), g2.FirstPlayer(), g.Size(), g.Rules(), g.Handicap(), g.FirstPlayer())
			}
			if !slices.Equal(g2.Moves(), g.Moves()) {
				t.Errorf("round trip: %d moves, want %d (or they differ)", g2.MoveCount(), g.MoveCount())
			}
			pos2 := enginetest.Replay(t, name+" (written)", g2)
			if len(pos2) != len(pos) {
				t.Fatalf("round trip: %d positions, want %d", len(pos2), len(pos))
			}
			for i := range pos {
				if pos2[i] != pos[i] {
					t.Fatalf("round trip: after move %d: %+v, want %+v", i, pos2[i], pos[i])
				}
			}
			for _, f := range []struct{ name, got, want string }{
				{"PB", info2.PB, info.PB}, {"PW", info2.PW, info.PW},
				{"BR", info2.BlackRank, info.BlackRank}, {"WR", info2.WhiteRank, info.WhiteRank},
				{"RE", info2.RE, info.RE}, {"DT", info2.DT, info.DT}, {"GN", info2.GN, info.GN},
				{"EV", info2.EV, info.EV}, {"PC", info2.PC, info.PC}, {"C", info2.C, info.C},
			} {
				if f.got != f.want {
					t.Errorf("round trip: %s = %q, want %q", f.name, f.got, f.want)
				}
			}
			if !slices.Equal(info2.Dead, info.Dead) {
				t.Errorf("round trip: dead stones %v, want %v", info2.Dead, info.Dead)
			}
			t.Logf("%d×%d, %d set-up stones, %d moves (%d passes inserted), %v, komi %s, RE %q",
				g.Size(), g.Size(), len(g.Setup()), g.MoveCount(), info.InsertedPasses, g.Rules().Name, FormatKomi(g.Rules().Komi), info.RE)
		})
	}
	for _, list := range []map[string]string{recordFailures, recordScores} {
		for name := range list {
			if !seen[name] {
				t.Errorf("%s is listed in records_test.go but not in testdata/sgf/real", name)
			}
		}
	}
}

// TestParseSGFRecordQuirks pins the oddities of real records that ParseSGF
// reads, found by the records test, and the errors next to them.
func TestParseSGFRecordQuirks(t *testing.T) {
	tests := []struct {
		name, sgf string
		moves     int
		pb        string
		line, col int // where the error is, or 0 when it parses
	}{
		{"root node without ;", "(\nPB[Shin Jinseo]\nRE[B+R]\n;B[pd];W[dp])", 2, "Shin Jinseo", 0, 0},
		{"root node without ; after a header", "header text\n(SZ[9]PB[a];B[ee])", 1, "a", 0, 0},
		{"lower-case letters before the [", "(PlayerBlack [x];B[aa])", 1, "x", 0, 0},
		{"two moves in one node", "(;SZ[9];B[aa]W[bb])", 2, "", 0, 0},
		{"no property after (", "(x;B[aa])", 0, "", 1, 1},
		{"value without a name after (", "([aa];B[aa])", 0, "", 1, 1},
		{"variation without ;", "(;SZ[9](B[aa]))", 0, "", 1, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ParseSGF([]byte(tt.sgf))
			if tt.line > 0 {
				var se *SGFError
				if !errors.As(err, &se) || se.Line != tt.line || se.Col != tt.col {
					t.Fatalf("ParseSGF(%q) = %v, want an error at %d:%d", tt.sgf, err, tt.line, tt.col)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSGF(%q) = %v", tt.sgf, err)
			}
			if g.MoveCount() != tt.moves || info.PB != tt.pb {
				t.Errorf("ParseSGF(%q): %d moves, PB %q; want %d, %q", tt.sgf, g.MoveCount(), info.PB, tt.moves, tt.pb)
			}
		})
	}
}

// TestParseSGFCharsetNames reads Latin-1 text under the names real records
// give the charset.
func TestParseSGFCharsetNames(t *testing.T) {
	for _, ca := range []string{"ISO-8859-1", "ISO8859_1", "iso8859-1", "Latin-1", "latin1", "ISO_8859-1", "windows-1252", "cp1252"} {
		_, info, err := ParseSGF([]byte("(;CA[" + ca + "]PB[Jos\xe9])"))
		if err != nil || info.PB != "José" {
			t.Errorf("CA[%s]: PB = %q, %v; want \"José\"", ca, info.PB, err)
		}
	}
	// A charset this package cannot decode keeps what is valid UTF-8.
	_, info, err := ParseSGF([]byte("(;CA[GB2312]PB[\xb9\xc5\xc1\xa6 Gu Li])"))
	if err != nil || !strings.HasSuffix(info.PB, " Gu Li") || !strings.Contains(info.PB, "\uFFFD") {
		t.Errorf("CA[GB2312]: PB = %q, %v; want replacement characters then \" Gu Li\"", info.PB, err)
	}
}

// TestParseSGFImpliedHandicap places the fixed handicap stones of a record
// that gives HA but no stones, when White moves first, and only then.
func TestParseSGFImpliedHandicap(t *testing.T) {
	tests := []struct {
		sgf      string
		stones   string // the set-up, as list_stones lists it
		handicap int
	}{
		{"(;SZ[19]HA[2];W[qd])", "Q16 D4", 2},
		{"(;SZ[9]HA[3];W[ee])", "C7 G7 C3", 3},
		{"(;SZ[19]HA[2];B[qd])", "", 0},
		{"(;SZ[19]HA[2]AW[aa];W[qd])", "A19", 0},
		{"(;SZ[19]HA[2]AB[dd][pp];W[qd])", "D16 Q4", 2},
		{"(;SZ[9]HA[12];W[ee])", "", 0}, // more than 9×9 takes: left alone
		{"(;SZ[19]HA[2]PL[W])", "", 0},  // no move: nothing to go by
	}
	for _, tt := range tests {
		g, _, err := ParseSGF([]byte(tt.sgf))
		if err != nil {
			t.Errorf("ParseSGF(%q): %v", tt.sgf, err)
			continue
		}
		setup := g.Setup()
		// Top row first, left to right, as list_stones lists them.
		slices.SortFunc(setup, func(a, b Stone) int {
			if a.Point.Row != b.Point.Row {
				return b.Point.Row - a.Point.Row
			}
			return a.Point.Col - b.Point.Col
		})
		var stones []string
		for _, s := range setup {
			stones = append(stones, s.Point.String())
		}
		if got := strings.Join(stones, " "); got != tt.stones || g.Handicap() != tt.handicap {
			t.Errorf("ParseSGF(%q): set-up %q, handicap %d; want %q, %d", tt.sgf, got, g.Handicap(), tt.stones, tt.handicap)
		}
	}
}
