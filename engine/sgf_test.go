package engine_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	. "github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/enginetest"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files in testdata")

// sgfRandomGame plays a random game of up to n moves (uniform over legal
// moves that do not fill one's own eye, with an occasional pass, and play
// resumed once after two passes), through the checked door.
func sgfRandomGame(t testing.TB, rng *rand.Rand, cfg Config, n int) *Game {
	t.Helper()
	g, err := NewGame(cfg)
	if err != nil {
		t.Fatalf("NewGame(%+v) = %v", cfg, err)
	}
	resumed := false
	for i := 0; i < n; i++ {
		if g.PlayEnded() {
			if resumed {
				break
			}
			if err := g.Resume(); err != nil {
				t.Fatalf("Resume() = %v", err)
			}
			resumed = true
		}
		c := g.ToPlay()
		m := PassMove(c)
		if rng.IntN(30) != 0 {
			b := g.Board()
			var cands []int
			for j := 0; j < b.EmptyCount(); j++ {
				v := b.EmptyVertex(j)
				if b.Legal(v, c) && !b.IsEye(v, c) {
					cands = append(cands, v)
				}
			}
			rng.Shuffle(len(cands), func(a, b int) { cands[a], cands[b] = cands[b], cands[a] })
			for _, v := range cands {
				if mv := PlaceAt(c, b.Point(v)); g.Check(mv) == nil {
					m = mv
					break
				}
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("Play(%v %v) = %v", c, m, err)
		}
	}
	return g
}

// sgfPositions replays g from its set-up and returns the board after the
// set-up and after every move.
func sgfPositions(t testing.TB, g *Game) []string {
	t.Helper()
	b, _ := NewBoard(g.Size())
	b.AllowSuicide = g.Rules().Suicide
	for _, s := range g.Setup() {
		b.SetStone(s.Point, s.Color)
	}
	out := []string{b.String()}
	for _, m := range g.Moves() {
		v := PassVertex
		if m.Kind == Place {
			v = b.Vertex(m.Point)
		}
		b.Play(v, m.Color)
		out = append(out, b.String())
	}
	return out
}

func mustParseSGF(t *testing.T, s string) (*Game, *SGFInfo) {
	t.Helper()
	g, info, err := ParseSGF([]byte(s))
	if err != nil {
		t.Fatalf("ParseSGF(%q) = %v", s, err)
	}
	return g, info
}

func TestParseSGF(t *testing.T) {
	tests := []struct {
		name     string
		sgf      string
		board    string // final position, top row first
		toPlay   Color
		moves    int
		komi     float64
		rules    string // Rules.Name
		ko       KoRule
		handicap int
		inserted int
		dead     []Point
	}{
		{
			name: "moves and capture",
			sgf:  "(;GM[1]FF[4]SZ[5]KM[0.5];B[ba];W[aa];B[ab])",
			board: `
				. X . . .
				X . . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 3, komi: 0.5, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "passes as [] and [tt]",
			sgf:  "(;SZ[5];B[cc];W[];B[tt];W[bb])",
			board: `
				. . . . .
				. O . . .
				. . X . .
				. . . . .
				. . . . .`,
			toPlay: Black, moves: 4, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "handicap set-up, White first",
			sgf:  "(;SZ[9]HA[2]KM[0.5]RU[Japanese]AB[cg][gc];W[ee])",
			board: `
				. . . . . . . . .
				. . . . . . . . .
				. . . . . . X . .
				. . . . . . . . .
				. . . . O . . . .
				. . . . . . . . .
				. . X . . . . . .
				. . . . . . . . .
				. . . . . . . . .`,
			toPlay: Black, moves: 1, komi: 0.5, rules: "japanese", ko: SimpleKo, handicap: 2,
		},
		{
			name: "FF[3] long names, lower case, white space and line breaks",
			sgf: "Some mail header (not SGF)\n(;GaMe[1]FileFormat[3]\n  SiZe [5] \r\nKoMi[6.5]\n RUles[Chinese]" +
				" AddBlack [aa]\n[bb] AddWhite[ee] PLayer[W]\n;White[dd]\n ;\n Black\n[cc] )",
			board: `
				X . . . .
				. X . . .
				. . X . .
				. . . O .
				. . . . O`,
			toPlay: White, moves: 2, komi: 6.5, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "variations: main line is the first child",
			sgf:  "(;SZ[5];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee];B[ea]))",
			board: `
				X . . . .
				. O . . .
				. . X . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 3, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "only the first game of a collection",
			sgf:  "(;SZ[5];B[aa])(;SZ[9];B[ee];W[ff])",
			board: `
				X . . . .
				. . . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 1, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "same player twice: a pass is inserted",
			sgf:  "(;SZ[5]RU[TT];B[aa];B[bb];W[cc])",
			board: `
				X . . . .
				. X . . .
				. . O . .
				. . . . .
				. . . . .`,
			toPlay: Black, moves: 4, rules: "tromp-taylor", ko: PositionalSuperko, inserted: 1,
		},
		{
			name: "IGS and old CGoban headers: CoPyright, KM[6.500000], PL[2]",
			sgf: "(;GM[1]FF[3]\nEV[Internet Go Server game]\nCoPyright[\n  Copyright (c) PANDANET Inc.\n  Permission given.]\n" +
				"SZ[5]TM[30:00(5x1:00)]KM[6.500000]\n;AB[aa]AW[ee]PL[2]LB[bb:A])",
			board: `
				X . . . .
				. . . . .
				. . . . .
				. . . . .
				. . . . O`,
			toPlay: White, komi: 6.5, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "white moves first without PL",
			sgf:  "(;SZ[5];W[aa];B[bb])",
			board: `
				O . . . .
				. X . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 2, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "play continues after two passes",
			sgf:  "(;SZ[5];B[aa];W[];B[];W[bb];B[cc])",
			board: `
				X . . . .
				. O . . .
				. . X . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 5, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "rectangle of set-up stones and AE",
			sgf:  "(;SZ[5]AB[aa:cb]AE[bb]PL[B])",
			board: `
				X X X . .
				X . X . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: Black, rules: "chinese", ko: PositionalSuperko,
		},
		{
			name: "final marking gives the dead stones",
			sgf:  "(;SZ[5];B[bc];W[dc];B[ee];W[];B[]TB[aa]TW[ea][ee])",
			board: `
				. . . . .
				. . . . .
				. X . O .
				. . . . .
				. . . . X`,
			toPlay: White, moves: 5, rules: "chinese", ko: PositionalSuperko, dead: []Point{{4, 0}},
		},
		{
			name: "escaped ] in text and komi rounded",
			sgf:  `(;SZ[5]KM[3.1]C[a \] b \\ c]PB[x\]y];B[aa])`,
			board: `
				X . . . .
				. . . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 1, komi: 3, rules: "chinese", ko: PositionalSuperko,
		},
		{
			// W B4 retakes after two passes: the board repeats, which
			// positional superko forbids and simple ko allows.
			name: "no rules and a repeated position: simple ko",
			sgf:  "(;SZ[5];B[ba];W[ca];B[ab];W[bb];B[bc];W[db];B[ae];W[cc];B[cb];W[];B[];W[bb])",
			board: `
				. X O . .
				X O . O .
				. X O . .
				. . . . .
				X . . . .`,
			toPlay: Black, moves: 12, rules: "chinese", ko: SimpleKo,
		},
		{
			name: "AGA maps to Chinese with situational superko",
			sgf:  "(;SZ[5]RU[AGA]KM[7.5];B[aa])",
			board: `
				X . . . .
				. . . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 1, komi: 7.5, rules: "chinese", ko: SituationalSuperko,
		},
		{
			name: "overrides in RU, as WriteSGF wrote them before GOBOTRU",
			sgf:  "(;SZ[5]RU[Chinese (simple ko)]KM[7];B[aa])",
			board: `
				X . . . .
				. . . . .
				. . . . .
				. . . . .
				. . . . .`,
			toPlay: White, moves: 1, komi: 7, rules: "chinese", ko: SimpleKo,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info := mustParseSGF(t, tt.sgf)
			if got, want := g.Board().String(), enginetest.Board(t, tt.board).String(); got != want {
				t.Errorf("board =\n%s\nwant\n%s", got, want)
			}
			if got := g.ToPlay(); got != tt.toPlay {
				t.Errorf("ToPlay() = %v, want %v", got, tt.toPlay)
			}
			if got := g.MoveCount(); got != tt.moves {
				t.Errorf("MoveCount() = %d, want %d", got, tt.moves)
			}
			r := g.Rules()
			if r.Komi != tt.komi || r.Name != tt.rules || r.Ko != tt.ko {
				t.Errorf("Rules() = %v, want %s with %v ko and komi %v", r, tt.rules, tt.ko, tt.komi)
			}
			if got := g.Handicap(); got != tt.handicap {
				t.Errorf("Handicap() = %d, want %d", got, tt.handicap)
			}
			if info.InsertedPasses != tt.inserted {
				t.Errorf("InsertedPasses = %d, want %d", info.InsertedPasses, tt.inserted)
			}
			if fmt.Sprint(info.Dead) != fmt.Sprint(tt.dead) {
				t.Errorf("Dead = %v, want %v", info.Dead, tt.dead)
			}
		})
	}
}

func TestParseSGFKomi(t *testing.T) {
	tests := []struct {
		km   string
		want float64
	}{
		{"6.5", 6.5}, {"7", 7}, {"0", 0}, {"", 0}, {"-3.5", -3.5}, {"6,5", 6.5}, {"6.500000", 6.5},
		{"3.75", 7.5}, {"2.75", 5.5}, {"-3.75", -7.5}, // Chinese komi in stones
		{"375", 7.5}, {"650", 6.5}, {"-375", -7.5}, // Fox's hundredths
		{"5.6", 5.5}, {"0.3", 0.5},
	}
	for _, tt := range tests {
		g, _, err := ParseSGF([]byte("(;SZ[9]KM[" + tt.km + "])"))
		if err != nil {
			t.Errorf("KM[%s]: %v", tt.km, err)
		} else if g.Rules().Komi != tt.want {
			t.Errorf("KM[%s]: komi %v, want %v", tt.km, g.Rules().Komi, tt.want)
		}
	}
}

// TestSGFQuarterKomiRoundTrip: gobot's own record of a game with a komi
// of quarters (GTP's komi 7.25) reads back with that komi, not as a komi
// in stones (KM[7.25] as 14.5, which changed the count); another
// program's KM[3.75] is still read in stones.
func TestSGFQuarterKomiRoundTrip(t *testing.T) {
	for _, komi := range []float64{7.25, 6.25, 0.75, -3.75} {
		rules := DefaultRules()
		rules.Komi = komi
		g, err := NewGame(Config{Size: 9, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, SGFInfo{}); err != nil {
			t.Fatal(err)
		}
		back, _, err := ParseSGF(buf.Bytes())
		if err != nil {
			t.Fatalf("komi %v: %v\n%s", komi, err, buf.String())
		}
		if got := back.Rules().Komi; got != komi {
			t.Errorf("komi %v written as %s reads back as %v", komi, buf.String(), got)
		}
	}
	if g, _, err := ParseSGF([]byte("(;SZ[9]AP[CGoban:3]KM[3.75])")); err != nil || g.Rules().Komi != 7.5 {
		t.Errorf("another program's KM[3.75] reads as %v (%v), want 7.5 (stones)", g.Rules().Komi, err)
	}
}

func TestParseSGFInfo(t *testing.T) {
	sgf := "(;FF[4]CA[UTF-8]SZ[19]PB[Honinbo\nShusaku]BR[7d]PW[Gennan Inseki]WR[8d]RE[B+2]DT[1846-09-11]" +
		"RU[Japanese]GN[Ear-reddening game]EV[Castle game]PC[Osaka]C[Famous\ngame.]\n;B[qd];C[not the root])"
	_, info := mustParseSGF(t, sgf)
	want := SGFInfo{PB: "Honinbo Shusaku", BlackRank: "7d", PW: "Gennan Inseki", WhiteRank: "8d", RE: "B+2",
		DT: "1846-09-11", RU: "Japanese", GN: "Ear-reddening game", EV: "Castle game", PC: "Osaka", C: "Famous\ngame."}
	if fmt.Sprintf("%+v", *info) != fmt.Sprintf("%+v", want) {
		t.Errorf("info = %+v\nwant   %+v", *info, want)
	}
}

func TestParseSGFCharsets(t *testing.T) {
	tests := []struct {
		name, sgf, want string
	}{
		{"utf-8", "(;CA[UTF-8]PB[Cho Hun-hyun 조훈현])", "Cho Hun-hyun 조훈현"},
		{"latin-1 declared", "(;CA[ISO-8859-1]PB[Jos\xe9])", "José"},
		{"latin-1 by default", "(;PB[Jos\xe9])", "José"},
		{"valid UTF-8 without CA", "(;PB[José])", "José"},
		{"broken UTF-8", "(;CA[UTF-8]PB[a\xffb])", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, info := mustParseSGF(t, tt.sgf)
			if info.PB != tt.want {
				t.Errorf("PB = %q, want %q", info.PB, tt.want)
			}
		})
	}
}

func TestParseSGFErrors(t *testing.T) {
	tests := []struct {
		name      string
		sgf       string
		line, col int
		is        error // besides ErrSGF
	}{
		{"empty input", "", 1, 1, nil},
		{"no game tree", "hello", 1, 1, nil},
		{"unclosed tree", "(;SZ[9];B[aa]", 1, 1, nil},
		{"unclosed value", "(;SZ[9]\n;B[aa", 2, 3, nil},
		{"value without name", "(;SZ[9];[aa])", 1, 9, nil},
		{"name without capitals", "(;sz[9])", 1, 3, nil},
		{"property without value", "(;SZ[9];B)", 1, 9, nil},
		{"garbage between nodes", "(;SZ[9];B[aa]%;W[bb])", 1, 14, nil},
		{"empty subtree", "(;SZ[9]())", 1, 8, nil},
		{"size too large", "(;SZ[26])", 1, 5, ErrInvalidSize},
		{"rectangular board", "(;SZ[19:13])", 1, 5, ErrInvalidSize},
		{"size not a number", "(;SZ[big])", 1, 5, nil},
		{"komi not a number", "(;KM[six])", 1, 5, ErrInvalidKomi},
		{"komi out of range", "(;KM[999])", 1, 5, ErrInvalidKomi},
		{"not Go", "(;GM[3])", 1, 5, nil},
		{"move off the board", "(;SZ[9]\n;B[jj])", 2, 3, ErrInvalidCoordinates},
		{"move not a point", "(;SZ[9];B[a])", 1, 10, ErrInvalidCoordinates},
		{"suicide", "(;SZ[9]AW[ba][ab];B[aa])", 1, 20, ErrSuicide},
		{"ko retaken at once", "(;SZ[5]RU[Japanese]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb]\n;W[bb])", 2, 3, ErrKo},
		{"set-up after moves", "(;SZ[9];B[aa];AW[bb])", 1, 15, nil},
		{"superko under stated rules", "(;SZ[5]RU[Chinese];B[ba];W[ca];B[ab];W[bb];B[bc];W[db];B[ae];W[cc];B[cb];W[];B[]\n;W[bb])", 2, 3, ErrSuperko},
		{"pass in a set-up list", "(;SZ[9]AB[aa][tt])", 1, 14, ErrInvalidCoordinates},
		{"bad PL", "(;SZ[9]PL[x])", 1, 10, ErrInvalidColor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, info, err := ParseSGF([]byte(tt.sgf))
			if err == nil {
				t.Fatalf("ParseSGF(%q) = %v, %+v, nil; want an error", tt.sgf, g.Board(), info)
			}
			var se *SGFError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSGF(%q) = %v (%T), want an *SGFError", tt.sgf, err, err)
			}
			if se.Line != tt.line || se.Col != tt.col {
				t.Errorf("ParseSGF(%q) error at %d:%d, want %d:%d (%v)", tt.sgf, se.Line, se.Col, tt.line, tt.col, err)
			}
			if !errors.Is(err, ErrSGF) {
				t.Errorf("ParseSGF(%q) = %v, want it to wrap ErrSGF", tt.sgf, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("ParseSGF(%q) = %v, want it to wrap %v", tt.sgf, err, tt.is)
			}
			if !strings.HasPrefix(err.Error(), "engine: sgf line ") {
				t.Errorf("error %q lacks the package prefix and position", err)
			}
		})
	}
}

func TestRulesSGFRoundTrip(t *testing.T) {
	var all []Rules
	for _, name := range PresetNames {
		r, _ := Preset(name)
		all = append(all, r)
		for _, ko := range []KoRule{SimpleKo, PositionalSuperko, SituationalSuperko} {
			for _, suicide := range []bool{false, true} {
				for _, bonus := range []HandicapBonus{NoBonus, BonusN, BonusNMinus1} {
					for _, scoring := range []Scoring{AreaScoring, TerritoryScoring} {
						o := r
						o.Ko, o.Suicide, o.Handicap, o.Scoring = ko, suicide, bonus, scoring
						all = append(all, o)
					}
				}
			}
		}
	}
	for _, r := range all {
		ru, overrides := RulesToSGF(r)
		got, ok := RulesFromSGF(ru, overrides)
		got.Komi = r.Komi
		if !ok || got != r {
			t.Errorf("RulesFromSGF(%q, %q) = %+v, %v; want %+v", ru, overrides, got, ok, r)
		}
		// Records written before the overrides went apart read the same.
		if overrides != "" {
			old, _ := RulesFromSGF(ru+" ("+overrides+")", "")
			old.Komi = r.Komi
			if old != r {
				t.Errorf("RulesFromSGF(%q) = %+v; want %+v", ru+" ("+overrides+")", old, r)
			}
		}
	}
	if _, ok := RulesFromSGF("Ancient Tibetan", ""); ok {
		t.Errorf("RulesFromSGF(Ancient Tibetan) is known, want unknown")
	}
}

// TestWriteSGFStandardRU: a record's RU is a name other programs read
// ("Chinese", not "Chinese (simple ko)", which KataGo's loader refuses);
// where the rules differ from the preset, the differences go in gobot's
// own GOBOTRU property, which other programs ignore and ParseSGF reads
// back. Here White retakes a ko after two passes, a repetition that only
// simple ko allows: read as plain Chinese rules (positional superko) the
// record would not load.
func TestWriteSGFStandardRU(t *testing.T) {
	g, _ := mustParseSGF(t, "(;SZ[5]RU[Chinese (simple ko)]KM[7];B[ba];W[ca];B[ab];W[bb];B[bc];W[db];B[ae];W[cc];B[cb];W[];B[];W[bb])")
	var buf bytes.Buffer
	if err := WriteSGF(&buf, g, SGFInfo{}); err != nil {
		t.Fatal(err)
	}
	rec := buf.String()
	if !strings.Contains(rec, "RU[Chinese]GOBOTRU[simple ko]") {
		t.Errorf("WriteSGF wrote %q, want RU[Chinese]GOBOTRU[simple ko]", rec)
	}
	back, info, err := ParseSGF(buf.Bytes())
	if err != nil {
		t.Fatalf("ParseSGF(WriteSGF) = %v\n%s", err, rec)
	}
	if back.Rules() != g.Rules() || back.MoveCount() != 12 || info.RU != "Chinese" {
		t.Errorf("read back rules %+v, %d moves, RU %q; want %+v, 12 moves, RU Chinese", back.Rules(), back.MoveCount(), info.RU, g.Rules())
	}
	// A preset is written by its name alone.
	plain, _ := mustParseSGF(t, "(;SZ[5]RU[Japanese]KM[6.5];B[aa])")
	buf.Reset()
	if err := WriteSGF(&buf, plain, SGFInfo{}); err != nil {
		t.Fatal(err)
	}
	if rec := buf.String(); !strings.Contains(rec, "RU[Japanese]\n") || strings.Contains(rec, "GOBOTRU") {
		t.Errorf("WriteSGF of Japanese rules wrote %q, want RU[Japanese] alone", rec)
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		want Result
		ok   bool
	}{
		{"B+3.5", Result{Black, ByScore, 3.5}, true},
		{"W+R", Result{White, ByResignation, 0}, true},
		{"w+resign", Result{White, ByResignation, 0}, true},
		{"B+Time", Result{Black, ByTime, 0}, true},
		{"W+F", Result{White, ByForfeit, 0}, true},
		{"0", Result{Empty, ByScore, 0}, true},
		{"Draw", Result{Empty, ByScore, 0}, true},
		{"B+", Result{Black, ByScore, 0}, true},
		{"b+t", Result{Black, ByTime, 0}, true},
		{"Jigo", Result{Empty, ByScore, 0}, true},
		{"Void", Result{}, false},
		{"?", Result{}, false},
		{"B+x", Result{}, false},
		{"X+3", Result{}, false},
		{"", Result{}, false},
		{"B3", Result{}, false},
	}
	for _, tt := range tests {
		got, err := ParseResult(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseResult(%q) = %+v, %v; want %+v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrSGF) {
			t.Errorf("ParseResult(%q) error %v does not wrap ErrSGF", tt.in, err)
		}
		if noResult := tt.in == "Void" || tt.in == "?"; errors.Is(err, ErrNoResult) != noResult {
			t.Errorf("ParseResult(%q) error %v: wraps ErrNoResult %v, want %v", tt.in, err, !noResult, noResult)
		}
	}
}

// TestSGFRoundTrip writes random games and reads them back: every
// position, the moves, the set-up and the rules must come back.
func TestSGFRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 28 // four games on each size
	if testing.Short() {
		n = 7
	}
	for i := 0; i < n; i++ {
		size := []int{2, 5, 9, 13, 19, 21, 25}[i%7]
		rules, _ := Preset(PresetNames[i%len(PresetNames)])
		rules.Ko = KoRule(i % 3)
		rules.Komi = float64(rng.IntN(41)-20) / 2
		cfg := Config{Size: size, Rules: rules}
		if i%5 == 0 && MaxHandicap(size) >= 2 {
			cfg.Handicap = 2 + rng.IntN(MaxHandicap(size)-1)
		}
		g := sgfRandomGame(t, rng, cfg, size*size*2)
		info := SGFInfo{PB: "Black ] \\ player", PW: "White", C: "line one\nline two ]", DT: "2026-11-21"}
		if g.PlayEnded() {
			info.Dead = []Point{}
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, info); err != nil {
			t.Fatalf("WriteSGF = %v", err)
		}
		back, binfo, err := ParseSGF(buf.Bytes())
		if err != nil {
			t.Fatalf("ParseSGF(WriteSGF(game %d)) = %v\n%s", i, err, buf.Bytes())
		}
		want, got := sgfPositions(t, g), sgfPositions(t, back)
		if len(got) != len(want) {
			t.Fatalf("game %d: %d positions read back, want %d", i, len(got), len(want))
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("game %d: position %d read back as\n%s\nwant\n%s", i, j, got[j], want[j])
			}
		}
		if fmt.Sprint(back.Moves()) != fmt.Sprint(g.Moves()) {
			t.Errorf("game %d: moves differ after the round trip", i)
		}
		if back.Rules() != g.Rules() || back.Handicap() != g.Handicap() || back.ToPlay() != g.ToPlay() {
			t.Errorf("game %d: read back rules %v handicap %d to play %v, want %v, %d, %v",
				i, back.Rules(), back.Handicap(), back.ToPlay(), g.Rules(), g.Handicap(), g.ToPlay())
		}
		if back.Board().Hash() != g.Board().Hash() || back.Captures(Black) != g.Captures(Black) || back.Captures(White) != g.Captures(White) {
			t.Errorf("game %d: final board or captures differ", i)
		}
		if binfo.PB != info.PB || binfo.C != info.C || binfo.DT != info.DT {
			t.Errorf("game %d: info read back as %+v", i, binfo)
		}
		// The written record is stable: writing it again gives the same bytes.
		var again bytes.Buffer
		if err := WriteSGF(&again, back, *binfo); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Errorf("game %d: write(read(write(g))) differs from write(g):\n%s\n%s", i, again.Bytes(), buf.Bytes())
		}
	}
}

func TestWriteSGFGolden(t *testing.T) {
	rules, _ := Preset("japanese")
	g := enginetest.NewGame(t, Config{Size: 9, Rules: rules, Handicap: 2}, "E5", "D5", "E4", "D4", "E3", "D3", "F6", "pass", "pass")
	info := SGFInfo{PB: "Alice", BlackRank: "3k", PW: "Bob [bot]", WhiteRank: "1d", DT: "2026-11-21",
		EV: "Friday games", PC: "Discord", GN: "Game 1", RE: "W+2.5", C: "Good game]", Dead: []Point{{5, 5}}}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, g, info); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sgf", "golden_9x9_handicap.sgf")
	if *updateGolden {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("WriteSGF =\n%s\nwant (%s)\n%s", buf.Bytes(), golden, want)
	}
	_, back, err := ParseSGF(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back.Dead) != fmt.Sprint(info.Dead) {
		t.Errorf("dead stones read back as %v, want %v", back.Dead, info.Dead)
	}
}

// TestParseSGFFiles reads every record in testdata/sgf: each must load,
// and write(read(x)) must give the same positions as read(x).
func TestParseSGFFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "sgf", "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SGF files in testdata/sgf: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g, info, err := ParseSGF(data)
			if err != nil {
				t.Fatalf("ParseSGF = %v", err)
			}
			var buf bytes.Buffer
			if err := WriteSGF(&buf, g, *info); err != nil {
				t.Fatal(err)
			}
			back, _, err := ParseSGF(buf.Bytes())
			if err != nil {
				t.Fatalf("ParseSGF(WriteSGF) = %v\n%s", err, buf.Bytes())
			}
			want, got := sgfPositions(t, g), sgfPositions(t, back)
			if strings.Join(got, "\n\n") != strings.Join(want, "\n\n") {
				t.Errorf("positions differ after the round trip")
			}
		})
	}
}

// FuzzParseSGF checks that no input panics, that errors carry a position,
// and that whatever reads also writes and reads back to the same game.
func FuzzParseSGF(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sgf", "*.sgf"))
	real, _ := filepath.Glob(filepath.Join("testdata", "sgf", "real", "*.sgf"))
	for _, name := range append(files, real...) {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("(;SZ[5];B[aa](;W[bb])(;W[cc]))"))
	f.Add([]byte("(;AddBlack[aa:bb]PL[W];W[])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, info, err := ParseSGF(data)
		if err != nil {
			var se *SGFError
			if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("ParseSGF error %v (%T) has no position", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, *info); err != nil {
			t.Fatal(err)
		}
		back, _, err := ParseSGF(buf.Bytes())
		if err != nil {
			t.Fatalf("ParseSGF(WriteSGF(ParseSGF(%q))) = %v\n%s", data, err, buf.Bytes())
		}
		if fmt.Sprint(sgfPositions(t, back)) != fmt.Sprint(sgfPositions(t, g)) {
			t.Fatalf("positions differ after the round trip of %q", data)
		}
	})
}

// FuzzParsePoint checks the GTP and SGF coordinate parsers: no panics, and
// any point they accept lies on the board and prints back to itself.
func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"D4", "q16", "T19", "I5", "A0", "Z25", "pass", "", "aa", "tt", "ss", "yy", "zz", "A", "A100"} {
		f.Add(s, 19)
		f.Add(s, 25)
		f.Add(s, 9)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		if size < MinSize || size > MaxSize {
			size = MinSize + (size%(MaxSize-MinSize+1)+MaxSize-MinSize+1)%(MaxSize-MinSize+1)
		}
		if p, err := ParsePoint(s, size); err == nil {
			if !p.Valid(size) {
				t.Fatalf("ParsePoint(%q, %d) = %v, off the board", s, size, p)
			}
			if q, err := ParsePoint(p.String(), size); err != nil || q != p {
				t.Fatalf("ParsePoint(%q) = %v, %v; want %v", p.String(), q, err, p)
			}
		} else if !errors.Is(err, ErrInvalidCoordinates) {
			t.Fatalf("ParsePoint(%q, %d) = %v, want ErrInvalidCoordinates", s, size, err)
		}
		if m, err := ParseMove(Black, s, size); err == nil && m.Kind == Place && !m.Point.Valid(size) {
			t.Fatalf("ParseMove(%q, %d) = %v, off the board", s, size, m)
		}
		p, ok, err := ParseSGFPoint(s, size)
		switch {
		case err != nil:
			if !errors.Is(err, ErrInvalidCoordinates) {
				t.Fatalf("ParseSGFPoint(%q, %d) = %v, want ErrInvalidCoordinates", s, size, err)
			}
		case ok:
			if !p.Valid(size) {
				t.Fatalf("ParseSGFPoint(%q, %d) = %v, off the board", s, size, p)
			}
			if got := SGFPoint(p, size); got != s {
				t.Fatalf("SGFPoint(ParseSGFPoint(%q)) = %q", s, got)
			}
		}
	})
}

// sgf300 is a 300-move record on 19×19 for the parse benchmark.
func sgf300(b testing.TB) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	rules, _ := Preset("japanese")
	for {
		g := sgfRandomGame(b, rng, Config{Size: 19, Rules: rules}, 300)
		if g.MoveCount() == 300 {
			var buf bytes.Buffer
			if err := WriteSGF(&buf, g, SGFInfo{PB: "Black", PW: "White", C: "A comment."}); err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}
	}
}

func BenchmarkParseSGF300(b *testing.B) {
	data := sgf300(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseSGF(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteSGF300(b *testing.B) {
	g, info, err := ParseSGF(sgf300(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteSGF(&bytes.Buffer{}, g, *info); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseSGFFixtures(t *testing.T) {
	tests := []struct {
		file            string
		size, handicap  int
		moves, inserted int
		komi            float64
		rules           string
		pb, re          string
		first           Color
	}{
		{"gnugo_19x19_ff4.sgf", 19, 0, 156, 0, 7.5, "chinese", "GNU Go (black)", "B+R", Black},
		{"gnugo_13x13_handicap_ff3.sgf", 13, 3, 83, 0, 0.5, "chinese", "GNU Go", "W+12.5", White},
		{"gnugo_9x9_missing_pass.sgf", 9, 0, 31, 1, 7, "japanese", "gnugo", "", Black},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "sgf", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			g, info, err := ParseSGF(data)
			if err != nil {
				t.Fatalf("ParseSGF = %v", err)
			}
			if g.Size() != tt.size || g.Handicap() != tt.handicap || g.MoveCount() != tt.moves ||
				info.InsertedPasses != tt.inserted || g.Rules().Komi != tt.komi || g.Rules().Name != tt.rules ||
				info.PB != tt.pb || info.RE != tt.re || g.FirstPlayer() != tt.first {
				t.Errorf("got size %d handicap %d moves %d inserted %d komi %v rules %s PB %q RE %q first %v\n"+
					"want    %d, %d, %d, %d, %v, %s, %q, %q, %v",
					g.Size(), g.Handicap(), g.MoveCount(), info.InsertedPasses, g.Rules().Komi, g.Rules().Name, info.PB, info.RE, g.FirstPlayer(),
					tt.size, tt.handicap, tt.moves, tt.inserted, tt.komi, tt.rules, tt.pb, tt.re, tt.first)
			}
		})
	}
}

func ExampleParseSGF() {
	record := `(;FF[4]GM[1]SZ[9]KM[7]RU[Japanese]PB[Alice]PW[Bob]RE[W+R]
;B[ee];W[gc];B[cg](;W[dc];B[ce])(;W[cc]))`
	g, info, err := ParseSGF([]byte(record))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.PB, "vs", info.PW, info.RE)
	fmt.Println(g.Rules())
	fmt.Println(g.MoveCount(), "moves,", g.ToPlay(), "to play")
	for _, line := range strings.Split(strings.TrimRight(g.Board().String(), "\n"), "\n") {
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// Alice vs Bob W+R
	// japanese (territory scoring, simple ko, komi 7)
	// 5 moves, white to play
	//    A B C D E F G H J
	//  9 . . . . . . . . .
	//  8 . . . . . . . . .
	//  7 . . . O . . O . .
	//  6 . . . . . . . . .
	//  5 . . X . X . . . .
	//  4 . . . . . . . . .
	//  3 . . X . . . . . .
	//  2 . . . . . . . . .
	//  1 . . . . . . . . .
	//    A B C D E F G H J
}

func ExampleParseSGF_error() {
	_, _, err := ParseSGF([]byte("(;SZ[9]AW[ba][ab]\n;B[aa])"))
	fmt.Println(err)
	var se *SGFError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Col, errors.Is(err, ErrSuicide))
	}
	// Output:
	// engine: sgf line 2, column 3: move 1 (B A9): suicide is not allowed
	// 2 3 true
}

// TestParseSGFTooManyOccupied: a record with more than 10 moves on
// occupied points is refused, and the refusal names the first of them as
// well as the one that passed the limit.
func TestParseSGFTooManyOccupied(t *testing.T) {
	_, _, err := ParseSGF([]byte("(;GM[1]SZ[9];B[ee];W[cc]" + strings.Repeat(";B[ee];W[cc]", 11) + ")"))
	want := "sgf line 1, column 87: move 13 (B E5) is the record's 11th move on an occupied point, the first being move 3: a record with more than 10 is refused"
	if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrOccupied) {
		t.Errorf("ParseSGF = %v, want %q (ErrOccupied)", err, want)
	}
}

// TestParseSGFOccupiedMove: a move on an occupied point, a recording error
// that 5 of the 596 professional records of Debian's goban-original-games
// have, is read as a pass of the same player with a warning, so that the
// rest of the record loads as GNU Go loads it.
func TestParseSGFOccupiedMove(t *testing.T) {
	data, err := os.ReadFile("testdata/sgf/occupied.sgf")
	if err != nil {
		t.Fatal(err)
	}
	g, info, err := ParseSGF(data)
	if err != nil {
		t.Fatalf("ParseSGF(occupied.sgf) = %v", err)
	}
	want := []SGFWarning{{Line: 6, Col: 21, Msg: "move 10 (W E5) is on an occupied point: read as a pass", Move: 9}}
	if !slices.Equal(info.Warnings, want) {
		t.Errorf("Warnings = %q, want %q", info.Warnings, want)
	}
	if got := info.Warnings[0].String(); got != "sgf line 6, column 21: move 10 (W E5) is on an occupied point: read as a pass" {
		t.Errorf("Warning.String() = %q", got)
	}
	if g.MoveCount() != 13 || info.InsertedPasses != 0 {
		t.Errorf("%d moves, %d passes inserted; want the record's 13, none inserted", g.MoveCount(), info.InsertedPasses)
	}
	if m := g.Moves()[9]; m != PassMove(White) {
		t.Errorf("move 10 = %v, want White's pass", m)
	}
	wantBoard := `   A B C D E F G H J 
 9 . . . . . . . . . 
 8 . . . . . . . . . 
 7 . . O X X . O . . 
 6 . . O . . . . . . 
 5 . . . . X . X . . 
 4 . . . . . . . . . 
 3 . . X . X X O . . 
 2 . . . . . . O . . 
 1 . . . . . . . . . 
   A B C D E F G H J 
`
	if got := g.Board().String(); got != wantBoard {
		t.Errorf("board =\n%s\nwant\n%s", got, wantBoard)
	}
	// A record without the error has no warnings, and nil ones.
	if _, info, err := ParseSGF([]byte("(;SZ[9];B[ee];W[ff])")); err != nil || info.Warnings != nil {
		t.Errorf("ParseSGF(clean) = %v, warnings %q", err, info.Warnings)
	}
}

func ExampleWriteSGF() {
	g, _ := NewGame(Config{Size: 5, Rules: DefaultRules()})
	for _, v := range []string{"C3", "B2", "pass", "pass"} {
		m, _ := ParseMove(g.ToPlay(), v, 5)
		g.Play(m)
	}
	WriteSGF(os.Stdout, g, SGFInfo{PB: "Alice", PW: "Bob", RE: "B+17.5", Dead: []Point{{1, 1}}})
	// Output:
	// (;FF[4]GM[1]CA[UTF-8]AP[gobot]SZ[5]KM[7.5]RU[Chinese]
	// PB[Alice]PW[Bob]RE[B+17.5]
	// ;B[cc];W[bd];B[];W[]
	// TB[aa][ba][ca][da][ea][ab][bb][cb][db][eb][ac][bc][dc][ec][ad][bd][cd][dd][ed][ae][be][ce][de][ee]
	// MA[bd])
}

// maxPassesRecord is the largest record ParseSGF reads, all passes: the
// most moves per byte.
func maxPassesRecord() []byte {
	const head, move = "(;SZ[19]", ";B[];W[]"
	return []byte(head + strings.Repeat(move, (MaxSGFSize-len(head)-1)/len(move)) + ")")
}

// TestParseSGFSize: a record over MaxSGFSize is refused before it is read;
// one at the limit is read in bounded memory. Before the main line was
// read a node at a time, a 1 MiB record of passes allocated 121 MB with a
// peak heap of 70 MB (10 MB took 750 MB); now it allocates 41 MB, most of
// it the game's own history.
func TestParseSGFSize(t *testing.T) {
	data := maxPassesRecord()
	if len(data) > MaxSGFSize {
		t.Fatalf("record of %d bytes, over the limit", len(data))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g, _, err := ParseSGF(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("ParseSGF(%d bytes) = %v", len(data), err)
	}
	if n := g.MoveCount(); n != (len(data)-9)/4 {
		t.Errorf("%d moves, want %d", n, (len(data)-9)/4)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes of passes: %d moves, %.1f MB allocated", len(data), g.MoveCount(), float64(alloc)/1e6)
	if limit := uint64(48 * MaxSGFSize); alloc > limit {
		t.Errorf("ParseSGF allocated %d bytes for a %d-byte record, want at most %d", alloc, len(data), limit)
	}

	big := append(data[:len(data)-1:len(data)-1], ";B[];W[];B[])"...)
	_, _, err = ParseSGF(big)
	var se *SGFError
	if !errors.Is(err, ErrSGFTooLarge) || !errors.Is(err, ErrSGF) || !errors.As(err, &se) {
		t.Fatalf("ParseSGF(%d bytes) = %v, want ErrSGFTooLarge", len(big), err)
	}
	if want := fmt.Sprintf("engine: sgf line 1, column 1: %d bytes: SGF record larger than 1 MiB", len(big)); err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func BenchmarkParseSGFMaxSize(b *testing.B) {
	data := maxPassesRecord()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := ParseSGF(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAddRootComment: a comment goes into the root node, after the one it
// has (a blank line between) or as its first, escaped; the rest of the
// record is as it was, move comments and variations included; ParseSGF
// reads the root comment back. A record without a root node is refused.
func TestAddRootComment(t *testing.T) {
	for _, tt := range []struct {
		name, record, c, want string
	}{
		{"no comment", "(;FF[4]GM[1]SZ[9]RE[B+R]\n;B[ee];W[cc])", "Annulled. Reason: farmed",
			"(;FF[4]GM[1]SZ[9]RE[B+R]C[Annulled. Reason: farmed]\n;B[ee];W[cc])"},
		{"a comment", "(;FF[4]GM[1]SZ[9]C[Decided by ann\\]]PB[a]\n;B[ee]C[move one])", "and annulled",
			"(;FF[4]GM[1]SZ[9]C[Decided by ann\\]\n\nand annulled]PB[a]\n;B[ee]C[move one])"},
		{"escaped", "  (\n;GM[1] SZ [9] AB[aa][bb]\n(;B[ee])(;B[dd]))", `a]b\c`,
			"  (\n;GM[1] SZ [9] AB[aa][bb]C[a\\]b\\\\c]\n(;B[ee])(;B[dd]))"},
		{"root only", "(;GM[1]SZ[9])", "x", "(;GM[1]SZ[9]C[x])"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddRootComment([]byte(tt.record), tt.c)
			if err != nil || string(got) != tt.want {
				t.Fatalf("AddRootComment(%q, %q) = %q, %v; want %q", tt.record, tt.c, got, err, tt.want)
			}
			_, info, err := ParseSGF(got)
			if err != nil || !strings.HasSuffix(info.C, tt.c) {
				t.Errorf("ParseSGF of the marked record: C = %q, %v; want it to end %q", info.C, err, tt.c)
			}
		})
	}
	for _, bad := range []string{"", "GM[1]", "(GM[1])", "(;GM[1]C[open", "(;GM[1]9[x])"} {
		if got, err := AddRootComment([]byte(bad), "x"); !errors.Is(err, ErrSGF) {
			t.Errorf("AddRootComment(%q) = %q, %v; want ErrSGF", bad, got, err)
		}
	}
}
