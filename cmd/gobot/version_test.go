package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion: gobot version (and --version) prints the version and the
// commit of the build; a build without version control information (a
// test binary, the Dockerfile's build without .git or GOBOT_REVISION)
// says "unknown". The start-up line logs the same.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		if want := "gobot 1.0, revision unknown, " + runtime.Version() + "\n"; code != 0 || stdout.String() != want || stderr.Len() != 0 {
			t.Errorf("gobot %s = %d, %q, %q; want 0, %q", args[0], code, stdout.String(), stderr.String(), want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"version", "x"}, nil, &stdout, &stderr); code != 2 || stderr.String() != "gobot: version takes no arguments, not \"x\"\n" {
		t.Errorf("gobot version x = %d, %q", code, stderr.String())
	}
	stdout.Reset()
	run(context.Background(), []string{"help"}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "\n  gobot version, --version                   print the version and the commit gobot was built from\n") {
		t.Errorf("gobot help does not list version:\n%s", stdout.String())
	}

	b := buildOf([]debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "cf37e5d0a1"}, {Key: "vcs.modified", Value: "true"}}, "")
	if got, want := b.String(), "gobot 1.0, revision cf37e5d0a1 (modified: built with uncommitted changes), "+runtime.Version(); got != want {
		t.Errorf("build = %q, want %q", got, want)
	}
	if got, want := strings.TrimSuffix(fmt.Sprintln(b.logArgs()...), "\n"), "version 1.0 revision cf37e5d0a1 modified true"; got != want {
		t.Errorf("logArgs = %q, want %q", got, want)
	}
	// The Dockerfile's -X main.revision, when the toolchain has none.
	if got := buildOf(nil, "0123abc").Revision; got != "0123abc" {
		t.Errorf("revision from -ldflags = %q", got)
	}
}
