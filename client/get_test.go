package client_test

import (
	"math"
	"net/url"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/energy"
)

func TestGetByNameSplitsRangesAndReadsRecords(t *testing.T) {
	t.Parallel()
	rome, _ := time.LoadLocation("Europe/Rome")
	jan := time.Date(2024, 1, 10, 18, 0, 0, 0, rome)
	mar := time.Date(2024, 3, 20, 18, 0, 0, 0, rome)
	srv := apitest.NewServer(t, apitest.Options{Load: []energy.LoadPoint{
		{At: jan, Zone: energy.North, TotalMW: 25000.5, ForecastMW: 24000},
		{At: jan, Zone: energy.South, TotalMW: 3000, ForecastMW: math.NaN()},
		{At: mar, Zone: energy.North, TotalMW: 22000, ForecastMW: 21000},
	}})
	c, _ := newClient(t, srv)
	recs, err := c.Get(t.Context(), "total-load", url.Values{"dateFrom": {"1/1/2024"}, "dateTo": {"31/3/2024"}, "biddingZone": {"North"}})
	if err != nil {
		t.Fatal(err)
	}
	// Two windows of at most 60 days, then /catalog once for the name.
	if got := len(srv.SeenPath("/load/v2.0/total-load")); got != 2 {
		t.Errorf("requests: got %d, want 2 windows", got)
	}
	if len(recs) != 2 {
		t.Fatalf("records: got %d (%v), want 2", len(recs), recs)
	}
	at, err := recs[1].Time()
	if err != nil || !at.Equal(mar) {
		t.Errorf("second record's time: got %v %v, want %v", at, err, mar)
	}
	if v, ok, err := recs[0].Float("total_load_MW"); !ok || err != nil || v != 25000.5 {
		t.Errorf("total_load_MW: got %v %v %v, want 25000.5", v, ok, err)
	}
	south, err := c.Get(t.Context(), "/load/v2.0/total-load", url.Values{"dateFrom": {"10/1/2024"}, "dateTo": {"10/1/2024"}, "biddingZone": {"South"}})
	if err != nil || len(south) != 1 {
		t.Fatalf("by path: got %v, %v", south, err)
	}
	if _, ok, err := south[0].Float("forecast_total_load_MW"); ok || err != nil {
		t.Errorf("an empty forecast: got ok %v err %v, want no value", ok, err)
	}
	if _, err := c.Get(t.Context(), "no-such-dataset", nil); err == nil {
		t.Error("an unknown dataset name: got no error")
	}
}
