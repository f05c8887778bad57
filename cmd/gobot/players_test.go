package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/config"
	"github.com/gobot-dev/gobot/internal/logtest"
)

// TestRegistryRanks: /go bot asks the registry's levels for their rank on
// the size chosen; the built-in levels were measured on 9×9 only, so a
// 19×19 game gets the 9×9 rank, said to be 9×9's, and an unknown level
// none.
func TestRegistryRanks(t *testing.T) {
	reg, err := bots.NewRegistry(bots.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	p := registryPlayers{reg}
	for _, tt := range []struct {
		level         string
		size          int
		kyu, measured int
	}{
		{"tough", 9, 9, 9},
		{"tough", 19, 9, 9},
		{"beginner", 13, 30, 9},
		{"grandmaster", 9, 0, 0},
	} {
		if kyu, measured := p.RankOn(tt.level, tt.size); kyu != tt.kyu || measured != tt.measured {
			t.Errorf("RankOn(%s, %d) = %d kyu on %d×%d, want %d on %d×%d", tt.level, tt.size, kyu, measured, measured, tt.kyu, tt.measured, tt.measured)
		}
	}
}

// TestLogWaiting: while the review engine loads, the log says gobot is
// still waiting for it, and stops saying so once it has answered.
func TestLogWaiting(t *testing.T) {
	var buf logtest.Buffer
	stop := logWaiting(slog.New(slog.NewTextHandler(&buf, nil)), 10*time.Millisecond, "still waiting for the review engine to start", "engine", "gtp:kata")
	time.Sleep(50 * time.Millisecond)
	stop()
	said := buf.String()
	if !strings.Contains(said, `msg="still waiting for the review engine to start" engine=gtp:kata waited=`) {
		t.Errorf("log = %q, want it to say gobot is waiting", said)
	}
	time.Sleep(30 * time.Millisecond)
	if buf.String() != said {
		t.Errorf("the log went on after stop: %q", buf.String())
	}
}

// TestGTPEnginesCheckedAtStart: each GOBOT_GTP_ENGINES program is started
// once and must answer the GTP handshake, as Hub engines and the review
// engine must: one that exits at once (a wrong flag, KataGo without its
// model) stops the start with one line naming the variable and the
// engine, rather than stalling every game against it.
func TestGTPEnginesCheckedAtStart(t *testing.T) {
	dir := t.TempDir()
	exits := filepath.Join(dir, "exits")
	if err := os.WriteFile(exits, []byte("#!/bin/sh\necho 'unrecognized option --bogus' >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{GTPEngines: map[string]string{"gg": exits + " --bogus"}, MaxSearches: 1}
	_, _, err := newPlayers(context.Background(), cfg, slog.New(slog.DiscardHandler))
	want := `GOBOT_GTP_ENGINES: engine "gg" did not answer the GTP handshake: gg: gtp: engine did not start: gg: protocol_version: gtp: engine exited (engine said: unrecognized option --bogus |)`
	if err == nil || err.Error() != want {
		t.Errorf("newPlayers with a GTP engine that exits = %v, want\n%s", err, want)
	}
	// A program that speaks GTP passes, and its process waits for the
	// first move.
	cfg.GTPEngines = map[string]string{"gg": plainGTP(t)}
	_, stop, err := newPlayers(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("newPlayers with a GTP engine that answers = %v", err)
	}
	stop()
}
