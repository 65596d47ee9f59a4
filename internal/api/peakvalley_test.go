package api_test

import (
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"testing"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

var update = flag.Bool("update", false, "rewrite golden files that are generated from the demo data")

const peakValleyPath = "/load/v2.0/peak-valley-load"

func pvData(tb testing.TB) apitest.Rows {
	tb.Helper()
	day := func(d string, peakAt string, peak float64, valleyAt string, valley float64) energy.DayExtremes {
		p := rome(tb, peakAt)
		return energy.DayExtremes{Day: energy.DateOf(p), Peak: energy.Extreme{At: p, GW: peak}, Valley: energy.Extreme{At: rome(tb, valleyAt), GW: valley}}
	}
	return apitest.Rows{"peak-valley": apitest.PeakValley(
		day("2024-01-01", "2024-01-01 18:00:00 +01:00", 31, "2024-01-01 04:00:00 +01:00", 18.2),
		day("2024-03-31", "2024-03-31 20:00:00 +02:00", 29.9876, "2024-03-31 03:00:00 +02:00", 17.0004),
		day("2024-10-26", "2024-10-26 18:00:00 +02:00", 33.456, "2024-10-26 04:15:00 +02:00", 20.123),
		// The valley falls in the repeated hour, in its second (+01:00) occurrence.
		day("2024-10-27", "2024-10-27 18:45:00 +01:00", 30.25, "2024-10-27 02:30:00 +01:00", 19.5),
		// A valley after the peak: records stay in chronological order.
		day("2024-12-25", "2024-12-25 01:00:00 +01:00", 25.5, "2024-12-25 23:45:00 +01:00", 19.25),
	)}
}

type pvBody struct {
	Result struct {
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"result"`
	PeakValleyLoad []map[string]any `json:"peak_valley_load"`
}

func TestPeakValleyRecords(t *testing.T) {
	t.Parallel()
	h := newHarness(t, pvData(t))
	r := h.get(t, peakValleyPath+"?dateFrom=26/10/2024&dateTo=28/10/2024")
	const want = `{"result":{"message":"Operation completed for the following input. Date from: 26/10/2024, date to: 28/10/2024","status":"Completed"},"peak_valley_load":[` +
		`{"date":"2024-10-26 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"20.123"},` +
		`{"date":"2024-10-26 18:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"33.456","valley_load_GW":""},` +
		`{"date":"2024-10-27 02:30:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":"","valley_load_GW":"19.500"},` +
		`{"date":"2024-10-27 18:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","peak_load_GW":"30.250","valley_load_GW":""}]}`
	wantBody(t, "peak and valley", r, want)
}

func TestPeakValleyRanges(t *testing.T) {
	t.Parallel()
	h := newHarness(t, pvData(t))
	cases := []struct {
		name, query, message string
		dates                []string
	}{
		{"unpadded dates, padded in the message", "dateFrom=1/1/2024&dateTo=2/1/2024", "Operation completed for the following input. Date from: 01/01/2024, date to: 02/01/2024",
			[]string{"2024-01-01 04:00:00", "2024-01-01 18:00:00"}},
		{"spring day", "dateFrom=31/03/2024&dateTo=31/03/2024", "Operation completed for the following input. Date from: 31/03/2024, date to: 31/03/2024",
			[]string{"2024-03-31 03:00:00", "2024-03-31 20:00:00"}},
		{"peak before valley", "dateFrom=25/12/2024&dateTo=25/12/2024", "Operation completed for the following input. Date from: 25/12/2024, date to: 25/12/2024",
			[]string{"2024-12-25 01:00:00", "2024-12-25 23:45:00"}},
		{"no data in range", "dateFrom=01/06/2024&dateTo=30/06/2024", "Operation completed for the following input. Date from: 01/06/2024, date to: 30/06/2024", []string{}},
		{"60 days is allowed", "dateFrom=01/01/2024&dateTo=29/02/2024", "Operation completed for the following input. Date from: 01/01/2024, date to: 29/02/2024",
			[]string{"2024-01-01 04:00:00", "2024-01-01 18:00:00"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.get(t, peakValleyPath+"?"+tc.query)
			if r.status != http.StatusOK {
				t.Fatalf("status: got %d, want 200 (%s)", r.status, r.body)
			}
			var b pvBody
			if err := json.Unmarshal(r.body, &b); err != nil {
				t.Fatal(err)
			}
			if b.Result.Message != tc.message || b.Result.Status != "Completed" {
				t.Errorf("result: got %+v, want %q/Completed", b.Result, tc.message)
			}
			if b.PeakValleyLoad == nil {
				t.Fatal("peak_valley_load: got null, want an array")
			}
			if len(b.PeakValleyLoad) != len(tc.dates) {
				t.Fatalf("got %d records, want %d", len(b.PeakValleyLoad), len(tc.dates))
			}
			for i, rec := range b.PeakValleyLoad {
				if rec["date"] != tc.dates[i] {
					t.Errorf("record %d: got date %v, want %s", i, rec["date"], tc.dates[i])
				}
				peak, valley := rec["peak_load_GW"].(string), rec["valley_load_GW"].(string)
				if (peak == "") == (valley == "") {
					t.Errorf("record %d: got peak %q valley %q, want exactly one set", i, peak, valley)
				}
			}
		})
	}
}

func TestPeakValleyValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, pvData(t))
	cases := []struct {
		name, query string
		parts       []string
	}{
		{"dateFrom missing", "dateTo=01/01/2024", []string{"Input Validation Error:", "dateFrom", "required"}},
		{"dateTo missing", "dateFrom=01/01/2024", []string{"dateTo", "required"}},
		{"dateFrom repeated", "dateFrom=01/01/2024&dateFrom=02/01/2024&dateTo=03/01/2024", []string{"dateFrom", "repeated"}},
		{"ISO date", "dateFrom=2024-01-01&dateTo=02/01/2024", []string{"dateFrom", "2024-01-01", "dd/mm/yyyy"}},
		{"impossible date", "dateFrom=31/02/2024&dateTo=01/03/2024", []string{"dateFrom", "31/02/2024"}},
		{"not a leap year", "dateFrom=01/02/2023&dateTo=29/02/2023", []string{"dateTo", "29/02/2023"}},
		{"two-digit year", "dateFrom=1/1/24&dateTo=2/1/2024", []string{"dateFrom", "1/1/24"}},
		{"from after to", "dateFrom=02/01/2024&dateTo=01/01/2024", []string{"dateFrom", "02/01/2024", "after", "01/01/2024"}},
		{"61 days", "dateFrom=01/01/2024&dateTo=01/03/2024", []string{"61 days", "60"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.get(t, peakValleyPath+"?"+tc.query), http.StatusBadRequest, tc.parts...)
		})
	}
}

// TestPeakValleyDemoGolden pins the answer for a fixed range of the demo data
// (derived from the demo curves as an import would), so that a change to the
// demo generator, the derivation or the encoding shows up as a diff to review.
func TestPeakValleyDemoGolden(t *testing.T) {
	t.Parallel()
	from, to := energy.Date{Year: 2024, Month: 10, Day: 25}, energy.Date{Year: 2024, Month: 10, Day: 28}
	pts := demo.TotalLoad(from, to)
	var days []energy.DayExtremes
	for d := from; d.Compare(to) <= 0; d = d.AddDays(1) {
		if ext, ok := energy.DeriveDay(d, pts); ok {
			days = append(days, ext)
		}
	}
	h := newHarness(t, apitest.Rows{"peak-valley": apitest.PeakValley(days...)})
	r := h.get(t, peakValleyPath+"?dateFrom=25/10/2024&dateTo=28/10/2024")
	const golden = "testdata/peak_valley_demo_2024-10-25_28.json"
	if *update {
		if err := os.WriteFile(golden, append(r.body, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if r.status != http.StatusOK || string(r.body)+"\n" != string(want) {
		t.Errorf("got %d\n%s\nwant 200\n%s", r.status, r.body, want)
	}
}
