package dataset

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// testAuctions is a throwaway dataset shaped like the FCR auctions: one
// market day (marketDate, or dateFrom), a price that may be null.
func testAuctions() *Dataset {
	return &Dataset{
		Name: "test-auctions", Area: "test", Version: "v1.0", Resource: "auctions", Array: "auctions",
		Message: MessageMarketDate, Grain: Day,
		Params: []Param{
			{Name: "marketDate", Kind: DayParam, Required: true, Aliases: []string{"dateFrom"}},
			{Name: "direction", Kind: Enum, Field: "direction"},
		},
		Fields: []Field{
			{Name: "date", Kind: Instant},
			{Name: "direction", Kind: Text, Ref: energy.Plain("UP", "DOWN")},
			{Name: "price", Kind: Number, Format: PointFull, Optional: true, Null: true},
			{Name: "quantity", Kind: Number, Format: PointFull},
		},
	}
}

// TestMarketDayNullPriceAndEchoedFilter proves what the FCR auctions and
// the monthly summary need of the machinery: a day named by marketDate or
// by dateFrom, echoed in the message; a missing price written as JSON null
// (and empty in CSV); and a filter value repeated in the message.
func TestMarketDayNullPriceAndEchoedFilter(t *testing.T) {
	d := testAuctions()
	c := newTestCatalog(t, d)
	m := NewMemory()
	ctx := context.Background()
	day := time.Date(2026, 6, 3, 0, 0, 0, 0, energy.Rome()).Unix()
	rows := []Row{
		{Time: day, Text: []string{"UP"}, Num: []float64{12.5, 40}},
		{Time: day, Text: []string{"DOWN"}, Num: []float64{math.NaN(), 0}},
		{Time: day + 86400, Text: []string{"UP"}, Num: []float64{13, 41}},
	}
	if _, err := Import(ctx, m, c, d, rows, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	live, err := NewLive(ctx, c, m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"result":{"message":"Operation completed for the following input. Market Date: 03/06/2026","status":"Completed"},"auctions":[` +
		`{"date":"2026-06-03 00:00:00","direction":"DOWN","price":null,"quantity":"0"},` +
		`{"date":"2026-06-03 00:00:00","direction":"UP","price":"12.5","quantity":"40"}]}`
	for _, params := range []map[string][]string{{"marketDate": {"3/6/2026"}}, {"dateFrom": {"03/06/2026"}}} {
		q, err := c.ParseQuery(d, params, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := answerJSON(t, live.Snapshot(), q); got != want {
			t.Errorf("%v:\ngot  %s\nwant %s", params, got, want)
		}
		wantCSV := "date,direction,price,quantity\r\n2026-06-03 00:00:00,DOWN,,0\r\n2026-06-03 00:00:00,UP,12.5,40\r\n"
		if got := answerCSV(t, live.Snapshot(), q); got != wantCSV {
			t.Errorf("CSV: got %q, want %q", got, wantCSV)
		}
	}
	if _, err := c.ParseQuery(d, map[string][]string{}, Limits{}); energy.ErrorMessage(err) != "parameter marketDate is required" {
		t.Errorf("no day: got %v, want marketDate required", err)
	}
	if _, err := c.ParseQuery(d, map[string][]string{"marketDate": {"2026-06-03"}}, Limits{}); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("a malformed day: got %v, want Invalid", err)
	}

	// The message repeats a MessageParam's value, when given.
	s := testSeries()
	s.Message, s.MessageParam = MessageDatesColon, "zone"
	s.Params[1].Many = false
	cs := newTestCatalog(t, s)
	for _, tc := range []struct {
		zone []string
		want string
	}{
		{nil, "Operation completed for the following input: date from: 01/01/2024, date to: 01/01/2024"},
		{[]string{"north"}, "Operation completed for the following input: date from: 01/01/2024, date to: 01/01/2024, zone: North"},
	} {
		q, err := cs.ParseQuery(s, map[string][]string{"dateFrom": {"1/1/2024"}, "dateTo": {"1/1/2024"}, "zone": tc.zone}, Limits{})
		if err != nil || q.Message() != tc.want {
			t.Errorf("zone %v: got %q, %v; want %q", tc.zone, q.Message(), err, tc.want)
		}
	}
}

// TestRecordsKeepTheTimesTheyCarry proves what the demo's live timing
// needs: records that carry their publication and revision times keep
// them through an import (include=meta shows them), changedSince selects
// by them, and asOf answers with the records published by then even
// though the import that stored them came later. Records without times are
// stamped with the import's, as before.
func TestRecordsKeepTheTimesTheyCarry(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	m := NewMemory()
	ctx := context.Background()
	day := time.Date(2025, 12, 30, 0, 0, 0, 0, energy.Rome())
	us := func(t time.Time) int64 { return t.UnixMicro() }
	final := day.Add(41 * time.Hour)       // D+1 17:00
	revised := day.Add(7 * 24 * time.Hour) // D+7
	rows := []Row{
		{Time: day.Unix(), Text: []string{"North"}, Num: []float64{1, 1}, Pub: us(final), Rev: us(final)},
		{Time: day.Add(time.Hour).Unix(), Text: []string{"North"}, Num: []float64{2, 2}, Pub: us(final), Rev: us(revised)},
		{Time: day.Add(2 * time.Hour).Unix(), Text: []string{"North"}, Num: []float64{3, 3}},
	}
	imported := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Import(ctx, m, c, d, rows, imported); err != nil {
		t.Fatal(err)
	}
	live, err := NewLive(ctx, c, m)
	if err != nil {
		t.Fatal(err)
	}
	query := func(extra map[string][]string) []string {
		t.Helper()
		params := map[string][]string{"dateFrom": {"30/12/2025"}, "dateTo": {"30/12/2025"}, "include": {"meta"}}
		for k, v := range extra {
			params[k] = v
		}
		q, err := c.ParseQuery(d, params, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := live.AsOf(ctx, live.Snapshot(), q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		s.Each(t.Context(), q, func(p *Part, i int) {
			out = append(out, time.Unix(p.Time(i), 0).In(energy.Rome()).Format("15:04")+" "+
				time.UnixMicro(p.Published(i)).UTC().Format(time.RFC3339)+" "+time.UnixMicro(p.Revised(i)).UTC().Format(time.RFC3339))
		})
		return out
	}
	want := []string{
		"00:00 2025-12-31T16:00:00Z 2025-12-31T16:00:00Z",
		"01:00 2025-12-31T16:00:00Z 2026-01-05T23:00:00Z",
		"02:00 2026-11-01T00:00:00Z 2026-11-01T00:00:00Z",
	}
	if got := query(nil); !slices.Equal(got, want) {
		t.Errorf("times:\ngot  %v\nwant %v", got, want)
	}
	if got := query(map[string][]string{"changedSince": {"2026-01-01T00:00:00Z"}}); !slices.Equal(got, want[1:]) {
		t.Errorf("changedSince 1 January 2026:\ngot  %v\nwant %v", got, want[1:])
	}
	if got := query(map[string][]string{"asOf": {"2026-01-01T00:00:00Z"}}); !slices.Equal(got, want[:2]) {
		t.Errorf("asOf 1 January 2026, before the import:\ngot  %v\nwant %v", got, want[:2])
	}
	if got := query(map[string][]string{"asOf": {"2025-12-30T12:00:00Z"}}); len(got) != 0 {
		t.Errorf("asOf before the publication: got %v, want nothing", got)
	}
}
