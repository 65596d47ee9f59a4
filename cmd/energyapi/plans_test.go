package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/testwait"
)

const (
	planDay   = "/load/v2.0/total-load?dateFrom=01/01/2024&dateTo=01/01/2024"
	planAdmin = "plans-admin-token-0123456789"
)

// answer is an HTTP answer as a test compares it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with an optional bearer token and JSON body. It asks
// for the answer uncompressed: the tests compare answers' content, and the
// gzip Go's client asks for unasked would only add compressing in the
// server and decompressing here (tests of compression ask for it).
func (s *server) do(tb testing.TB, method, path, token, body string) answer {
	tb.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept-Encoding", "identity")
	a := apitest.Do(tb, nil, req)
	return answer{a.Status, a.Header, a.Body}
}

// planClient creates a client on plan through the CLI.
func planClient(tb testing.TB, env map[string]string, name, plan string) createdClient {
	tb.Helper()
	if plan == "" {
		return createClient(tb, env, "--name", name)
	}
	return createClient(tb, env, "--name", name, "--plan", plan)
}

// writePlans writes a plans file and returns its path.
func writePlans(tb testing.TB, doc string) string {
	tb.Helper()
	f := filepath.Join(tb.TempDir(), "plans.json")
	if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
		tb.Fatal(err)
	}
	return f
}

// usageOf is GET /usage as a client reads it.
type usageOf struct {
	ClientID string `json:"client_id"`
	Plan     string `json:"plan"`
	Today    struct {
		Date      string `json:"date"`
		Calls     int64  `json:"calls"`
		Limit     *int64 `json:"limit"`
		Remaining *int64 `json:"remaining"`
		ResetsAt  string `json:"resets_at"`
	} `json:"today"`
	Datasets []struct {
		Dataset string `json:"dataset"`
		Calls   int64  `json:"calls"`
	} `json:"datasets"`
	Days []struct {
		Date  string `json:"date"`
		Calls int64  `json:"calls"`
	} `json:"days"`
}

// planToken returns a token of c once the server knows c's plan.
func (s *server) planToken(tb testing.TB, c createdClient, plan string) string {
	tb.Helper()
	tok, _ := s.token(tb, c.ClientID, c.ClientSecret)
	testwait.For(tb, testwait.Scale(10*time.Second), "the server reading client "+c.Name+"'s plan", func() bool {
		return s.usage(tb, tok).Plan == plan
	})
	return tok
}

func (s *server) usage(tb testing.TB, token string) usageOf {
	tb.Helper()
	a := s.do(tb, http.MethodGet, "/usage", token, "")
	var u usageOf
	if a.status != http.StatusOK || json.Unmarshal(a.body, &u) != nil {
		tb.Fatalf("GET /usage: %d %s", a.status, a.body)
	}
	return u
}

// TestPlansPublicStyle serves plans in the public style with the sandbox
// and checks the gateway's answers byte for byte: "Developer Over Qps"
// on the second call inside one clock second, "Developer Over Rate" once
// the day's quota is used (through calls, and at once through the
// sandbox's admin call), and the quota's reset when the sandbox clock
// passes 00:00 UTC.
func TestPlansPublicStyle(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "p.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	plans := writePlans(t, `[{"name":"qps","per_second":1},{"name":"daily","per_day":3}]`)
	s := startServe(t, env, "--plans", plans, "--default-plan", "qps", "--rate-limit-style", "public", "--usage-flush", "200ms",
		"--sandbox", "--sandbox-admin-token", planAdmin, "--now", "2026-11-26T23:00:00Z")
	// The plans file is in the store now; clients made meanwhile reach
	// the server at its next reload.
	q := planClient(t, env, "q", "")
	d := planClient(t, env, "d", "daily")
	e := planClient(t, env, "e", "daily")
	tokQ := s.planToken(t, q, "qps")
	tokD := s.planToken(t, d, "daily")
	tokE := s.planToken(t, e, "daily")

	t.Run("over qps", func(t *testing.T) {
		// Two calls inside one clock second: the second is refused. A slow
		// machine may put them in two seconds; try again then.
		var got answer
		testwait.For(t, testwait.Scale(20*time.Second), "a second call inside one clock second refused", func() bool {
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
			s.do(t, http.MethodGet, planDay, tokQ, "")
			got = s.do(t, http.MethodGet, planDay, tokQ, "")
			return got.status != http.StatusOK
		})
		wantGateway(t, got, "<h1>Developer Over Qps</h1>", "ERR_403_DEVELOPER_OVER_QPS", "1")
	})
	t.Run("over rate", func(t *testing.T) {
		for i := range 3 {
			if a := s.do(t, http.MethodGet, planDay, tokD, ""); a.status != http.StatusOK {
				t.Fatalf("call %d of 3: got %d %s, want 200", i+1, a.status, a.body)
			}
		}
		wantGateway(t, s.do(t, http.MethodGet, planDay, tokD, ""), "<h1>Developer Over Rate</h1>", "ERR_403_DEVELOPER_OVER_RATE", "")
		if u := s.usage(t, tokD); u.Today.Calls != 3 || *u.Today.Remaining != 0 || *u.Today.Limit != 3 {
			t.Errorf("usage after the quota: got %+v, want 3 calls of 3, none left", u.Today)
		}
	})
	t.Run("sandbox uses up a quota at once", func(t *testing.T) {
		a := s.do(t, http.MethodPost, "/sandbox/quota", planAdmin, `{"client_id":"`+e.ClientID+`"}`)
		if a.status != http.StatusOK {
			t.Fatalf("POST /sandbox/quota: got %d %s, want 200", a.status, a.body)
		}
		wantGateway(t, s.do(t, http.MethodGet, planDay, tokE, ""), "<h1>Developer Over Rate</h1>", "ERR_403_DEVELOPER_OVER_RATE", "")
		if u := s.usage(t, tokE); u.Today.Calls != 0 || *u.Today.Remaining != 0 {
			t.Errorf("usage: got %+v, want no calls and none left", u.Today)
		}
	})
	t.Run("reset at 00:00 UTC on the sandbox clock", func(t *testing.T) {
		if a := s.do(t, http.MethodPut, "/sandbox/clock", planAdmin, `{"advance":"1h"}`); a.status != http.StatusOK {
			t.Fatalf("PUT /sandbox/clock: %d %s", a.status, a.body)
		}
		// Tokens follow the sandbox clock too: an hour on, take new ones.
		tokD, _ = s.token(t, d.ClientID, d.ClientSecret)
		tokE, _ = s.token(t, e.ClientID, e.ClientSecret)
		for name, tok := range map[string]string{"d": tokD, "e": tokE} {
			if a := s.do(t, http.MethodGet, planDay, tok, ""); a.status != http.StatusOK {
				t.Errorf("client %s on the next day: got %d %s, want 200", name, a.status, a.body)
			}
		}
		if u := s.usage(t, tokD); u.Today.Date != "2026-11-27" || u.Today.Calls != 1 || u.Days[1].Calls != 3 {
			t.Errorf("usage on the next day: got %+v, days %+v; want 1 call today, 3 yesterday", u.Today, u.Days[:2])
		}
	})
}

// wantGateway checks a refusal against the gateway's answer exactly.
func wantGateway(tb testing.TB, a answer, body, code, retryAfter string) {
	tb.Helper()
	if a.status != http.StatusForbidden || string(a.body) != body {
		tb.Fatalf("got %d %q, want 403 %q", a.status, a.body, body)
	}
	for k, want := range map[string]string{"Content-Type": "text/html", "X-Mashery-Error-Code": code, "Retry-After": retryAfter} {
		if got := a.header.Get(k); got != want {
			tb.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"RateLimit", "RateLimit-Policy"} {
		if v := a.header.Get(k); v != "" {
			tb.Errorf("%s: got %q, want none in the public style", k, v)
		}
	}
}

// TestPlansStandardStyle checks the standard style: every answer to a
// client with a plan carries the RateLimit and RateLimit-Policy fields,
// and each limit refuses with 429 and Retry-After; a client without a
// plan, with no default plan defined, gets today's answers.
func TestPlansStandardStyle(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "p.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"small", "--per-second", "1", "--burst", "2", "--per-day", "100", "--max-range-days", "2"},
		{"tiny", "--per-day", "2"},
	} {
		if _, err := runCmd(t, env, append([]string{"plans", "set"}, args...)...); err != nil {
			t.Fatal(err)
		}
	}
	c := planClient(t, env, "c", "small")
	d := planClient(t, env, "d", "tiny")
	none := planClient(t, env, "none", "")
	s := startServe(t, env, "--now", "2026-11-26T23:00:00Z", "--sandbox", "--sandbox-admin-token", planAdmin)
	tok, _ := s.token(t, c.ClientID, c.ClientSecret)
	a := s.do(t, http.MethodGet, planDay, tok, "")
	if a.status != http.StatusOK {
		t.Fatalf("first call: %d %s", a.status, a.body)
	}
	if got, want := a.header.Get("RateLimit-Policy"), `"second";q=1;w=1, "day";q=100;w=86400`; got != want {
		t.Errorf("RateLimit-Policy: got %q, want %q", got, want)
	}
	if got, want := a.header.Get("RateLimit"), `"second";r=1;t=0, "day";r=99;t=3600`; got != want {
		t.Errorf("RateLimit: got %q, want %q", got, want)
	}
	const threeDays = "/load/v2.0/total-load?dateFrom=01/01/2024&dateTo=03/01/2024"
	if a := s.do(t, http.MethodGet, threeDays, tok, ""); !strings.Contains(string(a.body), "spans 3 days; at most 2 are allowed") {
		t.Errorf("3 days on a plan of at most 2: got %d %s, want refused", a.status, a.body)
	}
	// Calls at once use up the burst; a slow machine may refill a token
	// meanwhile, so keep calling until one is refused.
	testwait.For(t, testwait.Scale(20*time.Second), "a call over the burst refused", func() bool {
		a = s.do(t, http.MethodGet, planDay, tok, "")
		return a.status != http.StatusOK
	})
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") != "1" || !strings.HasPrefix(a.header.Get("RateLimit"), `"second";r=0;t=1, "day";r=`) {
		t.Errorf("over the burst: got %d Retry-After %q RateLimit %q, want 429, 1 and none left", a.status, a.header.Get("Retry-After"), a.header.Get("RateLimit"))
	}
	tokD, _ := s.token(t, d.ClientID, d.ClientSecret)
	for range 2 {
		if a = s.do(t, http.MethodGet, planDay, tokD, ""); a.status != http.StatusOK {
			t.Fatalf("call within the daily quota: %d %s", a.status, a.body)
		}
	}
	a = s.do(t, http.MethodGet, planDay, tokD, "")
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") != "3600" || a.header.Get("RateLimit") != `"day";r=0;t=3600` {
		t.Errorf("over the daily quota: got %d Retry-After %q RateLimit %q, want 429, 3600 and none left", a.status, a.header.Get("Retry-After"), a.header.Get("RateLimit"))
	}
	// GET /usage exactly: a web page reads it.
	want := `{"client_id":"` + d.ClientID + `","plan":"tiny","today":{"date":"2026-11-26","calls":2,"limit":2,"remaining":0,"resets_at":"2026-11-27T00:00:00Z"},` +
		`"datasets":[{"dataset":"total-load","calls":2}],"days":[{"date":"2026-11-26","calls":2}`
	for day := 25; day > 25-29; day-- {
		want += `,{"date":"` + time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC).Format("2006-01-02") + `","calls":0}`
	}
	if got := s.do(t, http.MethodGet, "/usage", tokD, ""); string(bytes.TrimSpace(got.body)) != want+"]}" {
		t.Errorf("GET /usage:\ngot  %s\nwant %s]}", got.body, want)
	}
	if _, body := s.get(t, "/metrics", ""); !strings.Contains(string(body), `energyapi_plan_refusals_total{limit="over_rate",plan="tiny"} 1`) ||
		!strings.Contains(string(body), `energyapi_plan_calls_total{plan="tiny"} 2`) {
		t.Errorf("/metrics: want 2 calls and 1 over_rate refusal of plan tiny")
	}
	tokNone, _ := s.token(t, none.ClientID, none.ClientSecret)
	a = s.do(t, http.MethodGet, planDay, tokNone, "")
	if a := s.do(t, http.MethodGet, threeDays, tokNone, ""); a.status != http.StatusOK {
		t.Errorf("3 days without a plan (--max-range-days 60): got %d %s, want 200", a.status, a.body)
	}
	if a.status != http.StatusOK || a.header.Get("RateLimit") != "" || a.header.Get("RateLimit-Policy") != "" {
		t.Errorf("client without a plan: got %d RateLimit %q, want 200 without RateLimit fields", a.status, a.header.Get("RateLimit"))
	}
	if u := s.usage(t, tokNone); u.Plan != "" || u.Today.Calls != 2 || u.Today.Limit != nil || u.Today.Remaining != nil {
		t.Errorf("usage of a client without a plan: got %+v, want 2 calls, null limit and remaining", u)
	}
	// The OpenAPI document describes GET /usage as served: with a limit,
	// without one, and without a token.
	v := apitest.NewValidator(t)
	for _, token := range []string{tokD, tokNone, ""} {
		req, _ := http.NewRequest(http.MethodGet, s.base+"/usage", nil)
		a := s.do(t, http.MethodGet, "/usage", token, "")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if err := v.Check(req, nil, a.status, a.header, a.body); err != nil {
			t.Errorf("GET /usage against the OpenAPI document: %v", err)
		}
	}
}

// TestPythonClientBacksOffAndStops runs scripts/pyclient/quota.py against
// a served energyapi in the public style and checks, through the sandbox's
// request journal, that it asked again for the same day no sooner than
// Retry-After after each "Developer Over Qps", and sent nothing after
// "Developer Over Rate".
func TestPythonClientBacksOffAndStops(t *testing.T) {
	t.Parallel()
	python := requirePython(t)
	db := filepath.Join(t.TempDir(), "p.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	plans := writePlans(t, `{"plans":[{"name":"gateway","per_second":1,"per_day":7}]}`)
	// The sandbox clock stands still, so the daily quota cannot reset mid-run.
	s := startServe(t, env, "--plans", plans, "--rate-limit-style", "public", "--usage-flush", "200ms",
		"--sandbox", "--sandbox-admin-token", planAdmin, "--now", "2026-11-26T12:00:00Z")
	c := planClient(t, env, "py", "gateway")
	s.planToken(t, c, "gateway")
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "pyclient", "quota.py"), s.base, c.ClientID, c.ClientSecret, "20").CombinedOutput()
	if err != nil {
		t.Fatalf("quota.py: %v\n%s", err, out)
	}
	var res struct {
		Fetched, Backoffs int
		Stopped           string
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &res); err != nil || res.Fetched != 7 || res.Stopped != "over_rate" {
		t.Fatalf("quota.py: got %s, want 7 fetched and a stop on over_rate", out)
	}
	checkJournal(t, s, c.ClientID, res.Backoffs)
}

// requirePython returns the path of a python3 that has requests, or
// skips the test (fails it under ENERGYAPI_REQUIRE_PYTHON, as in CI).
func requirePython(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(python, "-c", "import requests").Run()
	}
	if err != nil {
		if os.Getenv("ENERGYAPI_REQUIRE_PYTHON") != "" {
			t.Fatalf("python3 with requests is required (ENERGYAPI_REQUIRE_PYTHON is set): %v", err)
		}
		t.Skipf("SKIP: no python3 with requests (%v)", err)
	}
	return python
}

// checkJournal checks the client's requests as the sandbox saw them.
func checkJournal(t *testing.T, s *server, clientID string, backoffs int) {
	a := s.do(t, http.MethodGet, "/sandbox/journal?client_id="+clientID, planAdmin, "")
	var j struct {
		Entries []struct {
			Time   time.Time
			Path   string
			Query  [][2]string
			Status int
			Bytes  int
		}
	}
	if err := json.Unmarshal(a.body, &j); err != nil {
		t.Fatal(err)
	}
	var data []int
	for i, e := range j.Entries {
		if e.Path == "/load/v2.0/total-load" {
			data = append(data, i)
		}
	}
	ok, qps := 0, 0
	for n, i := range data {
		e := j.Entries[i]
		switch {
		case e.Status == http.StatusOK:
			ok++
		case e.Status == http.StatusForbidden && e.Bytes == len("<h1>Developer Over Qps</h1>"):
			qps++
			if n == len(data)-1 {
				t.Errorf("the last request was refused Over Qps: want it asked again")
				continue
			}
			next := j.Entries[data[n+1]]
			if next.Time.Sub(e.Time) < 900*time.Millisecond || next.Query[0] != e.Query[0] {
				t.Errorf("after Over Qps at %v for %v: next request at %v for %v, want the same day after Retry-After (1 s)", e.Time, e.Query, next.Time, next.Query)
			}
		case e.Status == http.StatusForbidden && e.Bytes == len("<h1>Developer Over Rate</h1>"):
			if n != len(data)-1 {
				t.Errorf("requests after Over Rate: %d, want none", len(data)-1-n)
			}
		default:
			t.Errorf("journal entry %d: status %d (%d bytes)", i, e.Status, e.Bytes)
		}
	}
	if ok != 7 || qps != backoffs || qps == 0 {
		t.Errorf("journal: %d admitted and %d Over Qps; want 7, and %d Over Qps (the client's back-offs, at least one)", ok, qps, backoffs)
	}
}

// TestPlansQuotaAcrossPostgreSQLReplicas runs two serve processes on one
// PostgreSQL database and checks that a daily quota of N admits N calls
// in total, however the calls are spread: never more at any moment, and
// all N once claimed calls an idle replica holds are given back; the next
// call is refused on both. Usage equals the calls made on both replicas,
// through the CLI, and after both restart.
func TestPlansQuotaAcrossPostgreSQLReplicas(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ENERGYAPI_DB": cluster.Database(t)}
	if _, err := runCmd(t, env, "plans", "set", "daily", "--per-day", "40"); err != nil {
		t.Fatal(err)
	}
	c := planClient(t, env, "acme", "daily")
	const n = 40
	// Both replicas' sandbox clocks stand at noon today (UTC), so that a
	// run across midnight still counts every call on one day.
	noon := time.Now().UTC().Truncate(24 * time.Hour).Add(12 * time.Hour).Format(time.RFC3339)
	flags := []string{"--quota-block", "5", "--usage-flush", "200ms", "--sandbox", "--now", noon}
	t.Run("two replicas", func(t *testing.T) {
		a, b := startServe(t, env, flags...), startServe(t, env, flags...)
		tok, _ := a.token(t, c.ClientID, c.ClientSecret)
		admitted := 0
		call := func(s *server) bool {
			st, body := s.get(t, planDay, tok)
			if st == http.StatusOK {
				admitted++
			} else if st != http.StatusTooManyRequests {
				t.Fatalf("got %d %s, want 200 or 429", st, body)
			}
			if admitted > n {
				t.Fatalf("%d calls admitted, over the quota of %d", admitted, n)
			}
			return st == http.StatusOK
		}
		// A takes a block of 5 and uses 3; then B takes every other block.
		for range 3 {
			call(a)
		}
		for call(b) {
		}
		if admitted < n-5 || admitted > n {
			t.Fatalf("B refused after %d calls in all, want between %d and %d", admitted, n-5, n)
		}
		// A, idle, gives its unused calls back; B claims them.
		testwait.For(t, testwait.Scale(15*time.Second), "all 40 calls admitted", func() bool {
			call(b)
			return admitted == n
		})
		for name, s := range map[string]*server{"A": a, "B": b} {
			if call(s) {
				t.Errorf("call %d on %s: admitted, want refused", n+1, name)
			}
		}
		for name, s := range map[string]*server{"A": a, "B": b} {
			testwait.For(t, testwait.Scale(10*time.Second), "usage on "+name+" equal to the calls made", func() bool {
				u := s.usage(t, tok)
				return u.Today.Calls == n && *u.Today.Remaining == 0 && len(u.Datasets) == 1 && u.Datasets[0].Calls == n
			})
		}
	})
	// Both stopped: their last flush wrote every call.
	out, err := runCmd(t, env, "clients", "usage", "--days", "2", c.ClientID)
	if err != nil || !strings.Contains(out, `"dataset":"total-load","calls":40}`) {
		t.Errorf("clients usage after both stopped: got %q (%v), want 40 calls to total-load", out, err)
	}
	t.Run("after a restart", func(t *testing.T) {
		s := startServe(t, env, flags...)
		tok, _ := s.token(t, c.ClientID, c.ClientSecret)
		if u := s.usage(t, tok); u.Today.Calls != n || *u.Today.Remaining != 0 {
			t.Errorf("usage after a restart: got %+v, want %d calls, none left", u.Today, n)
		}
		if st, body := s.get(t, planDay, tok); st != http.StatusTooManyRequests {
			t.Errorf("call after a restart: got %d %s, want 429", st, body)
		}
	})
}

func TestReadPlans(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc, err string
		n              int
	}{
		{"array", `[{"name":"free","per_day":300},{"name":"pro","per_second":5}]`, "", 2},
		{"object", `{"plans":[{"name":"free","per_day":300}]}`, "", 1},
		{"bad name", `[{"name":"a b"}]`, "plan name", 0},
		{"negative", `[{"name":"a","per_day":-1}]`, "0 (none) or more", 0},
		{"twice", `[{"name":"a"},{"name":"a"}]`, "declared twice", 0},
		{"not JSON", `plans: []`, "want a JSON array", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := readPlans(strings.NewReader(tc.doc))
			if tc.err == "" && (err != nil || len(ps) != tc.n) {
				t.Fatalf("got %+v, %v; want %d plans", ps, err, tc.n)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("got %v, want an error with %q", err, tc.err)
			}
		})
	}
}

// TestPlansCLI defines, lists and deletes plans, assigns them, and reads
// usage through the CLI.
func TestPlansCLI(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "p.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, env, "plans", "set", "free", "--per-second", "1", "--per-day", "300", "--max-range-days", "7")
	if want := `{"name":"free","per_second":1,"burst":0,"per_day":300,"max_range_days":7}` + "\n"; err != nil || out != want {
		t.Fatalf("plans set: got %q, %v; want %q", out, err, want)
	}
	if _, err := runCmd(t, env, "plans", "set", "bad name"); err == nil {
		t.Error("plans set with a bad name: got nil, want an error")
	}
	if _, err := runCmd(t, env, "clients", "create", "--name", "x", "--plan", "nope"); err == nil {
		t.Error("clients create --plan nope: got nil, want an error")
	}
	if out, _ := runCmd(t, env, "clients", "list"); out != "" {
		t.Errorf("clients after a refused create: got %q, want none", out)
	}
	c := planClient(t, env, "acme", "")
	if _, err := runCmd(t, env, "clients", "set-plan", c.ClientID, "free"); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, env, "clients", "set-plan", c.ClientID, "nope"); err == nil {
		t.Error("clients set-plan to a plan that does not exist: got nil, want an error")
	}
	if _, err := runCmd(t, env, "plans", "delete", "free"); err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, env, "plans", "list"); err != nil || out != "" {
		t.Errorf("plans list after delete: got %q, %v; want none", out, err)
	}
	if out, err := runCmd(t, env, "clients", "usage", "--days", "7"); err != nil || out != "" {
		t.Errorf("clients usage with no calls: got %q, %v; want nothing", out, err)
	}
}
