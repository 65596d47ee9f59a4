package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/testwait"
)

// The tests of the demo on demand run energyapi as a user does: a binary
// built without the race detector, in a process of its own, so that what
// they see of a fresh server (every dataset answering from its first
// seconds) is what a user sees, not the race detector's pace.

var built struct {
	once sync.Once
	path string
	err  error
}

// energyapiBinary builds ./cmd/energyapi once per test binary.
func energyapiBinary(tb testing.TB) string {
	tb.Helper()
	buildEnergyapi()
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.path
}

// buildEnergyapi fills built on its first call.
func buildEnergyapi() {
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "energyapi-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "energyapi")
		out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
}

// startBinary runs the built energyapi serve with args on 127.0.0.1:0 until
// the test ends, and returns it once it listens.
func startBinary(tb testing.TB, args ...string) *server {
	tb.Helper()
	cmd := exec.Command(energyapiBinary(tb), append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, calmQueue(args)...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stderr := &apitest.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(testwait.Scale(30 * time.Second)):
			_ = cmd.Process.Kill()
			tb.Error("serve did not stop within 30 s")
		}
		if tb.Failed() {
			tb.Logf("serve's stderr:\n%s", stderr.String())
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case base := <-addr:
		return &server{base: base, stderr: stderr}
	case <-time.After(testwait.Scale(time.Minute)):
		tb.Fatalf("serve did not listen within a minute:\n%s", stderr.String())
	}
	return nil
}

// probes returns the days to ask d for: a day near the start, the middle
// and the end of its coverage (for yearly statistics their first, a
// middle and their last year), and the auctions' first day.
func probes(d catalogEntry) []string {
	first, last := d.Coverage.First, d.Coverage.Last
	if d.Granularity == "year" || d.Granularity == "month" {
		var a, b int
		fmt.Sscan(first[:4], &a)
		fmt.Sscan(last[:4], &b)
		days := []string{first, fmt.Sprintf("%d-07-01", (a+b)/2), last}
		if d.Granularity == "month" {
			days[1] = fmt.Sprintf("%d-06-01", (a+b)/2)
		}
		return days
	}
	f, _ := time.Parse(time.DateOnly, first)
	l, _ := time.Parse(time.DateOnly, last)
	mid := f.Add(l.Sub(f) / 2)
	days := []string{f.AddDate(0, 0, 1).Format(time.DateOnly), mid.Format(time.DateOnly), l.AddDate(0, 0, -1).Format(time.DateOnly)}
	if d.Name == "aste-fcr" {
		days = append(days, demo.FCRStart.String())
	}
	return days
}

// dayQuery returns the query asking d for day (yyyy-mm-dd; its month or
// year at a coarser grain), required filters at their first value.
func dayQuery(t *testing.T, d catalogEntry, day string) string {
	t.Helper()
	if d.Granularity == "month" {
		day = day[:8] + "01" // a monthly record is dated on its month's first day
	}
	q := url.Values{}
	for _, p := range d.Parameters {
		switch {
		case !p.Required:
		case p.Kind == "date": // dateFrom and dateTo, or one day (marketDate)
			q.Set(p.Name, day[8:10]+"/"+day[5:7]+"/"+day[:4])
		case p.Name == "year":
			q.Set(p.Name, day[:4])
		case p.Name == "month":
			q.Set(p.Name, day[5:7])
		case p.Kind == "enum" && len(p.Values) > 0:
			q.Set(p.Name, p.Values[0])
		default:
			t.Errorf("%s: a required parameter %s this test cannot fill", d.Name, p.Name)
		}
	}
	return d.Path + "?" + q.Encode()
}

// TestDemoAnswersEveryDataset starts serve --demo on a new store and asks
// every dataset of GET /catalog, none skipped, for a day near the start,
// the middle and the end of its demo coverage, which /catalog gives as
// the whole range from the first second: each first answer holds
// records, every part generated on demand. It logs how long after the
// start the last answer came, and the first answers' p50 and p99.
func TestDemoAnswersEveryDataset(t *testing.T) {
	t.Parallel()
	energyapiBinary(t) // built before the clock starts
	start := time.Now()
	// The sandbox clock fixes installed capacity's window (2020-2026).
	srv := startBinary(t, "--demo", "--db", filepath.Join(t.TempDir(), "demo.db"), "--now", "2026-07-01T12:00:00+02:00")
	tok, _ := srv.token(t, "demo", "demo-secret")
	datasets := catalogOf(t, srv)
	if len(datasets) < 56 {
		t.Errorf("/catalog lists %d datasets, want at least 56", len(datasets))
	}
	var took []time.Duration
	for _, d := range datasets {
		if d.Coverage == nil {
			t.Errorf("%s: /catalog gives no demo coverage at start", d.Name)
			continue
		}
		days := probes(d)
		if d.Name == "installed-capacity" { // from 2021, as the live service, to the page's window's end
			days = []string{"2021-01-01", "2023-01-01", "2026-01-01"}
		}
		for _, day := range days {
			q := dayQuery(t, d, day)
			t0 := time.Now()
			st, body := srv.get(t, q, tok)
			took = append(took, time.Since(t0))
			if st != 200 || !strings.Contains(string(body), `"`+d.Array+`":[{"`) {
				t.Errorf("%s: got %d %.200s, want records", q, st, body)
			}
		}
	}
	slices.Sort(took)
	if len(took) > 0 {
		t.Logf("%d first answers, the last %.1f s after the start; p50 %v, p99 %v, max %v", len(took), time.Since(start).Seconds(),
			took[len(took)/2].Round(time.Millisecond), took[len(took)*99/100].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
	}
}

// TestDemoOnDemandMatchesEnergyapiDemo serves the newest month and year of
// the demo from a store `energyapi demo --periods 2025,2025-12` wrote and
// from a new store on demand: for every dataset, its answer for the newest days
// is byte for byte the same, ETag and Last-Modified included, and so are
// its answers with include=meta, changedSince and asOf.
func TestDemoOnDemandMatchesEnergyapiDemo(t *testing.T) {
	t.Parallel()
	written := filepath.Join(t.TempDir(), "written.db")
	if out, err := exec.Command(energyapiBinary(t), "demo", "--db", written, "--periods", "2025,2025-12").CombinedOutput(); err != nil {
		t.Fatalf("energyapi demo: %v\n%s", err, out)
	}
	now := "2026-07-01T12:00:00+02:00"
	a := startBinary(t, "--demo", "--db", written, "--now", now)
	b := startBinary(t, "--demo", "--db", filepath.Join(t.TempDir(), "fresh.db"), "--now", now)
	tokA, _ := a.token(t, "demo", "demo-secret")
	tokB, _ := b.token(t, "demo", "demo-secret")
	for _, d := range catalogOf(t, a) {
		if d.Coverage == nil {
			t.Errorf("%s: no demo coverage", d.Name)
			continue
		}
		day := d.Coverage.Last
		if d.Coverage.Last > "2025-12-31" { // beyond the range: the auctions
			day = "2025-12-31"
		}
		if d.Name == "installed-capacity" || d.Name == "aste-fcr" {
			day = map[string]string{"installed-capacity": "2025-01-01", "aste-fcr": demo.FCRStart.String()}[d.Name]
		}
		q := dayQuery(t, d, day)
		for _, extra := range []string{"", "&include=meta", "&changedSince=2025-12-15T00:00:00Z", "&asOf=2026-01-01T06:00:00Z"} {
			ra, rb := a.do(t, http.MethodGet, q+extra, tokA, ""), b.do(t, http.MethodGet, q+extra, tokB, "")
			if ra.status != rb.status || string(ra.body) != string(rb.body) {
				t.Errorf("%s%s: written store %d %.120s; on demand %d %.120s", q, extra, ra.status, ra.body, rb.status, rb.body)
			}
			for _, h := range []string{"Etag", "Last-Modified"} {
				if ra.header.Get(h) != rb.header.Get(h) {
					t.Errorf("%s%s: %s %q on the written store, %q on demand", q, extra, h, ra.header.Get(h), rb.header.Get(h))
				}
			}
			if extra == "" && (ra.status != 200 || !strings.Contains(string(ra.body), `"`+d.Array+`":[{"`)) {
				t.Errorf("%s: got %d %.120s, want records", q, ra.status, ra.body)
			}
		}
	}
}

var recordDay = regexp.MustCompile(`"date":"(\d\d\d\d-\d\d-\d\d)`)

// TestDemoImportRacesAFirstRequest imports a day of total load into a
// month no request has asked for yet, while requests ask for that month,
// on SQLite and on PostgreSQL: once the import is served, the day holds
// the imported records and the month's other days the demo's, as a
// server that saw no import serves them.
func TestDemoImportRacesAFirstRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, db string }{
		{"sqlite", filepath.Join(t.TempDir(), "race.db")},
		{"postgres", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tc.db
			if db == "" {
				db = cluster.Database(t)
			}
			raceImport(t, db)
		})
	}
}

func raceImport(t *testing.T, db string) {
	srv := startBinary(t, "--demo", "--db", db, "--poll-interval", "100ms")
	ref := startBinary(t, "--demo", "--db", filepath.Join(t.TempDir(), "ref.db"))
	tok, _ := srv.token(t, "demo", "demo-secret")
	refTok, _ := ref.token(t, "demo", "demo-secret")
	file := writeFile(t, "day.csv", "Date,Total Load [MW],Forecast Total load [MW],Bidding zone\n15/01/2024 12:00:00,39999,39000,North\n")
	const month = "/load/v2.0/total-load?dateFrom=01/01/2024&dateTo=31/01/2024"
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := runCmd(t, map[string]string{"ENERGYAPI_DB": db}, "import", "--dataset", "total-load", file); err != nil {
			t.Error(err)
		}
	})
	for range 4 {
		wg.Go(func() {
			if st, body := srv.get(t, month, tok); st != 200 || !strings.Contains(string(body), `"total_load":[{"`) {
				t.Errorf("during the import: got %d %.200s, want records", st, body)
			}
		})
	}
	wg.Wait()
	var body []byte
	testwait.For(t, time.Minute, "the import served", func() bool {
		_, body = srv.get(t, month, tok)
		return strings.Contains(string(body), `"39999"`)
	})
	days := map[string]bool{}
	for _, m := range recordDay.FindAllStringSubmatch(string(body), -1) {
		days[m[1]] = true
	}
	if len(days) != 31 {
		t.Errorf("after the import the month holds %d days, want 31", len(days))
	}
	const other = "/load/v2.0/total-load?dateFrom=14/01/2024&dateTo=14/01/2024"
	_, got := srv.get(t, other, tok)
	_, want := ref.get(t, other, refTok)
	if string(got) != string(want) || !strings.Contains(string(got), `"total_load":[{"`) {
		t.Errorf("another day of the month after the import: %.200s, want the demo's %.200s", got, want)
	}
}
