package storetest

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// HistoryStore is a Store that keeps replaced parts and lists its imports.
type HistoryStore interface {
	Store
	dataset.PartHistory
	dataset.EventSource
}

// RunRevisions tests publication times, revisions and the import feed.
// open must return a new, empty store whose clock is now: the test moves
// it between imports. cat is the catalogue the server serves, as for Run.
func RunRevisions(t *testing.T, cat *dataset.Catalog, open func(t *testing.T, now func() time.Time) HistoryStore) {
	t.Run("derived", func(t *testing.T) { testDerivedRevisions(t, cat, open) })
	t.Run("onDemand", func(t *testing.T) {
		RunOnDemand(t, cat, func(t *testing.T, now func() time.Time) PartStore { return open(t, now) })
	})
	ctx := t.Context()
	clock := at(t, "2024-05-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	c, d := sensorCatalog(t)
	march := []dataset.Row{
		reading(t, "2024-03-10T10:00:00Z", "A", 1),
		reading(t, "2024-03-10T11:00:00Z", "A", 2),
		reading(t, "2024-03-10T12:00:00Z", "A", 3),
	}
	april := []dataset.Row{reading(t, "2024-04-10T10:00:00Z", "A", 7)}
	_, err := dataset.Import(ctx, s, c, d, slices.Concat(march, april), t0())
	noErr(t, "first import", err)

	// The correction, a day later: 11:00 changes, 13:00 is new, 10:00 and 12:00 are as they were.
	clock = at(t, "2024-05-02T10:00:00Z")
	correction := []dataset.Row{
		reading(t, "2024-03-10T10:00:00Z", "A", 1),
		reading(t, "2024-03-10T11:00:00Z", "A", 20),
		reading(t, "2024-03-10T12:00:00Z", "A", 3),
		reading(t, "2024-03-10T13:00:00Z", "A", 4),
	}
	st, err := dataset.Import(ctx, s, c, d, correction, t0())
	noErr(t, "correcting import", err)
	if want := (energy.ImportStats{Read: 4, Inserted: 1, Updated: 1, Unchanged: 2}); st != want {
		t.Errorf("correcting import: got %+v, want %+v", st, want)
	}
	v2, err := s.DataVersion(ctx)
	noErr(t, "DataVersion", err)

	// The same rows again: no revision, no new version, nothing in the history.
	clock = at(t, "2024-05-03T10:00:00Z")
	st, err = dataset.Import(ctx, s, c, d, correction, t0())
	noErr(t, "repeated import", err)
	if want := (energy.ImportStats{Read: 4, Unchanged: 4}); st != want {
		t.Errorf("repeated import: got %+v, want %+v", st, want)
	}
	if v, err := s.DataVersion(ctx); err != nil || v != v2 {
		t.Errorf("data version after a repeated import: got %d (%v), want %d", v, err, v2)
	}

	live, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)
	answer := func(query string) string {
		t.Helper()
		params, err := url.ParseQuery(query)
		noErr(t, "ParseQuery", err)
		q, err := c.ParseQuery(d, params, dataset.Limits{})
		noErr(t, "ParseQuery "+query, err)
		snap, err := live.AsOf(ctx, live.Snapshot(), q)
		noErr(t, "AsOf "+query, err)
		body, err := snap.AppendCSV(ctx, nil, q)
		noErr(t, "AppendCSV "+query, err)
		return strings.TrimSuffix(string(body), "\r\n")
	}
	for _, tc := range []struct{ query, want string }{
		{"", "date,value,site\r\n" +
			"2024-03-10 11:00:00,1,A\r\n2024-03-10 12:00:00,20,A\r\n2024-03-10 13:00:00,3,A\r\n2024-03-10 14:00:00,4,A\r\n2024-04-10 12:00:00,7,A"},
		{"asOf=2024-05-01T09:59:59Z", "date,value,site"},
		{"asOf=2024-05-01T10:00:00Z", "date,value,site\r\n" +
			"2024-03-10 11:00:00,1,A\r\n2024-03-10 12:00:00,2,A\r\n2024-03-10 13:00:00,3,A\r\n2024-04-10 12:00:00,7,A"},
		{"asOf=2024-05-02T09:00:00%2B02:00", "date,value,site\r\n" +
			"2024-03-10 11:00:00,1,A\r\n2024-03-10 12:00:00,2,A\r\n2024-03-10 13:00:00,3,A\r\n2024-04-10 12:00:00,7,A"},
		{"asOf=2024-05-02T10:00:00Z", "date,value,site\r\n" +
			"2024-03-10 11:00:00,1,A\r\n2024-03-10 12:00:00,20,A\r\n2024-03-10 13:00:00,3,A\r\n2024-03-10 14:00:00,4,A\r\n2024-04-10 12:00:00,7,A"},
		{"changedSince=2024-05-01T10:00:00Z", "date,value,site\r\n" +
			"2024-03-10 12:00:00,20,A\r\n2024-03-10 14:00:00,4,A"},
		{"changedSince=2024-05-02T10:00:00Z", "date,value,site"},
		{"changedSince=2024-05-01T10:00:00Z&asOf=2024-05-01T12:00:00Z", "date,value,site"},
		{"include=meta&changedSince=2024-04-30T00:00:00Z", "date,value,site,published_at,revised_at\r\n" +
			"2024-03-10 11:00:00,1,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 12:00:00,20,A,2024-05-01T10:00:00Z,2024-05-02T10:00:00Z\r\n" +
			"2024-03-10 13:00:00,3,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 14:00:00,4,A,2024-05-02T10:00:00Z,2024-05-02T10:00:00Z\r\n" +
			"2024-04-10 12:00:00,7,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z"},
		{"include=meta&asOf=2024-05-01T12:00:00Z&changedSince=2024-05-01T00:00:00Z", "date,value,site,published_at,revised_at\r\n" +
			"2024-03-10 11:00:00,1,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 12:00:00,2,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-03-10 13:00:00,3,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z\r\n" +
			"2024-04-10 12:00:00,7,A,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z"},
	} {
		if got := answer(tc.query); got != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.query, got, tc.want)
		}
	}

	march1 := dataset.PartRef{Dataset: sensorName, ID: "2024-03"}
	sp, ok, err := s.PartVersionAt(ctx, march1, at(t, "2024-05-01T12:00:00Z"))
	if err != nil || !ok || sp.Version != 1 || !sp.Written.Equal(at(t, "2024-05-01T10:00:00Z")) || sp.Records != 3 || sp.Data != nil {
		t.Errorf("PartVersionAt before the correction: got %+v %v %v, want version 1 of 3 records written 2024-05-01T10:00:00Z, no data", sp, ok, err)
	}
	if _, ok, err := s.PartVersionAt(ctx, march1, at(t, "2024-05-02T10:00:00Z")); err != nil || ok {
		t.Errorf("PartVersionAt once the current part was written: got %v %v, want none", ok, err)
	}
	if _, ok, err := s.PartVersionAt(ctx, march1, at(t, "2024-04-01T00:00:00Z")); err != nil || ok {
		t.Errorf("PartVersionAt before the part existed: got %v %v, want none", ok, err)
	}
	full, err := s.ReadPartVersion(ctx, march1, 1)
	if err != nil || len(full.Data) == 0 || full.Records != 3 {
		t.Errorf("ReadPartVersion 1: got %d bytes, %d records, %v; want the 3 records' bytes", len(full.Data), full.Records, err)
	}
	if _, err := s.ReadPartVersion(ctx, march1, 2); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("ReadPartVersion of the current version: got %v, want NotFound", err)
	}

	events, err := s.ImportEvents(ctx, 0, time.Time{}, 10)
	noErr(t, "ImportEvents", err)
	type ev struct {
		Finished            string
		Stats               energy.ImportStats
		Version             int64
		FirstPart, LastPart string
	}
	var got []ev
	for i, e := range events {
		if e.Dataset != sensorName || !e.Started.Equal(t0()) || (i > 0 && e.ID <= events[i-1].ID) {
			t.Errorf("event %d: got %+v, want dataset %s, started %s, IDs increasing", i, e, sensorName, t0())
		}
		got = append(got, ev{e.Finished.Format(time.RFC3339), e.Stats, e.Version, e.FirstPart, e.LastPart})
	}
	want := []ev{
		{"2024-05-01T10:00:00Z", energy.ImportStats{Read: 4, Inserted: 4}, 1, "2024-03", "2024-04"},
		{"2024-05-02T10:00:00Z", energy.ImportStats{Read: 4, Inserted: 1, Updated: 1, Unchanged: 2}, 2, "2024-03", "2024-03"},
		{"2024-05-03T10:00:00Z", energy.ImportStats{Read: 4, Unchanged: 4}, 2, "2024-03", "2024-03"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ImportEvents:\ngot  %+v\nwant %+v", got, want)
	}
	if len(events) == 3 {
		later, err := s.ImportEvents(ctx, events[0].ID, time.Time{}, 1)
		if err != nil || len(later) != 1 || later[0].ID != events[1].ID {
			t.Errorf("ImportEvents after the first, limit 1: got %+v %v, want the second", later, err)
		}
		since, err := s.ImportEvents(ctx, 0, at(t, "2024-05-02T10:00:00Z"), 10)
		if err != nil || len(since) != 1 || since[0].ID != events[2].ID {
			t.Errorf("ImportEvents since the second finished: got %+v %v, want the third", since, err)
		}
	}
}
