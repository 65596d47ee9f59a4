package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/mirror"
	"github.com/energyapi/energyapi/internal/testwait"
)

// The mirror's acceptance (issue 38), through real HTTP: the upstream is
// another energyapi serving the demo data in the public gateway's style
// (403 "Developer Over Qps" and "Over Rate"), with the mirror's client on
// a plan of the gateway's limits, and the sandbox's journal of requests
// and clock. ENERGYAPI_MIRROR_FULL=1 runs the first test at the issue's
// figures (12 datasets over 2024, 2 calls a second, 300 a day: minutes);
// by default it runs the same claims over a quarter at 10 calls a second.

// mirrorDatasets12 are the twelve datasets of the fill test: every kind of
// window (date ranges of 60 and 7 days, one day, a year, a month, one
// request per value of a required filter).
const mirrorDatasets12 = "total-load,market-load,peak-valley,imcei,installed-capacity,actual-generation," +
	"physical-foreign-flow,daily-prices,market-quantity,aste-fcr,generation-unit-unavailability,hydric"

// upstream is an energyapi that a mirror fetches from.
type upstream struct {
	*server
	db, admin string
	client    createdClient // on the plan of the gateway's limits
}

const upstreamAdmin = "upstream-sandbox-admin-token"

// startUpstream serves the demo data at the fixed time now, publicly
// styled, with a client on a plan of perSecond and perDay calls.
func startUpstream(t *testing.T, perSecond, perDay int, now string) *upstream {
	t.Helper()
	db := filepath.Join(t.TempDir(), "upstream.db")
	env := map[string]string{"ENERGYAPI_DB": db}
	if _, err := runCmd(t, env, "init"); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, env, "plans", "set", "gateway", "--per-second", fmt.Sprint(perSecond), "--per-day", fmt.Sprint(perDay)); err != nil {
		t.Fatal(err)
	}
	c := planClient(t, env, "mirror", "gateway")
	s := startBinary(t, "--db", db, "--demo", "--rate-limit-style", "public", "--now", now,
		"--sandbox-admin-token", upstreamAdmin, "--journal-size", "100000")
	return &upstream{server: s, db: db, admin: upstreamAdmin, client: c}
}

// adminDo sends a sandbox admin request and fails the test unless it
// succeeds.
func (u *upstream) adminDo(t *testing.T, method, path, body string) []byte {
	t.Helper()
	a := u.do(t, method, path, u.admin, body)
	if a.status/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, a.status, a.body)
	}
	return a.body
}

// journal returns the mirror client's data requests the upstream saw.
func (u *upstream) journal(t *testing.T) []journalEntry {
	t.Helper()
	var j struct{ Entries []journalEntry }
	if err := json.Unmarshal(u.adminDo(t, http.MethodGet, "/sandbox/journal?client_id="+u.client.ClientID, ""), &j); err != nil {
		t.Fatal(err)
	}
	var out []journalEntry
	for _, e := range j.Entries {
		if e.Dataset != "" {
			out = append(out, e)
		}
	}
	return out
}

type journalEntry struct {
	Time    time.Time
	Path    string
	Dataset string
	Query   [][2]string
	Status  int
	Fault   *struct{ Rule string }
}

// request is the entry's path and query, as a window's.
func (e journalEntry) request() string {
	q := url.Values{}
	for _, kv := range e.Query {
		q.Add(kv[0], kv[1])
	}
	return e.Path + "?" + q.Encode()
}

// fakeDays is the clock of days that a mirror under test and its upstream
// share: a wait of more than a minute (the day's quota spent, a refresh)
// moves both clocks rather than the test waiting; shorter ones are real.
type fakeDays struct {
	t  *testing.T
	up *upstream
	mu sync.Mutex
	at time.Time
	// moved counts the days the clock was moved across.
	moved int
}

func (f *fakeDays) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.at
}

func (f *fakeDays) Sleep(ctx context.Context, d time.Duration) error {
	if d < time.Minute {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return ctx.Err()
	}
	f.advance(d)
	return ctx.Err()
}

func (f *fakeDays) advance(d time.Duration) {
	f.mu.Lock()
	before := f.at
	f.at = f.at.Add(d)
	at := f.at
	if at.UTC().YearDay() != before.UTC().YearDay() {
		f.moved++
	}
	f.mu.Unlock()
	f.up.adminDo(f.t, http.MethodPut, "/sandbox/clock", `{"now": "`+at.Format(time.RFC3339Nano)+`"}`)
}

// mirrorSetting is a mirror of up into db as the CLI would build it, with
// the clock of days, Once, and its log kept for the test.
func mirrorSetting(t *testing.T, up *upstream, db string, c mirrorConfig, days *fakeDays) (mirror.Config, *apitest.Buffer) {
	t.Helper()
	c.db, c.upstream, c.clientID, c.clientSecret = db, up.base, up.client.ClientID, up.client.ClientSecret
	c.maxRangeDays, c.id = 60, "mirror"
	if c.fetchTimeout == 0 {
		c.fetchTimeout = testwait.Scale(10 * time.Second)
	}
	cfg, err := c.mirrorConfig()
	if err != nil {
		t.Fatal(err)
	}
	st, err := openStore(t.Context(), db, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg.Store = st.(mirror.Store)
	log := &apitest.Buffer{}
	cfg.Log = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if days != nil {
		cfg.Now, cfg.Sleep = days.Now, days.Sleep
	}
	return cfg, log
}

// plannedRequests returns the path and query of every window of cfg's plan
// on the day today.
func plannedRequests(cfg mirror.Config, today time.Time) []string {
	o := cfg.Plan
	o.Today = energy.DateOf(today)
	if cfg.LastIsToday {
		o.Last = o.Today
	}
	var out []string
	for _, w := range mirror.Plan(o) {
		out = append(out, w.Dataset.Path()+"?"+w.Query.Encode())
	}
	return out
}

// compareWithUpstream serves the mirror's store and asks it and the
// upstream every request: each answer must be the upstream's, status and
// body byte for byte.
func compareWithUpstream(t *testing.T, up *upstream, db string, requests []string) {
	t.Helper()
	env := map[string]string{"ENERGYAPI_DB": db}
	m := startBinary(t, "--db", db, "--sandbox=false")
	c := createClient(t, env, "--name", "reader")
	mt, _ := m.token(t, c.ClientID, c.ClientSecret)
	ut, _ := up.token(t, demoClientID, demoClientSecret) // no plan: the comparison spends nothing
	differ := 0
	for _, r := range requests {
		us, ub := up.get(t, r, ut)
		ms, mb := m.get(t, r, mt)
		if us != ms || !bytes.Equal(ub, mb) {
			differ++
			if differ <= 3 {
				t.Errorf("%s: the mirror answered %d (%d bytes), the upstream %d (%d bytes)\nmirror:   %.300s\nupstream: %.300s", r, ms, len(mb), us, len(ub), mb, ub)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d answers differ", differ, len(requests))
	}
}

// TestMirrorFillsWithinTheUpstreamsLimits fills a mirror of twelve
// datasets through an upstream that limits calls per second and per day
// and fails now and then (503, connections dropped or cut, answers slower
// than the mirror waits): no call is refused for a limit, the fill goes on
// across days of the fake clock and completes, and every answer of the
// mirror is the upstream's.
func TestMirrorFillsWithinTheUpstreamsLimits(t *testing.T) {
	t.Parallel()
	perSecond, from, to := 10, "2024-01-01", "2024-03-31"
	full := os.Getenv("ENERGYAPI_MIRROR_FULL") != ""
	if full {
		perSecond, from, to = 2, "2024-01-01", "2024-12-31"
	}
	now := time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	c := mirrorConfig{datasets: mirrorDatasets12, from: from, to: to, perSecond: int64(perSecond), refresh: 0, once: true, fetchTimeout: testwait.Scale(3 * time.Second)}
	probe, _ := mirrorSetting(t, &upstream{server: &server{}}, filepath.Join(t.TempDir(), "probe.db"), c, nil)
	requests := plannedRequests(probe, now)
	perDay := 300
	if !full {
		perDay = len(requests)/2 + 1 // the fill takes three days
	}
	if len(requests) <= perDay {
		t.Fatalf("%d windows fit in one day of %d calls: the test would not cross a day", len(requests), perDay)
	}
	up := startUpstream(t, perSecond, perDay, now.Format(time.RFC3339))
	id := up.client.ClientID
	up.adminDo(t, http.MethodPost, "/sandbox/rules", `{"rules": [
		{"match": {"client_id": "`+id+`", "dataset": "installed-capacity"}, "action": {"status": 503}, "trigger": {"first": 2}},
		{"match": {"client_id": "`+id+`", "dataset": "total-load"}, "action": {"drop": true}, "trigger": {"first": 1}},
		{"match": {"client_id": "`+id+`", "dataset": "actual-generation"}, "action": {"truncate": true}, "trigger": {"first": 1}},
		{"match": {"client_id": "`+id+`", "dataset": "hydric"}, "action": {"latency": "12s"}, "trigger": {"first": 1}}]}`)
	db := filepath.Join(t.TempDir(), "mirror.db")
	c.perDay = int64(perDay)
	days := &fakeDays{t: t, up: up, at: now}
	cfg, log := mirrorSetting(t, up, db, c, days)
	if err := mirror.New(cfg).Run(t.Context()); err != nil {
		t.Fatalf("mirror: %v\n%s", err, log)
	}
	j := up.journal(t)
	faults, ok := map[string]int{}, 0
	for _, e := range j {
		switch {
		case e.Fault != nil:
			faults[e.Fault.Rule]++
		case e.Status == http.StatusOK:
			ok++
		default:
			t.Errorf("%s: answered %d without a fault rule: refused for a limit", e.request(), e.Status)
		}
	}
	if ok != len(requests) || len(faults) != 4 {
		t.Errorf("%d answers of 200 for %d windows, faults by rule %v: want one answer a window and each of the 4 rules fired", ok, len(requests), faults)
	}
	if days.moved < 2 {
		t.Errorf("the fill took %d day changes, want 2 at least (%d windows, %d calls a day)", days.moved, len(requests), perDay)
	}
	t.Logf("%d windows, %d calls (faults by rule: %v), %d days", len(requests), len(j), faults, days.moved+1)
	compareWithUpstream(t, up, db, requests)
}
