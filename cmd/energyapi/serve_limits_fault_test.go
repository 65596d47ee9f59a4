package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
)

// plainServe starts serve in this process and returns its base URL and its log.
func plainServe(tb testing.TB, env map[string]string, args ...string) (base string, log *apitest.Buffer) {
	tb.Helper()
	s := startServe(tb, env, args...)
	return s.base, s.stderr
}

func tokenStatus(tb testing.TB, base, id, secret string) (int, http.Header, string) {
	tb.Helper()
	resp, err := http.PostForm(base+"/public-api/access-token", url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tr)
	return resp.StatusCode, resp.Header, tr.AccessToken
}

func dataStatus(tb testing.TB, base, token string) (int, http.Header) {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/load/v2.0/peak-valley-load?dateFrom=02/01/2023&dateTo=02/01/2023", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

func scrapeMetrics(tb testing.TB, u string) map[string]float64 {
	tb.Helper()
	resp, err := http.Get(u)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.LastIndexByte(line, ' '); i > 0 && !strings.HasPrefix(line, "#") {
			if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
				out[line[:i]] = v
			}
		}
	}
	return out
}

// TestServeLimitsAndMetrics sets the limits the way an operator does (a
// flag, an environment variable, a default) and watches them act and show
// up in /metrics.
func TestServeLimitsAndMetrics(t *testing.T) {
	db := filepath.Join(t.TempDir(), "limits.db")
	fltRun(t, "import", "--db", db, "--dataset", "total-load", loadCSV(t, "load.csv", energy.Date{Year: 2023, Month: 1, Day: 1}, 3, 0))
	id, secret := fltClient(t, db)
	// The rate comes from the environment, the burst from a flag, the
	// failed-authentication limits are the defaults.
	base, _ := plainServe(t, map[string]string{"ENERGYAPI_RATE_LIMIT": "2/m"}, "--db", db, "--rate-burst", "2", "--max-header-bytes", "4096")

	// Failed authentications: the default of 10 a minute per client_id.
	for i := range 10 {
		if st, _, _ := tokenStatus(t, base, id, "wrong"); st != http.StatusUnauthorized {
			t.Fatalf("wrong secret %d: got %d, want 401", i+1, st)
		}
	}
	st, h, _ := tokenStatus(t, base, id, secret)
	if st != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
		t.Fatalf("11th attempt: got %d with Retry-After %q, want 429 with Retry-After", st, h.Get("Retry-After"))
	}
	// Another client, from the same address, is not locked out (100 a minute there).
	other, otherSecret := fltClient(t, db)
	st, _, tok := tokenStatus(t, base, other, otherSecret)
	if st != http.StatusOK {
		t.Fatalf("another client: got %d, want 200", st)
	}

	// Data requests: a burst of 2, then 2 a minute.
	for i := range 2 {
		if st, _ := dataStatus(t, base, tok); st != http.StatusOK {
			t.Fatalf("data request %d: got %d, want 200", i+1, st)
		}
	}
	st, h = dataStatus(t, base, tok)
	if secs, err := strconv.Atoi(h.Get("Retry-After")); st != http.StatusTooManyRequests || err != nil || secs < 1 || secs > 30 {
		t.Fatalf("3rd data request: got %d with Retry-After %q, want 429 and at most 30 s", st, h.Get("Retry-After"))
	}

	// Headers beyond --max-header-bytes are refused before any handler runs.
	const healthzOK = `energyapi_http_requests_total{route="GET /healthz",status="200"}`
	healthzBefore := scrapeMetrics(t, base+"/metrics")[healthzOK]
	req, _ := http.NewRequest(http.MethodGet, base+"/healthz", nil)
	req.Header.Set("X-Padding", strings.Repeat("p", 16<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("16 KiB header: got %d, want 431", resp.StatusCode)
	}

	m := scrapeMetrics(t, base+"/metrics")
	for key, want := range map[string]float64{
		`energyapi_tokens_issued_total`:                           1,
		`energyapi_tokens_refused_total{reason="invalid_client"}`: 10,
		`energyapi_tokens_refused_total{reason="rate_limited"}`:   1,
		`energyapi_rate_limited_requests_total{endpoint="data"}`:  1,
		`energyapi_rate_limited_requests_total{endpoint="token"}`: 1,
		`energyapi_import_runs_total{dataset="total-load"}`:       1,
		`energyapi_import_rows_total{dataset="total-load"}`:       3 * 96 * 8,
		`energyapi_store_up`:                1,
		`energyapi_http_requests_in_flight`: 1, // this scrape
	} {
		if got, ok := m[key]; !ok || got != want {
			t.Errorf("%s: got %v (present: %v), want %v", key, got, ok, want)
		}
	}
	// The oversized request never reached a handler, so no route counted it.
	if got := m[healthzOK]; got != healthzBefore {
		t.Errorf("/healthz answers counted: got %v, want %v as before the oversized request", got, healthzBefore)
	}
	if got := m[`energyapi_http_requests_total{route="GET /load/v2.0/peak-valley-load",status="429"}`]; got != 1 {
		t.Errorf("requests by route and status: got %v 429s on the peak-valley route, want 1", got)
	}
	if age, ok := m[`energyapi_data_age_seconds`]; !ok || age < 0 {
		t.Errorf("energyapi_data_age_seconds: got %v (present %v), want a non-negative age", age, ok)
	}
}

func TestServeHardeningFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "flags.db")
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"rate not N/unit", []string{"--rate-limit", "ten a second"}, nil, "rate"},
		{"rate unit from env", nil, map[string]string{"ENERGYAPI_RATE_LIMIT": "10/d"}, "ENERGYAPI_RATE_LIMIT"},
		{"burst 0", []string{"--rate-limit", "10/s", "--rate-burst", "0"}, nil, "--rate-burst"},
		{"negative in-flight from env", nil, map[string]string{"ENERGYAPI_MAX_IN_FLIGHT": "-1"}, "--max-in-flight"},
		{"deadline not below write timeout", []string{"--request-timeout", "30s", "--write-timeout", "30s"}, nil, "--request-timeout"},
		{"negative queue", []string{"--max-queue", "-1"}, nil, "--max-queue"},
		{"queue budget not below the deadline", []string{"--queue-timeout", "15s"}, nil, "--queue-timeout"},
		{"negative queue target from env", nil, map[string]string{"ENERGYAPI_QUEUE_TARGET": "-5ms"}, "--queue-target"},
		{"tiny header limit", []string{"--max-header-bytes", "100"}, nil, "--max-header-bytes"},
		{"auth limit not N/unit", []string{"--auth-fail-per-client-addr", "many"}, nil, "rate"},
		{"deprecated auth limit not N/unit", []string{"--auth-fail-per-client", "many"}, nil, "rate"},
		{"no streams per address", []string{"--streams-per-addr", "0"}, nil, "--streams-per-addr"},
		{"no stream write timeout from env", nil, map[string]string{"ENERGYAPI_STREAM_WRITE_TIMEOUT": "0s"}, "--stream-write-timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, tt.args...)
			err := run(context.Background(), args, func(k string) string { return tt.env[k] }, strings.NewReader(""), &out, &errOut)
			if err == nil || !strings.Contains(err.Error()+errOut.String(), tt.want) {
				t.Errorf("got %v (%s), want an error naming %q", err, errOut.String(), tt.want)
			}
		})
	}
	cfg, err := parseServeFlags(nil, func(string) string { return "" }, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	h := cfg.hard
	if !h.rateLimit.IsZero() || h.authFailPerPair.String() != "10/m" || h.authFailPerAddr.String() != "100/m" ||
		h.maxInFlight != 512 || h.maxQueue != 1024 || h.queueTimeout != 100*time.Millisecond || h.queueTarget != 5*time.Millisecond ||
		h.requestTimeout != 15*time.Second || h.maxHeaderBytes != 16<<10 || h.trustProxy || h.metricsAddr != "" ||
		h.streamsPerAddr != 10 || h.streamWrite != 10*time.Second {
		t.Errorf("defaults: got %+v", h)
	}
	cfg, err = parseServeFlags(nil, func(k string) string {
		return map[string]string{"ENERGYAPI_RATE_LIMIT": "600/m", "ENERGYAPI_AUTH_FAIL_PER_ADDR": "0", "ENERGYAPI_TRUST_PROXY_HEADERS": "true",
			"ENERGYAPI_STREAMS_PER_ADDR": "3", "ENERGYAPI_STREAM_WRITE_TIMEOUT": "2s"}[k]
	}, &strings.Builder{})
	if err != nil || cfg.hard.rateLimit.String() != "600/m" || !cfg.hard.authFailPerAddr.IsZero() || !cfg.hard.trustProxy ||
		cfg.hard.streamsPerAddr != 3 || cfg.hard.streamWrite != 2*time.Second {
		t.Errorf("from the environment: got %+v, %v", cfg.hard, err)
	}
	// The deprecated name still sets the limit, unless the new one is given.
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--auth-fail-per-client", "3/m"}, nil, "3/m"},
		{nil, map[string]string{"ENERGYAPI_AUTH_FAIL_PER_CLIENT": "4/m"}, "4/m"},
		{[]string{"--auth-fail-per-client-addr", "5/m"}, map[string]string{"ENERGYAPI_AUTH_FAIL_PER_CLIENT": "4/m"}, "5/m"},
		{[]string{"--auth-fail-per-client", "3/m"}, map[string]string{"ENERGYAPI_AUTH_FAIL_PER_CLIENT_ADDR": "6/m"}, "6/m"},
	} {
		cfg, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, &strings.Builder{})
		if err != nil || cfg.hard.authFailPerPair.String() != tt.want {
			t.Errorf("%v with %v: got %s (%v), want %s per client_id and address", tt.args, tt.env, cfg.hard.authFailPerPair, err, tt.want)
		}
	}
}

// TestServeDropsSlowHeaders holds a connection open with half a request's
// headers (slowloris): --read-header-timeout must close it rather than keep
// a connection and its goroutine for as long as the client likes.
func TestServeDropsSlowHeaders(t *testing.T) {
	db := filepath.Join(t.TempDir(), "slow.db")
	fltRun(t, "init", "--db", db)
	base, _ := plainServe(t, nil, "--db", db, "--read-header-timeout", "200ms")
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	// A bound on the wait, far above the timeout, so that a server that
	// never closes fails the test instead of hanging it.
	if err := conn.SetReadDeadline(time.Now().Add(testwait.Scale(30 * time.Second))); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection was still open after 30 s")
	}
	if strings.Contains(string(b), `"status":"ok"`) {
		t.Errorf("got an answer to an incomplete request: %q", b)
	}
}

// TestServeStreamsPerAddr: with --streams-per-addr 2, 127.0.0.2 holds two
// update streams, its third is refused with 429 and Retry-After, and
// 127.0.0.1 is still served.
func TestServeStreamsPerAddr(t *testing.T) {
	db := filepath.Join(t.TempDir(), "streams.db")
	fltRun(t, "init", "--db", db)
	base, _ := plainServe(t, nil, "--db", db, "--streams-per-addr", "2")
	stream := func(ip string) int {
		t.Helper()
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 30 * time.Second}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/updates/stream", nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode == http.StatusOK {
			// The opening comment: the server counts the stream by now.
			if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
				t.Fatalf("stream of %s: %q, %v", ip, line, err)
			}
		} else if resp.Header.Get("Retry-After") == "" {
			t.Errorf("stream of %s refused with %d without Retry-After", ip, resp.StatusCode)
		}
		return resp.StatusCode
	}
	for i, want := range []int{200, 200, 429} {
		if got := stream("127.0.0.2"); got != want {
			t.Errorf("stream %d of 127.0.0.2: got %d, want %d", i+1, got, want)
		}
	}
	if got := stream("127.0.0.1"); got != 200 {
		t.Errorf("stream of 127.0.0.1: got %d, want 200", got)
	}
}
