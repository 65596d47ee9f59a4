package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

func TestDatasetsListsTheCatalogue(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := runDatasets([]string{"--format", "json"}, envOf(nil), &out, false); err != nil {
		t.Fatal(err)
	}
	got := map[string]datasetInfo{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var in datasetInfo
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got[in.Name] = in
	}
	tl, ok := got["total-load"]
	if !ok || tl.Path != "/load/v2.0/total-load" || tl.Granularity != "quarter-hour" ||
		strings.Join(tl.Parameters, " ") != "dateFrom,dateTo biddingZone (0..n) timeZone (0..1) asOf (0..1) changedSince (0..1) include (0..n) resolution (0..1) limit (0..1) cursor (0..1)" ||
		strings.Join(tl.Fields, ",") != "date,date_tz,date_offset,total_load_MW,forecast_total_load_MW,bidding_zone" {
		t.Errorf("total-load: got %+v", tl)
	}
	if _, ok := got["thermoelectric"]; !ok {
		t.Error("thermoelectric missing")
	}
}

func TestGetAnyDatasetByItsParameters(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 10, 27, 0, 15, 0, 0, time.UTC) // 02:15 in Rome, the first time: summer time
	srv := apitest.NewServer(t, apitest.Options{Load: []energy.LoadPoint{
		{At: at, Zone: energy.Sicily, TotalMW: 1500.5, ForecastMW: math.NaN()},
		{At: at.Add(time.Hour), Zone: energy.Sicily, TotalMW: 1400, ForecastMW: 1390}, // the second 02:15
		{At: at, Zone: energy.North, TotalMW: 9000, ForecastMW: 9100},
	}})
	out, _, _, err := runGetCmd(t, srv, credentials(), "total-load", "--from", "27/10/2024", "--dateTo", "27/10/2024", "--biddingZone", "Sicily", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	const want = "date,total_load_MW,forecast_total_load_MW,bidding_zone\n" +
		"2024-10-27T02:15:00+02:00,1500.5,,Sicily\n" +
		"2024-10-27T02:15:00+01:00,1400,1390,Sicily\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	wantSeen(t, srv, tokenReq, "GET /load/v2.0/total-load?biddingZone=Sicily&dateFrom=27%2F10%2F2024&dateTo=27%2F10%2F2024 200")
}
