package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api"
	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/ingest"
)

// genHarness serves the whole catalogue with files imported through the
// generic reader, one per dataset named, as energyapi import would.
func genHarness(t *testing.T, files map[string]string) *harness {
	t.Helper()
	return genHarnessAt(t, time.Time{}, files)
}

// genHarnessAt is genHarness with the API's clock fixed at now, unless now
// is zero.
func genHarnessAt(t *testing.T, now time.Time, files map[string]string) *harness {
	t.Helper()
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	m := dataset.NewMemory()
	for name, file := range files {
		d, ok := c.Lookup(name)
		if !ok {
			t.Fatalf("no dataset %s", name)
		}
		rows, err := ingest.ReadRows(c, d, name+".csv", strings.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := dataset.Import(context.Background(), m, c, d, rows, time.Unix(0, 0)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	o := apitest.Options{Catalog: c, Source: m}
	if !now.IsZero() {
		o.Adjust = func(ao *api.Options) { ao.Now = func() time.Time { return now } }
	}
	return newHarnessWith(t, o)
}

// genCase is one request and its expected answer: a body written by hand,
// the empty body, or an error with a status and parts of its message.
type genCase struct {
	name, query string
	body        string   // exact JSON when set
	empty       bool     // the empty-body answer
	status      int      // an error status, with parts of its message
	parts       []string // for status
}

func runGenCases(t *testing.T, h *harness, path string, cases []genCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.get(t, path+"?"+tc.query)
			switch {
			case tc.empty:
				wantEmpty(t, r)
			case tc.status != 0:
				wantError(t, r, tc.status, tc.parts...)
			default:
				if r.status != http.StatusOK || string(r.body) != tc.body {
					t.Errorf("got %d\n%s\nwant 200\n%s", r.status, r.body, tc.body)
				}
			}
		})
	}
}

// datesMsg is the result of a date-range answer.
func datesMsg(from, to string) string {
	return `{"result":{"message":"Operation completed for the following input. Date from: ` + from + `, date to: ` + to + `","status":"Completed"},`
}

const actualGenerationFile = `date,date_offset,actual_generation_GWh,primary_source
2024-03-31 01:00:00,,10.5,Thermal
2024-03-31 01:00:00,,0.612,geothermal
2024-03-31 03:00:00,,9.75,Thermal
2024-03-31 03:00:00,,0.25,Self-consumption
2024-10-27 02:00:00,+02:00,8.25,Thermal
2024-10-27 02:00:00,+01:00,8.125,Thermal
2024-10-27 02:00:00,+02:00,1.5,Wind
2024-10-27 03:00:00,+01:00,8,Thermal
2024-10-28 00:00:00,+01:00,7,Thermal
`

func TestActualGeneration(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"actual-generation": actualGenerationFile})
	const a = `{"date":"`
	runGenCases(t, h, "/generation/v2.0/actual-generation", []genCase{
		{name: "spring clock change", query: "dateFrom=31/3/2024&dateTo=31/03/2024",
			body: datesMsg("31/03/2024", "31/03/2024") + `"actual_generation":[` +
				a + `2024-03-31 01:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"0.612","primary_source":"Geothermal"},` +
				a + `2024-03-31 01:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"10.5","primary_source":"Thermal"},` +
				a + `2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","actual_generation_GWh":"0.25","primary_source":"Self-consumption"},` +
				a + `2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","actual_generation_GWh":"9.75","primary_source":"Thermal"}]}`},
		{name: "autumn clock change, one type", query: "dateFrom=27/10/2024&dateTo=27/10/2024&type=Thermal",
			body: datesMsg("27/10/2024", "27/10/2024") + `"actual_generation":[` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","actual_generation_GWh":"8.25","primary_source":"Thermal"},` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"8.125","primary_source":"Thermal"},` +
				a + `2024-10-27 03:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"8","primary_source":"Thermal"}]}`},
		{name: "autumn clock change in UTC", query: "dateFrom=27/10/2024&dateTo=27/10/2024&type=Thermal&timeZone=UTC",
			body: datesMsg("27/10/2024", "27/10/2024") + `"actual_generation":[` +
				a + `2024-10-27 00:00:00","date_tz":"UTC","date_offset":"+00:00","actual_generation_GWh":"8.25","primary_source":"Thermal"},` +
				a + `2024-10-27 01:00:00","date_tz":"UTC","date_offset":"+00:00","actual_generation_GWh":"8.125","primary_source":"Thermal"},` +
				a + `2024-10-27 02:00:00","date_tz":"UTC","date_offset":"+00:00","actual_generation_GWh":"8","primary_source":"Thermal"}]}`},
		{name: "repeated type keys", query: "dateFrom=27/10/2024&dateTo=28/10/2024&type=wind&type=Thermal&type=Wind",
			body: datesMsg("27/10/2024", "28/10/2024") + `"actual_generation":[` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","actual_generation_GWh":"8.25","primary_source":"Thermal"},` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","actual_generation_GWh":"1.5","primary_source":"Wind"},` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"8.125","primary_source":"Thermal"},` +
				a + `2024-10-27 03:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"8","primary_source":"Thermal"},` +
				a + `2024-10-28 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","actual_generation_GWh":"7","primary_source":"Thermal"}]}`},
		{name: "known type, no record", query: "dateFrom=31/3/2024&dateTo=31/3/2024&type=Hydro",
			body: datesMsg("31/03/2024", "31/03/2024") + `"actual_generation":[]}`},
		{name: "unknown type", query: "dateFrom=31/3/2024&dateTo=31/3/2024&type=Nuclear", empty: true},
		{name: "comma-joined types are one value", query: "dateFrom=31/3/2024&dateTo=31/3/2024&type=Thermal,Wind", empty: true},
		{name: "bad date", query: "dateFrom=30/2/2024&dateTo=31/3/2024", status: 400, parts: []string{"Input Validation Error:", "dateFrom", "30/2/2024"}},
		{name: "span over the limit", query: "dateFrom=1/1/2024&dateTo=31/3/2024", status: 400, parts: []string{"Input Validation Error:", "spans 91 days"}},
		{name: "dateTo missing", query: "dateFrom=1/1/2024", status: 400, parts: []string{"dateTo"}},
	})
}

const renewableGenerationFile = `date;date_offset;renewable_generation_GWh;energy_source
31/03/2024 01:00:00;;0.612;Geothermal
31/03/2024 03:00:00;;1.75;Hydro
27/10/2024 02:00:00;+01:00;2.5;Wind
27/10/2024 02:00:00;+02:00;2.25;Wind
`

func TestRenewableGeneration(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"renewable-generation": renewableGenerationFile})
	const a = `{"date":"`
	runGenCases(t, h, "/generation/v2.0/renewable-generation", []genCase{
		{name: "spring clock change", query: "dateFrom=31/03/2024&dateTo=31/3/2024",
			body: datesMsg("31/03/2024", "31/03/2024") + `"renewable_generation":[` +
				a + `2024-03-31 01:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","renewable_generation_GWh":"0.612","energy_source":"Geothermal"},` +
				a + `2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","renewable_generation_GWh":"1.75","energy_source":"Hydro"}]}`},
		{name: "autumn clock change", query: "dateFrom=27/10/2024&dateTo=27/10/2024",
			body: datesMsg("27/10/2024", "27/10/2024") + `"renewable_generation":[` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","renewable_generation_GWh":"2.25","energy_source":"Wind"},` +
				a + `2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","renewable_generation_GWh":"2.5","energy_source":"Wind"}]}`},
		{name: "repeated type keys", query: "dateFrom=31/3/2024&dateTo=31/3/2024&type=Hydro&type=Thermal",
			body: datesMsg("31/03/2024", "31/03/2024") + `"renewable_generation":[` +
				a + `2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","renewable_generation_GWh":"1.75","energy_source":"Hydro"}]}`},
		{name: "unknown type", query: "dateFrom=31/3/2024&dateTo=31/3/2024&type=Solar", empty: true},
		{name: "bad date", query: "dateFrom=31/3/2024&dateTo=31-3-2024", status: 400, parts: []string{"Input Validation Error:", "dateTo", "31-3-2024"}},
		{name: "span over the limit", query: "dateFrom=1/2/2024&dateTo=1/4/2024", status: 400, parts: []string{"spans 61 days"}},
	})
}

const energyBalanceFile = `date,energy_balance_GWh,type
2024-03-31 00:00:00,410.25,Thermal
2024-03-31 00:00:00,-12.5,Pumping-consumption
2024-03-31 00:00:00,131.125,net foreign exchange
2024-04-01 00:00:00,395,Thermal
`

func TestEnergyBalance(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"energy-balance": energyBalanceFile})
	const a = `{"date":"`
	runGenCases(t, h, "/generation/v2.0/energy-balance", []genCase{
		{name: "two days", query: "dateFrom=31/3/2024&dateTo=1/4/2024",
			body: datesMsg("31/03/2024", "01/04/2024") + `"energy_balance":[` +
				a + `2024-03-31 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","energy_balance_GWh":"131.125","type":"Net Foreign Exchange"},` +
				a + `2024-03-31 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","energy_balance_GWh":"-12.5","type":"Pumping-consumption"},` +
				a + `2024-03-31 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","energy_balance_GWh":"410.25","type":"Thermal"},` +
				a + `2024-04-01 00:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","energy_balance_GWh":"395","type":"Thermal"}]}`},
		{name: "repeated type keys", query: "dateFrom=31/3/2024&dateTo=1/4/2024&type=Pumping-consumption&type=Net+Foreign+Exchange",
			body: datesMsg("31/03/2024", "01/04/2024") + `"energy_balance":[` +
				a + `2024-03-31 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","energy_balance_GWh":"131.125","type":"Net Foreign Exchange"},` +
				a + `2024-03-31 00:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","energy_balance_GWh":"-12.5","type":"Pumping-consumption"}]}`},
		{name: "unknown type", query: "dateFrom=31/3/2024&dateTo=1/4/2024&type=Thermal&type=Coal", empty: true},
		{name: "bad date", query: "dateFrom=2024-03-31&dateTo=1/4/2024", status: 400, parts: []string{"dateFrom", "2024-03-31"}},
		{name: "reversed range", query: "dateFrom=2/4/2024&dateTo=1/4/2024", status: 400, parts: []string{"after"}},
	})
}
