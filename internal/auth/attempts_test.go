package auth_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
)

// scriptedGuard allows while allow is true, and records the failures it
// is told of as client ID and address.
type scriptedGuard struct {
	allow  bool
	failed []string
}

func (g *scriptedGuard) Allow(string, string) (time.Duration, bool) {
	return 1500 * time.Millisecond, g.allow
}
func (g *scriptedGuard) Failed(id, remote string) { g.failed = append(g.failed, id+"@"+remote) }

// TestSelfServiceGuard: the operator endpoint counts a wrong token, not a
// request without one, and refuses an address the guard stops before
// comparing its token (the right one too); the client-credential
// endpoints count a wrong secret against the client from the address, and
// the log learns why, never the secret.
func TestSelfServiceGuard(t *testing.T) {
	e := newEnv(t)
	c, _, err := e.reg.Create(t.Context(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.reg.Load(t.Context()); err != nil { // the table tells registered IDs
		t.Fatal(err)
	}
	const operator = "operator-token-0123456789"
	g := &scriptedGuard{allow: true}
	var noted []string
	s := &auth.SelfService{Mode: auth.RegistrationOpen, Registry: e.reg, Tokens: e.tokens, OperatorToken: operator,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Guard: g,
		Remote: func(*http.Request) string { return "192.0.2.1" },
		LogAttrs: func(_ *http.Request, attrs ...slog.Attr) {
			for _, a := range attrs {
				noted = append(noted, a.String())
			}
		}}
	mux := http.NewServeMux()
	mux.Handle("GET /operator/clients", s.HandleOperatorClients())
	mux.Handle("POST /developers/app/rotate-secret", s.HandleRotate())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	send := func(method, path, authz, body string) (int, http.Header) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	for _, tc := range []struct {
		name, method, path, authz, body string
		allow                           bool
		status                          int
		failed                          []string
		noted                           string
	}{
		{"no token", "GET", "/operator/clients", "", "", true, 401, nil, "reason=invalid_token: missing_token"},
		{"wrong token", "GET", "/operator/clients", "Bearer wrong-guess-000", "", true, 401, []string{"@192.0.2.1"}, "reason=invalid_token: wrong_operator_token"},
		{"right token", "GET", "/operator/clients", "Bearer " + operator, "", true, 200, nil, ""},
		{"right token, limited", "GET", "/operator/clients", "Bearer " + operator, "", false, 429, nil, "reason=rate_limited: Too many failed authentications; retry later"},
		{"wrong secret", "POST", "/developers/app/rotate-secret", "", url.Values{"client_id": {c.ID}, "client_secret": {"wrong-guess-000"}}.Encode(), true, 401,
			[]string{c.ID + "@192.0.2.1"}, "reason=invalid_client: wrong_secret client_id=" + c.ID},
		{"secret, limited", "POST", "/developers/app/rotate-secret", "", url.Values{"client_id": {c.ID}, "client_secret": {"wrong-guess-000"}}.Encode(), false, 429,
			nil, "reason=rate_limited: Too many failed authentications; retry later client_id=" + c.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g.allow, g.failed, noted = tc.allow, nil, nil
			st, h := send(tc.method, tc.path, tc.authz, tc.body)
			if st != tc.status {
				t.Errorf("status: got %d, want %d", st, tc.status)
			}
			if st == 429 && h.Get("Retry-After") != "2" {
				t.Errorf("Retry-After: got %q, want 2 (1.5 s rounded up)", h.Get("Retry-After"))
			}
			if strings.Join(g.failed, ",") != strings.Join(tc.failed, ",") {
				t.Errorf("failures told to the guard: got %q, want %q", g.failed, tc.failed)
			}
			if got := strings.Join(noted, " "); got != tc.noted {
				t.Errorf("noted for the log: got %q, want %q", got, tc.noted)
			}
			if strings.Contains(strings.Join(noted, " "), "wrong-guess") {
				t.Error("the log holds the secret")
			}
		})
	}
}
