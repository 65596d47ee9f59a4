package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/ingest"
)

// importedHarness serves the catalogue with files imported through the
// generic import path (ingest.ReadRows, dataset.Import): dataset name to
// CSV text. Every exchange is checked against the OpenAPI document.
func importedHarness(tb testing.TB, files map[string]string) *harness {
	tb.Helper()
	cat, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	m := dataset.NewMemory()
	for name, file := range files {
		d, ok := cat.Lookup(name)
		if !ok {
			tb.Fatalf("no dataset %s", name)
		}
		rows, err := ingest.ReadRows(cat, d, name+".csv", strings.NewReader(file))
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := dataset.Import(context.Background(), m, cat, d, rows, time.Unix(0, 0)); err != nil {
			tb.Fatal(err)
		}
	}
	return newHarnessWith(tb, apitest.Options{Catalog: cat, Source: m})
}

const marketLoadPath = "/load/v2.0/market-load"

// marketLoadFile spans both 2024 clock changes: the skipped spring hour
// (01:45 +01:00 is followed by 03:00 +02:00) and the repeated autumn hour
// (02:00 twice, told apart by date_offset).
const marketLoadFile = "date,date_offset,market_load_MW,forecast_market_load_MW,bidding_zone\n" +
	"2024-03-31 01:45:00,+01:00,11500.5,11400,North\n" +
	"2024-03-31 01:45:00,+01:00,23000.25,,Italy\n" +
	"2024-03-31 03:00:00,+02:00,11300,11350.125,North\n" +
	"2024-10-27 02:00:00,+02:00,10100,10000,North\n" +
	"2024-10-27 02:00:00,+01:00,9900.75,9950,North\n" +
	"2024-10-27 02:00:00,+01:00,1400,1390,Sicily\n"

func TestMarketLoad(t *testing.T) {
	t.Parallel()
	h := importedHarness(t, map[string]string{"market-load": marketLoadFile})
	r := h.get(t, marketLoadPath+"?dateFrom=31/3/2024&dateTo=31/03/2024")
	want := `{"result":{"message":"Operation completed for the following input. Date from: 31/03/2024, date to: 31/03/2024","status":"Completed"},"market_load":[` +
		`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"23000.25","forecast_market_load_MW":"","bidding_zone":"Italy"},` +
		`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"11500.5","forecast_market_load_MW":"11400","bidding_zone":"North"},` +
		`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","market_load_MW":"11300","forecast_market_load_MW":"11350.125","bidding_zone":"North"}]}`
	wantBody(t, "spring", r, want)
	// The autumn change: 02:00 twice, first at +02:00 then at +01:00; a
	// repeated key selects two zones.
	r = h.get(t, marketLoadPath+"?dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=North&biddingZone=sicily")
	want = `{"result":{"message":"Operation completed for the following input. Date from: 27/10/2024, date to: 27/10/2024","status":"Completed"},"market_load":[` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","market_load_MW":"10100","forecast_market_load_MW":"10000","bidding_zone":"North"},` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"9900.75","forecast_market_load_MW":"9950","bidding_zone":"North"},` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"1400","forecast_market_load_MW":"1390","bidding_zone":"Sicily"}]}`
	wantBody(t, "autumn", r, want)
	// A comma-joined value is one value, which no zone has.
	wantEmpty(t, h.get(t, marketLoadPath+"?dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=North,Sicily"))
	wantEmpty(t, h.get(t, marketLoadPath+"?dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=Atlantis"))
	wantError(t, h.get(t, marketLoadPath+"?dateFrom=30/2/2024&dateTo=31/3/2024"), http.StatusBadRequest, "Input Validation Error:", "dateFrom", "30/2/2024")
	wantError(t, h.get(t, marketLoadPath+"?dateFrom=1/1/2024&dateTo=1/3/2024"), http.StatusBadRequest, "spans 61 days")
}

const detailsPath = "/load/v2.0/peak-valley-load-details"

// detailsFile is one day's peak (three of its sources) and valley (two).
const detailsFile = "date,peak_load_GW,valley_load_GW,primary_source_GW,type\n" +
	"2024-07-16 15:00:00,52.1,,30.5,Thermal\n" +
	"2024-07-16 15:00:00,52.1,,12.25,Photovoltaic\n" +
	"2024-07-16 15:00:00,52.1,,-1.8,Self-consumption\n" +
	"2024-07-16 04:15:00,,24.05,3.2,Net Foreign Exchange\n" +
	"2024-07-16 04:15:00,,24.05,-1.5,Pumping-consumption\n"

func TestPeakValleyLoadDetails(t *testing.T) {
	t.Parallel()
	h := importedHarness(t, map[string]string{"peak-valley-details": detailsFile})
	r := h.get(t, detailsPath+"?dateFrom=16/07/2024&dateTo=16/7/2024")
	want := `{"result":{"message":"Operation completed for the following input. Date from: 16/07/2024, date to: 16/07/2024","status":"Completed"},"peak_valley_load_details":[` +
		`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"3.200","type":"Net Foreign Exchange"},` +
		`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"-1.500","type":"Pumping-consumption"},` +
		`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"12.250","type":"Photovoltaic"},` +
		`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"-1.800","type":"Self-consumption"},` +
		`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"30.500","type":"Thermal"}]}`
	wantBody(t, "details", r, want)
	r = h.get(t, detailsPath+"?dateFrom=16/07/2024&dateTo=16/07/2024&type=Thermal&type=Net+Foreign+Exchange")
	want = `{"result":{"message":"Operation completed for the following input. Date from: 16/07/2024, date to: 16/07/2024","status":"Completed"},"peak_valley_load_details":[` +
		`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"3.200","type":"Net Foreign Exchange"},` +
		`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"30.500","type":"Thermal"}]}`
	wantBody(t, "repeated type", r, want)
	wantEmpty(t, h.get(t, detailsPath+"?dateFrom=16/07/2024&dateTo=16/07/2024&type=Thermal,Hydro"))
	wantEmpty(t, h.get(t, detailsPath+"?dateFrom=16/07/2024&dateTo=16/07/2024&type=Nuclear"))
	wantError(t, h.get(t, detailsPath+"?dateFrom=16-07-2024&dateTo=16/07/2024"), http.StatusBadRequest, "Input Validation Error:", "dateFrom", "16-07-2024")
	wantError(t, h.get(t, detailsPath+"?dateFrom=17/07/2024&dateTo=16/07/2024"), http.StatusBadRequest, "dateFrom")
}

const imceiPath = "/load/v2.0/monthly-index-industrial-electrical-consumption"

const imceiFile = "date,region,sector,tension_type,monthly_imcei,consumption_Gwh\n" +
	"2024-02-01 00:00:00,Lombardia,CHIMICA,AT,97.4,41.205\n" +
	"2024-02-01 00:00:00,Lombardia,CHIMICA,MT,101.2,55.5\n" +
	"2024-02-01 00:00:00,Puglia,SIDERURGIA,AT,88,120.125\n" +
	"2024-03-01 00:00:00,Lombardia,CHIMICA,AT,99,43\n"

func TestMonthlyIndexIndustrialConsumption(t *testing.T) {
	t.Parallel()
	h := importedHarness(t, map[string]string{"imcei": imceiFile})
	want := `{"result":{"message":"OK","status":"Completed"},"monthly_index_industrial_electrical_consumption":[` +
		`{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Lombardia","sector":"CHIMICA","tension_type":"AT","monthly_imcei":"97.4","consumption_Gwh":"41.205"},` +
		`{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Lombardia","sector":"CHIMICA","tension_type":"MT","monthly_imcei":"101.2","consumption_Gwh":"55.5"},` +
		`{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Puglia","sector":"SIDERURGIA","tension_type":"AT","monthly_imcei":"88","consumption_Gwh":"120.125"}]}`
	for _, q := range []string{"year=2024&month=02", "year=2024&month=2"} {
		wantBody(t, q, h.get(t, imceiPath+"?"+q), want)
	}
	r := h.get(t, imceiPath+"?year=2024&month=2&sector=SIDERURGIA&sector=chimica&tensionType=AT")
	want = `{"result":{"message":"OK","status":"Completed"},"monthly_index_industrial_electrical_consumption":[` +
		`{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Lombardia","sector":"CHIMICA","tension_type":"AT","monthly_imcei":"97.4","consumption_Gwh":"41.205"},` +
		`{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Puglia","sector":"SIDERURGIA","tension_type":"AT","monthly_imcei":"88","consumption_Gwh":"120.125"}]}`
	wantBody(t, "filters", r, want)
	for name, q := range map[string]string{
		"comma-joined sectors": "year=2024&month=2&sector=CHIMICA,SIDERURGIA",
		"unknown sector":       "year=2024&month=2&sector=TESSILE",
		"unknown tension":      "year=2024&month=2&tensionType=BT",
		"year without data":    "year=2031&month=2",
	} {
		t.Run(name, func(t *testing.T) { wantEmpty(t, h.get(t, imceiPath+"?"+q)) })
	}
	for name, q := range map[string]string{
		"month missing":     "year=2024",
		"month 13":          "year=2024&month=13",
		"month 002":         "year=2024&month=002",
		"year not a year":   "year=24x&month=2",
		"tension repeated":  "year=2024&month=2&tensionType=AT&tensionType=MT",
		"dates not a month": "dateFrom=1/2/2024&dateTo=29/2/2024",
	} {
		t.Run(name, func(t *testing.T) {
			wantError(t, h.get(t, imceiPath+"?"+q), http.StatusBadRequest, "Input Validation Error:")
		})
	}
}

const coveragePath = "/load/v2.0/demand-coverage-by-source"

const coverageFile = "year,region,source,coverage_GWh\n" +
	"2023,Puglia,Eolico,\"5.123,4\"\n" +
	"2023,Puglia,Saldo import/export,-7654.321\n" +
	"2023,Toscana,Geotermoelettrico,5530\n" +
	"2022,Toscana,Geotermoelettrico,0\n"

func TestDemandCoverageBySource(t *testing.T) {
	t.Parallel()
	h := importedHarness(t, map[string]string{"demand-coverage": coverageFile})
	r := h.get(t, coveragePath+"?year=2023")
	want := `{"result":{"message":"OK","status":"Completed"},"demand_coverage_by_source":[` +
		`{"year":"2023","region":"Puglia","source":"Eolico","coverage_GWh":"5.123,400"},` +
		`{"year":"2023","region":"Puglia","source":"Saldo import/export","coverage_GWh":"-7.654,321"},` +
		`{"year":"2023","region":"Toscana","source":"Geotermoelettrico","coverage_GWh":"5.530,000"}]}`
	wantBody(t, "coverage", r, want)
	r = h.get(t, coveragePath+"?year=2022&region=toscana&source=Geotermoelettrico")
	want = `{"result":{"message":"OK","status":"Completed"},"demand_coverage_by_source":[{"year":"2022","region":"Toscana","source":"Geotermoelettrico","coverage_GWh":"0,000"}]}`
	wantBody(t, "filters", r, want)
	for name, q := range map[string]string{
		"unknown region":    "year=2023&region=Atlantide",
		"unknown source":    "year=2023&source=Nucleare",
		"year without data": "year=2031",
		"year before data":  "year=1990",
	} {
		t.Run(name, func(t *testing.T) { wantEmpty(t, h.get(t, coveragePath+"?"+q)) })
	}
	for name, q := range map[string]string{
		"year missing":    "region=Puglia",
		"year malformed":  "year=2023.0",
		"region repeated": "year=2023&region=Puglia&region=Toscana",
		"source repeated": "year=2023&source=Eolico&source=Eolico",
	} {
		t.Run(name, func(t *testing.T) {
			wantError(t, h.get(t, coveragePath+"?"+q), http.StatusBadRequest, "Input Validation Error:")
		})
	}
}
