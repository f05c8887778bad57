package clock

import (
	"errors"
	"testing"
)

// FuzzParse: any input either fails with ErrSpec or parses to a control
// within the limits that writes back to a spec reading the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"fischer 3d +1d max 7d", "byoyomi 10m 5x30s", "canadian 10m 25/5m", "simple 1d", "absolute 20m", "none", "live", "absolute 1h30m", "fischer 1d +99999999d", "fischer 5m +3s", "5+3", "5+0", "0+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSpec) {
				t.Fatalf("Parse(%q) = %v, not an ErrSpec", s, err)
			}
			return
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %+v; its spec %q reads back as %+v, %v", s, c, c.String(), back, err)
		}
		for _, d := range []int64{int64(c.Main), int64(c.Max), int64(c.Period)} {
			if d != 0 && (d < int64(MinPeriod) || d > int64(MaxPeriod)) {
				t.Fatalf("Parse(%q) = %+v, a time out of range", s, c)
			}
		}
		if d := c.Increment; d != 0 && (d < MinIncrement || d > MaxPeriod) {
			t.Fatalf("Parse(%q) = %+v, an increment out of range", s, c)
		}
		_ = c.Describe()
	})
}
