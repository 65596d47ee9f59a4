package main

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeSandboxRefusals: serve checks the sandbox settings before it
// opens anything: a faults file's mistake is named by file and line, and
// the sandbox's own flags need --sandbox.
func TestServeSandboxRefusals(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	if _, err := runCmd(t, nil, "init", "--db", db); err != nil {
		t.Fatal(err)
	}
	faults := filepath.Join(dir, "faults.yaml")
	if err := os.WriteFile(faults, []byte("seed: 3\nrules:\n  - match: {dataset: total-load}\n    action: {status: 403}\n  - match: {dataset: total-lod}\n    action: {status: 503}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"faults file error", []string{"--sandbox", "--faults", faults}, faults + `:5: unknown dataset "total-lod" (GET /catalog lists the names)`},
		{"faults without sandbox", []string{"--faults", faults}, "--faults needs --sandbox"},
		{"now without sandbox", []string{"--now", "2025-06-30T12:00:00+02:00"}, "--now needs --sandbox"},
		{"bad now", []string{"--sandbox", "--now", "30/06/2025"}, `--now: invalid value "30/06/2025"`},
		{"public address without admin token", []string{"--sandbox", "--addr", "0.0.0.0:0"}, "the sandbox on 0.0.0.0:0 needs --sandbox-admin-token"},
		{"bad rate limit style", []string{"--rate-limit-style", "gateway"}, `--rate-limit-style: invalid value "gateway": want standard or public`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runCmd(t, nil, append([]string{"serve", "--db", db}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, errUsage) {
				t.Errorf("got %v, want a usage error containing %q", err, tc.want)
			}
		})
	}
}

// TestServeWithoutSandboxHasNoAdmin: a production serve answers 404 on the
// sandbox's admin paths, whatever the credential.
func TestServeWithoutSandboxHasNoAdmin(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	if _, err := runCmd(t, nil, "init", "--db", db); err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, nil, "--db", db)
	for _, c := range []struct{ method, path string }{{"GET", "/sandbox/rules"}, {"POST", "/sandbox/rules"}, {"GET", "/sandbox/journal"}, {"PUT", "/sandbox/clock"}} {
		req, _ := http.NewRequest(c.method, srv.base+c.path, strings.NewReader(`[{action: {drop: true}}]`))
		req.Header.Set("Authorization", "Bearer some-admin-token-0123456789")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s: got %d, want 404", c.method, c.path, resp.StatusCode)
		}
	}
}
