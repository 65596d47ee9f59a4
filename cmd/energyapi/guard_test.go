package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// guardSecret is the wrong credential every guarded path is sent: the test
// checks that no log line holds it.
const guardSecret = "guess-7f3a91c2e4b85d60-not-the-secret"

// guardedPath is a path that checks a credential, and how to fail there.
type guardedPath struct {
	name    string
	send    func(tb testing.TB, hc *http.Client, base string, c createdClient) *http.Response // a wrong credential
	code    string                                                                            // the OAuth error of its 401 and 429; "" for the result envelope
	reason  string                                                                            // the log's reason for the 401
	namesID bool                                                                              // its log lines name the client
}

// sendForm posts a client's ID with the wrong secret to path.
func sendForm(path string, extra url.Values) func(testing.TB, *http.Client, string, createdClient) *http.Response {
	return func(tb testing.TB, hc *http.Client, base string, c createdClient) *http.Response {
		form := url.Values{"client_id": {c.ClientID}, "client_secret": {guardSecret}}
		for k, v := range extra {
			form[k] = v
		}
		return sendRequest(tb, hc, http.MethodPost, base+path, "application/x-www-form-urlencoded", "", form.Encode())
	}
}

// sendBearer sends the wrong secret as the bearer token of path.
func sendBearer(method, path, ctype, body string) func(testing.TB, *http.Client, string, createdClient) *http.Response {
	return func(tb testing.TB, hc *http.Client, base string, _ createdClient) *http.Response {
		return sendRequest(tb, hc, method, base+path, ctype, "Bearer "+guardSecret, body)
	}
}

// sendRequest sends one request through hc; the response body is the
// caller's to close.
func sendRequest(tb testing.TB, hc *http.Client, method, url, ctype, authz, body string) *http.Response {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	return resp
}

// TestFailedAuthenticationGuardedEverywhere: every path that checks a
// credential (a client secret, the operator token, an initial access
// token, the sandbox admin token) meets the token endpoint's guard, with
// the same counts: failures from 127.0.0.1 are refused past the limit
// (429 with Retry-After, in the path's own error shape), and then so is
// the token endpoint from that address; 127.0.0.2 is not affected. Each
// refusal's log line says why and names the client, never the secret.
func TestFailedAuthenticationGuardedEverywhere(t *testing.T) {
	t.Parallel()
	for _, p := range []guardedPath{
		{"revoke", sendForm("/revoke", url.Values{"token": {"x"}}), "invalid_client", "invalid_client: wrong_secret", true},
		{"rotate-secret", sendForm("/developers/app/rotate-secret", nil), "invalid_client", "invalid_client: wrong_secret", true},
		{"delete", sendForm("/developers/app/delete", nil), "invalid_client", "invalid_client: wrong_secret", true},
		{"introspect", sendBearer("POST", "/introspect", "application/x-www-form-urlencoded", "token=x"), "invalid_token", "invalid_token: wrong_operator_token", false},
		{"operator", sendBearer("GET", "/operator/clients", "", ""), "invalid_token", "invalid_token: wrong_operator_token", false},
		{"register", sendBearer("POST", "/register", "application/json", `{"client_name":"x"}`), "invalid_token", "invalid_token: wrong_initial_access_token", false},
		{"sandbox admin", sendBearer("GET", "/sandbox/rules", "", ""), "", "invalid_token: wrong_admin_token", false},
	} {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			checkGuarded(t, p)
		})
	}
}

// guardedServe starts serve with every guarded path on, a limit of 3
// failures per address and per client and address, and returns it with a
// client.
func guardedServe(t *testing.T) (*server, createdClient) {
	t.Helper()
	env := sqliteEnv(t)
	c := createClient(t, env, "--name", "guarded")
	initial := filepath.Join(t.TempDir(), "initial-tokens")
	if err := os.WriteFile(initial, []byte("initial-access-token-0001\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append(operatorFlags(t, "open"), "--initial-access-token-file", initial,
		"--sandbox", "--sandbox-admin-token", "sandbox-admin-token-0001",
		"--auth-fail-per-addr", "3/m", "--auth-fail-per-client-addr", "3/m", "--log-format", "json")
	return startServe(t, env, args...), c
}

func checkGuarded(t *testing.T, p guardedPath) {
	s, c := guardedServe(t)
	attacker, bystander := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	for i := range 3 {
		if st, _, body := readAnswer(p.send(t, attacker, s.base, c)); st != http.StatusUnauthorized {
			t.Fatalf("failure %d from 127.0.0.1: got %d %s, want 401", i+1, st, body)
		}
	}
	st, h, body := readAnswer(p.send(t, attacker, s.base, c))
	if st != http.StatusTooManyRequests {
		t.Fatalf("fourth failure from 127.0.0.1: got %d %s, want 429", st, body)
	}
	if n, err := strconv.Atoi(h.Get("Retry-After")); err != nil || n < 1 {
		t.Errorf("Retry-After: got %q, want whole seconds, at least 1", h.Get("Retry-After"))
	}
	checkErrorShape(t, p.code, body)
	if st, _, body := readAnswer(p.send(t, bystander, s.base, c)); st != http.StatusUnauthorized {
		t.Errorf("a failure from 127.0.0.2: got %d %s, want 401 (another address is not limited)", st, body)
	}
	if st := tokenStatusFrom(t, attacker, s.base, c.ClientID, c.ClientSecret); st != http.StatusTooManyRequests {
		t.Errorf("the token endpoint from 127.0.0.1 after its failures at %s: got %d, want 429 (one guard for every path)", p.name, st)
	}
	if st := tokenStatusFrom(t, bystander, s.base, c.ClientID, c.ClientSecret); st != http.StatusOK {
		t.Errorf("the token endpoint from 127.0.0.2: got %d, want 200", st)
	}
	checkGuardLog(t, p, s.stderr.String(), c.ClientID)
}

// readAnswer reads and closes resp.
func readAnswer(resp *http.Response) (int, http.Header, string) {
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// checkErrorShape checks a guard's refusal: the OAuth error code, or the
// result envelope when code is "".
func checkErrorShape(t *testing.T, code, body string) {
	t.Helper()
	var b struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
		Result      struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatalf("429 body %q: %v", body, err)
	}
	switch {
	case code != "" && (b.Error != code || !strings.Contains(b.Description, "Too many failed authentications")):
		t.Errorf("429 body: got %s, want error %q saying too many failed authentications", body, code)
	case code == "" && (b.Result.Status != "ERROR" || !strings.Contains(b.Result.Message, "Too many failed authentications")):
		t.Errorf("429 body: got %s, want the result envelope saying too many failed authentications", body)
	}
}

// checkGuardLog checks the request log lines of p's path: the 401s give
// p's reason, the 429 the guard's, both with the client's ID where the
// path names one; no line holds the wrong secret.
func checkGuardLog(t *testing.T, p guardedPath, logs, clientID string) {
	t.Helper()
	if strings.Contains(logs, guardSecret) {
		t.Errorf("the log holds the secret sent")
	}
	reasons := map[int][]string{}
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var line struct {
			Msg      string `json:"msg"`
			Route    string `json:"route"`
			Status   int    `json:"status"`
			Reason   string `json:"reason"`
			ClientID string `json:"client_id"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Msg != "request" || strings.Contains(line.Route, "access-token") || line.Status < 400 {
			continue
		}
		if p.namesID && line.ClientID != clientID {
			t.Errorf("log line %s: got client_id %q, want %q", sc.Bytes(), line.ClientID, clientID)
		}
		reasons[line.Status] = append(reasons[line.Status], line.Reason)
	}
	if got := reasons[http.StatusUnauthorized]; len(got) != 4 || got[0] != p.reason {
		t.Errorf("reasons of the 401s: got %q, want 4 times %q", got, p.reason)
	}
	const limited = "rate_limited: Too many failed authentications; retry later"
	if got := reasons[http.StatusTooManyRequests]; len(got) != 1 || got[0] != limited {
		t.Errorf("reasons of the 429s: got %q, want %q once", got, limited)
	}
}
