package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/ingest"
)

// dailyPricesFile holds one hour and one quarter hour of both macrozones,
// dates written as the import accepts them.
const dailyPricesFile = "publication_date,reference_date,offset,data_type,date_tz,macrozone,base_price_EURxMWh,incentive_component_EURxMWh,unbalance_price_EURxMWh\n" +
	"2023/11/23 12:00,2023-11-22 10:00:00,+01:00,Orario,Europe/Rome,NORD,110.5,0.25,120\n" +
	"2023-11-23 12:00:00,2023-11-22 10:00:00,+01:00,Orario,Europe/Rome,SUD,104,0,98.75\n" +
	"23/11/2023 12:00,2023-11-22 10:15:00,,quarto orario,,NORD,111,1.5,-12.5\n"

func TestFeesDailyPrices(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"daily-prices": dailyPricesFile, "secondary-adjustment-levels": "reference_date,area,secondary_adjustment_level_MW\n2023-11-22 10:00:00,Sicilia,-35.5\n2023-11-22 10:00:00,Nord,120\n"})
	want := `{"result":{"message":"Operation completed for the following input: date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"daily_prices":[` +
		`{"publication_date":"2023-11-23 12:00:00","reference_date":"2023-11-22 10:00:00","offset":"+01:00","data_type":"Orario","date_tz":"Europe/Rome","macrozone":"NORD","base_price_EURxMWh":"110.5","incentive_component_EURxMWh":"0.25","unbalance_price_EURxMWh":"120"},` +
		`{"publication_date":"2023-11-23 12:00:00","reference_date":"2023-11-22 10:00:00","offset":"+01:00","data_type":"Orario","date_tz":"Europe/Rome","macrozone":"SUD","base_price_EURxMWh":"104","incentive_component_EURxMWh":"0","unbalance_price_EURxMWh":"98.75"},` +
		`{"publication_date":"2023-11-23 12:00:00","reference_date":"2023-11-22 10:15:00","offset":"+01:00","data_type":"Quarto Orario","date_tz":"Europe/Rome","macrozone":"NORD","base_price_EURxMWh":"111","incentive_component_EURxMWh":"1.5","unbalance_price_EURxMWh":"-12.5"}]}`
	for _, path := range []string{
		// client L's request: zero-padded dates, dataType repeated.
		"/fees/v1.0/daily-prices?dateFrom=22/11/2023&dateTo=22/11/2023&dataType=Orario&dataType=Quarto+Orario",
		// two-digit years, no dataType, and the former prefix.
		"/fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/23",
		"/market-and-fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/2023",
	} {
		wantBody(t, path, h.get(t, path), want)
	}
	r := h.get(t, "/fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/23&dataType=Quarto+Orario")
	wantQ := `{"result":{"message":"Operation completed for the following input: date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"daily_prices":[` +
		`{"publication_date":"2023-11-23 12:00:00","reference_date":"2023-11-22 10:15:00","offset":"+01:00","data_type":"Quarto Orario","date_tz":"Europe/Rome","macrozone":"NORD","base_price_EURxMWh":"111","incentive_component_EURxMWh":"1.5","unbalance_price_EURxMWh":"-12.5"}]}`
	wantBody(t, "Quarto Orario", r, wantQ)
	wantEmpty(t, h.get(t, "/fees/v1.0/daily-prices?dateFrom=22/11/23&dateTo=22/11/23&dataType=Giornaliero"))
	// The v1.0 pages' validation answer: 406, their wording.
	wantError(t, h.get(t, "/fees/v1.0/daily-prices?dateFrom=22/11/2&dateTo=22/11/23"), http.StatusNotAcceptable,
		"Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered:", "22/11/2")
	wantError(t, h.get(t, "/fees/v1.0/daily-prices?dateFrom=1/1/23&dateTo=5/3/23"), http.StatusNotAcceptable, "at most 62")

	// Secondary adjustment levels: one day only, area 0..1.
	sal := "/fees/v1.0/secondary-adjustment-levels"
	r = h.get(t, sal+"?dateFrom=22/11/23&dateTo=22/11/23&area=sicilia")
	wantS := `{"result":{"message":"Operation completed for the following input: date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"secondary_adjustment_levels":[` +
		`{"reference_date":"2023-11-22 10:00:00","date_tz":"Europe/Rome","offset":"+01:00","area":"Sicilia","secondary_adjustment_level_MW":"-35.5"}]}`
	wantBody(t, "secondary levels", r, wantS)
	wantError(t, h.get(t, sal+"?dateFrom=22/11/23&dateTo=23/11/23"), http.StatusNotAcceptable, "must name the same day")
	wantEmpty(t, h.get(t, sal+"?dateFrom=22/11/23&dateTo=22/11/23&area=Atlantide"))
}

// TestV1Catalog counts the catalogue: the v2.0 areas and the v1.0 ones.
func TestV1Catalog(t *testing.T) {
	t.Parallel()
	h := genHarness(t, nil)
	var cat struct {
		Datasets []struct{ Path string } `json:"datasets"`
	}
	if err := json.Unmarshal(h.get(t, "/catalog").body, &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Datasets) < 45 {
		t.Errorf("/catalog lists %d datasets, want at least 45", len(cat.Datasets))
	}
}

func TestMarketQuantityAndTransitLimits(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{
		"market-quantity": "reference_date,offset,zone,session_type,direction,quantity_MWh\n" +
			"2023-11-22 10:00:00,+01:00,NORD,MSD1,UP,85.5\n" +
			"2023-11-22 10:00:00,+01:00,NORD,MSD1,DOWN,12\n" +
			"2023-11-22 10:00:00,+01:00,NORD,MSD2,UP,80\n",
		"market-forecast-transit-limit": "reference_date,date_tz,offset,zoneFrom,zoneTo,session_type,limit_MW\n" +
			"2023-11-22 10:00:00,Europe/Rome,+01:00,Sicily,Calabria,MSD1,1500\n",
	})
	r := h.get(t, "/market/v1.0/output/quantity?dateFrom=22/11/23&dateTo=22/11/23&sessionType=MSD1&direction=UP")
	want := `{"result":{"messagge":"Operation completed for the following input. Date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"quantity":[` +
		`{"reference_date":"2023-11-22 10:00:00","date_tz":"Europe/Rome","offset":"+01:00","zone":"NORD","session_type":"MSD1","direction":"UP","quantity_MWh":"85.5"}]}`
	wantBody(t, "quantity", r, want)
	// sessionType is 1..1 on quantity: the v1.0 406, message field spelled messagge.
	r = h.get(t, "/market/v1.0/output/quantity?dateFrom=22/11/23&dateTo=22/11/23")
	want406 := `{"result":{"messagge":"Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered: parameter sessionType is required","status":"ERROR"}}`
	if r.status != http.StatusNotAcceptable || string(r.body) != want406 {
		t.Errorf("no sessionType: got %d %s, want 406 %s", r.status, r.body, want406)
	}
	wantEmpty(t, h.get(t, "/market/v1.0/output/quantity?dateFrom=22/11/23&dateTo=22/11/23&sessionType=MSD9"))
	wantEmpty(t, h.get(t, "/market/v1.0/output/quantity?dateFrom=22/11/23&dateTo=22/11/23&sessionType=MSD1&direction=SIDEWAYS"))

	// The forecast transit limits, where sessionType is 0..1 too; the final
	// limits (transit-limit) are a dataset of their own (TestIssue34Decisions).
	wantT := `{"result":{"messagge":"Operation completed for the following input. Date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"provisional_transit_limits":[` +
		`{"reference_date":"2023-11-22 10:00:00","date_tz":"Europe/Rome","offset":"+01:00","zoneFrom":"Sicily","zoneTo":"Calabria","session_type":"MSD1","limit_MW":"1500"}]}`
	for _, path := range []string{
		"/market/v1.0/input/forecast-transit-limit?dateFrom=22/11/2023&dateTo=22/11/2023&sessionType=MSD1",
		"/market/v1.0/input/forecast-transit-limit?dateFrom=22/11/2023&dateTo=22/11/2023",
	} {
		wantBody(t, path, h.get(t, path), wantT)
	}
}

func TestOutagesAndAdequacy(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{
		"generation-unit-unavailability": "publication_date,date_tz,unit_name,plant_name,plant_type,biddingZone,installed_capacity,outage_type,start_date,stop_date,stop_date_update,unavailable_capacity,unavailable_status\n" +
			"2023-11-15,Europe/Rome,UP_PRIOLO_1,Priolo Gargallo,TERMOELETTRICO,SICI,380,Planned,2023/11/22,2023/11/25,,380,Active\n" +
			"15/11/2023,,UP_ENTRACQUE_2,Entracque,idroelettrico,NORD,600.5,Unplanned,22/11/2023,2023-11-23,2023/11/24,150.25,Active\n",
		"aggregate-effective-available-capacity": "market_date,offset,date_tz,macroarea,plant_type,prevailing_fuel,available_capacity_MW\n" +
			"2023-11-22 10:00:00,+01:00,Europe/Rome,SUD_ISOLE,IDROELETTRICO,ALTRO,207.03\n",
	})
	r := h.get(t, "/outages/v1.0/generation-unit-unavailability?dateFrom=22/11/23&dateTo=22/11/23")
	want := `{"result":{"messagge":"Operation completed for the following input. Date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"unavailability_productive_units":[` +
		`{"publication_date":"2023-11-15","date_tz":"Europe/Rome","unit_name":"UP_ENTRACQUE_2","plant_name":"Entracque","plant_type":"IDROELETTRICO","biddingZone":"NORD","installed_capacity":"600.5","outage_type":"Unplanned","start_date":"2023-11-22 00:00","stop_date":"2023-11-23 00:00","stop_date_update":"2023-11-24 00:00","unavailable_capacity":"150.25","unavailable_status":"Active"},` +
		`{"publication_date":"2023-11-15","date_tz":"Europe/Rome","unit_name":"UP_PRIOLO_1","plant_name":"Priolo Gargallo","plant_type":"TERMOELETTRICO","biddingZone":"SICI","installed_capacity":"380","outage_type":"Planned","start_date":"2023-11-22 00:00","stop_date":"2023-11-25 00:00","stop_date_update":"","unavailable_capacity":"380","unavailable_status":"Active"}]}`
	wantBody(t, "outages", r, want)
	r = h.get(t, "/adequacy/v1.0/aggregate-effective-available-capacity?dateFrom=22/11/2023&dateTo=22/11/23")
	want = `{"result":{"messagge":"Operation completed for the following input. Date from: 22/11/2023, date to: 22/11/2023","status":"Completed"},"aggregate_available_capacity":[` +
		`{"market_date":"2023-11-22 10:00:00","offset":"+01:00","date_tz":"Europe/Rome","macroarea":"SUD_ISOLE","plant_type":"IDROELETTRICO","prevailing_fuel":"ALTRO","available_capacity_MW":"207.03"}]}`
	wantBody(t, "adequacy", r, want)
	r = h.get(t, "/adequacy/v1.0/aggregate-effective-available-capacity?dateFrom=23/11/2023&dateTo=22/11/23")
	wantBody := `{"result":{"messagge":"Input Validation Error: the value entered is incorrect or does not conform to the expected format. Value entered: parameter dateFrom value \"23/11/2023\" is after dateTo value \"22/11/2023\"","status":"ERROR"}}`
	if r.status != http.StatusNotAcceptable || string(r.body) != wantBody {
		t.Errorf("reversed range: got %d %s, want 406 %s", r.status, r.body, wantBody)
	}
}

// TestV1DemoData serves the demo data of the v1.0 areas and asks every one
// of their datasets for the last day it covers, filling required filters
// with their first value: each answers records, every answer matches the
// OpenAPI document (the harness checks each exchange), and the CSV answer
// imports back as the same number of records.
func TestV1DemoData(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	// The last 14 days of the demo system (whose v1.0 data span its range).
	cat, m := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: m})
	for _, d := range cat.All() {
		if d.Version != "v1.0" {
			continue
		}
		q := url.Values{"dateFrom": {"31/12/25"}, "dateTo": {"31/12/2025"}}
		if d.Grain == dataset.Month {
			q.Set("dateFrom", "1/12/2025")
		}
		if d.Name == "generation-unit-unavailability" {
			q.Set("dateFrom", "1/12/2025")
		}
		for _, p := range d.Params {
			if p.Kind == dataset.Enum && p.Required {
				q.Set(p.Name, d.EnumValues(p)[0])
			}
		}
		r := h.get(t, d.Path()+"?"+q.Encode())
		if r.status != http.StatusOK || !strings.Contains(string(r.body), `"`+d.Array+`":[{"`) {
			t.Errorf("%s?%s: got %d %.300s, want records", d.Path(), q.Encode(), r.status, r.body)
			continue
		}
		// The CSV answer, whose header is the API's field names, is an
		// import file: importing it gives back every record.
		var records []map[string]string
		if err := decodeArray(r.body, d.Array, &records); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		c := h.get(t, d.Path()+"?"+q.Encode()+"&format=csv")
		rows, err := ingest.ReadRows(cat, d, d.Name+".csv", bytes.NewReader(c.body))
		if err != nil || len(rows) != len(records) {
			t.Errorf("%s: importing the CSV answer: %d rows, %v; want %d", d.Name, len(rows), err, len(records))
		}
	}
}
