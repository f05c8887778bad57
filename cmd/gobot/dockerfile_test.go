package main

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDockerfileCopiesEveryPackage: the Dockerfile copies the project's
// folders one by one (no .git or local databases in the image), so every
// folder whose packages gobot imports must be among them, or the image
// does not build.
func TestDockerfileCopiesEveryPackage(t *testing.T) {
	f, err := os.Open("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var copied []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "COPY" && fields[2] == "./"+fields[1] {
			copied = append(copied, fields[1])
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/gobot-dev/gobot/"
	for _, pkg := range strings.Fields(string(out)) {
		rest, ok := strings.CutPrefix(pkg, module)
		if !ok {
			continue
		}
		dir, _, _ := strings.Cut(rest, "/")
		if !slices.Contains(copied, dir) {
			t.Errorf("gobot imports %s, but the Dockerfile does not copy %s/ (it copies %v)", pkg, dir, copied)
		}
	}
}
