package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/mirror"
	sqlstore "github.com/energyapi/energyapi/internal/store"
	"github.com/energyapi/energyapi/internal/testwait"
)

// The mirror's acceptance (issue 38), through real HTTP: the upstream is
// another energyapi serving the demo data in the public gateway's style
// (403 "Developer Over Qps" and "Over Rate"), with the mirror's client on
// a plan of the gateway's limits, and the sandbox's journal of requests
// and clock. ENERGYAPI_MIRROR_FULL=1 runs the first test at the issue's
// figures (12 datasets over 2024, 2 calls a second, 300 a day: minutes);
// by default it runs the same claims over a quarter at 20 calls a second.

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
	// manual: a long wait lasts until the test moves the clock.
	manual bool
	moves  chan struct{}
}

func (f *fakeDays) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.at
}

func (f *fakeDays) Sleep(ctx context.Context, d time.Duration) error {
	if f.manual && d >= time.Minute {
		select {
		case <-ctx.Done():
		case <-f.moves:
		}
		return ctx.Err()
	}
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
	if f.manual {
		select {
		case f.moves <- struct{}{}:
		default:
		}
	}
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
	perSecond, from, to := 20, "2024-01-01", "2024-03-31"
	full := os.Getenv("ENERGYAPI_MIRROR_FULL") != ""
	if full {
		perSecond, from, to = 2, "2024-01-01", "2024-12-31"
	}
	now := time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	c := mirrorConfig{datasets: mirrorDatasets12, from: from, to: to, perSecond: int64(perSecond), refresh: 0, once: true, fetchTimeout: testwait.Scale(2 * time.Second)}
	probe, _ := mirrorSetting(t, &upstream{server: &server{}}, filepath.Join(t.TempDir(), "probe.db"), c, nil)
	requests := plannedRequests(probe, now)
	perDay := 300
	if !full {
		perDay = len(requests)/3 + 1 // the fill takes three days
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
		{"match": {"client_id": "`+id+`", "dataset": "hydric"}, "action": {"latency": "8s"}, "trigger": {"first": 1}}]}`)
	db := filepath.Join(t.TempDir(), "mirror.db")
	c.perDay = int64(perDay)
	days := &fakeDays{t: t, up: up, at: now}
	cfg, log := mirrorSetting(t, up, db, c, days)
	if err := mirror.New(cfg).Run(t.Context()); err != nil {
		t.Fatalf("mirror: %v\n%s", err, log)
	}
	j := up.journal(t)
	faults, answered := map[string]int{}, map[string]int{}
	for _, e := range j {
		switch {
		case e.Fault != nil:
			faults[e.Fault.Rule]++
		case e.Status == http.StatusOK:
			answered[e.request()]++
		default:
			t.Errorf("%s: answered %d without a fault rule: refused for a limit", e.request(), e.Status)
		}
	}
	for _, r := range requests {
		if answered[r] == 0 {
			t.Errorf("%s: never answered", r)
		}
	}
	if len(faults) != 4 {
		t.Errorf("faults by rule %v: want each of the 4 rules fired", faults)
	}
	if want := (len(requests)+perDay-1)/perDay - 1; days.moved < want {
		t.Errorf("the fill took %d day changes, want %d at least (%d windows, %d calls a day)", days.moved, want, len(requests), perDay)
	}
	t.Logf("%d windows, %d calls (faults by rule: %v), %d days", len(requests), len(j), faults, days.moved+1)
	compareWithUpstream(t, up, db, requests)
	checkMirrorShown(t, up, db, plannedByDataset(probe, now), int64(perDay))
}

// plannedByDataset counts the windows of cfg's plan by dataset.
func plannedByDataset(cfg mirror.Config, today time.Time) map[string]int {
	o := cfg.Plan
	o.Today = energy.DateOf(today)
	out := map[string]int{}
	for _, w := range mirror.Plan(o) {
		out[w.Dataset.Name]++
	}
	return out
}

var metricsOn = regexp.MustCompile(`metrics on (http://\S+)`)

// checkMirrorShown serves the mirror's store and checks what it says of
// the mirror: GET /catalog gives each dataset's windows, all fetched, and
// the days they cover; /metrics the windows, the calls of the day and how
// far behind the copy is; the banner the upstream and the windows.
func checkMirrorShown(t *testing.T, up *upstream, db string, windows map[string]int, perDay int64) {
	t.Helper()
	stdout, stderr := serveInProcess(t, map[string]string{"ENERGYAPI_DB": db}, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--sandbox=false")
	s := awaitServing(t, stdout, stderr)
	a := s.do(t, http.MethodGet, "/catalog", "", "")
	var cat struct {
		Datasets []struct {
			Name   string
			Mirror *struct {
				Upstream         string
				Windows, Fetched int
				First, Last      string
			}
		}
	}
	if err := json.Unmarshal(a.body, &cat); err != nil {
		t.Fatal(err)
	}
	for _, d := range cat.Datasets {
		want, mirrored := windows[d.Name]
		switch {
		case !mirrored && d.Mirror != nil:
			t.Errorf("/catalog: %s is not mirrored, yet shows %+v", d.Name, d.Mirror)
		case mirrored && (d.Mirror == nil || d.Mirror.Windows != want || d.Mirror.Fetched != want || d.Mirror.Upstream != up.base || d.Mirror.First > "2024-01-01" || d.Mirror.Last < "2024-03-31"):
			t.Errorf("/catalog: %s shows %+v, want %d windows fetched from %s covering the first quarter of 2024", d.Name, d.Mirror, want, up.base)
		}
	}
	m := metricsOn.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no metrics address in %q", stdout.String())
	}
	resp, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range []string{
		fmt.Sprintf(`energyapi_mirror_windows_fetched{dataset="aste-fcr"} %d`, windows["aste-fcr"]),
		fmt.Sprintf(`energyapi_mirror_windows{dataset="total-load"} %d`, windows["total-load"]),
		"energyapi_mirror_behind_seconds ",
		fmt.Sprintf(`energyapi_mirror_call_limit{limit="per_day"} %d`, perDay),
		"energyapi_mirror_calls_today ", // of the real day: the fill's days were the sandbox's
	} {
		if !bytes.Contains(body, []byte(line)) {
			t.Errorf("/metrics lacks %q", line)
		}
	}
	st, err := openStore(t.Context(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat0, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	var banner bytes.Buffer
	newMirrorWatch(t.Context(), st, cat0, slog.New(slog.DiscardHandler)).writeBanner(&banner)
	total := 0
	for _, n := range windows {
		total += n
	}
	if want := fmt.Sprintf("[%s]: %d of %d request windows of %d datasets fetched", up.base, total, total, len(windows)); !strings.Contains(banner.String(), want) {
		t.Errorf("banner %q lacks %q", banner.String(), want)
	}
}

// mirrorProcess runs the built energyapi mirror of up into db with args,
// its log in the returned buffer.
func mirrorProcess(t *testing.T, up *upstream, db string, args ...string) (*exec.Cmd, *apitest.Buffer) {
	t.Helper()
	cmd := exec.Command(energyapiBinary(t), append([]string{"mirror", "--upstream", up.base, "--db", db, "--log-format", "text"}, args...)...)
	cmd.Env = append(os.Environ(), "ENERGYAPI_UPSTREAM_CLIENT_ID="+up.client.ClientID, "ENERGYAPI_UPSTREAM_CLIENT_SECRET="+up.client.ClientSecret)
	log := &apitest.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, log
}

// mirrorQuarter are the windows of the kill and replica tests: four kinds
// of window over a quarter, about 110 calls.
var mirrorQuarter = []string{"--datasets", "total-load,aste-fcr,market-quantity,imcei", "--from", "2024-01-01", "--to", "2024-03-31", "--per-day", "0", "--once"}

// windowsOf returns what the store records of its windows: key, digest
// and records of each fetched one.
func windowsOf(t *testing.T, db string) []string {
	t.Helper()
	st, err := openStore(t.Context(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws, err := st.(mirror.Store).MirrorWindows(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range ws {
		out = append(out, fmt.Sprintf("%s %d %s %d", w.Key, w.Fetches, w.Digest, w.Records))
	}
	return out
}

// TestMirrorKilledLosesNothingAndFetchesNothingTwice kills a mirror with
// SIGKILL five times during its fill and runs it again each time: the
// store it ends with is the one an uninterrupted run leaves, and the
// upstream saw each window asked for once, but for at most the one in
// flight at each kill (its answer was never committed).
func TestMirrorKilledLosesNothingAndFetchesNothingTwice(t *testing.T) {
	t.Parallel()
	up := startUpstream(t, 20, 0, time.Now().UTC().Format(time.RFC3339))
	db := filepath.Join(t.TempDir(), "killed.db")
	args := append([]string{"--per-second", "20"}, mirrorQuarter...)
	var kills []time.Time
	for i := range 5 {
		cmd, log := mirrorProcess(t, up, db, args...)
		testwait.For(t, time.Minute, "the mirror fetching", func() bool { return strings.Contains(log.String(), "mirror: progress") })
		time.Sleep(time.Duration(150+i*170) * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		kills = append(kills, time.Now()) // once it is dead: it may send until then
	}
	cmd, log := mirrorProcess(t, up, db, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the last run: %v\n%s", err, log)
	}
	seen := map[string][]time.Time{}
	for _, e := range up.journal(t) {
		seen[e.request()] = append(seen[e.request()], e.Time)
	}
	twice := 0
	for r, at := range seen {
		if len(at) == 1 {
			continue
		}
		twice += len(at) - 1
		// In flight at a kill: asked for at most 5 s before the mirror was
		// dead, or a moment after, the upstream journaling a request when
		// it reads it, which on a busy machine can be after its sender died.
		inFlight := false
		for _, k := range kills {
			inFlight = inFlight || (at[0].Before(k.Add(testwait.Scale(time.Second))) && k.Sub(at[0]) < testwait.Scale(5*time.Second))
		}
		if len(at) > 2 || !inFlight {
			t.Errorf("%s asked for %d times (%v), not only again after a kill during its fetch (kills %v)", r, len(at), at, kills)
		}
	}
	if twice > len(kills) {
		t.Errorf("%d windows asked for again after %d kills", twice, len(kills))
	}
	whole := filepath.Join(t.TempDir(), "whole.db")
	cmd, log = mirrorProcess(t, up, whole, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the uninterrupted run: %v\n%s", err, log)
	}
	if got, want := windowsOf(t, db), windowsOf(t, whole); !slices.Equal(got, want) || len(got) == 0 {
		t.Errorf("the killed mirror's windows differ from an uninterrupted run's:\n got %d: %.500v\nwant %d: %.500v", len(got), got, len(want), want)
	}
	t.Logf("%d windows, %d asked for again after %d kills", len(seen), twice, len(kills))
	var requests []string
	for r := range seen {
		requests = append(requests, r)
	}
	compareWithUpstream(t, up, db, requests)
}

// TestTwoMirrorsOnOnePostgreSQL runs two mirror processes on one
// PostgreSQL store: no window is asked for by both, and together they
// keep to the upstream's calls a second.
func TestTwoMirrorsOnOnePostgreSQL(t *testing.T) {
	t.Parallel()
	up := startUpstream(t, 20, 0, time.Now().UTC().Format(time.RFC3339))
	dsn := cluster.Database(t)
	if _, err := runCmd(t, map[string]string{"ENERGYAPI_DB": dsn}, "init"); err != nil {
		t.Fatal(err)
	}
	// A replica serving the store before anything is mirrored into it.
	replica := startBinary(t, "--db", dsn, "--sandbox=false")
	args := append([]string{"--per-second", "20"}, mirrorQuarter...)
	a, alog := mirrorProcess(t, up, dsn, append(args, "--id", "a")...)
	b, blog := mirrorProcess(t, up, dsn, append(args, "--id", "b")...)
	if err := a.Wait(); err != nil {
		t.Fatalf("mirror a: %v\n%s", err, alog)
	}
	if err := b.Wait(); err != nil {
		t.Fatalf("mirror b: %v\n%s", err, blog)
	}
	seen := map[string]int{}
	for _, e := range up.journal(t) {
		seen[e.request()]++
		if e.Status != http.StatusOK {
			t.Errorf("%s: answered %d", e.request(), e.Status)
		}
	}
	for r, n := range seen {
		if n != 1 {
			t.Errorf("%s asked for %d times", r, n)
		}
	}
	for _, log := range []*apitest.Buffer{alog, blog} {
		if !strings.Contains(log.String(), "mirror: progress") {
			t.Errorf("a mirror fetched nothing:\n%s", log)
		}
	}
	if ws := windowsOf(t, dsn); len(ws) != len(seen) || len(ws) == 0 {
		t.Errorf("%d windows in the store, %d asked for", len(ws), len(seen))
	}
	// The replica that started on the empty store shows the mirror and
	// serves its data without a restart.
	testwait.For(t, 30*time.Second, "the running replica's catalogue showing the mirror", func() bool {
		var cat struct {
			Datasets []struct {
				Name   string
				Mirror *struct{ Windows, Fetched int }
			}
		}
		if err := json.Unmarshal(replica.do(t, http.MethodGet, "/catalog", "", "").body, &cat); err != nil {
			return false
		}
		for _, d := range cat.Datasets {
			if d.Name == "aste-fcr" {
				return d.Mirror != nil && d.Mirror.Fetched == 91 && d.Mirror.Windows == 91
			}
		}
		return false
	})
	c := createClient(t, map[string]string{"ENERGYAPI_DB": dsn}, "--name", "reader")
	tok, _ := replica.token(t, c.ClientID, c.ClientSecret)
	if st, body := replica.get(t, "/market/v1.0/aste-fcr?marketDate=05/02/2024", tok); st != http.StatusOK || !bytes.Contains(body, []byte(`"price"`)) {
		t.Errorf("the running replica's answer from the mirrored data: %d %.200s", st, body)
	}
}

// TestMirrorServesCorrectionsWithinOneRefresh corrects a week of values
// upstream after the fill (an import there, as a late final publication):
// once the clock has moved one refresh period the mirror serves the new
// values, changedSince on the mirror returns exactly the changed records,
// and its updates feed names the import that changed them.
func TestMirrorServesCorrectionsWithinOneRefresh(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC)
	up := startUpstream(t, 20, 0, now.Format(time.RFC3339))
	db := filepath.Join(t.TempDir(), "mirror.db")
	days := &fakeDays{t: t, up: up, at: now, manual: true, moves: make(chan struct{}, 1)}
	c := mirrorConfig{datasets: "total-load", from: "2024-02-01", perSecond: 20, refresh: time.Hour}
	cfg, log := mirrorSetting(t, up, db, c, days)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mirror.New(cfg).Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	// fetched reports whether every window that holds a day of March 2024
	// was fetched after after.
	fetched := func(after time.Time) func() bool {
		return func() bool {
			ws := windowsState(t, cfg)
			for _, w := range ws {
				if w.FirstDay <= "2024-03-31" && w.LastDay >= "2024-03-01" && w.FetchedAt.Before(after) {
					return false
				}
			}
			return len(ws) > 0
		}
	}
	testwait.For(t, time.Minute, "the fill", fetched(time.Time{}.Add(1)))

	week := "/load/v2.0/total-load?dateFrom=11/03/2024&dateTo=17/03/2024"
	corrected := correctUpstream(t, up, week)
	before := time.Now()
	refreshed := days.Now().Add(time.Hour)
	days.advance(time.Hour)
	testwait.For(t, time.Minute, "the refresh", fetched(refreshed))

	env := map[string]string{"ENERGYAPI_DB": db}
	m := startBinary(t, "--db", db, "--sandbox=false")
	rc := createClient(t, env, "--name", "reader")
	mt, _ := m.token(t, rc.ClientID, rc.ClientSecret)
	ut, _ := up.token(t, demoClientID, demoClientSecret)
	if _, ub := up.get(t, week, ut); true {
		if _, mb := m.get(t, week, mt); !bytes.Equal(ub, mb) {
			t.Fatalf("after one refresh the mirror serves %.300s, the upstream %.300s\n%s", mb, ub, log)
		}
	}
	month := "/load/v2.0/total-load?dateFrom=01/03/2024&dateTo=31/03/2024&changedSince=" + url.QueryEscape(before.UTC().Format(time.RFC3339Nano))
	_, body := m.get(t, month, mt)
	var changed struct {
		TotalLoad []map[string]string `json:"total_load"`
	}
	if err := json.Unmarshal(body, &changed); err != nil {
		t.Fatalf("%s: %v: %.300s", month, err, body)
	}
	got := map[string]bool{}
	for _, r := range changed.TotalLoad {
		got[r["date"]+" "+r["bidding_zone"]] = true
	}
	if len(got) != len(corrected) || len(changed.TotalLoad) != len(corrected) {
		t.Errorf("changedSince: %d records, want the %d corrected", len(changed.TotalLoad), len(corrected))
	}
	for k := range corrected {
		if !got[k] {
			t.Errorf("changedSince lacks the corrected record %s", k)
			break
		}
	}
	_, feed := m.get(t, "/updates", mt)
	var updates struct {
		Updates []struct {
			Dataset string
			Changed bool
			Rows    struct{ Updated int }
		}
	}
	if err := json.Unmarshal(feed, &updates); err != nil || len(updates.Updates) == 0 {
		t.Fatalf("/updates: %v: %.300s", err, feed)
	}
	last := updates.Updates[len(updates.Updates)-1]
	if last.Dataset != "total-load" || !last.Changed || last.Rows.Updated != len(corrected) {
		t.Errorf("the feed's last update: %+v, want total-load changed with %d records updated", last, len(corrected))
	}
}

// windowsState returns the mirror's windows as its store holds them.
func windowsState(t *testing.T, cfg mirror.Config) []sqlstore.MirrorWindow {
	t.Helper()
	ws, err := cfg.Store.MirrorWindows(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// correctUpstream imports into the upstream's store the records of its
// answer to request with every total_load_MW value raised by 1000, and
// returns their keys (date and bidding zone).
func correctUpstream(t *testing.T, up *upstream, request string) map[string]bool {
	t.Helper()
	tok, _ := up.token(t, demoClientID, demoClientSecret)
	_, body := up.get(t, request, tok)
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, r := range doc["total_load"].([]any) {
		rec := r.(map[string]any)
		v, err := energy.ParseNumber(rec["total_load_MW"].(string))
		if err != nil {
			t.Fatal(err)
		}
		rec["total_load_MW"] = strconv.FormatFloat(v+1000, 'f', -1, 64)
		keys[rec["date"].(string)+" "+rec["bidding_zone"].(string)] = true
	}
	b, _ := json.Marshal(doc)
	f := filepath.Join(t.TempDir(), "corrected.json")
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, map[string]string{"ENERGYAPI_DB": up.db}, "import", "--dataset", "total-load", f); err != nil {
		t.Fatal(err)
	}
	ut, _ := up.token(t, demoClientID, demoClientSecret)
	testwait.For(t, 30*time.Second, "the upstream serving the correction", func() bool {
		_, now := up.get(t, request, ut)
		return !bytes.Equal(now, body)
	})
	return keys
}

// TestMirrorRefusesBadFlags: each mistake in mirror's flags is a usage
// error naming it, before anything is opened or fetched.
func TestMirrorRefusesBadFlags(t *testing.T) {
	t.Parallel()
	creds := map[string]string{"ENERGYAPI_UPSTREAM_CLIENT_ID": "id", "ENERGYAPI_UPSTREAM_CLIENT_SECRET": "secret"}
	db := filepath.Join(t.TempDir(), "never.db")
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{creds, nil, "needs --upstream"},
		{nil, []string{"--upstream", "http://127.0.0.1:1"}, "credentials"},
		{creds, []string{"--upstream", "http://127.0.0.1:1", "--datasets", "total-lod"}, "total-lod"},
		{creds, []string{"--upstream", "http://127.0.0.1:1", "--datasets", "total-load", "--first", "aste-fcr"}, "--first"},
		{creds, []string{"--upstream", "http://127.0.0.1:1", "--from", "2024-13-01"}, "--from"},
		{creds, []string{"--upstream", "http://127.0.0.1:1", "--from", "2024-03-01", "--to", "2024-02-01"}, "after"},
		{creds, []string{"--upstream", "http://127.0.0.1:1", "extra"}, "no arguments"},
	} {
		env := map[string]string{"ENERGYAPI_DB": db}
		maps.Copy(env, tc.env)
		_, err := runCmd(t, env, append([]string{"mirror"}, tc.args...)...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("mirror %v: got %v, want a usage error naming %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a refused mirror created the store: %v", err)
	}
}
