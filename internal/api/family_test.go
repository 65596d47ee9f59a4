package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestCatalogNamesEverySource proves that GET /catalog tells, for every
// dataset, where its shape comes from (a portal page or the live client)
// and how sure that is, and that the OpenAPI description says the same.
func TestCatalogNamesEverySource(t *testing.T) {
	t.Parallel()
	h := genHarness(t, nil)
	var cat struct {
		Datasets []struct {
			Name    string
			Path    string
			Aliases []string
			Source  struct{ Ref, Confidence, Guess string }
		} `json:"datasets"`
	}
	if err := json.Unmarshal(h.get(t, "/catalog").body, &cat); err != nil {
		t.Fatal(err)
	}
	// The 46 endpoints served before issue 22 and the 12 of catalogue.md
	// 4.1, two of which (rr-requirement, the ifees commercial balance
	// prices) are the data two of the 46 served at guessed paths, which
	// stay as aliases: 56 datasets at 58 endpoints.
	if len(cat.Datasets) < 56 {
		t.Errorf("/catalog lists %d datasets, want at least 56", len(cat.Datasets))
	}
	served := map[string]bool{}
	for _, d := range cat.Datasets {
		served[d.Path] = true
		for _, a := range d.Aliases {
			if !strings.HasPrefix(a, "/market-and-fees/") {
				served[a] = true
			}
		}
	}
	if len(served) < 58 {
		t.Errorf("/catalog serves %d endpoints, want at least 58", len(served))
	}
	for _, path := range []string{
		"/load/v2.0/electrical-energy-in-italy", "/load/v2.0/electrical-energy-by-type", "/load/v2.0/electrical-energy-by-sector",
		"/load/v2.0/industry-sector", "/load/v2.0/services-sector", "/load/v2.0/total", "/load/v2.0/market",
		"/generation/v2.0/renewable-source-capacity", "/market/v1.0/aste-fcr", "/market/v1.0/input/rr-requirement",
		"/fees/v1.0/monthly-summary", "/ifees/v1.0/market/commercial-balance-prices",
		"/market/v1.0/input/replacement-reserve-requirement", "/fees/v1.0/commercial-balance-prices",
	} {
		if !served[path] {
			t.Errorf("/catalog does not serve %s", path)
		}
	}
	for _, d := range cat.Datasets {
		if d.Source.Ref == "" || !strings.Contains("HML", d.Source.Confidence) || d.Source.Confidence == "" {
			t.Errorf("%s: source %+v, want a reference and a confidence H, M or L", d.Name, d.Source)
		}
	}
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := api.OpenAPIDocument(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "**Source.** https://developer.terna.it/docs/read/apis_catalog/load/Total_Load (confidence H)."; !strings.Contains(string(doc), want) {
		t.Errorf("the OpenAPI document does not say %q", want)
	}
}

// familyDemo returns the demo data of the last 14 days of serve --demo's
// range, which the tests ask for, with the yearly statistics and the FCR
// auctions of June 2026.
func familyDemo(tb testing.TB) (*dataset.Catalog, dataset.PartSource) {
	tb.Helper()
	return demoDays(tb, energy.Date{Year: 2025, Month: time.December, Day: 18}, energy.Date{Year: 2025, Month: time.December, Day: 31})
}

// Formats of the values the pages' examples show.
const (
	fmtMoment  = `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$`
	fmtMinute  = `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}$`
	fmtDay     = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	fmtTZ      = `^Europe/Rome$`
	fmtOffset  = `^\+0[12]:00$`
	fmtPoint   = `^-?[0-9]+(\.[0-9]+)?$`
	fmtCount   = `^[0-9]+$`
	fmtItalian = `^-?[0-9]{1,3}(\.[0-9]{3})*,[0-9]+$`
	fmtYear    = `^20(1[5-9]|2[0-4])$`
	fmtSession = `^MSD[1-6]$|^MB$`
	fmtDir     = `^(UP|DOWN)$`
)

// pageShape is what a page of the developer portal (or the live client
// that overrides it) shows of one endpoint's answer: its array, its
// fields in order, and the format of each field's example value.
type pageShape struct {
	page    string // the page, or the live code, the shape is read from
	path    string // with the query of a request the demo data answer
	array   string
	fields  []string
	formats map[string]string
}

// familyShapes are the shapes of catalogue.md section 4.2, as read on the
// pages and in the live code.
var familyShapes = []pageShape{
	{"market/Prices", "/market/v1.0/output/prices?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "prices",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "type", "direction", "price_eur_MWh"},
		map[string]string{"reference_date": fmtMoment, "date_tz": fmtTZ, "offset": fmtOffset, "zone": `^(NORD|CNOR|CSUD|SUD|CALA|SICI|SARD)$`,
			"session_type": fmtSession, "type": `^(MARGINAL|AVERAGE)$`, "direction": fmtDir, "price_eur_MWh": fmtPoint}},
	{"market/Costs", "/market/v1.0/output/costs?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "costs",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "direction", "cost_euro"},
		map[string]string{"reference_date": fmtMoment, "date_tz": fmtTZ, "offset": fmtOffset, "zone": `^(Nord|Centro-Nord|Centro-Sud|Sud|Calabria|Sicilia|Sardegna)$`,
			"session_type": fmtSession, "direction": fmtDirTotal, "cost_euro": fmtPoint}},
	{"market/Accepted_Offers", "/market/v1.0/output/accepted-offers?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "accepted_offers",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "type", "direction", "offer"},
		map[string]string{"reference_date": fmtMoment, "date_tz": fmtTZ, "offset": fmtOffset, "zone": `^(North|Center-North|Center-South|South|Calabria|Sicily|Sardinia)$`,
			"session_type": fmtSession, "type": `^ACCEPTED$`, "direction": fmtDir, "offer": fmtCount}},
	{"by analogy with market/Accepted_Offers", "/market/v1.0/input/submitted-offers?dateFrom=31/12/2025&dateTo=31/12/2025", "submitted_offers",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "type", "direction", "offer"},
		map[string]string{"zone": `^(North|Center-North|Center-South|South|Calabria|Sicily|Sardinia)$`, "type": `^SUBMITTED$`, "offer": fmtCount}},
	{"market/Quantity", "/market/v1.0/output/quantity?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "quantity",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "direction", "quantity_MWh"},
		map[string]string{"zone": `^(NORD|CNOR|CSUD|SUD|CALA|SICI|SARD)$`, "quantity_MWh": fmtPoint}},
	{"live probe of outages/Unavailability_Productive_Units", "/outages/v1.0/generation-unit-unavailability?dateFrom=1/12/2025&dateTo=31/12/2025", "unavailability_productive_units",
		[]string{"publication_date", "date_tz", "unit_name", "plant_name", "plant_type", "biddingZone", "installed_capacity", "outage_type", "start_date", "stop_date", "stop_date_update", "unavailable_capacity", "unavailable_status"},
		map[string]string{"publication_date": fmtDay, "biddingZone": `^(NORD|CNOR|CSUD|SUD|CALA|SICI|SARD)$`, "start_date": fmtMinute, "stop_date": fmtMinute, "stop_date_update": `^$|` + fmtMinute}},
	{"live client of adequacy/v1.0/detail-available-capacity", "/adequacy/v1.0/detail-available-capacity?dateFrom=31/12/2025&dateTo=31/12/2025", "detail_available_capacity",
		[]string{"market_date", "offset", "unit_code", "available_capacity_MW"},
		map[string]string{"market_date": fmtMoment, "offset": fmtOffset, "unit_code": `^UP_`, "available_capacity_MW": fmtPoint}},
	{"market/Secondary_Reserve_Requirement, live client's areas", "/market/v1.0/input/afrr-requirement?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "secondary_reserve_requirement",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "requirement_MW"},
		map[string]string{"zone": `^(Continent|Sicily|Sardinia)$`, "requirement_MW": fmtPoint}},
	{"market/Load_Forecast (generated OpenAPI set)", "/market/v1.0/input/forecast-load?dateFrom=31/12/2025&dateTo=31/12/2025", "forecast_load",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "load_MW"},
		map[string]string{"reference_date": fmtMoment, "session_type": fmtSession, "load_MW": fmtPoint}},
	{"market/Forecast_Transit_Limits", "/market/v1.0/input/forecast-transit-limit?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "provisional_transit_limits",
		[]string{"reference_date", "date_tz", "offset", "zoneFrom", "zoneTo", "session_type", "limit_MW"},
		map[string]string{"zoneFrom": `^(North|Center-North|Center-South|South|Calabria|Sicily|Sardinia)$`, "zoneTo": `^(North|Center-North|Center-South|South|Calabria|Sicily|Sardinia)$`}},
}

// familyEndpoints are the endpoints of catalogue.md section 4.1 and the
// shapes their pages (or the live code) show.
var familyEndpoints = []pageShape{
	{"load/Electrical_energy_in_italy, client L2", "/load/v2.0/electrical-energy-in-italy?year=2023", "electrical_energy_in_italy",
		[]string{"year", "month", "demand_GWh"},
		map[string]string{"year": `^2023$`, "month": `^(Gennaio|Febbraio|Marzo|Aprile|Maggio|Giugno|Luglio|Agosto|Settembre|Ottobre|Novembre|Dicembre)$`, "demand_GWh": fmtItalian}},
	{"load/Electrical_energy_in_italy: one month by its name", "/load/v2.0/electrical-energy-in-italy?year=2015&month=Febbraio", "electrical_energy_in_italy",
		[]string{"year", "month", "demand_GWh"}, map[string]string{"year": `^2015$`, "month": `^Febbraio$`}},
	{"load/electrical_energy_by_type, client L2", "/load/v2.0/electrical-energy-by-type?year=2023", "electrical_energy_by_type",
		[]string{"year", "region", "type", "demand_GWh"},
		map[string]string{"year": fmtYear, "type": `^(Fonti rinnovabili|Fonti tradizionali|Saldo import/export)$`, "demand_GWh": fmtItalian}},
	{"client L2's electrical-energy-by-sector", "/load/v2.0/electrical-energy-by-sector?year=2024&region=Lombardia", "electrical_energy_by_sector",
		[]string{"year", "region", "province", "sector", "consumption_GWh"},
		map[string]string{"region": `^Lombardia$`, "sector": `^(Agricoltura|Domestico|Industria|Servizi)$`, "consumption_GWh": fmtItalian}},
	{"client L2's industry-sector", "/load/v2.0/industry-sector?year=2020", "industry_sector",
		[]string{"year", "region", "province", "activity", "class", "consumption_GWh"}, map[string]string{"year": fmtYear, "consumption_GWh": fmtItalian}},
	{"client L2's services-sector", "/load/v2.0/services-sector?year=2019&province=Roma", "services_sector",
		[]string{"year", "region", "province", "activity", "class", "consumption_GWh"}, map[string]string{"province": `^Roma$`, "consumption_GWh": fmtItalian}},
	{"client L2's total", "/load/v2.0/total?year=2016&sector=Domestico", "total",
		[]string{"year", "region", "province", "sector", "activity", "class", "consumption_GWh"}, map[string]string{"sector": `^Domestico$`, "consumption_GWh": fmtItalian}},
	{"client L2's market", "/load/v2.0/market?year=2017&Market=Mercato+tutelato", "market",
		[]string{"year", "region", "province", "market", "consumption_GWh"}, map[string]string{"market": `^Mercato tutelato$`, "consumption_GWh": fmtItalian}},
	{"generation/Renewable_Source_Capacity", "/generation/v2.0/renewable-source-capacity?year=2023", "renewable_sources",
		[]string{"year", "capacity_type", "region", "province", "source", "efficient_power_MW"},
		map[string]string{"year": `^2023$`, "capacity_type": `^(Lorda|Netta)$`, "source": `^(Bioenergie|Eolico|Fotovoltaico|Geotermoelettrico|Idrico)$`, "efficient_power_MW": fmtPoint3}},
	{"live client of market/v1.0/aste-fcr", "/market/v1.0/aste-fcr?marketDate=05/06/2026", "aste_fcr",
		[]string{"date", "session", "zone", "direction", "price", "quantity", "requirement"},
		map[string]string{"date": `^2026-06-05 00:00:00$`, "session": `^FCR$`, "zone": `^(Continente\+Sicilia|Sardegna)$`, "direction": fmtDir,
			"price": fmtPoint, "quantity": fmtPoint, "requirement": fmtPoint}},
	{"live client of market/v1.0/input/rr-requirement", "/market/v1.0/input/rr-requirement?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "replacement_reserve_requirement",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "requirement_MW"},
		map[string]string{"reference_date": fmtMoment, "offset": fmtOffset, "zone": `^(North|Centre-North|Centre-South|South|Calabria|Sicily|Sardinia)$`, "requirement_MW": fmtPoint}},
	{"the guessed path, kept as an alias", "/market/v1.0/input/replacement-reserve-requirement?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "replacement_reserve_requirement",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "requirement_MW"}, nil},
	{"fees/Monthly_Summary (generated OpenAPI set)", "/fees/v1.0/monthly-summary?dateFrom=31/12/2025&dateTo=31/12/2025&dataType=Orario", "monthly_summary",
		[]string{"publication_date", "reference_date", "data_type", "date_tz", "macrozone", "zonal_aggregate_unbalance_MWh", "zonal_aggregate_sign",
			"exchanges_MWh", "foreign_MWh", "base_price_EURxMWh", "incentive_component_EURxMWh", "unbalance_price_EURxMWh"},
		map[string]string{"publication_date": fmtMoment, "reference_date": fmtMoment, "data_type": `^Orario$`, "date_tz": fmtTZ, "macrozone": `^(NORD|SUD)$`,
			"zonal_aggregate_sign": `^[+-]$`, "base_price_EURxMWh": fmtPoint, "exchanges_MWh": fmtPoint}},
	{"fees/Commercial_Balance_Prices (its curl example's ifees path)", "/ifees/v1.0/market/commercial-balance-prices?dateFrom=31/12/2025&dateTo=31/12/2025", "commercial_balance_prices",
		[]string{"publication_date", "date_time", "date_tz", "macrozone", "zone", "sell_price_EURxMWh", "buy_price_EURxMWh"},
		map[string]string{"publication_date": fmtMoment, "date_time": fmtMoment, "date_tz": fmtTZ, "macrozone": `^(NORD|SUD)$`, "zone": `^[A-Z]{3,4}$`,
			"sell_price_EURxMWh": fmtPoint, "buy_price_EURxMWh": fmtPoint}},
	{"fees/Commercial_Balance_Prices (its URL line's fees path)", "/fees/v1.0/commercial-balance-prices?dateFrom=31/12/2025&dateTo=31/12/2025", "commercial_balance_prices",
		[]string{"publication_date", "date_time", "date_tz", "macrozone", "zone", "sell_price_EURxMWh", "buy_price_EURxMWh"}, nil},
}

// TestFamilyShapesMatchThePages asks the demo data of every endpoint of
// catalogue.md section 4.2 for a day and compares the answer with what
// the page (or the live code) shows: the array's name, the fields in
// their order, and each value's format.
func TestFamilyShapesMatchThePages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	for _, c := range append(familyShapes, familyEndpoints...) {
		t.Run(c.path, func(t *testing.T) { checkPageShape(t, h, c) })
	}
}

func checkPageShape(t *testing.T, h *harness, c pageShape) {
	t.Helper()
	r := h.get(t, c.path)
	if r.status != http.StatusOK {
		t.Fatalf("%s: got %d %.300s", c.path, r.status, r.body)
	}
	array, records := answerRecords(t, r.body)
	if array != c.array {
		t.Errorf("%s (%s): array %q, want %q", c.path, c.page, array, c.array)
	}
	if len(records) == 0 {
		t.Fatalf("%s: no records", c.path)
	}
	formats := map[string]*regexp.Regexp{} // compiled once, not a record each
	for field, format := range c.formats {
		formats[field] = regexp.MustCompile(format)
	}
	for i, rec := range records {
		if !slices.Equal(rec.keys, c.fields) {
			t.Fatalf("%s (%s) record %d: fields %v, want %v", c.path, c.page, i, rec.keys, c.fields)
		}
		for field, format := range formats {
			if v, ok := rec.values[field].(string); !ok || !format.MatchString(v) {
				t.Fatalf("%s record %d: %s = %#v, want a string matching %s", c.path, i, field, rec.values[field], format)
			}
		}
	}
}

// answeredRecord is a record of an answer with its field names in order.
type answeredRecord struct {
	keys   []string
	values map[string]any
}

// answerRecords reads a success answer: the name of its array (the key
// after result) and its records, fields in the order sent.
func answerRecords(tb testing.TB, body []byte) (string, []answeredRecord) {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var array string
	var records []answeredRecord
	tok := func() json.Token {
		t, err := dec.Token()
		if err != nil {
			tb.Fatalf("reading %.200s: %v", body, err)
		}
		return t
	}
	tok() // {
	for dec.More() {
		key := tok().(string)
		if key == "result" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		array = key
		tok() // [
		for dec.More() {
			tok() // {
			rec := answeredRecord{values: map[string]any{}}
			for dec.More() {
				k := tok().(string)
				var v any
				if err := dec.Decode(&v); err != nil {
					tb.Fatal(err)
				}
				rec.keys = append(rec.keys, k)
				rec.values[k] = v
			}
			tok() // }
			records = append(records, rec)
		}
		tok() // ]
	}
	return array, records
}

// TestSessionTypeRequiredWhereThePagesSaySo: the prices, costs and
// accepted offers pages give sessionType 1..1.
func TestSessionTypeRequiredWhereThePagesSaySo(t *testing.T) {
	t.Parallel()
	h := genHarness(t, nil)
	for _, path := range []string{"/market/v1.0/output/prices", "/market/v1.0/output/costs", "/market/v1.0/output/accepted-offers", "/market/v1.0/output/quantity"} {
		r := h.get(t, path+"?dateFrom=31/12/2025&dateTo=31/12/2025")
		if r.status != http.StatusNotAcceptable || !strings.Contains(string(r.body), "parameter sessionType is required") {
			t.Errorf("%s without sessionType: got %d %s, want 406 naming sessionType", path, r.status, r.body)
		}
	}
}

// TestAsteFCRAnswers asks the demo FCR auctions as the live client does,
// one marketDate at a time: a day before 3 June 2026 answers zeros, the
// message repeats the market day, and some Sardinian auction of June 2026
// has a JSON null price (which the OpenAPI document allows).
func TestAsteFCRAnswers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	r := h.get(t, "/market/v1.0/aste-fcr?marketDate=31/12/2025&direction=UP")
	want := `{"result":{"message":"Operation completed for the following input. Market Date: 31/12/2025","status":"Completed"},"aste_fcr":[` +
		`{"date":"2025-12-31 00:00:00","session":"FCR","zone":"Continente+Sicilia","direction":"UP","price":"0","quantity":"0","requirement":"0"},` +
		`{"date":"2025-12-31 00:00:00","session":"FCR","zone":"Sardegna","direction":"UP","price":"0","quantity":"0","requirement":"0"}]}`
	wantBody(t, "before the auctions", r, want)
	nulls := 0
	for d := 3; d <= 30; d++ {
		r := h.get(t, "/market/v1.0/aste-fcr?dateFrom="+time.Date(2026, 6, d, 0, 0, 0, 0, time.UTC).Format("02/01/2006"))
		_, records := answerRecords(t, r.body)
		for _, rec := range records {
			if rec.values["price"] == nil {
				nulls++
			}
		}
	}
	if nulls == 0 {
		t.Error("no null price in June 2026's auctions")
	}
}

// TestLoadStatisticsFilters asks the yearly load statistics as client L2
// does: a month by its Italian name (or number) selects one record, a name
// outside the list and an unknown market get the empty body, and a year
// without statistics gets it too.
func TestLoadStatisticsFilters(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	for _, q := range []string{"year=2023&month=Gennaio", "year=2023&month=gennaio", "year=2023&month=1"} {
		r := h.get(t, "/load/v2.0/electrical-energy-in-italy?"+q)
		if _, records := answerRecords(t, r.body); r.status != http.StatusOK || len(records) != 1 || records[0].values["month"] != "Gennaio" {
			t.Errorf("%s: got %d %s, want January alone", q, r.status, r.body)
		}
		if !strings.Contains(string(r.body), `"result":{"message":"OK","status":"Completed"}`) {
			t.Errorf("%s: got %s, want the message OK", q, r.body)
		}
	}
	wantEmpty(t, h.get(t, "/load/v2.0/electrical-energy-in-italy?year=2023&month=Gennaioo"))
	wantEmpty(t, h.get(t, "/load/v2.0/market?year=2023&Market=Mercato+nero"))
	wantEmpty(t, h.get(t, "/load/v2.0/total?year=2014"))
}

// TestLiveTimingThroughTheAPI asks the demo data what a client of the
// live service would see at given times (catalogue.md 4.4): on 31
// December 2025 at noon, the final imbalance of the 30th is not out yet
// while the preliminary is; at 18:00 it is. A unit's capacity of the 24th
// is revised (final) on the 31st, which changedSince finds; and a session's
// requirements appear when it runs.
func TestLiveTimingThroughTheAPI(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	count := func(path string) int {
		t.Helper()
		r := h.get(t, path)
		if r.status != http.StatusOK {
			t.Fatalf("%s: got %d %.300s", path, r.status, r.body)
		}
		_, records := answerRecords(t, r.body)
		return len(records)
	}
	day := "dateFrom=30/12/2025&dateTo=30/12/2025&dataType=Orario"
	for _, c := range []struct {
		path string
		want int
	}{
		{"/fees/v1.0/daily-macrozonal-imbalance?" + day + "&asOf=2025-12-31T11:00:00Z", 0},
		{"/fees/v1.0/preliminary-macrozonal-imbalance?" + day + "&asOf=2025-12-31T11:00:00Z", 48},
		{"/fees/v1.0/daily-macrozonal-imbalance?" + day + "&asOf=2025-12-31T17:00:00Z", 48},
		{"/fees/v1.0/daily-macrozonal-imbalance?" + day + "&changedSince=2025-12-31T16:00:00Z", 0},
		{"/adequacy/v1.0/detail-available-capacity?dateFrom=24/12/2025&dateTo=24/12/2025&changedSince=2025-12-30T12:00:00Z", 24 * 17},
		{"/adequacy/v1.0/detail-available-capacity?dateFrom=24/12/2025&dateTo=24/12/2025&changedSince=2025-12-31T12:00:00Z", 0},
		{"/market/v1.0/input/afrr-requirement?dateFrom=24/12/2025&dateTo=24/12/2025&sessionType=MSD6&asOf=2025-12-24T13:00:00Z", 0},
		{"/market/v1.0/input/afrr-requirement?dateFrom=24/12/2025&dateTo=24/12/2025&sessionType=MSD6&asOf=2025-12-24T15:00:00Z", 3 * 4},
	} {
		if got := count(c.path); got != c.want {
			t.Errorf("%s: %d records, want %d", c.path, got, c.want)
		}
	}
	r := h.get(t, "/fees/v1.0/daily-macrozonal-imbalance?"+day+"&include=meta")
	if !strings.Contains(string(r.body), `"publication_date":"2025-12-31 17:00:00"`) || !strings.Contains(string(r.body), `"published_at":"2025-12-31T16:00:00Z"`) {
		t.Errorf("final imbalance: got %.400s, want publication and published_at at 17:00 the next day", r.body)
	}
}
