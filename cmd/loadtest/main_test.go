package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

func noEnv(string) string { return "" }

func TestRefusesNonLoopbackTargets(t *testing.T) {
	for _, u := range []string{
		"http://192.0.2.1:8080", "http://[2001:db8::1]:80", "https://example.com", "http://0.0.0.0:8080",
		"http://127.0.0.1.example.com", "http://localhost.example.com", "ftp://127.0.0.1", "127.0.0.1:8080",
	} {
		err := run(context.Background(), []string{"-url", u, "-duration", "1s"}, noEnv, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil {
			t.Errorf("-url %s: got nil error, want a refusal", u)
		}
	}
}

func TestBoundedRun(t *testing.T) {
	for _, args := range [][]string{
		{"-duration", "61s"}, {"-duration", "0s"}, {"-concurrency", "0"}, {"-concurrency", "257"},
		{"-client-id", "someone"}, // no secret for a client other than demo
		{"-path", "no-slash"},
		{"-warmup", "10s"}, {"-warmup", "-1s"}, // the whole default run, or less than nothing
		{"-connections", "2001"}, {"-connections", "1500", "-duration", "21s"},
		{"-compare-url", "http://127.0.0.1:9"},                                              // comparisons are of token endpoints
		{"-token", "-compare-url", "http://192.0.2.1:9"},                                    // loopback only, there too
		{"-token", "-compare-url", "http://127.0.0.1:9", "-rounds", "4", "-duration", "8s"}, // 64 s of load
		{"-token", "-compare-url", "http://127.0.0.1:9", "-rounds", "0"},
	} {
		if _, err := parseConfig(args, noEnv, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: got nil error, want a refusal", args)
		}
	}
	c, err := parseConfig([]string{"-url", "http://localhost:9"}, noEnv, &bytes.Buffer{})
	if err != nil || c.duration.Seconds() != 10 || c.secret != "demo-secret" || len(c.paths) != 4 {
		t.Errorf("defaults: got %+v, %v; want 10s, the demo secret and the 4 default paths", c, err)
	}
	c, err = parseConfig([]string{"-client-id", "acme"}, func(k string) string {
		return map[string]string{"LOADTEST_CLIENT_SECRET": "s3cret"}[k]
	}, &bytes.Buffer{})
	if err != nil || c.secret != "s3cret" {
		t.Errorf("secret from the environment: got %q, %v; want s3cret", c.secret, err)
	}
}

// TestDrivesDataEndpoints runs the load against a fake server that counts
// what it receives: one token request, then data requests with the token,
// with a token renewal after a 401.
func TestDrivesDataEndpoints(t *testing.T) {
	var tokenCalls, dataCalls, refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/public-api/access-token":
			if r.Method != http.MethodPost || r.FormValue("client_id") != "demo" || r.FormValue("client_secret") != "demo-secret" {
				http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
				return
			}
			n := tokenCalls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"tok` + strconv.FormatInt(n, 10) + `","token_type":"bearer","expires_in":300}`))
		case strings.HasPrefix(r.URL.Path, "/generation/") || strings.HasPrefix(r.URL.Path, "/load/"):
			// The first token stops working after 50 requests.
			if r.Header.Get("Authorization") == "Bearer tok1" && dataCalls.Add(1) > 50 {
				refused.Add(1)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"result":{"message":"OK","status":"Completed"}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-url", srv.URL, "-duration", "300ms", "-concurrency", "2"}, noEnv, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if n := tokenCalls.Load(); n != 2 {
		t.Errorf("token requests: got %d, want 2 (one at the start, one renewal)", n)
	}
	m := regexp.MustCompile(`requests   (\d+) in`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no request count in the report:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n <= 50 {
		t.Errorf("requests: got %d, want more than the 50 before the renewal", n)
	}
	for _, want := range []string{"status     200:", "latency    p50 ", "errors     0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// tokenServer answers token requests with the demo credentials and counts them.
func tokenServer(t *testing.T, n *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public-api/access-token" || r.Method != http.MethodPost ||
			r.PostFormValue("client_id") != "demo" || r.PostFormValue("client_secret") != "demo-secret" || r.PostFormValue("grant_type") != "client_credentials" {
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		n.Add(1)
		_, _ = w.Write([]byte(`{"access_token":"t","token_type":"bearer","expires_in":300}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTokenModeComparesServersInTurn(t *testing.T) {
	var a, b atomic.Int64
	sa, sb := tokenServer(t, &a), tokenServer(t, &b)
	var out bytes.Buffer
	args := []string{"-token", "-url", sa.URL, "-compare-url", sb.URL, "-rounds", "2", "-duration", "100ms", "-concurrency", "2"}
	if err := run(context.Background(), args, noEnv, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if a.Load() == 0 || b.Load() == 0 {
		t.Fatalf("token requests: got %d and %d, want both servers driven", a.Load(), b.Load())
	}
	report := out.String()
	if got := strings.Count(report, "round "); got != 2 {
		t.Errorf("rounds reported: got %d, want 2:\n%s", got, report)
	}
	m := regexp.MustCompile(`ratio      ([0-9.]+)  \S+ (\d+)/s over \S+ (\d+)/s`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no ratio line in:\n%s", report)
	}
	ratio, _ := strconv.ParseFloat(m[1], 64)
	ra, _ := strconv.ParseFloat(m[2], 64)
	rb, _ := strconv.ParseFloat(m[3], 64)
	if d := ratio - ra/rb; d > 0.01 || d < -0.01 {
		t.Errorf("ratio %s: want %.0f/%.0f", m[1], ra, rb)
	}
}

// TestConnectionsModeOpensOneConnectionPerWorker drives a server that
// answers every other request 503, and checks that each worker kept a
// keep-alive connection of its own and that the report separates served
// answers from refused ones.
func TestConnectionsModeOpensOneConnectionPerWorker(t *testing.T) {
	var conns, n atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/public-api/access-token" {
			_, _ = w.Write([]byte(`{"access_token":"t","token_type":"bearer","expires_in":300}`))
			return
		}
		if n.Add(1)%2 == 0 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"result":{"message":"OK","status":"Completed"}}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	var out bytes.Buffer
	args := []string{"-url", srv.URL, "-connections", "5", "-backoff=false", "-duration", "300ms"}
	if err := run(context.Background(), args, noEnv, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	// One connection for the token, then one per worker, kept alive.
	if got := conns.Load(); got != 6 {
		t.Errorf("connections: got %d, want 6 (the token's and one per worker)", got)
	}
	for _, want := range []string{"5 connections", "served     ", "503        ", "errors     0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
