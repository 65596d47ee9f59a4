package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
	"github.com/energyapi/energyapi/internal/testwait"
)

// planStores are the stores the plan tests run on: two replicas on one
// PostgreSQL database, and two on one SQLite file.
func planStores(t *testing.T) map[string]func(t *testing.T) (env map[string]string, replicas int) {
	return map[string]func(t *testing.T) (map[string]string, int){
		"postgres": func(t *testing.T) (map[string]string, int) {
			return map[string]string{"ENERGYAPI_DB": cluster.Database(t)}, 2
		},
		"sqlite": func(t *testing.T) (map[string]string, int) {
			env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "plans.db")}
			if _, err := runCmd(t, env, "init"); err != nil {
				t.Fatal(err)
			}
			return env, 2
		},
	}
}

// startReplicas starts n servers on env's store and returns them.
func startReplicas(t *testing.T, env map[string]string, n int, flags ...string) []*server {
	out := make([]*server, n)
	for i := range out {
		out[i] = startServe(t, env, flags...)
	}
	return out
}

// TestPlanOfANewClientAppliesFromTheFirstCall creates a plan and a client
// on it while the servers run, and calls at once, round robin over the
// replicas: exactly the daily quota is admitted, with usage flushed only
// every 5 s (the default), long after the calls. It failed when plans were
// re-read at each flush: the calls before it went unlimited and uncounted.
func TestPlanOfANewClientAppliesFromTheFirstCall(t *testing.T) {
	t.Parallel()
	for name, open := range planStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env, n := open(t)
			if _, err := runCmd(t, env, "plans", "set", "warmup", "--per-day", "1000"); err != nil {
				t.Fatal(err)
			}
			rs := startReplicas(t, env, n, "--quota-block", "3")
			if _, err := runCmd(t, env, "plans", "set", "ten", "--per-day", "10"); err != nil {
				t.Fatal(err)
			}
			c := planClient(t, env, "fresh", "ten")
			tok, _ := rs[0].token(t, c.ClientID, c.ClientSecret)
			admitted := 0
			for i := range 14 * n {
				st, body := rs[i%n].get(t, planDay, tok)
				for st == http.StatusServiceUnavailable { // shed by a busy machine's admission: neither admitted nor counted
					time.Sleep(100 * time.Millisecond)
					st, body = rs[i%n].get(t, planDay, tok)
				}
				switch st {
				case http.StatusOK:
					admitted++
				case http.StatusTooManyRequests:
				default:
					t.Fatalf("call %d: got %d %s, want 200 or 429", i+1, st, body)
				}
			}
			if admitted != 10 {
				t.Errorf("%d calls admitted across %d replicas, want the quota of 10", admitted, n)
			}
		})
	}
}

// TestMoveToASmallerPlanIsEnforcedAtOnce gives a client a large plan, lets
// every replica claim a block of its quota with one call, and moves the
// client to a plan of 2 a day: once each replica knows the new plan, no
// call is admitted, though each still holds claimed calls of the old plan
// (it admitted all of them before: a 2-a-day plan admitted 10).
func TestMoveToASmallerPlanIsEnforcedAtOnce(t *testing.T) {
	t.Parallel()
	for name, open := range planStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env, n := open(t)
			for _, p := range [][]string{{"big", "100"}, {"two", "2"}} {
				if _, err := runCmd(t, env, "plans", "set", p[0], "--per-day", p[1]); err != nil {
					t.Fatal(err)
				}
			}
			c := planClient(t, env, "mover", "big")
			rs := startReplicas(t, env, n, "--quota-block", "10")
			tok, _ := rs[0].token(t, c.ClientID, c.ClientSecret)
			for _, s := range rs {
				if st, body := s.get(t, planDay, tok); st != http.StatusOK {
					t.Fatalf("first call: got %d %s, want 200", st, body)
				}
			}
			start := time.Now()
			if _, err := runCmd(t, env, "clients", "set-plan", c.ClientID, "two"); err != nil {
				t.Fatal(err)
			}
			for i, s := range rs {
				testwait.For(t, testwait.Scale(10*time.Second), "the replica knowing the new plan", func() bool {
					return s.usage(t, tok).Plan == "two"
				})
				t.Logf("replica %d: the new plan known %v after set-plan began", i+1, time.Since(start).Round(time.Millisecond))
			}
			for i, s := range rs {
				if st, body := s.get(t, planDay, tok); st != http.StatusTooManyRequests {
					t.Errorf("replica %d, a call after the move to 2 a day with 2 made: got %d %s, want 429", i+1, st, body)
				}
			}
		})
	}
}

// TestPythonClientFollowsRateLimitHeaders runs scripts/pyclient/ratelimit.py,
// a client that waits whatever the RateLimit field says for each limit it
// has used up: it spends the whole daily quota, is never refused, and never
// waits longer than a per-second window. It failed when the call that took
// the second's last token said t=0 (so the next call was refused) and that
// refusal said the day had no call left (so the client stopped for hours).
func TestPythonClientFollowsRateLimitHeaders(t *testing.T) {
	t.Parallel()
	python := requirePython(t)
	env := map[string]string{"ENERGYAPI_DB": filepath.Join(t.TempDir(), "p.db")}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	plans := writePlans(t, `[{"name":"paced","per_second":4,"burst":4,"per_day":12}]`)
	s := startServe(t, env, "--plans", plans, "--sandbox", "--now", "2026-11-26T12:00:00Z")
	c := planClient(t, env, "py", "paced")
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "pyclient", "ratelimit.py"), s.base, c.ClientID, c.ClientSecret, "40").CombinedOutput()
	if err != nil {
		t.Fatalf("ratelimit.py: %v\n%s", err, out)
	}
	var res struct {
		Admitted, Refused int
		LongestWait       float64 `json:"longest_wait"`
		Stopped           string
	}
	if err := json.Unmarshal(bytes.TrimSpace(out), &res); err != nil {
		t.Fatalf("ratelimit.py: %s: %v", out, err)
	}
	if res.Admitted != 12 || res.Refused != 0 || res.LongestWait > 1 || res.Stopped != "quota" {
		t.Errorf("ratelimit.py: got %+v, want the 12 calls of the day admitted, none refused, no wait over 1 s, and a stop on the quota", res)
	}
}

// TestUsageFromMemoryUnderTheClientsLimits serves GET /usage from two
// replicas on one PostgreSQL server: a replica shows the calls another
// made once they are flushed, /usage meets the client's per-second limit
// without being counted, and it keeps answering while the database hangs.
// It failed when /usage read the store: 48 callers of it pushed other
// clients' data requests out of the store's slots.
func TestUsageFromMemoryUnderTheClientsLimits(t *testing.T) {
	t.Parallel()
	srv := pgtest.NewServer(t)
	env := map[string]string{"ENERGYAPI_DB": srv.URL()}
	if _, err := runCmd(t, env, "plans", "set", "paced", "--per-second", "2", "--burst", "2", "--per-day", "50"); err != nil {
		t.Fatal(err)
	}
	c := planClient(t, env, "counted", "paced")
	flags := []string{"--usage-flush", "200ms", "--request-timeout", "3s"}
	a, b := startServe(t, env, flags...), startServe(t, env, flags...)
	tok, _ := a.token(t, c.ClientID, c.ClientSecret)
	for i := range 2 {
		if st, body := a.get(t, planDay, tok); st != http.StatusOK {
			t.Fatalf("data call %d on A: got %d %s", i+1, st, body)
		}
	}
	testwait.For(t, testwait.Scale(10*time.Second), "B showing A's 2 calls", func() bool {
		time.Sleep(500 * time.Millisecond) // within B's per-second limit
		return b.usage(t, tok).Today.Calls == 2
	})
	var refused answer
	testwait.For(t, testwait.Scale(10*time.Second), "a /usage call over the per-second limit refused", func() bool {
		refused = b.do(t, http.MethodGet, "/usage", tok, "")
		return refused.status != http.StatusOK
	})
	if refused.status != http.StatusTooManyRequests || refused.header.Get("Retry-After") == "" {
		t.Errorf("/usage over the per-second limit: got %d Retry-After %q, want 429 with Retry-After", refused.status, refused.header.Get("Retry-After"))
	}
	time.Sleep(1100 * time.Millisecond) // the per-second limit has calls again
	srv.Hang()
	start := time.Now()
	u := b.do(t, http.MethodGet, "/usage", tok, "")
	if u.status != http.StatusOK || !bytes.Contains(u.body, []byte(`"calls":2,"limit":50,"remaining":48`)) {
		t.Errorf("/usage while the database hangs: got %d %s, want 200 with A's 2 calls, none of /usage", u.status, u.body)
	}
	t.Logf("/usage answered in %v while the database hung", time.Since(start).Round(time.Millisecond))
	srv.Resume()
}

// TestDeveloperAppFromMemoryUnderTheClientsLimits registers a client on one
// replica and reads its page's data (GET /developers/app) from another: the
// call meets the client's per-second limit, and answers while the database
// hangs, from the registry's memory. It read the store on every call, outside
// every limit, before.
func TestDeveloperAppFromMemoryUnderTheClientsLimits(t *testing.T) {
	t.Parallel()
	srv := pgtest.NewServer(t)
	env := map[string]string{"ENERGYAPI_DB": srv.URL()}
	plans := writePlans(t, `[{"name":"default","per_second":2,"burst":2,"per_day":50}]`)
	flags := []string{"--registration", "open", "--plans", plans, "--request-timeout", "3s"}
	a, b := startServe(t, env, flags...), startServe(t, env, flags...)
	st, c, body := register(t, a, "Page reader", "dev@example.org")
	if st != http.StatusCreated && st != http.StatusOK {
		t.Fatalf("register: %d %s", st, body)
	}
	tok, _ := a.token(t, c.ClientID, c.ClientSecret)
	app := func() answer { return b.do(t, http.MethodGet, "/developers/app", tok, "") }
	if got := app(); got.status != http.StatusOK || !bytes.Contains(got.body, []byte(`"contact":"dev@example.org"`)) {
		t.Fatalf("GET /developers/app on B: got %d %s, want 200 with the contact", got.status, got.body)
	}
	var refused answer
	testwait.For(t, testwait.Scale(10*time.Second), "a /developers/app call over the per-second limit refused", func() bool {
		refused = app()
		return refused.status != http.StatusOK
	})
	if refused.status != http.StatusTooManyRequests || refused.header.Get("Retry-After") == "" {
		t.Errorf("/developers/app over the per-second limit: got %d Retry-After %q, want 429 with Retry-After", refused.status, refused.header.Get("Retry-After"))
	}
	time.Sleep(1100 * time.Millisecond)
	srv.Hang()
	if got := app(); got.status != http.StatusOK || !bytes.Contains(got.body, []byte(`"contact":"dev@example.org"`)) {
		t.Errorf("GET /developers/app while the database hangs: got %d %s, want 200 from memory", got.status, got.body)
	}
	srv.Resume()
}
