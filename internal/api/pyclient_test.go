package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// demoWindows are the days the Python client asks for: both 2024 clock changes.
var demoWindows = [][2]energy.Date{
	{{Year: 2024, Month: time.March, Day: 30}, {Year: 2024, Month: time.March, Day: 31}},
	{{Year: 2024, Month: time.October, Day: 26}, {Year: 2024, Month: time.October, Day: 27}},
}

// demoSource returns the catalogue's demo data, generated as serve --demo
// generates them, of the days of demoWindows (and of 2024 for monthly and
// yearly datasets): enough for a client, cheap enough for the race suite.
// They are generated once per test binary (several tests read them, none
// writes: a PartSource is read-only), since generating a year of the demo
// system under the race detector is the slowest step of this package.
func demoSource(tb testing.TB) (*dataset.Catalog, dataset.PartSource) {
	tb.Helper()
	generateDemoOnce()
	if demoOnce.err != nil {
		tb.Fatal(demoOnce.err)
	}
	return demoOnce.cat, demoOnce.src
}

// generateDemoOnce fills demoOnce on its first call.
func generateDemoOnce() {
	demoOnce.Do(func() { demoOnce.cat, demoOnce.src, demoOnce.err = generateDemoSource() })
}

// demoOnce holds demoSource's data once generated.
var demoOnce struct {
	sync.Once
	cat *dataset.Catalog
	src dataset.PartSource
	err error
}

func generateDemoSource() (*dataset.Catalog, dataset.PartSource, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, nil, err
	}
	m := dataset.NewMemory()
	add := func(d *dataset.Dataset, generate func() []dataset.Row) error {
		rows, err := demoRows(d, generate)
		if err == nil {
			_, err = dataset.Import(context.Background(), m, cat, d, rows, time.Unix(0, 0))
		}
		return err
	}
	// The monthly and yearly datasets: 2024, as serve --demo writes a year.
	year := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.January, Day: 1}, Last: energy.Date{Year: 2024, Month: time.December, Day: 31}, Seed: demo.DefaultSeed}
	if err := cat.EachDemoIn(year, dataset.DemoPeriod{First: year.First, Last: year.Last, Year: true}, add); err != nil {
		return nil, nil, err
	}
	// The others: the days of each window, generated alone (a span of the
	// demo data gives the records the whole range has on its days).
	for _, w := range demoWindows {
		in := dataset.DemoInput{First: w[0], Last: w[1], Seed: demo.DefaultSeed}
		err := cat.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
			if d.Grain >= dataset.Month {
				return nil
			}
			return add(d, generate)
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return cat, m, nil
}

// TestPythonClientReadsEveryTimeSeries runs scripts/pyclient/check.py, a
// client written as the family's Python users write theirs, against a
// server with demo data: for every time series in GET /catalog it reads
// body[<array>] and checks date and date_offset against Python's zoneinfo
// across both 2024 clock changes. Without Python 3 and requests it skips,
// unless ENERGYAPI_REQUIRE_PYTHON is set (as in CI).
func TestPythonClientReadsEveryTimeSeries(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	python := requirePython(t)
	cat, src := demoSource(t)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: src})

	args := []string{filepath.Join("..", "..", "scripts", "pyclient", "check.py"), srv.URL, apitest.ClientID, apitest.ClientSecret}
	for _, w := range demoWindows {
		args = append(args, w[0].DMY()+"-"+w[1].DMY())
	}
	out, err := exec.Command(python, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("check.py: %v\n%s", err, out)
	}

	// Every time series of GET /catalog was read, with records.
	resp, err := http.Get(srv.URL + "/catalog")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Datasets []struct{ Name, Path, Granularity string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "ok" && f[2] != "0" {
			checked[f[1]] = true
		}
	}
	n := 0
	for _, d := range list.Datasets {
		if d.Granularity == "year" || d.Granularity == "month" || !strings.Contains(d.Path, "/v2.0/") {
			continue
		}
		n++
		if !checked[d.Name] {
			t.Errorf("check.py did not read %s (%s)\n%s", d.Name, d.Granularity, out)
		}
	}
	if n < 7 {
		t.Errorf("got %d time series in /catalog, want at least total-load, peak-valley, market-load, peak-valley-details and the four transmission datasets", n)
	}
	t.Logf("check.py:\n%s", out)
}

// requirePython returns the path of python3 if it can import requests and
// zoneinfo; otherwise it skips, unless ENERGYAPI_REQUIRE_PYTHON is set (as
// in CI).
func requirePython(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(python, "-c", "import requests, zoneinfo").Run()
	}
	if err != nil {
		if os.Getenv("ENERGYAPI_REQUIRE_PYTHON") != "" {
			t.Fatalf("python3 with requests is required (ENERGYAPI_REQUIRE_PYTHON is set): %v", err)
		}
		t.Skipf("SKIP: no python3 with requests and zoneinfo (%v); CI sets ENERGYAPI_REQUIRE_PYTHON=1 and installs python3-requests", err)
	}
	return python
}

// runPyClientOnDemo serves the demo data of the days first to last and
// runs scripts/pyclient/script against it with the test client's
// credentials, returning what it printed; the test fails if it fails.
func runPyClientOnDemo(t *testing.T, script string, first, last energy.Date) []byte {
	t.Helper()
	python := requirePython(t)
	cat, src := demoDays(t, first, last)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: src})
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "pyclient", script), srv.URL, apitest.ClientID, apitest.ClientSecret).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return out
}

// TestFamilyClientReadsJanuary2024 runs scripts/pyclient/family.py, a
// client written from the pages and live client code of catalogue.md
// sections 4.1 and 4.2 (array and field names as they give them), against
// a server with the demo data of the first two weeks of 2024 and the
// yearly statistics: every endpoint answers a week of January 2024, or the
// year 2023, with records that carry those fields.
func TestFamilyClientReadsJanuary2024(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	out := runPyClientOnDemo(t, "family.py", energy.Date{Year: 2024, Month: time.January, Day: 1}, energy.Date{Year: 2024, Month: time.January, Day: 14})
	if n := strings.Count(string(out), "\nok ") + 1; n < 20 {
		t.Fatalf("family.py read %d endpoints, want 20:\n%s", n, out)
	}
	t.Logf("family.py:\n%s", out)
}
