package storetest

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
)

// testDerivedRevisions corrects total-load and reads peak-valley, which is
// derived from it: a derived record is revised only when its own values
// change. A correction that moves a day's peak revises that day's peak and
// not its valley; one that moves neither extreme revises nothing; one that
// undoes an earlier change revises the record again. The answers are the
// same whether a server loaded every version as it came, missed one, or
// loaded all of them at once from the history.
func testDerivedRevisions(t *testing.T, c *dataset.Catalog, open func(t *testing.T, now func() time.Time) HistoryStore) {
	ctx := t.Context()
	clock := at(t, "2024-05-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	load, pv := loadAndPeakValley(c)
	// Italy's load is 30000+i MW at quarter hour i of 10 and 11 March
	// 2024 (+01:00), but for the values given: each day's valley is at
	// 00:00 and its peak at 23:45.
	rome := time.FixedZone("CET", 3600)
	quarter := func(d, i int) int64 { return time.Date(2024, 3, d, 0, 15*i, 0, 0, rome).Unix() }
	italy := func(d, i int, mw float64) dataset.Row {
		return dataset.Row{Time: quarter(d, i), Text: []string{"Italy"}, Num: []float64{mw, math.NaN()}}
	}
	imp := func(stamp string, rows ...dataset.Row) {
		t.Helper()
		clock = at(t, stamp)
		_, err := dataset.Import(ctx, s, c, load, rows, t0())
		noErr(t, "import at "+stamp, err)
	}
	var days []dataset.Row
	for _, d := range []int{10, 11} {
		for i := range 96 {
			days = append(days, italy(d, i, 30000+float64(i)))
		}
	}

	every, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)
	refresh := func(ls ...*dataset.Live) {
		t.Helper()
		for _, l := range ls {
			_, err := l.Refresh(ctx)
			noErr(t, "Refresh", err)
		}
	}
	imp("2024-05-01T10:00:00Z", days...)
	refresh(every)
	missed, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)
	// 10 March's noon becomes its peak; 11 March's peak rises.
	imp("2024-05-02T10:00:00Z", italy(10, 48, 50000), italy(11, 95, 40000))
	refresh(every)
	// 10 March's 06:00 changes, neither peak nor valley; 11 March's peak
	// is back as it was.
	imp("2024-05-03T10:00:00Z", italy(10, 24, 31000), italy(11, 95, 30095))
	refresh(every, missed)
	fresh, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)

	// Every instant is +01:00: the zone columns are left out of the answers.
	const header = "date,peak_load_GW,valley_load_GW"
	for _, tc := range []struct{ query, want string }{
		{"changedSince=2024-05-01T10:00:00Z", header + "\r\n" +
			"2024-03-10 12:00:00,50.000,\r\n2024-03-11 23:45:00,30.095,"},
		{"changedSince=2024-05-02T10:00:00Z", header + "\r\n" +
			"2024-03-11 23:45:00,30.095,"},
		{"changedSince=2024-05-03T10:00:00Z", header},
		{"include=meta", header + ",published_at,revised_at\r\n" +
			"2024-03-10 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 12:00:00,50.000,,2024-05-01T10:00:00Z,2024-05-02T10:00:00Z\r\n" +
			"2024-03-11 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-11 23:45:00,30.095,,2024-05-01T10:00:00Z,2024-05-03T10:00:00Z"},
		{"include=meta&asOf=2024-05-01T12:00:00Z", header + ",published_at,revised_at\r\n" +
			"2024-03-10 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 23:45:00,30.095,,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-11 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-11 23:45:00,30.095,,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z"},
		{"include=meta&asOf=2024-05-02T12:00:00Z", header + ",published_at,revised_at\r\n" +
			"2024-03-10 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 12:00:00,50.000,,2024-05-01T10:00:00Z,2024-05-02T10:00:00Z\r\n" +
			"2024-03-11 00:00:00,,30.000,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-11 23:45:00,40.000,,2024-05-01T10:00:00Z,2024-05-02T10:00:00Z"},
		{"changedSince=2024-05-01T10:00:00Z&asOf=2024-05-02T12:00:00Z", header + "\r\n" +
			"2024-03-10 12:00:00,50.000,\r\n2024-03-11 23:45:00,40.000,"},
	} {
		for _, l := range []struct {
			name string
			live *dataset.Live
		}{{"refreshed after each import", every}, {"refreshed after the first and the last", missed}, {"loaded at the end", fresh}} {
			params, err := url.ParseQuery("dateFrom=10/03/2024&dateTo=11/03/2024&" + tc.query)
			noErr(t, "ParseQuery", err)
			q, err := c.ParseQuery(pv, params, dataset.Limits{})
			noErr(t, "ParseQuery "+tc.query, err)
			snap, err := l.live.AsOf(ctx, l.live.Snapshot(), q)
			noErr(t, "AsOf "+tc.query, err)
			body, err := snap.AppendCSV(ctx, nil, q)
			noErr(t, "AppendCSV "+tc.query, err)
			got := strings.ReplaceAll(string(body), ",date_tz,date_offset", "")
			got = strings.TrimSuffix(strings.ReplaceAll(got, ",Europe/Rome,+01:00", ""), "\r\n")
			if got != tc.want {
				t.Errorf("%s, %q:\ngot  %q\nwant %q", l.name, tc.query, got, tc.want)
			}
		}
	}
}
