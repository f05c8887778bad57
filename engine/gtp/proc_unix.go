//go:build unix

package gtp

import (
	"os/exec"
	"syscall"
)

// isolate puts the program in a process group of its own, so that killing it
// also ends any helper processes it started (a wrapper script's program, for
// instance).
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the program's whole process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
