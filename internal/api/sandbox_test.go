package api_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/sandbox"
)

const (
	sbAdmin   = "admin-token-for-tests-0123456789"
	sbSecretA = "secret-of-client-a-0123456789"
	sbSecretB = "secret-of-client-b-0123456789"
	thermoQ   = thermoPath + "?year=2023&region=Puglia"
)

// sbEnv is a server with a sandbox whose clock stands at 2025-06-30 12:00 in Rome.
type sbEnv struct {
	srv   *apitest.Server
	sb    *sandbox.Sandbox
	clock *sandbox.Clock
}

func newSandboxServer(tb testing.TB, rules string) *sbEnv {
	tb.Helper()
	clock := sandbox.NewClock(time.Now)
	clock.Set(time.Date(2025, 6, 30, 12, 0, 0, 0, time.FixedZone("", 2*3600)))
	sb := sandbox.New(clock, 7, 100)
	if rules != "" {
		doc, err := sandbox.Parse("rules.yaml", []byte(rules), nil)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := sb.Add(doc); err != nil {
			tb.Fatal(err)
		}
	}
	srv := apitest.NewServer(tb, apitest.Options{
		Data: thermoData(), Now: clock.Now,
		Clients: map[string]string{"ci-a": sbSecretA, "ci-b": sbSecretB},
		Adjust: func(o *api.Options) {
			o.Now = time.Now // requests are timed on the real clock
			o.Clock = clock.Now
			o.Sandbox.Box, o.Sandbox.AdminToken = sb, sbAdmin
			o.Auth.Tokens.RefuseWhen(sb.TokenRefused)
		},
	})
	return &sbEnv{srv: srv, sb: sb, clock: clock}
}

func (e *sbEnv) token(tb testing.TB, client string) string {
	tb.Helper()
	secret := map[string]string{"ci-a": sbSecretA, "ci-b": sbSecretB, apitest.ClientID: apitest.ClientSecret}[client]
	resp, err := http.PostForm(e.srv.URL+"/public-api/access-token", url.Values{"grant_type": {"client_credentials"}, "client_id": {client}, "client_secret": {secret}})
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != 200 {
		tb.Fatalf("token for %s: status %d, %v", client, resp.StatusCode, err)
	}
	return tok.AccessToken
}

type sbAnswer struct {
	status  int
	header  http.Header
	body    string
	readErr error // reading the body failed (truncated)
	err     error // the request failed (dropped)
}

func (e *sbEnv) get(tb testing.TB, token, pathQuery string) sbAnswer {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+pathQuery, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	// A new connection each time: Go's client sends a GET again, unasked,
	// when a connection it reused closes without an answer.
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return sbAnswer{err: err}
	}
	defer resp.Body.Close()
	b, rerr := io.ReadAll(resp.Body)
	return sbAnswer{status: resp.StatusCode, header: resp.Header, body: string(b), readErr: rerr}
}

func (e *sbEnv) admin(tb testing.TB, method, path, body string) (int, []byte) {
	tb.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+sbAdmin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (e *sbEnv) journal(tb testing.TB, client string) []sandbox.Entry {
	tb.Helper()
	status, b := e.admin(tb, http.MethodGet, "/sandbox/journal?client_id="+client, "")
	var j struct{ Entries []sandbox.Entry }
	if err := json.Unmarshal(b, &j); err != nil || status != 200 {
		tb.Fatalf("journal: status %d, %v: %s", status, err, b)
	}
	return j.Entries
}

// TestSandboxActions: each action, through real HTTP, as the client sees it
// and as the journal records it.
func TestSandboxActions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		action string
		check  func(t *testing.T, a sbAnswer, e sandbox.Entry)
	}{
		{"403 over qps", "{status: 403}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 403 || a.body != "Developer Over Qps" || a.header.Get("Retry-After") != "" {
				t.Errorf("got %d %q Retry-After %q, want 403 \"Developer Over Qps\" without Retry-After", a.status, a.body, a.header.Get("Retry-After"))
			}
		}},
		{"429", "{status: 429, retry_after: 2}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 429 || a.header.Get("Retry-After") != "2" || !strings.Contains(a.body, `"status":"ERROR"`) {
				t.Errorf("got %d Retry-After %q %s, want 429, 2 and the envelope", a.status, a.header.Get("Retry-After"), a.body)
			}
		}},
		{"500", "{status: 500, retry_after: 3}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 500 || a.header.Get("Retry-After") != "3" || a.body != `{"result":{"message":"Information retrieval error","status":"ERROR"}}` {
				t.Errorf("got %d Retry-After %q %s", a.status, a.header.Get("Retry-After"), a.body)
			}
		}},
		{"502", "{status: 502, retry_after: 5}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 502 || a.header.Get("Retry-After") != "5" || !strings.Contains(a.body, "<h1>502 Bad Gateway</h1>") {
				t.Errorf("got %d Retry-After %q %s", a.status, a.header.Get("Retry-After"), a.body)
			}
		}},
		{"503", "{status: 503, retry_after: 4}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 503 || a.header.Get("Retry-After") != "4" || !strings.Contains(a.body, "retry after 4 s") {
				t.Errorf("got %d Retry-After %q %s", a.status, a.header.Get("Retry-After"), a.body)
			}
		}},
		{"504", "{status: 504}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 504 || !strings.Contains(a.body, "<h1>504 Gateway Timeout</h1>") {
				t.Errorf("got %d %s", a.status, a.body)
			}
		}},
		{"fixed latency", "{latency: 30ms}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 200 || !strings.Contains(a.body, "Brindisi") {
				t.Errorf("got %d %s, want the real answer", a.status, a.body)
			}
			if e.Fault == nil || e.Fault.DelayMS != 30 || e.DurationMS < 30 {
				t.Errorf("got fault %+v duration %v ms, want delay 30 ms and a duration of at least that", e.Fault, e.DurationMS)
			}
		}},
		{"seeded latency", "{latency: {min: 10ms, max: 50ms}}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 200 || e.Fault == nil || e.Fault.DelayMS < 10 || e.Fault.DelayMS > 50 || e.DurationMS < e.Fault.DelayMS {
				t.Errorf("got %d fault %+v duration %v ms, want a delay in [10, 50] ms within the duration", a.status, e.Fault, e.DurationMS)
			}
		}},
		{"empty body", "{empty_body: true}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 200 || a.body != "" || a.header.Get("Content-Length") != "0" {
				t.Errorf("got %d %q, want 200 with no body", a.status, a.body)
			}
		}},
		{"truncated body", "{truncate: true}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.status != 200 || !errors.Is(a.readErr, io.ErrUnexpectedEOF) {
				t.Errorf("got %d, read error %v, want 200 and an unexpected EOF", a.status, a.readErr)
			}
			if e.Status != 200 || e.Bytes != len(a.body) || e.Bytes == 0 {
				t.Errorf("journal has status %d, %d bytes; the client read %d", e.Status, e.Bytes, len(a.body))
			}
		}},
		{"dropped connection", "{drop: true}", func(t *testing.T, a sbAnswer, e sandbox.Entry) {
			if a.err == nil {
				t.Errorf("got %d, want a failed request", a.status)
			}
			if e.Status != 0 || e.Bytes != 0 {
				t.Errorf("journal has status %d, %d bytes, want 0 and 0", e.Status, e.Bytes)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newSandboxServer(t, "- {match: {dataset: thermoelectric, client_id: ci-a}, action: "+tc.action+"}")
			a := env.get(t, env.token(t, "ci-a"), thermoQ)
			j := env.journal(t, "ci-a")
			if len(j) != 2 || j[0].Path != "/public-api/access-token" || j[1].Path != thermoPath {
				t.Fatalf("got journal %+v, want the token request and the data request", j)
			}
			if tc.name != "dropped connection" && (j[1].Fault == nil || j[1].Fault.Rule != "r1") {
				t.Errorf("got fault %+v, want rule r1", j[1].Fault)
			}
			tc.check(t, a, j[1])
		})
	}
}

// TestSandboxExpiredTokens: a client's tokens stop working 30 s after they
// were issued on the sandbox clock, which the admin endpoint moves.
func TestSandboxExpiredTokens(t *testing.T) {
	t.Parallel()
	env := newSandboxServer(t, "- {match: {client_id: ci-a}, action: {expire_tokens_after: 30s}}")
	ta, tb := env.token(t, "ci-a"), env.token(t, "ci-b")
	if a := env.get(t, ta, thermoQ); a.status != 200 {
		t.Fatalf("fresh token: got %d, want 200", a.status)
	}
	if status, b := env.admin(t, http.MethodPut, "/sandbox/clock", `{"advance": "29s"}`); status != 200 || !strings.Contains(string(b), `"now":"2025-06-30T12:00:29+02:00"`) {
		t.Fatalf("advance: got %d %s", status, b)
	}
	if a := env.get(t, ta, thermoQ); a.status != 200 {
		t.Fatalf("29 s old token: got %d, want 200", a.status)
	}
	env.admin(t, http.MethodPut, "/sandbox/clock", `{"advance": "1s"}`)
	if a := env.get(t, ta, thermoQ); a.status != 401 || !strings.Contains(a.header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("30 s old token: got %d %q, want 401 invalid_token", a.status, a.header.Get("WWW-Authenticate"))
	}
	if a := env.get(t, tb, thermoQ); a.status != 200 {
		t.Errorf("the other client's token: got %d, want 200", a.status)
	}
	if a := env.get(t, env.token(t, "ci-a"), thermoQ); a.status != 200 {
		t.Errorf("a new token: got %d, want 200", a.status)
	}
}

// statuses makes n requests of client and returns their statuses.
func (e *sbEnv) statuses(t *testing.T, token string, n int) []int {
	var out []int
	for range n {
		out = append(out, e.get(t, token, thermoQ).status)
	}
	return out
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSandboxTriggers: each trigger fires on the requests it names.
func TestSandboxTriggers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, trigger string
		want          []int
	}{
		{"every 3rd", "{every: 3}", []int{200, 200, 503, 200, 200, 503}},
		{"first 2", "{first: 2}", []int{503, 503, 200, 200, 200, 200}},
		{"seeded probability", "{probability: 0.5}", []int{503, 503, 200, 503, 200, 200}},
		{"every 2nd of the first 4", "{every: 2, first: 4}", []int{200, 503, 200, 503, 200, 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newSandboxServer(t, "- {match: {dataset: thermoelectric, client_id: ci-a}, action: {status: 503}, trigger: "+tc.trigger+"}")
			if got := env.statuses(t, env.token(t, "ci-a"), 6); !sameInts(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("time window", func(t *testing.T) {
		env := newSandboxServer(t, "- {match: {dataset: thermoelectric}, action: {status: 503}, trigger: {window: {from: '2025-06-30T12:00:10+02:00', to: '2025-06-30T12:00:20+02:00'}}}")
		tok := env.token(t, "ci-a")
		var got []int
		for _, step := range []string{"", "10s", "9s", "1s"} {
			if step != "" {
				env.admin(t, http.MethodPut, "/sandbox/clock", `{"advance": "`+step+`"}`)
			}
			got = append(got, env.get(t, tok, thermoQ).status)
		}
		if want := []int{200, 503, 503, 200}; !sameInts(got, want) {
			t.Errorf("at 12:00:00, :10, :19, :20 got %v, want %v", got, want)
		}
	})
}

// TestSandboxScopesByClient: two clients at once; a rule for one never
// touches the other, and a rule for all counts each client apart.
func TestSandboxScopesByClient(t *testing.T) {
	t.Parallel()
	env := newSandboxServer(t, `
rules:
  - {match: {client_id: ci-a, query: {region: Puglia}}, action: {status: 429, retry_after: 1}, trigger: {every: 2}}
  - {match: {path: /generation/*/*}, action: {status: 502}, trigger: {every: 5}}
`)
	tokens := map[string]string{"ci-a": env.token(t, "ci-a"), "ci-b": env.token(t, "ci-b")}
	got := map[string][]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for client, tok := range tokens {
		wg.Go(func() {
			s := env.statuses(t, tok, 10)
			mu.Lock()
			got[client] = s
			mu.Unlock()
		})
	}
	wg.Wait()
	if want := []int{200, 429, 200, 429, 502, 429, 200, 429, 200, 429}; !sameInts(got["ci-a"], want) {
		t.Errorf("ci-a: got %v, want %v", got["ci-a"], want)
	}
	if want := []int{200, 200, 200, 200, 502, 200, 200, 200, 200, 502}; !sameInts(got["ci-b"], want) {
		t.Errorf("ci-b: got %v, want %v", got["ci-b"], want)
	}
	// A query value the rule does not name is not matched.
	if a := env.get(t, tokens["ci-a"], thermoPath+"?year=2023&region=Abruzzo"); a.status != 200 {
		t.Errorf("region=Abruzzo: got %d, want 200", a.status)
	}
	if n := len(env.journal(t, "ci-b")); n != 11 {
		t.Errorf("ci-b has %d journal entries, want 11 (a token request and 10 data requests)", n)
	}
}

// TestSandboxSeedRepeats: the same rules and requests give the same faults
// and delays on two servers.
func TestSandboxSeedRepeats(t *testing.T) {
	t.Parallel()
	rules := `
seed: 99
rules:
  - {match: {dataset: thermoelectric}, action: {status: 503}, trigger: {probability: 0.3}}
  - {match: {dataset: thermoelectric}, action: {latency: {min: 1ms, max: 5ms}}, trigger: {probability: 0.5}}
`
	run := func() (statuses []int, delays []float64) {
		env := newSandboxServer(t, rules)
		tok := env.token(t, "ci-a")
		statuses = env.statuses(t, tok, 20)
		for _, e := range env.journal(t, "ci-a")[1:] {
			if e.Fault != nil {
				delays = append(delays, e.Fault.DelayMS)
			} else {
				delays = append(delays, -1)
			}
		}
		return statuses, delays
	}
	s1, d1 := run()
	s2, d2 := run()
	if !sameInts(s1, s2) || len(d1) != len(d2) {
		t.Fatalf("statuses differ: %v and %v", s1, s2)
	}
	faults := 0
	for i := range d1 {
		if d1[i] != d2[i] {
			t.Errorf("request %d: delay %v ms, then %v ms", i, d1[i], d2[i])
		}
		if d1[i] >= 0 {
			faults++
		}
	}
	if faults == 0 || faults == 20 {
		t.Errorf("%d of 20 requests got a fault: the probabilities do not draw", faults)
	}
}

// TestSandboxJournal: the journal keeps what a client's test asserts on,
// in the order sent, and never a secret.
func TestSandboxJournal(t *testing.T) {
	t.Parallel()
	env := newSandboxServer(t, "")
	tok := env.token(t, "ci-a")
	req, _ := http.NewRequest(http.MethodGet, env.srv.URL+thermoPath+"?year=2023&province=Brindisi&province=Taranto&access_token="+tok, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("businessID", "3f1c2a9e-0000-4000-8000-000000000001")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, raw := env.admin(t, http.MethodGet, "/sandbox/journal", "")
	for _, secret := range []string{tok, sbSecretA} {
		if strings.Contains(string(raw), secret) {
			t.Fatalf("the journal holds a secret: %s", raw)
		}
	}
	j := env.journal(t, "ci-a")
	if len(j) != 2 {
		t.Fatalf("got %d entries, want 2", len(j))
	}
	e := j[1]
	want := [][2]string{{"year", "2023"}, {"province", "Brindisi"}, {"province", "Taranto"}, {"access_token", "[redacted]"}}
	if len(e.Query) != len(want) {
		t.Fatalf("got query %v, want %v", e.Query, want)
	}
	for i := range want {
		if e.Query[i] != want[i] {
			t.Errorf("query[%d]: got %v, want %v", i, e.Query[i], want[i])
		}
	}
	if e.ClientID != "ci-a" || e.Dataset != "thermoelectric" || e.Status != 200 || e.Bytes == 0 ||
		e.Headers["Authorization"] != "Bearer [redacted]" || e.Headers["businessID"] != "3f1c2a9e-0000-4000-8000-000000000001" {
		t.Errorf("got entry %+v", e)
	}
	if j[0].ClientID != "ci-a" || j[0].Method != "POST" || j[0].Status != 200 {
		t.Errorf("token entry: got %+v", j[0])
	}
	if status, _ := env.admin(t, http.MethodDelete, "/sandbox/journal", ""); status != 204 {
		t.Errorf("reset: got %d, want 204", status)
	}
	if n := len(env.journal(t, "")); n != 0 {
		t.Errorf("after reset: %d entries, want 0", n)
	}
}

// TestSandboxAdmin: rules set at run time apply at once and are listed in
// the form they are posted; the admin endpoints refuse callers without the
// admin token.
func TestSandboxAdmin(t *testing.T) {
	t.Parallel()
	env := newSandboxServer(t, "")
	for _, auth := range []string{"", "Bearer wrong-token-0123456789abcdef"} {
		req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/sandbox/rules", strings.NewReader(`[{action: {drop: true}}]`))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: got %d, want 401 with a Bearer challenge", auth, resp.StatusCode)
		}
	}
	if len(env.sb.Rules()) != 0 {
		t.Fatal("a refused call added a rule")
	}
	status, b := env.admin(t, http.MethodPost, "/sandbox/rules", `{"rules": [{"id": "qps", "match": {"dataset": "thermoelectric", "client_id": "ci-a"}, "action": {"status": 403}}]}`)
	if status != 200 || string(b) != `{"rules":[{"id":"qps","match":{"dataset":"thermoelectric","client_id":"ci-a"},"action":{"status":403},"trigger":{},"seed":7}]}` {
		t.Fatalf("post: got %d %s", status, b)
	}
	if a := env.get(t, env.token(t, "ci-a"), thermoQ); a.status != 403 {
		t.Errorf("after the post: got %d, want 403", a.status)
	}
	status, b = env.admin(t, http.MethodPost, "/sandbox/rules", "- {action: {status: 418}}")
	if status != 400 || !strings.Contains(string(b), "request body:1: status 418: want one of 403, 429, 500, 502, 503, 504") {
		t.Errorf("bad rule: got %d %s", status, b)
	}
	if status, _ := env.admin(t, http.MethodDelete, "/sandbox/rules/qps", ""); status != 204 {
		t.Errorf("delete: got %d, want 204", status)
	}
	if a := env.get(t, env.token(t, "ci-a"), thermoQ); a.status != 200 {
		t.Errorf("after the delete: got %d, want 200", a.status)
	}
}

// TestNoSandboxInProduction: without a sandbox the admin paths do not exist
// and nothing can set a fault.
func TestNoSandboxInProduction(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: thermoData()})
	for _, c := range []struct{ method, path string }{
		{"GET", "/sandbox/rules"}, {"POST", "/sandbox/rules"}, {"GET", "/sandbox/journal"},
		{"DELETE", "/sandbox/journal"}, {"PUT", "/sandbox/clock"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(`[{action: {drop: true}}]`))
		req.Header.Set("Authorization", "Bearer "+sbAdmin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("%s %s: got %d, want 404", c.method, c.path, resp.StatusCode)
		}
	}
}

// denyAll is a rate limit that every request is over.
type denyAll struct{}

func (denyAll) Allow(string) (time.Duration, bool) { return 2 * time.Second, false }

// TestPublicRateLimitStyle: the public style answers the rate limit as the
// public deployment does; the standard style with 429.
func TestPublicRateLimitStyle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		style      api.RateLimitStyle
		status     int
		body, wait string
	}{
		{api.PublicRateLimit, 403, "Developer Over Qps", ""},
		{api.StandardRateLimit, 429, `{"result":{"message":"Too many requests from this client: retry after 2 s","status":"ERROR"}}`, "2"},
	} {
		t.Run(string(tc.style), func(t *testing.T) {
			h := newHarnessWith(t, apitest.Options{Data: thermoData(), Adjust: func(o *api.Options) {
				o.Limits.RateLimit, o.Limits.RateLimitStyle = denyAll{}, tc.style
			}})
			r := (&sbEnv{srv: h.srv}).get(t, h.token, thermoQ)
			if r.status != tc.status || r.body != tc.body || r.header.Get("Retry-After") != tc.wait {
				t.Errorf("got %d %q Retry-After %q, want %d %q %q", r.status, r.body, r.header.Get("Retry-After"), tc.status, tc.body, tc.wait)
			}
		})
	}
}

// TestSandboxClockMovesYearWindows: the sandbox clock is the server's
// "current year": installed capacity answers the current year and the six
// before it, so 2024's data are served on 2025-06-30 and are outside the
// window once the clock says 2031.
func TestSandboxClockMovesYearWindows(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := demoSource(t)
	clock := sandbox.NewClock(time.Now)
	clock.Set(time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	sb := sandbox.New(clock, 1, 10)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: src, Now: clock.Now, Adjust: func(o *api.Options) {
		o.Now, o.Clock, o.Sandbox.Box, o.Sandbox.AdminToken = time.Now, clock.Now, sb, sbAdmin
	}})
	env := &sbEnv{srv: srv, sb: sb, clock: clock}
	path := "/generation/v2.0/installed-capacity?year=2024"
	if a := env.get(t, env.token(t, apitest.ClientID), path); a.status != 200 || !strings.Contains(a.body, `"year":"2024"`) {
		t.Fatalf("on 2025-06-30: got %d %.200s, want 2024's records", a.status, a.body)
	}
	// Tokens are issued on the sandbox clock too: the one of 2025 has
	// expired in 2031, so a new one is taken.
	if status, b := env.admin(t, http.MethodPut, "/sandbox/clock", `{"now": "2031-01-01T00:00:00+01:00"}`); status != 200 || !strings.Contains(string(b), `"fixed":true`) {
		t.Fatalf("set clock: got %d %s", status, b)
	}
	if a := env.get(t, env.token(t, apitest.ClientID), path); a.status != 200 || a.body != "" {
		t.Errorf("on 2031-01-01: got %d %.200s, want 200 with an empty body (2024 is outside 2025..2031)", a.status, a.body)
	}
}
