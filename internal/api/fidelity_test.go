package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"testing"

	"github.com/energyapi/energyapi/internal/api/apitest"
)

// Formats of issue 34's decisions.
const (
	fmtPoint3   = `^-?[0-9]+\.[0-9]{3}$`
	fmtCountry  = `^(France|Switzerland|Austria|Slovenia|Greece|Montenegro|Malta|Corsica)$`
	fmtFuel     = `^(TERMICO TRADIZIONALE|ALTRO)$`
	fmtDirTotal = `^(UP|DOWN|TOTAL)$`
)

// fidelityCase is one decision of issue 34 (docs/datasets-*.md, Sources):
// the page's (or the live code's) shape, the result's message field and
// wording where the decision is about them, values some record must hold
// (present), and queries that must find no record (none).
type fidelityCase struct {
	pageShape
	messageKey, message string
	present             map[string]string
	none                []string
}

var fidelityCases = []fidelityCase{
	{pageShape: pageShape{"generation/Electrical_Energy_By_Source (catalogue.md 5.2)",
		"/generation/v2.0/electrical-energy-by-source?year=2023&region=Valle+d%27Aosta&productionType=Lorda", "electrical_energy_by_source",
		[]string{"year", "production_type", "region", "province", "source", "production_GWh"},
		map[string]string{"year": `^2023$`, "production_type": `^Lorda$`, "region": `^Valle D'Aosta$`, "province": `^Aosta$`,
			"source": `^(Eolico|Fotovoltaico|Geotermoelettrico|Idrico|Termoelettrico)$`, "production_GWh": fmtItalian}},
		messageKey: "message", message: `^OK$`,
		none: []string{"/generation/v2.0/electrical-energy-by-source?year=2023&source=Bioenergie"}},
	{pageShape: pageShape{"electrical-energy-by-source, Termoelettrico per province",
		"/generation/v2.0/electrical-energy-by-source?year=2022&province=Brindisi&source=Termoelettrico", "electrical_energy_by_source",
		[]string{"year", "production_type", "region", "province", "source", "production_GWh"},
		map[string]string{"region": `^Puglia$`, "province": `^Brindisi$`, "production_type": `^(Lorda|Netta)$`}},
		present: map[string]string{"production_type": "Netta"}},
	{pageShape: pageShape{"transmission/Scheduled_Foreign_Exchange: Corsica among the counterparts",
		"/transmission/v2.0/scheduled-foreign-exchange?dateFrom=31/12/2025&dateTo=31/12/2025", "scheduled_foreign_exchange",
		[]string{"date", "date_tz", "date_offset", "country", "scheduled_foreign_exchange_MW"},
		map[string]string{"date": fmtMoment, "country": fmtCountry, "scheduled_foreign_exchange_MW": fmtPoint}},
		present: map[string]string{"country": "Corsica"}},
	{pageShape: pageShape{"live clients of generation-plants: Accumulo stand alone from 2023, Valle D'Aosta, decimal points",
		"/generation/v2.0/generation-plants?year=2023&region=Valle+D%27Aosta", "generation_plants",
		[]string{"year", "capacity_type", "region", "province", "source", "efficient_power_MW"},
		map[string]string{"region": `^Valle D'Aosta$`, "efficient_power_MW": fmtPoint3}},
		present: map[string]string{"source": "Accumulo stand alone"},
		none:    []string{"/generation/v2.0/generation-plants?year=2022&source=Accumulo+stand+alone"}},
	{pageShape: pageShape{"live clients of thermoelectric-capacity: decimal points, Valle d'Aosta",
		"/generation/v2.0/thermoelectric-capacity?year=2023&region=Lombardia", "thermoelectric",
		[]string{"year", "capacity_type", "region", "province", "category", "subcategory", "efficient_power_MW"},
		map[string]string{"region": `^Lombardia$`, "efficient_power_MW": fmtPoint3}}},
	{pageShape: pageShape{"hydric: Valle D'Aosta as generation-plants spells it",
		"/generation/v2.0/hydric?year=2023&province=Aosta", "hydric",
		[]string{"year", "production_type", "region", "province", "hydric_plant", "production_GWh"},
		map[string]string{"region": `^Valle D'Aosta$`, "production_GWh": fmtItalian}}},
	{pageShape: pageShape{"generation/Installed_Capacity: from 2021, as the live service",
		"/generation/v2.0/installed-capacity?year=2021", "installed_capacity",
		[]string{"year", "type", "installed_capacity_GWh"},
		map[string]string{"year": `^2021$`, "installed_capacity_GWh": fmtPoint}},
		messageKey: "message", message: `^Operation completed for the following input\. Year: 2021$`},
	{pageShape: pageShape{"adequacy/Aggregate_Effective_Available_Capacity: prevailing_fuel ALTRO",
		"/adequacy/v1.0/aggregate-effective-available-capacity?dateFrom=31/12/2025&dateTo=31/12/2025", "aggregate_available_capacity",
		[]string{"market_date", "offset", "date_tz", "macroarea", "plant_type", "prevailing_fuel", "available_capacity_MW"},
		map[string]string{"prevailing_fuel": fmtFuel, "available_capacity_MW": fmtPoint}},
		present: map[string]string{"plant_type": "IDROELETTRICO", "prevailing_fuel": "ALTRO"}},
	{pageShape: pageShape{"adequacy/Expected_Available_Capacity: prevailing_fuel TERMICO TRADIZIONALE",
		"/adequacy/v1.0/expected-available-capacity?dateFrom=31/12/2025&dateTo=31/12/2025", "expected_available_capacity",
		[]string{"market_date", "offset", "date_tz", "macroarea", "macrouser_name", "plant_type", "prevailing_fuel", "available_capacity_MW"},
		map[string]string{"prevailing_fuel": fmtFuel}},
		present: map[string]string{"prevailing_fuel": "TERMICO TRADIZIONALE"}},
	{pageShape: pageShape{"market/Quantity: UP, DOWN and their total",
		"/market/v1.0/output/quantity?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1", "quantity",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "direction", "quantity_MWh"},
		map[string]string{"direction": fmtDirTotal, "quantity_MWh": fmtPoint}},
		present: map[string]string{"direction": "TOTAL"}},
	{pageShape: pageShape{"market/Costs: UP, DOWN and their total",
		"/market/v1.0/output/costs?dateFrom=31/12/2025&dateTo=31/12/2025&sessionType=MSD1&direction=TOTAL", "costs",
		[]string{"reference_date", "date_tz", "offset", "zone", "session_type", "direction", "cost_euro"},
		map[string]string{"direction": `^TOTAL$`, "cost_euro": fmtPoint}},
		messageKey: "messagge"},
	{pageShape: pageShape{"market/Aste_FCR's example: result's message",
		"/market/v1.0/aste-fcr?marketDate=05/06/2026", "aste_fcr",
		[]string{"date", "session", "zone", "direction", "price", "quantity", "requirement"}, nil},
		messageKey: "message", message: `^Operation completed for the following input\. Market Date: 05/06/2026$`},
	{pageShape: pageShape{"fees/Monthly_Summary's example: the message, published the first of the next month",
		"/fees/v1.0/monthly-summary?dateFrom=31/12/2025&dateTo=31/12/2025&dataType=Orario", "monthly_summary",
		[]string{"publication_date", "reference_date", "data_type", "date_tz", "macrozone", "zonal_aggregate_unbalance_MWh", "zonal_aggregate_sign",
			"exchanges_MWh", "foreign_MWh", "base_price_EURxMWh", "incentive_component_EURxMWh", "unbalance_price_EURxMWh"},
		map[string]string{"publication_date": `^2026-01-01 19:00:00$`}},
		messageKey: "message", message: `^Operation completed for the following input\. Date from: 31/12/2025, date to: 31/12/2025, data type: Orario$`},
	{pageShape: pageShape{"fees/Commercial_Balance_Prices' example: the message",
		"/ifees/v1.0/market/commercial-balance-prices?dateFrom=31/12/2025&dateTo=31/12/2025", "commercial_balance_prices",
		[]string{"publication_date", "date_time", "date_tz", "macrozone", "zone", "sell_price_EURxMWh", "buy_price_EURxMWh"}, nil},
		messageKey: "message", message: `^Operation completed for the following input\. Date from: 31/12/2025, date to: 31/12/2025$`},
	{pageShape: pageShape{"market/Transit_Limits: a page of its own",
		"/market/v1.0/input/transit-limit?dateFrom=31/12/2025&dateTo=31/12/2025", "transit_limits",
		[]string{"reference_date", "date_tz", "offset", "zoneFrom", "zoneTo", "session_type", "limit_MW"},
		map[string]string{"reference_date": fmtMoment, "session_type": fmtSession, "limit_MW": fmtPoint}},
		messageKey: "messagge"},
}

// TestIssue34Decisions asks the demo data for each decision of issue 34
// items 1 and 4 and checks the answer against the page or live code the
// decision follows: array, fields in order, formats, the result's message.
func TestIssue34Decisions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates the demo data")
	}
	cat, src := familyDemo(t)
	h := newHarnessWith(t, apitest.Options{Catalog: cat, Source: src})
	for _, c := range fidelityCases {
		t.Run(c.page, func(t *testing.T) {
			checkPageShape(t, h, c.pageShape)
			r := h.get(t, c.path)
			if c.messageKey != "" {
				checkMessage(t, r.body, c.messageKey, c.message)
			}
			_, records := answerRecords(t, r.body)
			for field, want := range c.present {
				if !slices.ContainsFunc(records, func(rec answeredRecord) bool { return rec.values[field] == want }) {
					t.Errorf("%s: no record with %s %q", c.path, field, want)
				}
			}
			for _, path := range c.none {
				if r := h.get(t, path); r.status != http.StatusOK || len(r.body) > 0 && len(mustRecords(t, r.body)) > 0 {
					t.Errorf("%s: got %d %.200s, want 200 and no record", path, r.status, r.body)
				}
			}
		})
	}
}

// checkMessage checks that result holds the message under key, matching
// pattern (any text when empty), and no other spelling of the key.
func checkMessage(tb testing.TB, body []byte, key, pattern string) {
	tb.Helper()
	var a struct{ Result map[string]string }
	if err := json.Unmarshal(body, &a); err != nil {
		tb.Fatal(err)
	}
	for _, k := range []string{"message", "messagge"} {
		if _, ok := a.Result[k]; ok != (k == key) {
			tb.Errorf("result %v: has %s %v, want only %s", a.Result, k, ok, key)
		}
	}
	if pattern != "" && !regexp.MustCompile(pattern).MatchString(a.Result[key]) {
		tb.Errorf("result.%s = %q, want %s", key, a.Result[key], pattern)
	}
}

func mustRecords(tb testing.TB, body []byte) []answeredRecord {
	tb.Helper()
	_, records := answerRecords(tb, body)
	return records
}
