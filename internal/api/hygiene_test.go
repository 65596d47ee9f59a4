package api_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/limit"
)

// TestEveryAnswerCarriesNosniff covers the answers that no endpoint handler
// writes itself (the mux's 404 and 405, the token endpoint's own 405, 401
// from the bearer check, 429 from the rate limit) as well as ordinary ones:
// all of them must forbid MIME sniffing and name no server software.
func TestEveryAnswerCarriesNosniff(t *testing.T) {
	s := newLimServer(t, func(o *api.Options, clk *apitest.Clock) {
		o.Limits.RateLimit = limit.NewLimiter(limit.Rate{N: 1, Per: time.Hour}, 1, 100, clk.Now)
		o.Observability.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("# metrics\n")) })
	})
	tok := s.token(t, "alpha")
	req := func(method, path, token string, headers ...string) *http.Request {
		r, err := http.NewRequest(method, s.srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		return r
	}
	for _, tt := range []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"data 200", req("GET", limThermoPath, tok), http.StatusOK},
		{"data 429", req("GET", limThermoPath, tok), http.StatusTooManyRequests},
		{"data 401", req("GET", limThermoPath, ""), http.StatusUnauthorized},
		{"data 406", req("GET", limPVPath, tok, "Accept", "text/html"), http.StatusNotAcceptable},
		{"unknown path 404", req("GET", "/no/such/path", ""), http.StatusNotFound},
		{"wrong method 405", req("POST", "/healthz", ""), http.StatusMethodNotAllowed},
		{"data wrong method 405", req("DELETE", "/load/v2.0/peak-valley-load", tok), http.StatusMethodNotAllowed},
		{"token endpoint 405", req("GET", "/public-api/access-token", ""), http.StatusMethodNotAllowed},
		{"token endpoint 400", req("POST", "/public-api/access-token", ""), http.StatusBadRequest},
		{"healthz 200", req("GET", "/healthz", ""), http.StatusOK},
		{"metrics 200", req("GET", "/metrics", ""), http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := s.do(t, tt.req)
			if a.status != tt.status {
				t.Fatalf("status: got %d, want %d (body %s)", a.status, tt.status, a.body)
			}
			if got := a.header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options: got %q, want nosniff", got)
			}
			if got, ok := a.header["Server"]; ok {
				t.Errorf("Server header: got %q, want none", got)
			}
			if a.header.Get("X-Request-Id") == "" {
				t.Error("X-Request-Id: missing")
			}
		})
	}
}

// TestCredentialsStayOutOfLogsAndErrors runs a session of good and bad
// requests with the log at debug level and looks for every secret and token
// that crossed the wire in the log and in every error body.
func TestCredentialsStayOutOfLogsAndErrors(t *testing.T) {
	s := newLimServer(t, nil)
	tok := s.token(t, "alpha")
	secrets := []string{limClients["alpha"], limClients["beta"], tok, "wrong-secret-guess-42"}
	var errorBodies []string
	keep := func(a limAnswer) {
		if a.status >= 400 {
			errorBodies = append(errorBodies, string(a.body))
		}
	}
	keep(s.tokenRequest(t, "alpha", "wrong-secret-guess-42"))
	keep(s.tokenRequest(t, "wrong-secret-guess-42", limClients["beta"]))
	for _, authz := range []string{
		"Basic " + base64.StdEncoding.EncodeToString([]byte("alpha:wrong-secret-guess-42")),
		"Basic " + base64.StdEncoding.EncodeToString([]byte("beta:"+limClients["beta"])) + "x",
	} {
		r, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/public-api/access-token", strings.NewReader("grant_type=client_credentials&client_secret="+limClients["alpha"]))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Authorization", authz)
		keep(s.do(t, r))
	}
	keep(s.get(t, limThermoPath, tok))
	keep(s.get(t, limThermoPath, tok[:len(tok)-3]))        // a damaged token
	keep(s.get(t, limThermoPath+"&access_token="+tok, "")) // a token in the URL is not read, nor logged
	s.clock.Advance(301 * time.Second)
	keep(s.get(t, limPVPath, tok)) // expired

	if len(errorBodies) < 7 {
		t.Fatalf("got %d error answers, want at least 7: the session did not exercise the failures", len(errorBodies))
	}
	logs := s.logs()
	if !strings.Contains(logs, `"client_id":"alpha"`) {
		t.Fatalf("the log does not name the client; is it capturing the session?\n%s", logs)
	}
	for _, secret := range secrets {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %q", secret)
		}
		for _, b := range errorBodies {
			if strings.Contains(b, secret) {
				t.Errorf("error body %s holds %q", b, secret)
			}
		}
	}
}
