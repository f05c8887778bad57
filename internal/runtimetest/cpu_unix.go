//go:build unix

package runtimetest

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time the process has used, user and system; 0
// where the system does not say.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
