package api_test

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

const totalLoadPath = "/load/v2.0/total-load"

// someLoad is one quarter hour of three zones around the spring 2024 clock
// change, the Italy value without a forecast.
func someLoad(tb testing.TB) []energy.LoadPoint {
	at := rome(tb, "2024-03-31 01:45:00 +01:00")
	next := rome(tb, "2024-03-31 03:00:00 +02:00")
	return []energy.LoadPoint{
		{At: at, Zone: energy.North, TotalMW: 12000.25, ForecastMW: 11900},
		{At: at, Zone: energy.Sicily, TotalMW: 1500, ForecastMW: 1490.5},
		{At: at, Zone: energy.Italy, TotalMW: 24000.125, ForecastMW: math.NaN()},
		{At: next, Zone: energy.North, TotalMW: 11800, ForecastMW: 11850},
	}
}

func TestTotalLoadFromTheDescriptor(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: someLoad(t)})
	r := h.get(t, totalLoadPath+"?dateFrom=31/3/2024&dateTo=31/03/2024&biddingZone=north&biddingZone=Italy")
	want := `{"result":{"message":"Operation completed for the following input. Date from: 31/03/2024, date to: 31/03/2024","status":"Completed"},"total_load":[` +
		`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","total_load_MW":"24000.125","forecast_total_load_MW":"","bidding_zone":"Italy"},` +
		`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","total_load_MW":"12000.25","forecast_total_load_MW":"11900","bidding_zone":"North"},` +
		`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","total_load_MW":"11800","forecast_total_load_MW":"11850","bidding_zone":"North"}]}`
	wantBody(t, "total load", r, want)
	// Asked again, the answer comes from the cache, byte for byte.
	if again := h.get(t, totalLoadPath+"?dateFrom=31/03/2024&dateTo=31/3/2024&biddingZone=Italy&biddingZone=North"); string(again.body) != want {
		t.Errorf("repeated query: got %s", again.body)
	}
	// A comma-joined value is one value, which no zone has: the empty body.
	wantEmpty(t, h.get(t, totalLoadPath+"?dateFrom=31/3/2024&dateTo=31/3/2024&biddingZone=North,Italy"))
	wantError(t, h.get(t, totalLoadPath+"?dateFrom=31/2/2024&dateTo=31/3/2024"), http.StatusBadRequest, "Input Validation Error:", "dateFrom", "31/2/2024")
	wantError(t, h.get(t, totalLoadPath+"?dateFrom=1/1/2024&dateTo=31/3/2024"), http.StatusBadRequest, "spans 91 days")
}

func TestDataAsCSV(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: someLoad(t)})
	r := h.get(t, totalLoadPath+"?dateFrom=31/3/2024&dateTo=31/3/2024&biddingZone=Sicily", "Accept", "text/csv")
	want := "date,date_tz,date_offset,total_load_MW,forecast_total_load_MW,bidding_zone\r\n2024-03-31 01:45:00,Europe/Rome,+01:00,1500,1490.5,Sicily\r\n"
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" || string(r.body) != want {
		t.Fatalf("got %d %q\n%q\nwant %q", r.status, r.header.Get("Content-Type"), r.body, want)
	}
}

func TestUnknownPathsAndMethodsAnswerTheEnvelope(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	for _, tc := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/nope/v2.0/x", http.StatusNotFound, ""},
		{"GET", "/load/v2.0/no-such-dataset", http.StatusNotFound, ""},
		{"POST", totalLoadPath, http.StatusMethodNotAllowed, "GET, HEAD"},
		{"DELETE", "/catalog", http.StatusMethodNotAllowed, "GET, HEAD"},
	} {
		req, _ := http.NewRequest(tc.method, h.srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var env envelope
		err = json.NewDecoder(resp.Body).Decode(&env)
		resp.Body.Close()
		if resp.StatusCode != tc.status || err != nil || env.Result.Status != "ERROR" || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: got %d %+v (%v) Allow %q, want %d in the envelope, Allow %q", tc.method, tc.path, resp.StatusCode, env, err, resp.Header.Get("Allow"), tc.status, tc.allow)
		}
	}
}

func TestUnmatchedFilterEmptyArray(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Data: thermoData(), Adjust: func(o *api.Options) { o.Data.UnmatchedFilter = api.EmptyArray }})
	r := h.get(t, thermoPath+"?year=2023&category=Idroelettrica")
	wantBody(t, "unmatched filter", r, `{"result":{"message":"OK","status":"Completed"},"thermoelectric":[]}`)
}

func TestCatalogListsEveryDataset(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Data: thermoData(), Load: someLoad(t)})
	r := h.get(t, "/catalog", "Authorization", "")
	var cat struct {
		Datasets []struct {
			Name, Path string
			Parameters []struct {
				Name   string
				Values []string
			}
			Coverage *struct {
				First, Last string
				Records     int
			}
		}
	}
	if err := json.Unmarshal(r.body, &cat); err != nil || r.status != http.StatusOK {
		t.Fatalf("got %d %v", r.status, err)
	}
	got := map[string]string{}
	for _, d := range cat.Datasets {
		cov := "none"
		if d.Coverage != nil {
			cov = d.Coverage.First + ".." + d.Coverage.Last
		}
		got[d.Path] = cov
		if d.Name == "total-load" && (len(d.Parameters) != 10 || strings.Join(d.Parameters[7].Values, ",") != "PT15M,PT1H,P1D,P1M" || d.Parameters[8].Name != "limit" || d.Parameters[9].Name != "cursor" || d.Parameters[4].Name != "asOf" || d.Parameters[5].Name != "changedSince" || strings.Join(d.Parameters[6].Values, ",") != "meta" || !strings.Contains(strings.Join(d.Parameters[2].Values, ","), "Centre-North") || strings.Join(d.Parameters[3].Values, ",") != "Europe/Rome,UTC") {
			t.Errorf("total-load parameters: got %+v", d.Parameters)
		}
	}
	want := map[string]string{
		totalLoadPath:  "2024-03-31..2024-03-31",
		peakValleyPath: "none", // one quarter hour is not a day to derive a peak and valley from
		thermoPath:     "2022-01-01..2023-01-01",
	}
	for path, cov := range want {
		if got[path] != cov {
			t.Errorf("%s: coverage %s, want %s", path, got[path], cov)
		}
	}
}

func TestETagFollowsTheCoveredParts(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: someLoad(t)})
	march := totalLoadPath + "?dateFrom=31/3/2024&dateTo=31/3/2024"
	first := h.get(t, march)
	tag := first.header.Get("ETag")
	if first.status != http.StatusOK || !strings.HasPrefix(tag, `"`) || first.header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("got %d, ETag %q, Cache-Control %q", first.status, tag, first.header.Get("Cache-Control"))
	}
	if again := h.get(t, march); again.header.Get("ETag") != tag {
		t.Errorf("the same request: ETag %q, then %q", tag, again.header.Get("ETag"))
	}
	r := h.get(t, march, "If-None-Match", `"other", `+tag)
	if r.status != http.StatusNotModified || len(r.body) != 0 {
		t.Errorf("If-None-Match with the tag: got %d and %d bytes, want 304 and none", r.status, len(r.body))
	}
	if csv := h.get(t, march, "Accept", "text/csv"); csv.header.Get("ETag") == tag {
		t.Error("the CSV answer has the JSON answer's ETag")
	}
	if other := h.get(t, totalLoadPath+"?dateFrom=1/3/2024&dateTo=1/3/2024"); other.header.Get("ETag") == tag {
		t.Error("another range has the same ETag")
	}
}

func TestTimeZoneUTC(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, apitest.Options{Load: someLoad(t)})
	r := h.get(t, totalLoadPath+"?dateFrom=31/3/2024&dateTo=31/3/2024&biddingZone=North&timeZone=utc")
	want := `{"result":{"message":"Operation completed for the following input. Date from: 31/03/2024, date to: 31/03/2024","status":"Completed"},"total_load":[` +
		`{"date":"2024-03-31 00:45:00","date_tz":"UTC","date_offset":"+00:00","total_load_MW":"12000.25","forecast_total_load_MW":"11900","bidding_zone":"North"},` +
		`{"date":"2024-03-31 01:00:00","date_tz":"UTC","date_offset":"+00:00","total_load_MW":"11800","forecast_total_load_MW":"11850","bidding_zone":"North"}]}`
	wantBody(t, "UTC", r, want)
	wantError(t, h.get(t, totalLoadPath+"?dateFrom=31/3/2024&dateTo=31/3/2024&timeZone=CET"), http.StatusBadRequest, "timeZone", "CET")
}

// TestUnknownParameters: by default a parameter the endpoint does not take
// is ignored, as the live family ignores it; with RejectUnknown it is
// answered 400 naming it, while every parameter the endpoint takes, and
// format, still pass.
func TestUnknownParameters(t *testing.T) {
	t.Parallel()
	const q = thermoPath + "?year=2023&province=Brindisi"
	lax := newHarnessWith(t, apitest.Options{Data: thermoData()})
	strict := newHarnessWith(t, apitest.Options{Data: thermoData(), Adjust: func(o *api.Options) { o.Data.UnknownParameters = api.RejectUnknown }})
	want := lax.get(t, q)
	if got := lax.get(t, q+"&zone=North"); got.status != http.StatusOK || string(got.body) != string(want.body) {
		t.Errorf("ignored: got %d %.200s, want the answer without zone", got.status, got.body)
	}
	r := strict.get(t, q+"&zone=North")
	if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "unknown parameter zone") || !strings.Contains(string(r.body), `"status":"ERROR"`) {
		t.Errorf("rejected: got %d %s, want 400 naming zone in the envelope", r.status, r.body)
	}
	for _, ok := range []string{q, q + "&format=json", q + "&include=meta&changedSince=2020-01-01T00:00:00Z"} {
		if got := strict.get(t, ok); got.status != http.StatusOK {
			t.Errorf("%s with reject: got %d %.200s, want 200", ok, got.status, got.body)
		}
	}
}
