package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// clientSecret looks like a Discord client secret (32 characters).
const clientSecret = "k3Jd9Qw0ZxPlV7nB2mTr8YcHs5UgEa1F"

// TestHealthcheck runs `gobot healthcheck` against a /healthz that is
// healthy, unhealthy and absent, and with addresses it must refuse.
func TestHealthcheck(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	closed := freeAddr(t) // nothing listens there any more

	tests := []struct {
		name   string
		env    map[string]string
		status int
		want   int
		stderr string
	}{
		{"healthy, any interface", map[string]string{"GOBOT_HTTP_ADDR": ":" + port}, http.StatusOK, 0, ""},
		{"healthy, 0.0.0.0", map[string]string{"GOBOT_HTTP_ADDR": "0.0.0.0:" + port}, http.StatusOK, 0, ""},
		{"healthy, loopback", map[string]string{"GOBOT_HTTP_ADDR": "127.0.0.1:" + port}, http.StatusOK, 0, ""},
		{"unhealthy", map[string]string{"GOBOT_HTTP_ADDR": ":" + port}, http.StatusServiceUnavailable, 1, "503"},
		{"nothing listening", map[string]string{"GOBOT_HTTP_ADDR": closed}, http.StatusOK, 1, "healthz"},
		{"no address", map[string]string{"GOBOT_HTTP_ADDR": ""}, http.StatusOK, 1, "GOBOT_HTTP_ADDR is not set"},
		{"bad address", map[string]string{"GOBOT_HTTP_ADDR": "8080"}, http.StatusOK, 1, "not host:port"},
		{"the token as address", map[string]string{"GOBOT_HTTP_ADDR": "MTA4NzQ2OTg1NzQ5OTE3MjgzMg.GqZ7vX.Yb3kQw9RfP0uLs2TnVc8JhEoDaMi6xKz1ByWgN"}, http.StatusOK, 1, "its value (72 characters, not shown in case it is a secret) is not host:port"},
		{"port out of range", map[string]string{"GOBOT_HTTP_ADDR": ":65536"}, http.StatusOK, 1, `":65536" has no valid port (1-65535)`},
		{"port 0", map[string]string{"GOBOT_HTTP_ADDR": ":0"}, http.StatusOK, 1, `":0" has no valid port (1-65535)`},
		// A client secret after the colon, or before it as a host that
		// would go to the resolver: refused, and not printed.
		{"a secret as port", map[string]string{"GOBOT_HTTP_ADDR": ":" + clientSecret}, http.StatusOK, 1, "its value (33 characters, not shown in case it is a secret) has no valid port"},
		{"a secret as host", map[string]string{"GOBOT_HTTP_ADDR": clientSecret + ":8080"}, http.StatusOK, 1, "its value (37 characters, not shown in case it is a secret) is not a listen address"},
	}
	// In http mode without an address, gobot listens on :8080, whatever
	// the case GOBOT_MODE is written in: healthcheck asks there.
	for _, mode := range []string{"http", "HTTP", "Http"} {
		env := map[string]string{"GOBOT_MODE": mode}
		var out strings.Builder
		err := healthcheck(context.Background(), func(k string) string { return env[k] }, &out)
		if said := fmt.Sprint(err, out.String()); !strings.Contains(said, "http://127.0.0.1:8080/healthz") {
			t.Errorf("healthcheck with GOBOT_MODE=%s and no address said %q, want it to ask :8080", mode, said)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOBOT_MODE", "")
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			status = tt.status
			var stdout, stderr strings.Builder
			got := run(context.Background(), []string{"healthcheck"}, strings.NewReader(""), &stdout, &stderr)
			if got != tt.want {
				t.Fatalf("gobot healthcheck = %d, want %d (stderr %q)", got, tt.want, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.stderr)
			}
			if strings.Contains(stderr.String()+stdout.String(), clientSecret[:24]) {
				t.Errorf("stderr = %q: it prints the secret", stderr.String())
			}
		})
	}
}
