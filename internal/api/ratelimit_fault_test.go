package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/limit"
)

const (
	limThermoPath = "/generation/v2.0/thermoelectric-production?year=2023"
	limPVPath     = "/load/v2.0/peak-valley-load?dateFrom=01/01/2024&dateTo=02/01/2024"
)

// limServer is the real server (apitest) with two more clients, "alpha" and
// "beta", whose options a test adjusts, on a clock the test controls.
type limServer struct {
	srv   *apitest.Server
	clock *apitest.Clock
	log   *apitest.Buffer
}

var limClients = map[string]string{"alpha": "alpha-secret-0123456789", "beta": "beta-secret-0123456789"}

func newLimServer(tb testing.TB, adjust func(o *api.Options, clk *apitest.Clock)) *limServer {
	tb.Helper()
	s := &limServer{clock: apitest.NewClock(time.Now()), log: &apitest.Buffer{}}
	s.srv = apitest.NewServer(tb, apitest.Options{
		Now: s.clock.Now, Log: s.log, Clients: limClients, LogLevel: slog.LevelDebug,
		Adjust: func(o *api.Options) {
			if adjust != nil {
				adjust(o, s.clock)
			}
		},
	})
	return s
}

func (s *limServer) logs() string { return s.log.String() }

type limAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (s *limServer) do(tb testing.TB, req *http.Request) limAnswer {
	tb.Helper()
	a := apitest.Do(tb, nil, req)
	return limAnswer{a.Status, a.Header, a.Body}
}

func (s *limServer) tokenRequest(tb testing.TB, id, secret string) limAnswer {
	tb.Helper()
	form := url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}}
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/public-api/access-token", strings.NewReader(form.Encode()))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return s.do(tb, req)
}

func (s *limServer) token(tb testing.TB, id string) string {
	tb.Helper()
	a := s.tokenRequest(tb, id, limClients[id])
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(a.body, &tr); err != nil || a.status != http.StatusOK {
		tb.Fatalf("token for %s: %d %s", id, a.status, a.body)
	}
	return tr.AccessToken
}

func (s *limServer) get(tb testing.TB, path, token string) limAnswer {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, s.srv.URL+path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.do(tb, req)
}

// countingRecorder counts rate-limited answers by endpoint.
type countingRecorder struct {
	mu      sync.Mutex
	limited map[string]int
}

func (c *countingRecorder) ObserveRequest(string, int, time.Duration) {}
func (c *countingRecorder) InFlight(int)                              {}
func (c *countingRecorder) RateLimited(e string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limited[e]++
}

func TestDataRateLimitPerClient(t *testing.T) {
	rec := &countingRecorder{limited: map[string]int{}}
	s := newLimServer(t, func(o *api.Options, clk *apitest.Clock) {
		o.Limits.RateLimit = limit.NewLimiter(limit.Rate{N: 1, Per: time.Minute}, 2, 100, clk.Now)
		o.Observability.Metrics = rec
	})
	alpha, beta := s.token(t, "alpha"), s.token(t, "beta")
	for i, path := range []string{limThermoPath, limPVPath} { // the burst covers every data endpoint
		if a := s.get(t, path, alpha); a.status != http.StatusOK {
			t.Fatalf("request %d within the burst: got %d %s, want 200", i+1, a.status, a.body)
		}
	}
	a := s.get(t, limPVPath, alpha)
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("3rd request: got %d %s, want 429", a.status, a.body)
	}
	if got := a.header.Get("Retry-After"); got != "60" {
		t.Errorf("Retry-After: got %q, want 60 (one request a minute)", got)
	}
	var env struct {
		Result struct{ Message, Status string } `json:"result"`
	}
	if err := json.Unmarshal(a.body, &env); err != nil || env.Result.Status != "ERROR" || !strings.Contains(env.Result.Message, "Too many requests") {
		t.Errorf("429 body: got %s, want the result envelope with status ERROR", a.body)
	}
	// Other clients have their own allowance; tokens and bad tokens are not
	// counted against the data rate.
	if a := s.get(t, limThermoPath, beta); a.status != http.StatusOK {
		t.Errorf("another client: got %d, want 200", a.status)
	}
	if a := s.get(t, limThermoPath, ""); a.status != http.StatusUnauthorized {
		t.Errorf("no token: got %d, want 401 before any rate limit", a.status)
	}
	s.token(t, "alpha")
	s.clock.Advance(time.Minute)
	if a := s.get(t, limThermoPath, alpha); a.status != http.StatusOK {
		t.Errorf("a minute later: got %d, want 200", a.status)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.limited["data"] != 1 {
		t.Errorf("rate-limited data requests recorded: got %d, want 1", rec.limited["data"])
	}
}

func TestFailedAuthenticationLimit(t *testing.T) {
	var outcomes []auth.TokenOutcome
	var mu sync.Mutex
	s := newLimServer(t, func(o *api.Options, clk *apitest.Clock) {
		o.Auth.FailureGuard = limit.NewFailureGuard(limit.Rate{N: 3, Per: time.Minute}, limit.Rate{N: 5, Per: time.Minute}, 100, clk.Now)
		o.Observability.ObserveToken = func(out auth.TokenOutcome) {
			mu.Lock()
			defer mu.Unlock()
			outcomes = append(outcomes, out)
		}
	})
	for i := range 3 {
		if a := s.tokenRequest(t, "alpha", "wrong"); a.status != http.StatusUnauthorized {
			t.Fatalf("wrong secret %d: got %d, want 401", i+1, a.status)
		}
	}
	// alpha is now locked out from this address for a while, even with the
	// right secret (from another address it would not be).
	a := s.tokenRequest(t, "alpha", limClients["alpha"])
	if a.status != http.StatusTooManyRequests {
		t.Fatalf("after 3 failures: got %d %s, want 429", a.status, a.body)
	}
	// The three failures fill the first minute's window; the estimate falls
	// below the limit just after it ends, and whole seconds round that up.
	if got := a.header.Get("Retry-After"); got != "61" {
		t.Errorf("Retry-After: got %q, want 61", got)
	}
	if got := a.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control: got %q, want no-store", got)
	}
	var oe map[string]string
	if err := json.Unmarshal(a.body, &oe); err != nil || oe["error"] != "invalid_client" || oe["error_description"] == "" || len(oe) != 2 {
		t.Errorf("429 body: got %s, want RFC 6749 JSON with error invalid_client", a.body)
	}
	// Malformed requests are not authentication failures and do not count.
	for range 10 {
		if a := s.tokenRequest(t, "", ""); a.status != http.StatusBadRequest {
			t.Fatalf("malformed request: got %d, want 400", a.status)
		}
	}
	// beta, from the same address (4 failures left there), still gets a token.
	if a := s.tokenRequest(t, "beta", limClients["beta"]); a.status != http.StatusOK {
		t.Errorf("another client from the same address: got %d %s, want 200", a.status, a.body)
	}
	// Two more failures by other IDs exhaust the address: everyone there waits.
	s.tokenRequest(t, "nobody-1", "x")
	s.tokenRequest(t, "nobody-2", "x")
	if a := s.tokenRequest(t, "beta", limClients["beta"]); a.status != http.StatusTooManyRequests {
		t.Errorf("address over its limit: got %d, want 429", a.status)
	}
	s.clock.Advance(2*time.Minute + time.Second)
	if a := s.tokenRequest(t, "alpha", limClients["alpha"]); a.status != http.StatusOK {
		t.Errorf("after the windows passed: got %d %s, want 200", a.status, a.body)
	}
	mu.Lock()
	defer mu.Unlock()
	count := map[auth.TokenOutcome]int{}
	for _, o := range outcomes {
		count[o]++
	}
	want := map[auth.TokenOutcome]int{auth.InvalidClient: 5, auth.RateLimited: 2, auth.InvalidRequest: 10, auth.Issued: 2}
	for o, n := range want {
		if count[o] != n {
			t.Errorf("outcome %s observed %d times, want %d (all: %v)", o, count[o], n, count)
		}
	}
}
