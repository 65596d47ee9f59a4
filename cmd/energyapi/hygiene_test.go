package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/testwait"
)

// TestSessionLogsHoldNoCredentials runs a whole session, with every log at
// debug level, through the commands an operator and a client use: create a
// client, import, serve, obtain tokens, call the data endpoints, send bad
// requests, rotate the secret and revoke the client. No client secret and no
// access token may appear in any log line or error answer.
func TestSessionLogsHoldNoCredentials(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "session.db")
	var cmdLogs bytes.Buffer // stderr of every command but serve
	cmd := func(args ...string) string {
		t.Helper()
		var stdout bytes.Buffer
		if err := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &stdout, &cmdLogs); err != nil {
			t.Fatalf("energyapi %s: %v", strings.Join(args, " "), err)
		}
		return stdout.String()
	}
	var created struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	cmd("init", "--db", db)
	if err := json.Unmarshal([]byte(cmd("clients", "create", "--db", db, "--name", "session")), &created); err != nil {
		t.Fatal(err)
	}
	id, secret := created.ClientID, created.ClientSecret
	cmd("import", "--db", db, "--dataset", "total-load", loadCSV(t, "load.csv", energy.Date{Year: 2023, Month: 1, Day: 1}, 2, 0))
	base, serveLog := plainServe(t, nil, "--db", db, "--log-level", "debug", "--poll-interval", "20ms")

	const guess = "not-the-secret-but-close"
	credentials := []string{secret, guess}
	var errorBodies []string
	send := func(req *http.Request) (int, []byte) {
		t.Helper()
		a := apitest.Do(t, nil, req)
		if a.Status >= 400 {
			errorBodies = append(errorBodies, string(a.Body))
		}
		return a.Status, a.Body
	}
	tokenReq := func(body, authz string) *http.Request {
		req, _ := http.NewRequest(http.MethodPost, base+"/public-api/access-token", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		return req
	}
	form := func(id, secret string) string {
		return url.Values{"client_id": {id}, "client_secret": {secret}, "grant_type": {"client_credentials"}}.Encode()
	}
	token := func(id, secret string) string {
		t.Helper()
		st, b := send(tokenReq(form(id, secret), ""))
		var tr struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.Unmarshal(b, &tr); err != nil || st != http.StatusOK {
			t.Fatalf("token: %d %s", st, b)
		}
		credentials = append(credentials, tr.AccessToken)
		return tr.AccessToken
	}
	data := func(path, authz string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		st, _ := send(req)
		return st
	}
	const pv = "/load/v2.0/peak-valley-load?dateFrom=01/01/2023&dateTo=02/01/2023"

	tok := token(id, secret)
	if st := data(pv, "Bearer "+tok); st != http.StatusOK {
		t.Fatalf("data request: got %d, want 200", st)
	}
	data(pv, tok) // the bare form
	// Bad requests of every kind, carrying credentials where a careless
	// client would put them.
	send(tokenReq(form(id, guess), ""))
	send(tokenReq(form(guess, secret), ""))
	send(tokenReq("grant_type=client_credentials", "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+guess))))
	send(tokenReq("grant_type=client_credentials&client_secret="+secret, "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+secret))))
	send(tokenReq(form(id, secret)+"&client_secret="+secret, ""))
	data(pv, "Bearer "+tok[:len(tok)-4])
	data(pv, "Bearer "+tok+" "+tok)
	data(pv+"&access_token="+tok, "")
	data("/load/v2.0/peak-valley-load?dateFrom=1/1/2023&dateTo=2023-01-02", "Bearer "+tok)
	data("/generation/v2.0/thermoelectric-production?year=last", "Bearer "+tok)

	var rotated struct {
		ClientSecret string `json:"client_secret"`
	}
	if err := json.Unmarshal([]byte(cmd("clients", "rotate-secret", "--db", db, id)), &rotated); err != nil {
		t.Fatal(err)
	}
	credentials = append(credentials, rotated.ClientSecret)
	// The server refuses old credentials once its in-memory client table
	// reloads, within the poll interval (the guarantee is 5 s).
	refused := func(what, secret string) {
		t.Helper()
		testwait.For(t, 5*time.Second, what, func() bool {
			st, _ := send(tokenReq(form(id, secret), ""))
			return st == http.StatusUnauthorized
		})
	}
	refused("the old secret refused after rotation", secret)
	tok2 := token(id, rotated.ClientSecret)
	cmd("clients", "revoke", "--db", db, id)
	refused("the revoked client's token request refused", rotated.ClientSecret)
	testwait.For(t, 10*time.Second, "revoked client's token refused", func() bool { return data(pv, "Bearer "+tok2) == http.StatusUnauthorized })

	logs := serveLog.String() + cmdLogs.String()
	if !strings.Contains(logs, `"client_id":"`+id+`"`) || !strings.Contains(logs, `"status":401`) {
		t.Fatalf("the captured log lacks the session's requests:\n%s", logs)
	}
	if len(errorBodies) < 12 {
		t.Fatalf("got %d error answers, want at least 12: the session did not exercise the failures", len(errorBodies))
	}
	for _, c := range credentials {
		if c == "" {
			t.Fatal("an empty credential: the session did not run as written")
		}
		if strings.Contains(logs, c) {
			t.Errorf("the logs hold the credential %q", c)
		}
		for _, b := range errorBodies {
			if strings.Contains(b, c) {
				t.Errorf("the error answer %s holds the credential %q", b, c)
			}
		}
	}
}
