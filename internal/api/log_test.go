package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/auth"
)

// logLines returns the server's JSON log lines.
func logLines(tb testing.TB, log string) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			tb.Fatalf("log line %q is not JSON: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// requestLine returns the request log line whose X-Request-Id is id.
func requestLine(tb testing.TB, log, id string) map[string]any {
	tb.Helper()
	for _, m := range logLines(tb, log) {
		if m["msg"] == "request" && m["req_id"] == id {
			return m
		}
	}
	tb.Fatalf("no request line with req_id %s in:\n%s", id, log)
	return nil
}

func TestRequestLogNamesRemoteAddressAndUserAgent(t *testing.T) {
	h := newHarness(t, thermoData())
	long := strings.Repeat("é", 300) // 600 bytes: cut to 256, on a character boundary
	for _, tc := range []struct {
		name, ua, want string
	}{
		{"plain", "energyapi-client/1.0 (+https://example.org)", "energyapi-client/1.0 (+https://example.org)"},
		{"long", long, strings.Repeat("é", 128)},
		{"absent", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Go's client sends its own User-Agent unless given an empty one.
			req, err := http.NewRequest(http.MethodGet, h.srv.URL+thermoPath+"?year=2023", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+h.token)
			req.Header["User-Agent"] = []string{tc.ua}
			resp, err := h.client(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status: got %d, want 200", resp.StatusCode)
			}
			m := requestLine(t, h.logBuf.String(), resp.Header.Get("X-Request-Id"))
			if m["remote_addr"] != "127.0.0.1" {
				t.Errorf("remote_addr: got %v, want 127.0.0.1", m["remote_addr"])
			}
			got, present := m["user_agent"]
			switch {
			case tc.want == "" && present:
				t.Errorf("user_agent: got %v, want the field absent", got)
			case tc.want != "" && got != tc.want:
				t.Errorf("user_agent: got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFailedTokenRequestsLogClientAndReason(t *testing.T) {
	s := newLimServer(t, nil)
	post := func(body string) limAnswer {
		req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/public-api/access-token", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return s.do(t, req)
	}
	form := func(id, secret string) string {
		return url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}}.Encode()
	}
	fingerprint := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:8])
	}
	const guess = "wrong-secret-guess-42"
	for _, tc := range []struct {
		name       string
		body       string
		status     int
		wantID     string // client_id in the line, or ""
		wantHash   string // client_id_hash in the line, or ""
		wantReason string
	}{
		{"wrong secret", form("alpha", guess), http.StatusUnauthorized, "alpha", "", "invalid_client: wrong_secret"},
		{"unknown client", form("no-such-client", guess), http.StatusUnauthorized, "", fingerprint("no-such-client"), "invalid_client: unknown_client"},
		{"secret sent as the client_id", form(limClients["beta"], limClients["beta"]), http.StatusUnauthorized, "", fingerprint(limClients["beta"]), "invalid_client: unknown_client"},
		{"missing grant type", "client_id=alpha&client_secret=x", http.StatusBadRequest, "alpha", "", "invalid_request: Missing parameter grant_type"},
		{"unsupported grant", "client_id=beta&client_secret=x&grant_type=password", http.StatusBadRequest, "beta", "", "unsupported_grant_type: grant_type must be client_credentials"},
		{"no credentials", "grant_type=client_credentials", http.StatusBadRequest, "", "", "invalid_request: Missing parameter client_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := post(tc.body)
			if a.status != tc.status {
				t.Fatalf("status: got %d, want %d (%s)", a.status, tc.status, a.body)
			}
			m := requestLine(t, s.logs(), a.header.Get("X-Request-Id"))
			if m["reason"] != tc.wantReason {
				t.Errorf("reason: got %v, want %q", m["reason"], tc.wantReason)
			}
			if got, _ := m["client_id"].(string); got != tc.wantID {
				t.Errorf("client_id: got %q, want %q", got, tc.wantID)
			}
			if got, _ := m["client_id_hash"].(string); got != tc.wantHash {
				t.Errorf("client_id_hash: got %q, want %q", got, tc.wantHash)
			}
		})
	}
	// A successful request names its client and gives no reason.
	a := s.tokenRequest(t, "alpha", limClients["alpha"])
	m := requestLine(t, s.logs(), a.header.Get("X-Request-Id"))
	if a.status != http.StatusOK || m["client_id"] != "alpha" || m["reason"] != nil {
		t.Errorf("issued token: got %d, line %v; want 200, client_id alpha and no reason", a.status, m)
	}
	for _, secret := range []string{limClients["alpha"], limClients["beta"], guess} {
		if strings.Contains(s.logs(), secret) {
			t.Errorf("the log holds the secret %q", secret)
		}
	}
	if auth.Fingerprint("no-such-client") != fingerprint("no-such-client") {
		t.Error("auth.Fingerprint differs from the documented SHA-256 prefix")
	}
}
