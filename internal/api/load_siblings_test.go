package api_test

import (
	"net/http"
	"testing"
)

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
	h := genHarness(t, map[string]string{"market-load": marketLoadFile})
	runGenCases(t, h, marketLoadPath, []genCase{
		{name: "spring", query: "dateFrom=31/3/2024&dateTo=31/03/2024", body: datesMsg("31/03/2024", "31/03/2024") + `"market_load":[` +
			`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"23000.25","forecast_market_load_MW":"","bidding_zone":"Italy"},` +
			`{"date":"2024-03-31 01:45:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"11500.5","forecast_market_load_MW":"11400","bidding_zone":"North"},` +
			`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","market_load_MW":"11300","forecast_market_load_MW":"11350.125","bidding_zone":"North"}]}`},
		// The autumn change: 02:00 twice, first at +02:00 then at +01:00; a
		// repeated key selects two zones.
		{name: "autumn", query: "dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=North&biddingZone=sicily", body: datesMsg("27/10/2024", "27/10/2024") + `"market_load":[` +
			`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","market_load_MW":"10100","forecast_market_load_MW":"10000","bidding_zone":"North"},` +
			`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"9900.75","forecast_market_load_MW":"9950","bidding_zone":"North"},` +
			`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","market_load_MW":"1400","forecast_market_load_MW":"1390","bidding_zone":"Sicily"}]}`},
		// A comma-joined value is one value, which no zone has.
		{name: "comma-joined zones", query: "dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=North,Sicily", empty: true},
		{name: "unknown zone", query: "dateFrom=27/10/2024&dateTo=27/10/2024&biddingZone=Atlantis", empty: true},
		{name: "no 30 February", query: "dateFrom=30/2/2024&dateTo=31/3/2024", status: http.StatusBadRequest, parts: []string{"Input Validation Error:", "dateFrom", "30/2/2024"}},
		{name: "61 days", query: "dateFrom=1/1/2024&dateTo=1/3/2024", status: http.StatusBadRequest, parts: []string{"spans 61 days"}},
	})
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
	h := genHarness(t, map[string]string{"peak-valley-details": detailsFile})
	runGenCases(t, h, detailsPath, []genCase{
		{name: "details", query: "dateFrom=16/07/2024&dateTo=16/7/2024", body: datesMsg("16/07/2024", "16/07/2024") + `"peak_valley_load_details":[` +
			`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"3.200","type":"Net Foreign Exchange"},` +
			`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"-1.500","type":"Pumping-consumption"},` +
			`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"12.250","type":"Photovoltaic"},` +
			`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"-1.800","type":"Self-consumption"},` +
			`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"30.500","type":"Thermal"}]}`},
		{name: "repeated type", query: "dateFrom=16/07/2024&dateTo=16/07/2024&type=Thermal&type=Net+Foreign+Exchange", body: datesMsg("16/07/2024", "16/07/2024") + `"peak_valley_load_details":[` +
			`{"date":"2024-07-16 04:15:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"","valley_load_GW":"24.050","primary_source_GW":"3.200","type":"Net Foreign Exchange"},` +
			`{"date":"2024-07-16 15:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","peak_load_GW":"52.100","valley_load_GW":"","primary_source_GW":"30.500","type":"Thermal"}]}`},
		{name: "comma-joined types", query: "dateFrom=16/07/2024&dateTo=16/07/2024&type=Thermal,Hydro", empty: true},
		{name: "unknown type", query: "dateFrom=16/07/2024&dateTo=16/07/2024&type=Nuclear", empty: true},
		{name: "dashed date", query: "dateFrom=16-07-2024&dateTo=16/07/2024", status: http.StatusBadRequest, parts: []string{"Input Validation Error:", "dateFrom", "16-07-2024"}},
		{name: "from after to", query: "dateFrom=17/07/2024&dateTo=16/07/2024", status: http.StatusBadRequest, parts: []string{"dateFrom"}},
	})
}

const imceiPath = "/load/v2.0/monthly-index-industrial-electrical-consumption"

const imceiFile = "date,region,sector,tension_type,monthly_imcei,consumption_Gwh\n" +
	"2024-02-01 00:00:00,Lombardia,CHIMICA,AT,97.4,41.205\n" +
	"2024-02-01 00:00:00,Lombardia,CHIMICA,MT,101.2,55.5\n" +
	"2024-02-01 00:00:00,Puglia,SIDERURGIA,AT,88,120.125\n" +
	"2024-03-01 00:00:00,Lombardia,CHIMICA,AT,99,43\n"

func TestMonthlyIndexIndustrialConsumption(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"imcei": imceiFile})
	const (
		arr       = okMsg + `"monthly_index_industrial_electrical_consumption":[`
		chimicaAT = `{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Lombardia","sector":"CHIMICA","tension_type":"AT","monthly_imcei":"97.4","consumption_Gwh":"41.205"}`
		chimicaMT = `{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Lombardia","sector":"CHIMICA","tension_type":"MT","monthly_imcei":"101.2","consumption_Gwh":"55.5"}`
		siderAT   = `{"date":"2024-02-01 00:00:00","date_offset":"+01:00","region":"Puglia","sector":"SIDERURGIA","tension_type":"AT","monthly_imcei":"88","consumption_Gwh":"120.125"}`
		month     = arr + chimicaAT + "," + chimicaMT + "," + siderAT + "]}"
		bad       = http.StatusBadRequest
	)
	invalid := []string{"Input Validation Error:"}
	runGenCases(t, h, imceiPath, []genCase{
		{name: "month 02", query: "year=2024&month=02", body: month},
		{name: "month 2", query: "year=2024&month=2", body: month},
		{name: "filters", query: "year=2024&month=2&sector=SIDERURGIA&sector=chimica&tensionType=AT", body: arr + chimicaAT + "," + siderAT + "]}"},
		{name: "comma-joined sectors", query: "year=2024&month=2&sector=CHIMICA,SIDERURGIA", empty: true},
		{name: "unknown sector", query: "year=2024&month=2&sector=TESSILE", empty: true},
		{name: "unknown tension", query: "year=2024&month=2&tensionType=BT", empty: true},
		{name: "year without data", query: "year=2031&month=2", empty: true},
		{name: "month missing", query: "year=2024", status: bad, parts: invalid},
		{name: "month 13", query: "year=2024&month=13", status: bad, parts: invalid},
		{name: "month 002", query: "year=2024&month=002", status: bad, parts: invalid},
		{name: "year not a year", query: "year=24x&month=2", status: bad, parts: invalid},
		{name: "tension repeated", query: "year=2024&month=2&tensionType=AT&tensionType=MT", status: bad, parts: invalid},
		{name: "dates not a month", query: "dateFrom=1/2/2024&dateTo=29/2/2024", status: bad, parts: invalid},
	})
}

const coveragePath = "/load/v2.0/demand-coverage-by-source"

const coverageFile = "year,region,source,coverage_GWh\n" +
	"2023,Puglia,Eolico,\"5.123,4\"\n" +
	"2023,Puglia,Saldo import/export,-7654.321\n" +
	"2023,Toscana,Geotermoelettrico,5530\n" +
	"2022,Toscana,Geotermoelettrico,0\n"

func TestDemandCoverageBySource(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"demand-coverage": coverageFile})
	const (
		arr = okMsg + `"demand_coverage_by_source":[`
		bad = http.StatusBadRequest
	)
	invalid := []string{"Input Validation Error:"}
	runGenCases(t, h, coveragePath, []genCase{
		{name: "coverage", query: "year=2023", body: arr +
			`{"year":"2023","region":"Puglia","source":"Eolico","coverage_GWh":"5.123,400"},` +
			`{"year":"2023","region":"Puglia","source":"Saldo import/export","coverage_GWh":"-7.654,321"},` +
			`{"year":"2023","region":"Toscana","source":"Geotermoelettrico","coverage_GWh":"5.530,000"}]}`},
		{name: "filters", query: "year=2022&region=toscana&source=Geotermoelettrico", body: arr +
			`{"year":"2022","region":"Toscana","source":"Geotermoelettrico","coverage_GWh":"0,000"}]}`},
		{name: "unknown region", query: "year=2023&region=Atlantide", empty: true},
		{name: "unknown source", query: "year=2023&source=Nucleare", empty: true},
		{name: "year without data", query: "year=2031", empty: true},
		{name: "year before data", query: "year=1990", empty: true},
		{name: "year missing", query: "region=Puglia", status: bad, parts: invalid},
		{name: "year malformed", query: "year=2023.0", status: bad, parts: invalid},
		{name: "region repeated", query: "year=2023&region=Puglia&region=Toscana", status: bad, parts: invalid},
		{name: "source repeated", query: "year=2023&source=Eolico&source=Eolico", status: bad, parts: invalid},
	})
}
