package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gobot-dev/gobot/config"
)

// healthTimeout bounds `gobot healthcheck`, below the Dockerfile's
// HEALTHCHECK --timeout.
const healthTimeout = 4 * time.Second

// healthcheck asks the gobot running on this machine whether it is healthy:
// GET /healthz on the port of GOBOT_HTTP_ADDR (":8080" in http mode when
// unset), through loopback. It needs no token and no database, so a
// container's HEALTHCHECK can run it without a shell or wget.
func healthcheck(ctx context.Context, getenv func(string) string, stdout io.Writer) error {
	addr := getenv("GOBOT_HTTP_ADDR")
	if addr == "" && strings.EqualFold(getenv("GOBOT_MODE"), "http") { // as config reads it
		addr = ":8080"
	}
	if addr == "" {
		return fmt.Errorf("healthcheck: GOBOT_HTTP_ADDR is not set, so nothing serves /healthz (set it, e.g. :8080)")
	}
	// Validated as config does, and more: a host that may be a secret is
	// refused rather than looked up. No error below quotes addr itself
	// (net's and net/http's quote whatever they are given), only the URL
	// built from the checked host and port.
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("healthcheck: GOBOT_HTTP_ADDR: %s is not host:port (e.g. :8080)", config.Shown(addr))
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		return fmt.Errorf("healthcheck: GOBOT_HTTP_ADDR: %s has no valid port (1-65535)", config.Shown(addr))
	}
	if config.MayBeSecret(host) {
		return fmt.Errorf("healthcheck: GOBOT_HTTP_ADDR: %s is not a listen address: its host may be a secret pasted into the wrong variable (e.g. :8080)", config.Shown(addr))
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "127.0.0.1" // listening everywhere: ask over loopback
	}
	url := "http://" + net.JoinHostPort(host, port) + "/healthz"
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: GET %s: request: %w", url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if ue := (*neturl.Error)(nil); errors.As(err, &ue) {
		err = ue.Err // without the URL again
	}
	if err != nil {
		return fmt.Errorf("healthcheck: GET %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: GET %s: %s %s", url, resp.Status, body)
	}
	fmt.Fprintf(stdout, "healthy: %s\n", url)
	return nil
}
