package dataset

import (
	"bytes"
	"cmp"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// zones is a reference list for the throwaway datasets of these tests.
func zones() *energy.Names { return energy.Plain("North", "South", "Italy") }

// testSeries is a throwaway hourly dataset: a moment, two numbers, a zone.
func testSeries() *Dataset {
	return &Dataset{
		Name: "test-series", Area: "test", Version: "v2.0", Resource: "series", Array: "series",
		Message: MessageDates, Grain: Hour,
		Params: []Param{
			{Name: "dateFrom", To: "dateTo", Kind: DateRange, Required: true},
			{Name: "zone", Kind: Enum, Many: true, Field: "zone"},
		},
		Fields: []Field{
			{Name: "date", Kind: Instant, TZ: "date_tz", Offset: "date_offset"},
			{Name: "value_MW", Kind: Number, Format: PointFull},
			{Name: "share", Kind: Number, Format: Italian3},
			{Name: "zone", Kind: Text, Ref: zones()},
		},
	}
}

func rome(s string) int64 {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, energy.Rome())
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

func newTestCatalog(t *testing.T, ds ...*Dataset) *Catalog {
	t.Helper()
	c, err := NewCatalog(ds...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "Forlì-Cesena", `q"uo\te`, "<a&b>", "tab\tnl\nret\r", "\b\f\x01\x1f", "\u2028\u2029", "bad\xffutf8", "€ and 😀"} {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q): got %s, want %s", s, got, want)
		}
		if got := appendJSONBytes(nil, []byte(s)); string(got) != string(want) {
			t.Errorf("appendJSONBytes(%q): got %s, want %s", s, got, want)
		}
	}
}

func TestMergeCountsAndEncodeRoundTrip(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	l := c.layoutOf(d)
	nan := math.NaN()
	first := []Row{
		{Time: rome("2024-03-01 10:00"), Text: []string{"North"}, Num: []float64{100.5, nan}},
		{Time: rome("2024-03-01 10:00"), Text: []string{"South"}, Num: []float64{50, 1}},
	}
	p, st, changed, err := Merge(l, d.Grain, "2024-03", nil, first, 1000)
	if err != nil || !changed || st != (energy.ImportStats{Read: 2, Inserted: 2}) {
		t.Fatalf("first merge: got %+v changed %v err %v, want 2 inserted", st, changed, err)
	}
	if p.Pub != nil || p.Rev != nil || len(p.Stamps) != 1 {
		t.Errorf("first merge: got %d publication and %d revision codes, %d times; want none and one time, since one import published every record", len(p.Pub), len(p.Rev), len(p.Stamps))
	}
	b, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodePart(l, StoredPart{Version: 7, Written: time.UnixMicro(1000), Data: b})
	if err != nil {
		t.Fatal(err)
	}
	if back.Version != 7 || back.Written != 1000 || back.Published(0) != 1000 || back.Revised(1) != 1000 || back.Len() != 2 || back.Text(0, 0) != "North" || back.Num(0, 0) != 100.5 || !math.IsNaN(back.Num(1, 0)) {
		t.Fatalf("round trip: got %+v", back)
	}
	second := []Row{
		{Time: rome("2024-03-01 10:00"), Text: []string{"North"}, Num: []float64{100.5, nan}}, // same, NaN included
		{Time: rome("2024-03-01 10:00"), Text: []string{"South"}, Num: []float64{51, 1}},      // corrected
		{Time: rome("2024-03-01 11:00"), Text: []string{"South"}, Num: []float64{52, 1}},      // new
	}
	p2, st, changed, err := Merge(l, d.Grain, "2024-03", back, second, 2000)
	if err != nil || !changed || st != (energy.ImportStats{Read: 3, Inserted: 1, Updated: 1, Unchanged: 1}) {
		t.Fatalf("second merge: got %+v changed %v err %v, want 1 inserted, 1 updated, 1 unchanged", st, changed, err)
	}
	if p2.Len() != 3 || p2.Num(0, 1) != 51 {
		t.Errorf("second merge: got %d records, South at 10:00 %v; want 3 and 51", p2.Len(), p2.Num(0, 1))
	}
	// Records in order: North 10:00 (unchanged), South 10:00 (corrected), South 11:00 (new).
	for i, want := range [][2]int64{{1000, 1000}, {1000, 2000}, {2000, 2000}} {
		if got := [2]int64{p2.Published(i), p2.Revised(i)}; got != want {
			t.Errorf("second merge record %d: published, revised %v, want %v", i, got, want)
		}
	}
	if _, st, changed, _ := Merge(l, d.Grain, "2024-03", p2, second, 3000); changed || st.Unchanged != 3 {
		t.Errorf("same rows again: got %+v changed %v, want 3 unchanged and no change", st, changed)
	}
	if _, err := DecodePart(l, StoredPart{Version: 1, Data: []byte{9, 1, 2}}); err == nil {
		t.Error("DecodePart of an unknown format: got no error")
	}
}

// TestMergeAsUpsertByKey: Merge upserts rows into a stored part by natural
// key (the moment's bucket and the key fields) whatever the rows' span:
// before, inside, across or after the stored records, of an hourly and a
// daily dataset (whose key holds the day, so another hour of a stored day
// replaces its record). Against a model, a map by key: the records, their
// publication and revision times, and the counts.
func TestMergeAsUpsertByKey(t *testing.T) {
	t.Parallel()
	hourly := testSeries()
	l := newTestCatalog(t, hourly).layoutOf(hourly)
	rng := rand.New(rand.NewPCG(11, 12))
	zones := []string{"North", "South", "Sicily"}
	type stamped struct {
		Row
		pub, rev int64
	}
	// random returns distinct keys' rows, at hours of the days lo to hi of March 2024.
	random := func(g Grain, lo, hi, n int) []Row {
		seen := map[string]bool{}
		var rows []Row
		for range n {
			r := Row{Time: rome(fmt.Sprintf("2024-03-%02d %02d:00", lo+rng.IntN(hi-lo+1), rng.IntN(24))), Text: []string{zones[rng.IntN(len(zones))]}, Num: []float64{float64(rng.IntN(3)), 0}}
			if k := l.keyOf(g, r); !seen[k] {
				seen[k] = true
				rows = append(rows, r)
			}
		}
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		return rows
	}
	for round := range 200 {
		g := []Grain{Hour, Day}[round%2]
		old, _, _, err := Merge(l, g, "2024-03", nil, random(g, 10, 20, 60), 1000)
		if err != nil {
			t.Fatal(err)
		}
		lo := 1 + rng.IntN(28)
		rows := random(g, lo, min(31, lo+rng.IntN(8)), 1+rng.IntN(40))

		model := map[string]stamped{}
		for i := range old.Len() {
			model[l.keyOf(g, old.Row(i))] = stamped{old.Row(i), old.Published(i), old.Revised(i)}
		}
		var want energy.ImportStats
		want.Read = len(rows)
		for _, r := range rows {
			k := l.keyOf(g, r)
			was, ok := model[k]
			if ok && sameRow(was.Row, r) {
				want.Unchanged++
				continue
			}
			if ok {
				want.Updated++
			} else {
				want.Inserted++
				was.pub = 2000
			}
			model[k] = stamped{r, was.pub, 2000}
		}
		p, st, changed, err := Merge(l, g, "2024-03", old, rows, 2000)
		if err != nil || st != want || changed != (want.Inserted+want.Updated > 0) {
			t.Fatalf("round %d: got %+v changed %v err %v, want %+v", round, st, changed, err, want)
		}
		if !changed {
			p = old
		}
		wantRows := slices.Collect(func(yield func(stamped) bool) {
			for _, s := range model {
				if !yield(s) {
					return
				}
			}
		})
		slices.SortFunc(wantRows, func(a, b stamped) int { return cmp.Or(l.compare(a.Row, b.Row), cmp.Compare(a.Num[0], b.Num[0])) })
		if p.Len() != len(wantRows) {
			t.Fatalf("round %d: %d records, want %d", round, p.Len(), len(wantRows))
		}
		if _, st, changed, err := Merge(l, g, "2024-03", p, nil, 3000); changed || err != nil || st != (energy.ImportStats{}) {
			t.Fatalf("round %d, no rows: got %+v changed %v err %v, want nothing", round, st, changed, err)
		}
		for i, w := range wantRows {
			if got := (stamped{p.Row(i), p.Published(i), p.Revised(i)}); !sameRow(got.Row, w.Row) || got.pub != w.pub || got.rev != w.rev {
				t.Fatalf("round %d, record %d: got %+v, want %+v", round, i, got, w)
			}
		}
	}
}

// TestDecodeFormat1 reads a part as format 1 stored it, without
// publication times: its records count as published when it was written.
func TestDecodeFormat1(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	type format1 struct {
		ID    string
		Times []int64
		Dicts [][]string
		Codes [][]uint16
		Nums  [][]float64
	}
	var buf bytes.Buffer
	buf.WriteByte(1)
	err := gob.NewEncoder(&buf).Encode(format1{"2024-03", []int64{rome("2024-03-01 10:00"), rome("2024-03-01 11:00")},
		[][]string{{"North"}}, [][]uint16{{0, 0}}, [][]float64{{1, 2}, {3, 4}}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := DecodePart(c.layoutOf(d), StoredPart{Version: 3, Written: time.UnixMicro(1_700_000_000_000_000), Data: buf.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if p.Published(i) != 1_700_000_000_000_000 || p.Revised(i) != 1_700_000_000_000_000 {
			t.Errorf("record %d: published %d revised %d, want both 1700000000000000", i, p.Published(i), p.Revised(i))
		}
	}
	if p.Num(1, 1) != 4 {
		t.Errorf("value: got %v, want 4", p.Num(1, 1))
	}
}

func TestServeFiltersAndEncodes(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	m := NewMemory()
	ctx := context.Background()
	nan := math.NaN()
	rows := []Row{
		// The autumn 2024 clock change: 02:00 happens twice.
		{Time: time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC).Unix(), Text: []string{"North"}, Num: []float64{1234.5, 1234.5}},
		{Time: time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC).Unix(), Text: []string{"North"}, Num: []float64{-488.3051289102222, nan}},
		{Time: time.Date(2024, 10, 27, 1, 0, 0, 0, time.UTC).Unix(), Text: []string{"South"}, Num: []float64{7, 0}},
		{Time: time.Date(2024, 10, 28, 0, 0, 0, 0, time.UTC).Unix(), Text: []string{"North"}, Num: []float64{9, 9}},
	}
	st, err := Import(ctx, m, c, d, rows, time.Unix(1, 0))
	if err != nil || st.Inserted != 4 {
		t.Fatalf("Import: got %+v, %v", st, err)
	}
	if _, err := Import(ctx, m, c, d, append(rows[:1:1], rows[0]), time.Unix(1, 0)); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("Import of a repeated key: got %v, want an Invalid error", err)
	}
	// The repeat comes back after a record of another part: the part's
	// two runs of records are joined before looking for repeats.
	other := Row{Time: time.Date(2024, 12, 5, 0, 0, 0, 0, time.UTC).Unix(), Text: []string{"North"}, Num: []float64{9, 9}}
	if _, err := Import(ctx, m, c, d, []Row{rows[0], other, rows[0]}, time.Unix(1, 0)); energy.ErrorCode(err) != energy.Invalid {
		t.Errorf("Import of a key repeated after another part's record: got %v, want an Invalid error", err)
	}
	live, err := NewLive(ctx, c, m)
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.ParseQuery(d, map[string][]string{"dateFrom": {"27/10/2024"}, "dateTo": {"27/10/2024"}, "zone": {"north", "North", " "}}, Limits{MaxRangeDays: 60})
	if err != nil {
		t.Fatal(err)
	}
	snap := live.Snapshot()
	if snap.Unknown(q) {
		t.Fatal("a known zone in another letter case is unknown")
	}
	want := `{"result":{"message":"Operation completed for the following input. Date from: 27/10/2024, date to: 27/10/2024","status":"Completed"},"series":[` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+02:00","value_MW":"1234.5","share":"1.234,500","zone":"North"},` +
		`{"date":"2024-10-27 02:00:00","date_tz":"Europe/Rome","date_offset":"+01:00","value_MW":"-488.3051289102222","share":"","zone":"North"}]}`
	if got := answerJSON(t, snap, q); got != want {
		t.Errorf("JSON:\ngot  %s\nwant %s", got, want)
	}
	wantCSV := "date,date_tz,date_offset,value_MW,share,zone\r\n" +
		"2024-10-27 02:00:00,Europe/Rome,+02:00,1234.5,\"1.234,500\",North\r\n" +
		"2024-10-27 02:00:00,Europe/Rome,+01:00,-488.3051289102222,,North\r\n"
	if got := answerCSV(t, snap, q); got != wantCSV {
		t.Errorf("CSV:\ngot  %q\nwant %q", got, wantCSV)
	}
	// A period without records: the envelope and an empty array, or the
	// header row alone, streamed as built.
	none, err := c.ParseQuery(d, map[string][]string{"dateFrom": {"1/1/2020"}, "dateTo": {"2/1/2020"}}, Limits{MaxRangeDays: 60})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := answerJSON(t, snap, none), string(AppendEmptyJSON(nil, none)); got != want {
		t.Errorf("no records, JSON:\ngot  %s\nwant %s", got, want)
	}
	if got := answerCSV(t, snap, none); got != "date,date_tz,date_offset,value_MW,share,zone\r\n" {
		t.Errorf("no records, CSV: got %q", got)
	}
	// A stream whose writer fails stops at the failure and returns it.
	sel, err := snap.Select(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	writes := 0
	gone := errors.New("caller gone")
	failing := writerFunc(func([]byte) (int, error) { writes++; return 0, gone })
	if _, err := sel.WriteJSON(failing, make([]byte, 0, 16)); !errors.Is(err, gone) || writes != 1 {
		t.Errorf("a failing writer: got %v after %d writes; want its error after 1", err, writes)
	}
	unknown, err := c.ParseQuery(d, map[string][]string{"dateFrom": {"27/10/2024"}, "dateTo": {"27/10/2024"}, "zone": {"North", "Atlantis"}}, Limits{})
	if err != nil || !snap.Unknown(unknown) {
		t.Errorf("an unknown zone among known ones: got unknown %v, err %v; want the empty-body answer", snap.Unknown(unknown), err)
	}
}

func TestParseQueryErrors(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	for _, tc := range []struct {
		name   string
		params map[string][]string
		want   string
	}{
		{"missing", map[string][]string{"dateFrom": {"1/1/2024"}}, "parameter dateTo is required"},
		{"repeated", map[string][]string{"dateFrom": {"1/1/2024", "2/1/2024"}, "dateTo": {"1/1/2024"}}, "parameter dateFrom is repeated; it takes one value"},
		{"malformed", map[string][]string{"dateFrom": {"2024-01-01"}, "dateTo": {"1/1/2024"}}, `parameter dateFrom value "2024-01-01" does not conform to a date in the format dd/mm/yyyy`},
		{"reversed", map[string][]string{"dateFrom": {"2/1/2024"}, "dateTo": {"1/1/2024"}}, `parameter dateFrom value "02/01/2024" is after dateTo value "01/01/2024"`},
		{"too long", map[string][]string{"dateFrom": {"1/1/2024"}, "dateTo": {"1/3/2024"}}, `the range from dateFrom "01/01/2024" to dateTo "01/03/2024" spans 61 days; at most 60 are allowed per request`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ParseQuery(d, tc.params, Limits{MaxRangeDays: 60})
			if energy.ErrorCode(err) != energy.Invalid || energy.ErrorMessage(err) != tc.want {
				t.Errorf("got %v, want Invalid %q", err, tc.want)
			}
		})
	}
}

// importLive imports rows of d into m, published at 1 s, and returns a
// Live over m.
func importLive(t *testing.T, c *Catalog, m *Memory, d *Dataset, rows []Row) *Live {
	t.Helper()
	if _, err := Import(t.Context(), m, c, d, rows, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	live, err := NewLive(t.Context(), c, m)
	if err != nil {
		t.Fatal(err)
	}
	return live
}

// daysQuery returns the query of d for the days from to to, dd/mm/yyyy.
func daysQuery(t *testing.T, c *Catalog, d *Dataset, from, to string) *Query {
	t.Helper()
	q, err := c.ParseQuery(d, map[string][]string{"dateFrom": {from}, "dateTo": {to}}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// testMax is a daily maximum derived from test-series by rows.
func testMax(rows func(p *Part) []Row) *Dataset {
	return &Dataset{
		Name: "test-max", Area: "test", Version: "v2.0", Resource: "max", Array: "max", Message: MessageDates, Grain: Day,
		Params: []Param{{Name: "dateFrom", To: "dateTo", Kind: DateRange}},
		Fields: []Field{{Name: "date", Kind: Instant}, {Name: "max_MW", Kind: Number, Format: Point3}},
		Derive: &Derivation{From: "test-series", Rows: rows},
	}
}

func TestDerivedRecordsYieldToImportedOnes(t *testing.T) {
	src := testSeries()
	derived := testMax(func(p *Part) []Row {
		// The largest value of the part's first day, at its moment.
		best := 0
		for i := range p.Len() {
			if p.Num(0, i) > p.Num(0, best) {
				best = i
			}
		}
		return []Row{{Time: p.Time(best), Num: []float64{p.Num(0, best)}}}
	})
	c := newTestCatalog(t, src, derived)
	m := NewMemory()
	ctx := context.Background()
	series := []Row{
		{Time: rome("2024-03-01 10:00"), Text: []string{"North"}, Num: []float64{5, 0}},
		{Time: rome("2024-03-01 18:00"), Text: []string{"North"}, Num: []float64{8, 0}},
	}
	live := importLive(t, c, m, src, series)
	q := daysQuery(t, c, derived, "1/3/2024", "1/3/2024")
	body := answerJSON(t, live.Snapshot(), q)
	if !strings.Contains(body, `{"date":"2024-03-01 18:00:00","max_MW":"8.000"}`) {
		t.Fatalf("derived: got %s, want the 18:00 maximum", body)
	}
	// A published value for the same day wins over the derived one.
	if _, err := Import(ctx, m, c, derived, []Row{{Time: rome("2024-03-01 19:00"), Num: []float64{8.5}}}, time.Unix(2, 0)); err != nil {
		t.Fatal(err)
	}
	if changed, err := live.Refresh(ctx); !changed || err != nil {
		t.Fatalf("Refresh: got %v, %v; want a change", changed, err)
	}
	body = answerJSON(t, live.Snapshot(), q)
	if !strings.Contains(body, `[{"date":"2024-03-01 19:00:00","max_MW":"8.500"}]`) {
		t.Fatalf("imported: got %s, want only the imported 19:00 value", body)
	}
}

// noHistory is a store that keeps no replaced parts.
type noHistory struct{ m *Memory }

func (n noHistory) DataVersion(ctx context.Context) (int64, error) { return n.m.DataVersion(ctx) }
func (n noHistory) ChangedParts(ctx context.Context, have map[PartRef]int64) (Changes, error) {
	return n.m.ChangedParts(ctx, have)
}
func (n noHistory) ListParts(ctx context.Context) (Changes, error) { return n.m.ListParts(ctx) }
func (n noHistory) ReadPart(ctx context.Context, ref PartRef, version int64) (StoredPart, error) {
	return n.m.ReadPart(ctx, ref, version)
}

// TestDerivedRecordTimes imports a day's values one by one, then corrects
// a value that is not the maximum, then the maximum: the derived record is
// published when the day first derives one, and revised by the last
// correction only, unless the store keeps no history to tell, when it
// counts as revised by both rather than by neither.
func TestDerivedRecordTimes(t *testing.T) {
	src := testSeries()
	derived := testMax(func(p *Part) []Row {
		// Each day's largest value, once it has two.
		var out []Row
		for _, sp := range periodSpans(Day, p) {
			if vs := p.Values(0)[sp.lo:sp.hi]; len(vs) > 1 {
				best := sp.lo + slices.Index(vs, slices.Max(vs))
				out = append(out, Row{Time: p.Time(best), Num: []float64{p.Num(0, best)}})
			}
		}
		return out
	})
	c := newTestCatalog(t, src, derived)
	m := NewMemory()
	ctx := context.Background()
	north := func(at string, mw float64) Row {
		return Row{Time: rome("2024-03-01 " + at), Text: []string{"North"}, Num: []float64{mw, 0}}
	}
	imp := func(sec int64, rows ...Row) {
		t.Helper()
		if _, err := Import(ctx, m, c, src, rows, time.Unix(sec, 0)); err != nil {
			t.Fatal(err)
		}
	}
	times := func(l *Live) string {
		t.Helper()
		if _, err := l.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		p, err := l.Snapshot().Part(ctx, derived, "2024-03")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%g published %d revised %d", p.Num(0, 0), p.Published(0)/1e6, p.Revised(0)/1e6)
	}
	imp(1, north("10:00", 5))
	exact, err := NewLive(ctx, c, m)
	if err != nil {
		t.Fatal(err)
	}
	blind, err := NewLive(ctx, c, noHistory{m})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		at           int64
		row          Row
		exact, blind string
	}{
		{2, north("18:00", 8), "8 published 2 revised 2", "8 published 2 revised 2"},
		{3, north("10:00", 6), "8 published 2 revised 2", "8 published 2 revised 3"},
		{4, north("18:00", 9), "9 published 2 revised 4", "9 published 2 revised 4"},
	} {
		imp(step.at, step.row)
		if got := times(exact); got != step.exact {
			t.Errorf("with history: got %s, want %s", got, step.exact)
		}
		if got := times(blind); got != step.blind {
			t.Errorf("without history: got %s, want %s", got, step.blind)
		}
	}
}

func TestCatalogChecksDemoOrder(t *testing.T) {
	src, user := testSeries(), testSeries()
	user.Name, user.Resource = "test-user", "user"
	src.Demo = func(DemoInput) []Row { return nil }
	user.Demo = func(in DemoInput) []Row { return in.From["test-series"] }
	user.DemoFrom = []string{"test-series"}
	if _, err := NewCatalog(src, user); err != nil {
		t.Errorf("source first: got %v, want no error", err)
	}
	if _, err := NewCatalog(user, src); err == nil {
		t.Error("a generator declared before the dataset it reads: got no error")
	}
}

func TestTagChangesOnlyWithTheCoveredParts(t *testing.T) {
	d := testSeries()
	c := newTestCatalog(t, d)
	m := NewMemory()
	ctx := context.Background()
	row := func(at string, mw float64) Row {
		return Row{Time: rome(at), Text: []string{"North"}, Num: []float64{mw, 0}}
	}
	live := importLive(t, c, m, d, []Row{row("2024-03-01 10:00", 1), row("2024-04-01 10:00", 2)})
	march := daysQuery(t, c, d, "1/3/2024", "31/3/2024")
	tag := live.Snapshot().Tag(march, "json")
	step := func(at string, mw float64) string {
		t.Helper()
		if _, err := Import(ctx, m, c, d, []Row{row(at, mw)}, time.Unix(2, 0)); err != nil {
			t.Fatal(err)
		}
		if _, err := live.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		return live.Snapshot().Tag(march, "json")
	}
	if got := step("2024-04-02 10:00", 3); got != tag {
		t.Errorf("an import into April changed March's tag from %s to %s", tag, got)
	}
	if got := step("2024-03-02 10:00", 4); got == tag {
		t.Errorf("an import into March left its tag %s", tag)
	}
}

// TestPartIDNamesTheYearOrMonthInRome checks the part names that both stores
// key parts by: the Rome year for monthly and coarser grains, the Rome month
// otherwise, including an instant that is already the next month in Rome.
func TestPartIDNamesTheYearOrMonthInRome(t *testing.T) {
	for _, tc := range []struct {
		g    Grain
		t    time.Time
		want string
	}{
		{Day, time.Date(2024, 3, 31, 22, 30, 0, 0, time.UTC), "2024-04"},
		{Day, time.Date(2024, 3, 31, 21, 30, 0, 0, time.UTC), "2024-03"},
		{Month, time.Date(2024, 12, 31, 23, 0, 0, 0, time.UTC), "2025"},
		{Year, time.Date(2015, 6, 1, 0, 0, 0, 0, time.UTC), "2015"},
		{Day, time.Date(812, 11, 1, 0, 0, 0, 0, time.UTC), "0812-11"},
		{Day, time.Date(10000, 1, 5, 0, 0, 0, 0, time.UTC), "10000-01"},
	} {
		if got := PartID(tc.g, tc.t.Unix()); got != tc.want {
			t.Errorf("PartID(%v, %s) = %q, want %q", tc.g, tc.t, got, tc.want)
		}
	}
}

func answerJSON(t *testing.T, s *Snapshot, q *Query) string {
	return answer(t, s, q, (*Snapshot).AppendJSON, (*Selection).WriteJSON, s.AppendJSONTee)
}

func answerCSV(t *testing.T, s *Snapshot, q *Query) string {
	return answer(t, s, q, (*Snapshot).AppendCSV, (*Selection).WriteCSV, s.AppendCSVTee)
}

// answer returns the answer to q as appendTo builds it whole, after
// asserting that write streams the same bytes and tee hands them out.
func answer(t *testing.T, s *Snapshot, q *Query, appendTo func(*Snapshot, context.Context, []byte, *Query) ([]byte, error),
	write func(*Selection, io.Writer, []byte) (int64, error), tee func(context.Context, []byte, *Query, int, func([]byte)) ([]byte, error)) string {
	t.Helper()
	b, err := appendTo(s, t.Context(), nil, q)
	if err != nil {
		t.Fatal(err)
	}
	wantStreamed(t, s, q, b, write)
	wantTeed(t, q, b, tee)
	return string(b)
}

// wantTeed asserts that appendTee builds the answer to q as the bytes
// built whole and hands all of them out in pieces, each the size asked
// or more but the last, that do not change once handed out.
func wantTeed(t *testing.T, q *Query, whole []byte, appendTee func(context.Context, []byte, *Query, int, func([]byte)) ([]byte, error)) {
	t.Helper()
	for _, every := range []int{1, 64, 1 << 20} {
		var pieces, copies [][]byte
		b, err := appendTee(t.Context(), nil, q, every, func(p []byte) {
			pieces, copies = append(pieces, p), append(copies, bytes.Clone(p))
		})
		if err != nil || !bytes.Equal(b, whole) {
			t.Fatalf("teed every %d: %v, answer of %d bytes that differs from the %d built whole", every, err, len(b), len(whole))
		}
		if got := bytes.Join(pieces, nil); !bytes.Equal(got, whole) || !bytes.Equal(bytes.Join(copies, nil), whole) {
			t.Fatalf("teed every %d: pieces of %d bytes (%d as handed out), want the %d of the answer", every, len(got), len(bytes.Join(copies, nil)), len(whole))
		}
		for i, p := range pieces[:max(len(pieces)-1, 0)] {
			if len(p) < every {
				t.Fatalf("teed every %d: piece %d has %d bytes", every, i, len(p))
			}
		}
	}
}

// wantStreamed asserts that write streams the answer to q as the bytes
// built whole, through a buffer small enough to flush after every record.
func wantStreamed(t *testing.T, s *Snapshot, q *Query, whole []byte, write func(*Selection, io.Writer, []byte) (int64, error)) {
	t.Helper()
	sel, err := s.Select(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	n, err := write(sel, &out, make([]byte, 0, 16))
	if err != nil || n != int64(out.Len()) || !bytes.Equal(out.Bytes(), whole) {
		t.Errorf("streamed: %d bytes (said %d, %v) that differ from the %d built whole:\n%s", out.Len(), n, err, len(whole), out.Bytes())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
