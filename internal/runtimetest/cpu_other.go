//go:build !unix

package runtimetest

import "time"

// CPUTime returns 0: the CPU time is not measured on this system.
func CPUTime() time.Duration { return 0 }
