//go:build !unix

package gtp

import "os/exec"

// isolate does nothing where process groups are not available.
func isolate(*exec.Cmd) {}

// killGroup kills the program process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
