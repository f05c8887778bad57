package logtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestBufferConcurrent: lines written by many goroutines at once are all
// there, whole, while the test reads (run with -race).
func TestBufferConcurrent(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				fmt.Fprintf(&b, "line %d.%d\n", i, j)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 800 || !strings.Contains(b.String(), "line 7.99\n") {
		t.Errorf("%d lines, want 800 whole ones", len(lines))
	}
}
