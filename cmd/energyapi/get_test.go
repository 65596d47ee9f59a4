package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/client"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// getData is a small hand-written dataset; the expected outputs below are
// written from it by hand.
func getData() apitest.Rows {
	utc := func(m time.Month, d, h, min int) time.Time { return time.Date(2024, m, d, h, min, 0, 0, time.UTC) }
	day := func(m time.Month, d int, peakAt time.Time, peak float64, valleyAt time.Time, valley float64) energy.DayExtremes {
		return energy.DayExtremes{Day: energy.Date{Year: 2024, Month: m, Day: d}, Peak: energy.Extreme{At: peakAt, GW: peak}, Valley: energy.Extreme{At: valleyAt, GW: valley}}
	}
	return apitest.Rows{
		"thermoelectric": apitest.SmallThermo(),
		"peak-valley": apitest.PeakValley(
			day(1, 1, utc(1, 1, 17, 0), 31, utc(1, 1, 3, 0), 18.2),
			day(2, 29, utc(2, 29, 17, 30), 38.125, utc(2, 29, 2, 45), 22),
			day(3, 1, utc(3, 1, 17, 0), 37.75, utc(3, 1, 3, 0), 21.5),
			// Summer time from 31 March: 01:00 UTC is 03:00 +02:00.
			day(3, 31, utc(3, 31, 18, 0), 29.9876, utc(3, 31, 1, 0), 17.0004),
		),
	}
}

// credentials is an environment that holds the test server's client.
func credentials() map[string]string {
	return map[string]string{"ENERGYAPI_CLIENT_ID": apitest.ClientID, "ENERGYAPI_CLIENT_SECRET": apitest.ClientSecret}
}

// runGetCmd runs "get" against srv with the environment env, checking the
// traffic against the OpenAPI document and recording waits.
func runGetCmd(t *testing.T, srv *apitest.Server, env map[string]string, args ...string) (stdout, stderr string, w *apitest.Sleeps, err error) {
	t.Helper()
	w = &apitest.Sleeps{}
	var out, errOut bytes.Buffer
	hc := &http.Client{Transport: apitest.NewValidator(t).Transport(t, nil)}
	args = append([]string{args[0], "--base-url", srv.URL}, args[1:]...)
	err = runGetWith(context.Background(), args, envOf(env), &out, &errOut, client.WithHTTPClient(hc), client.WithSleep(w.Sleep))
	return out.String(), errOut.String(), w, err
}

// seen is what the server saw: "GET /path?query 200".
func seen(srv *apitest.Server) []string {
	var out []string
	for _, s := range srv.Seen() {
		out = append(out, s.Method+" "+s.Path+"?"+s.Query+" "+strconv.Itoa(s.Status))
	}
	return out
}

func wantSeen(t *testing.T, srv *apitest.Server, want ...string) {
	t.Helper()
	if got := seen(srv); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the server saw:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const (
	tokenReq = "POST /public-api/access-token? 200"
	pvReq    = "GET /load/v2.0/peak-valley-load?"
	thermo   = "GET /generation/v2.0/thermoelectric-production?"
)

func TestGetPeakValleyCSVOverSeveralWindows(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, errOut, _, err := runGetCmd(t, srv, credentials(), "peak-valley", "--from", "01/01/2024", "--to", "31/03/2024", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	// The API's fields, the instant with its offset in one column.
	const want = "date,peak_load_GW,valley_load_GW\n" +
		"2024-01-01T04:00:00+01:00,,18.2\n" +
		"2024-01-01T18:00:00+01:00,31,\n" +
		"2024-02-29T03:45:00+01:00,,22\n" +
		"2024-02-29T18:30:00+01:00,38.125,\n" +
		"2024-03-01T04:00:00+01:00,,21.5\n" +
		"2024-03-01T18:00:00+01:00,37.75,\n" +
		"2024-03-31T03:00:00+02:00,,17\n" +
		"2024-03-31T20:00:00+02:00,29.988,\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	const wantProgress = "energyapi: request 1 of 2: 01/01/2024 to 29/02/2024\n" +
		"energyapi: request 2 of 2: 01/03/2024 to 31/03/2024\n"
	if errOut != wantProgress {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, wantProgress)
	}
	wantSeen(t, srv, tokenReq,
		pvReq+"dateFrom=01%2F01%2F2024&dateTo=29%2F02%2F2024 200",
		pvReq+"dateFrom=01%2F03%2F2024&dateTo=31%2F03%2F2024 200")
}

func TestGetNoProgressForOneRequest(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, errOut, _, err := runGetCmd(t, srv, credentials(), "peak-valley", "--from", "1/3/2024", "--to", "1/3/2024", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if errOut != "" || out != "date,peak_load_GW,valley_load_GW\n2024-03-01T04:00:00+01:00,,21.5\n2024-03-01T18:00:00+01:00,37.75,\n" {
		t.Errorf("got stdout %q stderr %q, want the day's two rows and no progress", out, errOut)
	}
}

func TestGetThermoelectricCSV(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	// Credentials by flag this time; the environment holds a wrong secret, and flags win.
	env := map[string]string{"ENERGYAPI_CLIENT_SECRET": "wrong"}
	out, _, _, err := runGetCmd(t, srv, env, "thermoelectric", "--year", "2023", "--region", "Puglia", "--province", "Brindisi", "--province", "Taranto",
		"--format", "csv", "--client-id", apitest.ClientID, "--client-secret", apitest.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	const want = "year,capacity_type,region,province,category,subcategory,production_GWh\n" +
		"2023,Lorda,Puglia,Brindisi,Non cogenerativa,Condensazione,5234.568\n" +
		"2023,Netta,Puglia,Brindisi,Non cogenerativa,Condensazione,5012.1\n" +
		"2023,Lorda,Puglia,Taranto,Cogenerativa,Contropressione,0.408\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	wantSeen(t, srv, tokenReq, thermo+"province=Brindisi&province=Taranto&region=Puglia&year=2023 200")
}

func TestGetThermoelectricNegativeThousands(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, _, _, err := runGetCmd(t, srv, credentials(), "thermoelectric", "--year", "2022", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	// The API says "-16.368,385".
	if !strings.HasSuffix(out, ",Condensazione,-16368.385\n") {
		t.Errorf("stdout %q: want the production as -16368.385", out)
	}
}

func TestGetThermoelectricEmptyBody(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	for format, want := range map[string]string{
		"csv":  "year,capacity_type,region,province,category,subcategory,production_GWh\n",
		"json": "[]\n",
	} {
		out, _, _, err := runGetCmd(t, srv, credentials(), "thermoelectric", "--year", "2023", "--category", "Idroelettrica", "--format", format)
		if err != nil || out != want {
			t.Errorf("%s: got %q, %v; want %q", format, out, err, want)
		}
	}
	for _, s := range srv.SeenPath("/generation/v2.0/thermoelectric-production") {
		if s.Status != http.StatusOK {
			t.Errorf("got status %d, want 200 (the empty body)", s.Status)
		}
	}
}

func TestGetDefaultsToJSONOffTerminal(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, _, _, err := runGetCmd(t, srv, credentials(), "thermoelectric", "--year", "2022")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stdout %q is not a JSON array: %v", out, err)
	}
	want := map[string]any{"year": float64(2022), "capacity_type": "Lorda", "region": "Puglia", "province": "Brindisi",
		"category": "Non cogenerativa", "subcategory": "Condensazione", "production_GWh": -16368.385}
	if len(rows) != 1 || len(rows[0]) != len(want) {
		t.Fatalf("got %v, want one row %v", rows, want)
	}
	for k, v := range want {
		if rows[0][k] != v {
			t.Errorf("%s: got %#v, want %#v", k, rows[0][k], v)
		}
	}
	// A file is not a terminal either.
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("isTerminal: got true for a file or a buffer, want false")
	}
}

func TestGetPeakValleyJSON(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, _, _, err := runGetCmd(t, srv, credentials(), "peak-valley", "--from", "31/03/2024", "--to", "31/03/2024", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	const want = `[
  {
    "date": "2024-03-31T03:00:00+02:00",
    "peak_load_GW": null,
    "valley_load_GW": 17
  },
  {
    "date": "2024-03-31T20:00:00+02:00",
    "peak_load_GW": 29.988,
    "valley_load_GW": null
  }
]
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}

// cells splits table lines into their cells (separated by two or more
// spaces) and checks that the lines are equally long: the last column, the
// number, is aligned right.
func cells(t *testing.T, table string) [][]string {
	t.Helper()
	gap := regexp.MustCompile(`  +`)
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	var out [][]string
	for i, line := range lines {
		out = append(out, gap.Split(strings.TrimSpace(line), -1))
		if len(line) != len(lines[0]) {
			t.Errorf("line %d %q: %d characters, want %d like the header", i, line, len(line), len(lines[0]))
		}
	}
	return out
}

func TestGetTable(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	out, _, _, err := runGetCmd(t, srv, credentials(), "thermoelectric", "--year", "2023", "--province", "Milano", "--province", "Taranto", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"YEAR", "CAPACITY_TYPE", "REGION", "PROVINCE", "CATEGORY", "SUBCATEGORY", "PRODUCTION_GWH"},
		{"2023", "Lorda", "Lombardia", "Milano", "Non cogenerativa", "Ciclo combinato", "27389.400"},
		{"2023", "Lorda", "Puglia", "Taranto", "Cogenerativa", "Contropressione", "0.408"},
	}
	got := cells(t, out)
	if len(got) != len(want) {
		t.Fatalf("got %q, want %d lines", out, len(want))
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}

	out, _, _, err = runGetCmd(t, srv, credentials(), "peak-valley", "--from", "31/03/2024", "--to", "31/03/2024", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	// Numbers align right; the empty one of the two loads is blank.
	wantPV := "DATE                     PEAK_LOAD_GW  VALLEY_LOAD_GW\n" +
		"2024-03-31 03:00 +02:00                        17.000\n" +
		"2024-03-31 20:00 +02:00        29.988                \n"
	if out != wantPV {
		t.Errorf("peak-valley table:\n%q\nwant\n%q", out, wantPV)
	}
}

func TestGetRateLimitedThenSuccess(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData(), Wrap: apitest.Inject(1, "/load/v2.0/peak-valley-load", http.StatusTooManyRequests,
		`{"result":{"message":"Too Many Requests","status":"ERROR"}}`, "Retry-After", "2")})
	out, _, w, err := runGetCmd(t, srv, credentials(), "peak-valley", "--from", "1/3/2024", "--to", "1/3/2024", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != 3 {
		t.Errorf("stdout %q: want a header and two rows", out)
	}
	wantSeen(t, srv, tokenReq,
		pvReq+"dateFrom=01%2F03%2F2024&dateTo=01%2F03%2F2024 429",
		pvReq+"dateFrom=01%2F03%2F2024&dateTo=01%2F03%2F2024 200")
	if got := w.Got(); len(got) != 1 || got[0] != 2*time.Second {
		t.Errorf("waits: got %v, want [2s] as Retry-After asked", got)
	}
}

// TestGetTokenExpiryMidRange: the server's clock passes the token's lifetime
// after the first window; the command gets a new token and carries on.
func TestGetTokenExpiryMidRange(t *testing.T) {
	t.Parallel()
	clk := apitest.NewClock(time.Now())
	var once sync.Once
	jump := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			if r.URL.Path == "/load/v2.0/peak-valley-load" {
				once.Do(func() { clk.Advance(301 * time.Second) })
			}
		})
	}
	srv := apitest.NewServer(t, apitest.Options{Data: getData(), Now: clk.Now, Wrap: jump})
	out, _, _, err := runGetCmd(t, srv, credentials(), "peak-valley", "--from", "01/01/2024", "--to", "31/03/2024", "--format", "csv", "--max-range-days", "31")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != 9 {
		t.Errorf("stdout %q: want a header and eight rows", out)
	}
	wantSeen(t, srv, tokenReq,
		pvReq+"dateFrom=01%2F01%2F2024&dateTo=31%2F01%2F2024 200",
		pvReq+"dateFrom=01%2F02%2F2024&dateTo=02%2F03%2F2024 401",
		tokenReq,
		pvReq+"dateFrom=01%2F02%2F2024&dateTo=02%2F03%2F2024 200",
		pvReq+"dateFrom=03%2F03%2F2024&dateTo=31%2F03%2F2024 200")
}

func TestGetServerRefusalIsTheError(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	env := map[string]string{"ENERGYAPI_CLIENT_ID": apitest.ClientID, "ENERGYAPI_CLIENT_SECRET": "wrong"}
	out, _, _, err := runGetCmd(t, srv, env, "thermoelectric", "--year", "2023")
	if !errors.Is(err, client.ErrUnauthorized) || !strings.Contains(err.Error(), "invalid_client") || out != "" {
		t.Errorf("got %v and stdout %q, want the invalid_client error and no output", err, out)
	}
}

func TestGetUsageErrors(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: getData()})
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"unknown dataset", credentials(), []string{"total-load"}},
		{"year missing", credentials(), []string{"thermoelectric"}},
		{"to missing", credentials(), []string{"peak-valley", "--from", "01/01/2024"}},
		{"ISO date", credentials(), []string{"peak-valley", "--from", "2024-01-01", "--to", "02/01/2024"}},
		{"no such day", credentials(), []string{"peak-valley", "--from", "30/02/2024", "--to", "02/03/2024"}},
		{"from after to", credentials(), []string{"peak-valley", "--from", "02/01/2024", "--to", "01/01/2024"}},
		{"unknown format", credentials(), []string{"thermoelectric", "--year", "2023", "--format", "xml"}},
		{"no credentials", nil, []string{"thermoelectric", "--year", "2023"}},
		{"secret missing", map[string]string{"ENERGYAPI_CLIENT_ID": "x"}, []string{"thermoelectric", "--year", "2023"}},
		{"argument", credentials(), []string{"thermoelectric", "--year", "2023", "extra"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, _, err := runGetCmd(t, srv, tc.env, tc.args...); !errors.Is(err, errUsage) {
				t.Errorf("got %v, want a usage error", err)
			}
		})
	}
	if _, err := runCmd(t, credentials(), "get"); !errors.Is(err, errUsage) {
		t.Errorf("get without a dataset: got %v, want a usage error", err)
	}
	if n := len(srv.Seen()); n != 0 {
		t.Errorf("the server saw %d requests, want none", n)
	}
}

// TestGetAsOfChangedSinceAndCache corrects a value between two imports and
// fetches with --as-of, --changed-since and --include meta, then twice with
// --cache-dir: the second fetch is a revalidation the server answers 304.
func TestGetAsOfChangedSinceAndCache(t *testing.T) {
	t.Parallel()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cat.Lookup("total-load")
	mem := dataset.NewMemory()
	at := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC) // 01:00 in Rome
	load := func(stamp string, v float64) {
		s, _ := time.Parse(time.RFC3339, stamp)
		rows := []dataset.Row{
			{Time: at.Unix(), Text: []string{"Sicily"}, Num: []float64{1000, math.NaN()}},
			{Time: at.Add(15 * time.Minute).Unix(), Text: []string{"Sicily"}, Num: []float64{v, math.NaN()}},
		}
		if _, err := dataset.Import(t.Context(), mem, cat, d, rows, s); err != nil {
			t.Fatal(err)
		}
	}
	load("2024-05-01T10:00:00Z", 1100)
	load("2024-05-03T10:00:00Z", 1150)
	srv := apitest.NewServer(t, apitest.Options{Catalog: cat, Source: mem})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--as-of", "2024-05-02T00:00:00Z"}, "date,total_load_MW,forecast_total_load_MW,bidding_zone\n" +
			"2024-03-10T01:00:00+01:00,1000,,Sicily\n2024-03-10T01:15:00+01:00,1100,,Sicily\n"},
		{[]string{"--changed-since", "2024-05-01T10:00:00Z", "--include", "meta"}, "date,total_load_MW,forecast_total_load_MW,bidding_zone,published_at,revised_at\n" +
			"2024-03-10T01:15:00+01:00,1150,,Sicily,2024-05-01T10:00:00Z,2024-05-03T10:00:00Z\n"},
	} {
		args := append([]string{"total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--format", "csv"}, tc.args...)
		out, _, _, err := runGetCmd(t, srv, credentials(), args...)
		if err != nil || out != tc.want {
			t.Errorf("%v: got %q (%v), want %q", tc.args, out, err, tc.want)
		}
	}
	if _, _, _, err := runGetCmd(t, srv, credentials(), "total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--as-of", "May"); err == nil {
		t.Error("--as-of May: got no error, want a usage error")
	}

	cache := t.TempDir()
	srv = apitest.NewServer(t, apitest.Options{Catalog: cat, Source: mem})
	var outs []string
	for range 2 {
		out, _, _, err := runGetCmd(t, srv, credentials(), "total-load", "--from", "10/03/2024", "--to", "10/03/2024", "--format", "csv", "--cache-dir", cache)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	const q = "GET /load/v2.0/total-load?dateFrom=10%2F03%2F2024&dateTo=10%2F03%2F2024"
	wantSeen(t, srv, tokenReq, q+" 200", tokenReq, q+" 304")
	if outs[0] != outs[1] || outs[0] != "date,total_load_MW,forecast_total_load_MW,bidding_zone\n2024-03-10T01:00:00+01:00,1000,,Sicily\n2024-03-10T01:15:00+01:00,1150,,Sicily\n" {
		t.Errorf("fetched then revalidated: got %q and %q, want the same records", outs[0], outs[1])
	}
}

// TestGetCompressedWithCache: get asks for compression, reads the gzip
// answer, and with --cache-dir revalidates it under its gzip tag: the
// second fetch is a 304, and both print the same records.
func TestGetCompressedWithCache(t *testing.T) {
	t.Parallel()
	srv := apitest.NewServer(t, apitest.Options{Data: apitest.Rows{"thermoelectric": demo.Thermoelectric()}})
	var mu sync.Mutex
	var seen []string // Accept-Encoding, If-None-Match, status, Content-Encoding of each data request
	rec := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := apitest.NewValidator(t).Transport(t, nil).RoundTrip(r)
		if err == nil && r.URL.Path != "/public-api/access-token" {
			mu.Lock()
			seen = append(seen, strings.Join([]string{r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"), strconv.Itoa(resp.StatusCode), resp.Header.Get("Content-Encoding")}, " | "))
			mu.Unlock()
		}
		return resp, err
	})
	cache := t.TempDir()
	var outs []string
	for range 2 {
		var out, errOut bytes.Buffer
		args := []string{"thermoelectric", "--base-url", srv.URL, "--year", "2023", "--format", "csv", "--cache-dir", cache}
		if err := runGetWith(t.Context(), args, envOf(credentials()), &out, &errOut, client.WithHTTPClient(&http.Client{Transport: rec})); err != nil {
			t.Fatalf("%v: %s", err, errOut.String())
		}
		outs = append(outs, out.String())
	}
	if len(seen) != 2 || !strings.HasPrefix(seen[0], "gzip, zstd |  | 200 | gzip") || !strings.HasPrefix(seen[1], "gzip, zstd | \"") || !strings.HasSuffix(seen[1], `-gz" | 304 | `) {
		t.Errorf("data requests:\n  %s\nwant gzip, zstd asked, a 200 in gzip, then If-None-Match with its -gz tag answered 304", strings.Join(seen, "\n  "))
	}
	if outs[0] != outs[1] || strings.Count(outs[0], "\n") < 100 {
		t.Errorf("fetched then revalidated: %d and %d bytes, want the same year of records", len(outs[0]), len(outs[1]))
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
