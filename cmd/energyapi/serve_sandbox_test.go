package main

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/testwait"
)

// TestServeSandboxRefusals: serve checks the sandbox settings before it
// opens anything: a faults file's mistake is named by file and line, and
// the sandbox's own flags need --sandbox.
func TestServeSandboxRefusals(t *testing.T) {
	t.Parallel()
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
		{"demo with the sandbox turned off", []string{"--demo", "--sandbox=false", "--now", "2025-06-30T12:00:00+02:00"}, "--now needs --sandbox"},
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
	t.Parallel()
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

// TestServeSandbox: serve --sandbox --now --faults, as a client's CI runs
// it: the admin token is printed, the faults file's rule applies, the
// journal records it and tokens expire on the fixed clock.
func TestServeSandbox(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	if _, err := runCmd(t, nil, "init", "--db", db); err != nil {
		t.Fatal(err)
	}
	c := createClient(t, nil, "--name", "ci", "--db", db)
	faults := filepath.Join(dir, "faults.json")
	rules := `{"rules": [{"id": "busy", "match": {"dataset": "thermoelectric"}, "action": {"status": 503, "retry_after": 7}, "trigger": {"first": 1}}]}`
	if err := os.WriteFile(faults, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, _ := serveInProcess(t, nil, "--addr", "127.0.0.1:0", "--db", db, "--sandbox", "--faults", faults, "--now", "2025-06-30T12:00:00+02:00", "--token-ttl", "60s")
	var base, admin string
	tokenLine := regexp.MustCompile(`energyapi sandbox admin token: (\S+)`)
	testwait.For(t, 2*time.Minute, "serve printing its address and admin token", func() bool {
		m1, m2 := listening.FindStringSubmatch(stdout.String()), tokenLine.FindStringSubmatch(stdout.String())
		if m1 != nil && m2 != nil {
			base, admin = m1[1], m2[1]
		}
		return base != ""
	})
	srv := &server{base: base}
	tok, status := srv.token(t, c.ClientID, c.ClientSecret)
	if status != 200 {
		t.Fatalf("token: got %d", status)
	}
	call := func(method, path, body string) (int, string) {
		a := srv.do(t, method, path, admin, body)
		return a.status, string(a.body)
	}
	if status, _ := srv.get(t, "/generation/v2.0/thermoelectric-production?year=2023", tok); status != 503 {
		t.Errorf("first request: got %d, want the faults file's 503", status)
	}
	if status, _ := srv.get(t, "/generation/v2.0/thermoelectric-production?year=2023", tok); status != 200 {
		t.Errorf("second request: got %d, want 200", status)
	}
	if status, body := call("GET", "/sandbox/journal?client_id="+c.ClientID, ""); status != 200 || !strings.Contains(body, `"fault":{"rule":"busy","action":"status 503"}`) {
		t.Errorf("journal: got %d %s", status, body)
	}
	if status, body := call("GET", "/sandbox/clock", ""); status != 200 || body != `{"fixed":true,"now":"2025-06-30T12:00:00+02:00"}` {
		t.Errorf("clock: got %d %s", status, body)
	}
	call("PUT", "/sandbox/clock", `{"advance": "60s"}`)
	if status, _ := srv.get(t, "/generation/v2.0/thermoelectric-production?year=2023", tok); status != 401 {
		t.Errorf("after 60 s on the fixed clock: got %d, want 401 (--token-ttl 60s)", status)
	}
}

func TestDemoImpliesSandboxUnlessTurnedOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--demo"}, true},
		{[]string{"--demo", "--sandbox=false"}, false},
		{[]string{"--sandbox=false", "--demo"}, false},
		{[]string{"--sandbox"}, true},
		{nil, false},
	} {
		c, err := parseServeFlags(tc.args, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if c.sandbox.enabled != tc.want {
			t.Errorf("%v: sandbox enabled %v, want %v", tc.args, c.sandbox.enabled, tc.want)
		}
	}
}
