package estimate_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/estimate"
)

// gobanDir holds Debian's goban-original-games records, which .ci/run
// installs.
const gobanDir = "/usr/share/goban"

// gobanVerdicts are GNU Go 3.8's dead stones (final_status_list dead,
// --chinese-rules) at the end of the 232 records of goban-original-games
// that give komi and a counted result: finished games, agreed by
// professionals, where the estimate decides the scoring proposal.
const gobanVerdicts = "testdata/scoring/goban-gnugo-dead.tsv"

// TestGobanRecordsDead measures the estimate's dead stones against GNU
// Go's at the end of professional games: every fourth record by default,
// all with GOBOT_SCORING_CORPUS=full. The floors are the agreement
// measured when the test was written (full: 194 of 232 records exactly
// equal, 140 stones called dead that GNU Go keeps alive and 146 the
// other way; 180 records and 231 stones before the estimate kept alive
// the chains that one safe move joins to living ones, as on T-08-5's top
// edge). A chain called dead when it lives can flip a result, so that
// direction has a ceiling of its own.
func TestGobanRecordsDead(t *testing.T) {
	if _, err := os.Stat(gobanDir); err != nil {
		t.Skipf("no professional records in %s (apt-get install goban-original-games)", gobanDir)
	}
	f, err := os.Open(gobanVerdicts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	full := os.Getenv("GOBOT_SCORING_CORPUS") == "full"
	games, exact, oursOnly, theirsOnly := 0, 0, 0, 0
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		if !full && i%4 != 0 {
			continue
		}
		name, dead, _ := strings.Cut(sc.Text(), "\t")
		data, err := os.ReadFile(filepath.Join(gobanDir, name))
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := engine.ParseSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		theirs := strings.Fields(dead)
		var ours []string
		for _, p := range estimate.Dead(context.Background(), g, estimate.Options{}).Dead {
			ours = append(ours, p.String())
		}
		games++
		var only, missed []string
		for _, p := range ours {
			if !slices.Contains(theirs, p) {
				only = append(only, p)
			}
		}
		for _, p := range theirs {
			if !slices.Contains(ours, p) {
				missed = append(missed, p)
			}
		}
		if len(only) == 0 && len(missed) == 0 {
			exact++
			continue
		}
		oursOnly += len(only)
		theirsOnly += len(missed)
		t.Logf("%s: dead for the estimate only %v, for GNU Go only %v", name, only, missed)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d records agree exactly; %d stones dead for the estimate only, %d for GNU Go only", exact, games, oursOnly, theirsOnly)
	wantExact, maxOursOnly := 46, 52 // every fourth record (58)
	if full {
		wantExact, maxOursOnly = 194, 140
	}
	if exact < wantExact {
		t.Errorf("%d of %d records agree with GNU Go exactly, want at least %d", exact, games, wantExact)
	}
	if oursOnly > maxOursOnly {
		t.Errorf("%d stones dead for the estimate that GNU Go keeps alive, want at most %d", oursOnly, maxOursOnly)
	}
}
