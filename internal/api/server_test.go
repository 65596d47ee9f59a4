package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestDataEndpointsRequireToken(t *testing.T) {
	h := newHarness(t, thermoData())
	for _, path := range []string{thermoPath + "?year=2023", peakValleyPath + "?dateFrom=1/1/2024&dateTo=1/1/2024"} {
		t.Run(path, func(t *testing.T) {
			r := h.get(t, path, "Authorization", "")
			wantError(t, r, http.StatusUnauthorized, "access token")
			if got := r.header.Get("WWW-Authenticate"); got != `Bearer realm="energyapi"` {
				t.Errorf("WWW-Authenticate: got %q, want %q", got, `Bearer realm="energyapi"`)
			}
			r = h.get(t, path, "Authorization", "Bearer not.a.token")
			wantError(t, r, http.StatusUnauthorized)
			if got := r.header.Get("WWW-Authenticate"); !strings.Contains(got, `error="invalid_token"`) {
				t.Errorf("WWW-Authenticate: got %q, want error=\"invalid_token\"", got)
			}
			if r := h.get(t, path, "Authorization", h.token); r.status != http.StatusOK {
				t.Errorf("bare token: got %d, want 200", r.status)
			}
		})
	}
}

func TestExpiredTokenThroughAPI(t *testing.T) {
	h := newHarness(t, thermoData())
	h.clock.Advance(300 * time.Second)
	r := h.get(t, thermoPath+"?year=2023")
	wantError(t, r, http.StatusUnauthorized)
	if got := r.header.Get("WWW-Authenticate"); !strings.Contains(got, `error="invalid_token"`) {
		t.Errorf("WWW-Authenticate: got %q, want error=\"invalid_token\"", got)
	}
}

func TestCommonHeadersAndLog(t *testing.T) {
	h := newHarness(t, thermoData())
	const bid = "3f1e2d4c-5b6a-4789-8abc-def012345678"
	r := h.get(t, thermoPath+"?year=2023", "businessID", bid)
	if got := r.header.Get("businessID"); got != bid {
		t.Errorf("businessID echo: got %q, want %q", got, bid)
	}
	if got := r.header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options: got %q, want nosniff", got)
	}
	if r.header.Get("X-Request-Id") == "" {
		t.Error("X-Request-Id: missing")
	}
	if got := r.header.Get("Server"); got != "" {
		t.Errorf("Server: got %q, want no server header", got)
	}
	// The request's log line names the client, the businessID and the request id.
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(h.logBuf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if m["path"] == thermoPath && m["business_id"] == bid {
			found = true
			if m["client_id"] != testClientID || m["req_id"] != r.header.Get("X-Request-Id") || m["status"] != float64(200) || m["method"] != "GET" {
				t.Errorf("log line: got %v, want client_id, req_id, status 200 and method", m)
			}
			if m["route"] != "GET "+thermoPath {
				t.Errorf("log line route: got %v, want %q", m["route"], "GET "+thermoPath)
			}
			if _, ok := m["duration_ms"].(float64); !ok {
				t.Errorf("log line: got %v, want a duration", m)
			}
		}
	}
	if !found {
		t.Errorf("no log line for the request in:\n%s", h.logBuf.String())
	}
	if strings.Contains(h.logBuf.String(), h.token) || strings.Contains(h.logBuf.String(), testClientSecret) {
		t.Error("the log holds a token or a client secret")
	}
}

func TestHealthReadyJWKS(t *testing.T) {
	h := newHarness(t, thermoData())
	for _, path := range []string{"/healthz", "/readyz"} {
		if r := h.get(t, path, "Authorization", ""); r.status != http.StatusOK {
			t.Errorf("%s: got %d, want 200", path, r.status)
		}
	}
	r := h.get(t, "/.well-known/jwks.json", "Authorization", "")
	var jwks struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(r.body, &jwks); err != nil || r.status != 200 {
		t.Fatalf("jwks: %d %v", r.status, err)
	}
	if len(jwks.Keys) != 1 || jwks.Keys[0]["kty"] != "OKP" || jwks.Keys[0]["crv"] != "Ed25519" || jwks.Keys[0]["alg"] != "EdDSA" {
		t.Errorf("jwks: got %v, want one Ed25519 key", jwks.Keys)
	}
}

// TestRoutingAsTheMuxRoutes: requests for fixed GET paths, which the
// server finds in a map before its mux, are answered and labelled (the
// log line's route) as the mux answers and labels them, in every form the
// mux treats apart: other methods, paths to clean, escapes of their own.
func TestRoutingAsTheMuxRoutes(t *testing.T) {
	h := newHarness(t, thermoData())
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		method, path string
		status       int
		route        string
	}{
		{http.MethodGet, "/healthz", http.StatusOK, "GET /healthz"},
		{http.MethodHead, "/healthz", http.StatusOK, "GET /healthz"},
		{http.MethodPost, "/healthz", http.StatusMethodNotAllowed, "/healthz"},
		{http.MethodGet, "/healthz/", http.StatusNotFound, "/"},
		{http.MethodGet, "/heal%74hz", http.StatusOK, "GET /healthz"},
		{http.MethodGet, "/x/../healthz", http.StatusTemporaryRedirect, "GET /healthz"},
		{http.MethodGet, thermoPath + "?year=2023", http.StatusOK, "GET " + thermoPath},
		{http.MethodGet, "/generation%2Fv2.0/thermoelectric-production?year=2023", http.StatusNotFound, "/"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, h.srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Opaque = "//" + req.URL.Host + strings.SplitN(tc.path, "?", 2)[0] // as written, uncleaned
			req.Header.Set("Authorization", "Bearer "+h.token)
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			m := requestLine(t, h.logBuf.String(), resp.Header.Get("X-Request-Id"))
			if resp.StatusCode != tc.status || m["route"] != tc.route {
				t.Errorf("got %d, route %v; want %d, route %q", resp.StatusCode, m["route"], tc.status, tc.route)
			}
		})
	}
}
