package api_test

import (
	"net/http"
	"testing"
)

const foreignFlowPath = "/transmission/v2.0/physical-foreign-flow"

// foreignFlowFile is in the English number format of the transmission
// downloads and spans both 2024 clock changes on an hourly dataset: 01:00
// +01:00 is followed by 03:00 +02:00 in spring, 02:00 comes twice in autumn.
const foreignFlowFile = "date,date_offset,country,import,export,physical_foreign_flow_MW\n" +
	"2024-03-31 01:00:00,+01:00,France,\"2,345.5\",0,\"2,345.5\"\n" +
	"2024-03-31 03:00:00,+02:00,France,\"2,100\",0,\"2,100\"\n" +
	"2024-03-31 03:00:00,+02:00,Malta,0,35.25,-35.25\n" +
	"2024-10-27 02:00:00,+02:00,Switzerland,\"1,800.125\",0,\"1,800.125\"\n" +
	"2024-10-27 02:00:00,+01:00,Switzerland,\"1,750\",0,\"1,750\"\n"

func TestPhysicalForeignFlow(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{"physical-foreign-flow": foreignFlowFile})
	r := h.get(t, foreignFlowPath+"?dateFrom=31/03/2024&dateTo=31/3/2024")
	want := datesMsg("31/03/2024", "31/03/2024") + `"physical_foreign_flow":[` +
		`{"date":"2024-03-31 01:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","country":"France","import":"2345.5","export":"0","physical_foreign_flow_MW":"2345.5"},` +
		`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","country":"France","import":"2100","export":"0","physical_foreign_flow_MW":"2100"},` +
		`{"date":"2024-03-31 03:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","country":"Malta","import":"0","export":"35.25","physical_foreign_flow_MW":"-35.25"}]}`
	wantBody(t, "spring", r, want)
	r = h.get(t, foreignFlowPath+"?dateFrom=27/10/2024&dateTo=27/10/2024")
	want = datesMsg("27/10/2024", "27/10/2024") + `"physical_foreign_flow":[` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","country":"Switzerland","import":"1800.125","export":"0","physical_foreign_flow_MW":"1800.125"},` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","country":"Switzerland","import":"1750","export":"0","physical_foreign_flow_MW":"1750"}]}`
	wantBody(t, "autumn", r, want)
	// No data in the range: the envelope with an empty array.
	r = h.get(t, foreignFlowPath+"?dateFrom=1/1/2024&dateTo=2/1/2024")
	want = datesMsg("01/01/2024", "02/01/2024") + `"physical_foreign_flow":[]}`
	wantBody(t, "no data", r, want)
	wantError(t, h.get(t, foreignFlowPath+"?dateFrom=31/3/24x&dateTo=31/3/2024"), http.StatusBadRequest, "Input Validation Error:", "dateFrom", "31/3/24x")
	wantError(t, h.get(t, foreignFlowPath+"?dateFrom=1/3/2024&dateTo=30/4/2024"), http.StatusBadRequest, "spans 61 days")
	wantError(t, h.get(t, foreignFlowPath+"?dateFrom=1/3/2024&dateFrom=2/3/2024&dateTo=3/3/2024"), http.StatusBadRequest, "dateFrom", "repeated")
}

func TestInternalFlowsAndScheduledExchanges(t *testing.T) {
	t.Parallel()
	h := genHarness(t, map[string]string{
		"physical-internal-flow": "date,flow,physical_internal_flow_MW\n" +
			"2024-05-02 14:00:00,Centre-North -> North,-488.3051289102222\n" +
			"2024-05-02 14:00:00,Sicily->Calabria,\"1,020.5\"\n",
		"scheduled-internal-exchange": "date,flow,scheduled_internal_exchange_MW\n" +
			"2024-05-02 14:00:00,North -> Centre-North,\"1,200\"\n",
		"scheduled-foreign-exchange": "date,country,scheduled_foreign_exchange_MW\n" +
			"2024-05-02 14:00:00,Slovenia,612\n" +
			"2024-05-02 14:00:00,Greece,-250.5\n",
	})
	// The encoder escapes ">" as encoding/json does ("\u003e"): the same
	// JSON string, "Centre-North -> North", to any client.
	for _, tc := range []struct{ path, want string }{
		{"/transmission/v2.0/physical-internal-flow", `"physical_internal_flow":[` +
			`{"date":"2024-05-02 14:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","flow":"Centre-North -\u003e North","physical_internal_flow_MW":"-488.3051289102222"},` +
			`{"date":"2024-05-02 14:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","flow":"Sicily -\u003e Calabria","physical_internal_flow_MW":"1020.5"}]}`},
		{"/transmission/v2.0/scheduled-internal-exchange", `"scheduled_internal_exchange":[` +
			`{"date":"2024-05-02 14:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","flow":"North -\u003e Centre-North","scheduled_internal_exchange_MW":"1200"}]}`},
		{"/transmission/v2.0/scheduled-foreign-exchange", `"scheduled_foreign_exchange":[` +
			`{"date":"2024-05-02 14:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","country":"Greece","scheduled_foreign_exchange_MW":"-250.5"},` +
			`{"date":"2024-05-02 14:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","country":"Slovenia","scheduled_foreign_exchange_MW":"612"}]}`},
	} {
		r := h.get(t, tc.path+"?dateFrom=2/5/2024&dateTo=02/05/2024")
		want := datesMsg("02/05/2024", "02/05/2024") + `` + tc.want
		wantBody(t, tc.path, r, want)
		wantError(t, h.get(t, tc.path+"?dateFrom=2/5/2024"), http.StatusBadRequest, "Input Validation Error:", "dateTo")
		wantError(t, h.get(t, tc.path+"?dateFrom=32/5/2024&dateTo=2/5/2024"), http.StatusBadRequest, "dateFrom", "32/5/2024")
	}
}
