package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHubEngines: GOBOT_HUB_ENGINES is read as GOBOT_GTP_ENGINES is (by
// gtp.ParsePrograms), and its errors name it.
func TestHubEngines(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
		err  string
	}{
		{"", nil, ""},
		{"scan=/opt/scan/scan hub", map[string]string{"scan": "/opt/scan/scan hub"}, ""},
		{"Scan = '/opt/my scan/scan' hub; kr=kingsrow-hub", map[string]string{"scan": "'/opt/my scan/scan' hub", "kr": "kingsrow-hub"}, ""},
		{"/opt/scan/scan hub", nil, `config: GOBOT_HUB_ENGINES: entry "/opt/scan/scan hub" is not NAME=COMMAND`},
		{"hub:scan=scan", nil, `config: GOBOT_HUB_ENGINES: name "hub:scan" must be 1 to 32 letters, digits, '-', '_' or '.'`},
		{"s=a;S=b", nil, `config: GOBOT_HUB_ENGINES: program "s" is listed twice`},
	}
	for _, tt := range tests {
		got, err := Parse(map[string]string{"DISCORD_TOKEN": testToken, "GOBOT_HUB_ENGINES": tt.in}, Run)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || !errors.Is(err, ErrInvalid) {
				t.Errorf("GOBOT_HUB_ENGINES=%q: Parse() error = %v, want %q (ErrInvalid)", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("GOBOT_HUB_ENGINES=%q: Parse() error = %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got.HubEngines); diff != "" {
			t.Errorf("GOBOT_HUB_ENGINES=%q: HubEngines (-want +got):\n%s", tt.in, diff)
		}
		if len(tt.want) > 0 && !strings.Contains(got.String(), "hub_engines=") {
			t.Errorf("String() = %q, want the engines' names", got.String())
		}
	}
}
