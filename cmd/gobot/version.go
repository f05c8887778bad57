package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

const version = "1.0"

// revision is the commit gobot was built from when the build has no
// version control information of its own: the Dockerfile's build context
// has no .git, so it passes its GOBOT_REVISION build argument with
// -ldflags "-X main.revision=…".
var revision = ""

// build says which build this is: the version, and the commit it was
// built from (the Go toolchain's vcs.revision and vcs.modified, or
// revision), "unknown" when neither says.
type build struct {
	Version  string
	Revision string // "unknown" when not known
	Modified bool   // built from a work tree with uncommitted changes
}

// thisBuild reads the running binary's build.
func thisBuild() build {
	var settings []debug.BuildSetting
	if info, ok := debug.ReadBuildInfo(); ok {
		settings = info.Settings
	}
	return buildOf(settings, revision)
}

// buildOf reads a build from the toolchain's settings, with fallback as
// the revision when they have none.
func buildOf(settings []debug.BuildSetting, fallback string) build {
	b := build{Version: version, Revision: fallback}
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	if b.Revision == "" {
		b.Revision = "unknown"
	}
	return b
}

// logArgs are the start-up line's attributes of the build.
func (b build) logArgs() []any {
	args := []any{"version", b.Version, "revision", b.Revision}
	if b.Modified {
		args = append(args, "modified", true)
	}
	return args
}

// String is gobot version's line: "gobot 1.0, revision 0123abc… (modified,
// uncommitted changes), go1.26.8".
func (b build) String() string {
	s := fmt.Sprintf("gobot %s, revision %s", b.Version, b.Revision)
	if b.Modified {
		s += " (modified: built with uncommitted changes)"
	}
	return s + ", " + runtime.Version()
}
