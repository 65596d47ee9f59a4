package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// sensorName is the name of sensor(), a dataset that only tests declare.
const sensorName = "test-sensor"

// sensor returns a throwaway dataset: hourly readings of a value per site,
// kept in Europe/Rome months, as the machinery would keep any dataset.
func sensor() *dataset.Dataset {
	return &dataset.Dataset{
		Name: sensorName, Area: "test", Version: "v1", Resource: "sensor", Array: "sensor",
		Message: dataset.MessageDates, Grain: dataset.Hour,
		Fields: []dataset.Field{
			{Name: "date", Kind: dataset.Instant},
			{Name: "value", Kind: dataset.Number},
			{Name: "site", Kind: dataset.Text},
		},
	}
}

// sensorCatalog returns a catalogue of sensor() alone, and the dataset.
func sensorCatalog(t testing.TB) (*dataset.Catalog, *dataset.Dataset) {
	t.Helper()
	d := sensor()
	c, err := dataset.NewCatalog(d)
	noErr(t, "NewCatalog", err)
	return c, d
}

// reading returns a row of sensor(): site's value at an RFC 3339 instant.
func reading(t testing.TB, instant, site string, v float64) dataset.Row {
	t.Helper()
	return dataset.Row{Time: at(t, instant).Unix(), Text: []string{site}, Num: []float64{v}}
}

// readings returns a row of sensor() for site at every hour of the Rome
// month y-m, each with value v.
func readings(y int, m time.Month, site string, v float64) []dataset.Row {
	var rows []dataset.Row
	start := time.Date(y, m, 1, 0, 0, 0, 0, energy.Rome())
	for at := start; at.Before(start.AddDate(0, 1, 0)); at = at.Add(time.Hour) {
		rows = append(rows, dataset.Row{Time: at.Unix(), Text: []string{site}, Num: []float64{v}})
	}
	return rows
}

// importRows imports rows into d through dataset.Import.
func importRows(ctx context.Context, s PartStore, c *dataset.Catalog, d *dataset.Dataset, rows []dataset.Row) (energy.ImportStats, error) {
	return dataset.Import(ctx, s, c, d, rows, t0())
}

func changedParts(t testing.TB, s PartStore, have map[dataset.PartRef]int64) dataset.Changes {
	t.Helper()
	ch, err := s.ChangedParts(t.Context(), have)
	noErr(t, "ChangedParts", err)
	return ch
}

// partView is a stored part decoded, in a form that compares with
// slices.Equal and reads well in failure messages.
type partView struct {
	Ref     string // dataset/id
	Version int64
	Records int
	Rows    string // one line per record: UTC instant, text values, numbers
}

func (v partView) String() string {
	return fmt.Sprintf("\n  %s v%d (%d records):%s", v.Ref, v.Version, v.Records, v.Rows)
}

// rowLines formats rows one per line, as partView and test tables hold them.
func rowLines(rows ...string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString("\n    " + r)
	}
	return b.String()
}

func rowString(r dataset.Row) string {
	return fmt.Sprintf("%s %s %v", time.Unix(r.Time, 0).UTC().Format(time.RFC3339), strings.Join(r.Text, ","), r.Num)
}

// viewParts decodes every part in ps with the layout of its dataset, which
// must be in ds.
func viewParts(t testing.TB, ps []dataset.StoredPart, ds ...*dataset.Dataset) []partView {
	t.Helper()
	layouts := map[string]*dataset.Layout{}
	for _, d := range ds {
		l, err := d.Check()
		noErr(t, "Check", err)
		layouts[d.Name] = l
	}
	var out []partView
	for _, sp := range ps {
		l := layouts[sp.Dataset]
		if l == nil {
			t.Fatalf("part %s/%s of a dataset the test did not import", sp.Dataset, sp.ID)
		}
		p, err := dataset.DecodePart(l, sp)
		noErr(t, "DecodePart", err)
		if p.ID != sp.ID || p.Len() != sp.Records {
			t.Fatalf("part %s/%s: got ID %s and %d records in its bytes, %d beside them", sp.Dataset, sp.ID, p.ID, p.Len(), sp.Records)
		}
		var lines []string
		for _, r := range p.Rows() {
			lines = append(lines, rowString(r))
		}
		out = append(out, partView{Ref: sp.Dataset + "/" + sp.ID, Version: sp.Version, Records: sp.Records, Rows: rowLines(lines...)})
	}
	return out
}

// wantParts fails the test unless got is exactly want.
func wantParts(t testing.TB, got, want []partView) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("parts:\ngot  %v\nwant %v", got, want)
	}
}

// sameParts reports whether a and b are the same stored parts, bytes
// included.
func sameParts(a, b []dataset.StoredPart) bool {
	return slices.EqualFunc(a, b, func(x, y dataset.StoredPart) bool {
		return x.PartRef == y.PartRef && x.Version == y.Version && x.Records == y.Records && bytes.Equal(x.Data, y.Data)
	})
}

// wantSameChanges fails the test unless got is want: version, time and
// every part.
func wantSameChanges(t testing.TB, got, want dataset.Changes) {
	t.Helper()
	if got.Version != want.Version || !got.Updated.Equal(want.Updated) {
		t.Fatalf("ChangedParts: got version %d updated %v, want %d updated %v", got.Version, got.Updated, want.Version, want.Updated)
	}
	if !sameParts(got.Parts, want.Parts) {
		t.Fatalf("ChangedParts: got parts %v, want %v", refsOf(got.Parts), refsOf(want.Parts))
	}
}

// refsOf lists parts as dataset/id@version.
func refsOf(ps []dataset.StoredPart) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s/%s@%d", p.Dataset, p.ID, p.Version)
	}
	return out
}

func testParts(t *testing.T, c *dataset.Catalog, open func(t *testing.T) Store) {
	parts := func(t *testing.T) PartStore { return open(t) }
	RunParts(t, parts)
	// dataset.Memory refuses no bad names or parts, hands merge a part
	// twice when refs repeat it and keeps no import totals: these hold for
	// the stores only.
	t.Run("Catalog", func(t *testing.T) { testPartsCatalog(t, c, open) })
	t.Run("MergeGetsStored", func(t *testing.T) { testMergeGetsStored(t, parts) })
	t.Run("Refused", func(t *testing.T) { testPartsRefused(t, parts) })
	t.Run("ImportTotals", func(t *testing.T) { testPartsImportTotals(t, open) })
}

// RunParts runs the tests of parts that every PartStore passes, the stores
// and dataset.Memory alike. open must return a new, empty store whose
// ChangedParts come by dataset, then ID, as the stores' do.
func RunParts(t *testing.T, open func(t *testing.T) PartStore) {
	t.Run("RoundTrip", func(t *testing.T) { testPartsRoundTrip(t, open) })
	t.Run("OnlyChanged", func(t *testing.T) { testPartsOnlyChanged(t, open) })
	t.Run("Cancelled", func(t *testing.T) { testPartsCancelled(t, open) })
	t.Run("Concurrent", func(t *testing.T) {
		s := open(t)
		partImportsTakeTurns(t, []PartStore{s, s, s})
	})
	t.Run("ConsistentSnapshot", func(t *testing.T) { testPartsConsistent(t, open) })
}

// testPartsRoundTrip imports records of a throwaway dataset in steps and
// reads the stored parts back after each. Instants sit around the 2024
// spring change to summer time: parts are Rome months, not UTC ones.
func testPartsRoundTrip(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	c, d := sensorCatalog(t)
	if ch := changedParts(t, s, nil); ch.Version != 0 || !ch.Updated.IsZero() || len(ch.Parts) != 0 {
		t.Fatalf("ChangedParts of a new store: got version %d, updated %v, %d parts; want 0, zero, none", ch.Version, ch.Updated, len(ch.Parts))
	}
	first := []dataset.Row{
		reading(t, "2024-03-31T01:00:00+01:00", "a", 1.5),
		reading(t, "2024-04-30T23:00:00+02:00", "a", 4),
		reading(t, "2024-04-01T00:00:00+02:00", "b", math.NaN()), // 2024-03-31T22:00Z: Rome's April
		reading(t, "2024-04-01T00:00:00+02:00", "a", 3),
		reading(t, "2024-03-31T23:00:00+02:00", "b", 2),
	}
	march := partView{"test-sensor/2024-03", 1, 2, rowLines(
		"2024-03-31T00:00:00Z a [1.5]",
		"2024-03-31T21:00:00Z b [2]",
	)}
	april := partView{"test-sensor/2024-04", 1, 3, rowLines(
		"2024-03-31T22:00:00Z a [3]",
		"2024-03-31T22:00:00Z b [NaN]",
		"2024-04-30T21:00:00Z a [4]",
	)}
	april2 := partView{"test-sensor/2024-04", 2, 4, rowLines(
		"2024-03-31T22:00:00Z a [3]",
		"2024-03-31T22:00:00Z b [3.5]",
		"2024-04-15T10:00:00Z c [7]",
		"2024-04-30T21:00:00Z a [4]",
	)}
	may := partView{"test-sensor/2024-05", 3, 1, rowLines(
		"2024-05-01T10:00:00Z a [5]",
	)}
	steps := []struct {
		name    string
		rows    []dataset.Row
		want    energy.ImportStats
		version int64
		parts   []partView
	}{{
		name:    "insert",
		rows:    first,
		want:    energy.ImportStats{Read: 5, Inserted: 5},
		version: 1,
		parts:   []partView{march, april},
	}, {
		name:    "same again",
		rows:    []dataset.Row{first[4], first[3], first[2], first[1], first[0]},
		want:    energy.ImportStats{Read: 5, Unchanged: 5},
		version: 1,
		parts:   []partView{march, april},
	}, {
		name: "one changed one new",
		rows: []dataset.Row{
			reading(t, "2024-04-01T00:00:00+02:00", "b", 3.5),
			reading(t, "2024-04-15T12:00:00+02:00", "c", 7),
			reading(t, "2024-03-31T01:00:00+01:00", "a", 1.5),
		},
		want:    energy.ImportStats{Read: 3, Inserted: 1, Updated: 1, Unchanged: 1},
		version: 2,
		parts:   []partView{march, april2},
	}, {
		name: "a new part",
		rows: []dataset.Row{
			reading(t, "2024-05-01T12:00:00+02:00", "a", 5),
			reading(t, "2024-03-31T23:00:00+02:00", "b", 2),
		},
		want:    energy.ImportStats{Read: 2, Inserted: 1, Unchanged: 1},
		version: 3,
		parts:   []partView{march, april2, may},
	}, {
		name:    "empty",
		rows:    nil,
		want:    energy.ImportStats{},
		version: 3,
		parts:   []partView{march, april2, may},
	}}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			before := changedParts(t, s, nil)
			st, err := importRows(t.Context(), s, c, d, step.rows)
			noErr(t, "Import", err)
			if st != step.want {
				t.Fatalf("stats: got %+v, want %+v", st, step.want)
			}
			after := changedParts(t, s, nil)
			if after.Version != step.version {
				t.Fatalf("ChangedParts: got version %d, want %d", after.Version, step.version)
			}
			if v := dataVersion(t, s); v != after.Version {
				t.Fatalf("DataVersion: got %d, ChangedParts' version is %d", v, after.Version)
			}
			switch changed := after.Version != before.Version; {
			case changed && after.Updated.IsZero():
				t.Fatalf("Updated: got zero after a change, want the time of the change")
			case !changed && !after.Updated.Equal(before.Updated):
				t.Fatalf("Updated: got %v, want %v as before", after.Updated, before.Updated)
			case !changed && !sameParts(after.Parts, before.Parts):
				t.Fatalf("parts changed in an import that reported no change")
			}
			wantParts(t, viewParts(t, after.Parts, d), step.parts)
		})
	}
}

// testPartsCatalog round-trips records of the served datasets, as their
// descriptors in internal/catalog declare them.
func testPartsCatalog(t *testing.T, c *dataset.Catalog, open func(t *testing.T) Store) {
	s := open(t)
	lookup := func(name string) *dataset.Dataset {
		d, ok := c.Lookup(name)
		if !ok {
			t.Fatalf("catalogue lacks %s", name)
		}
		return d
	}
	thermo, load, pv := lookup("thermoelectric"), lookup("total-load"), lookup("peak-valley")
	nan := math.NaN()
	year2023 := time.Date(2023, 1, 1, 0, 0, 0, 0, energy.Rome()).Unix()
	thermoRow := func(capacity, region, province, category, sub string, gwh float64) dataset.Row {
		return dataset.Row{Time: year2023, Text: []string{capacity, region, province, category, sub}, Num: []float64{gwh}}
	}
	loadRow := func(instant string, zone string, total, forecast float64) dataset.Row {
		return dataset.Row{Time: at(t, instant).Unix(), Text: []string{zone}, Num: []float64{total, forecast}}
	}
	steps := []struct {
		d    *dataset.Dataset
		rows []dataset.Row
		want energy.ImportStats
	}{
		{thermo, []dataset.Row{
			thermoRow("Netta", "Sicilia", "Catania", "Bioenergie", "Biogas", 12),
			thermoRow("Netta", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1200),
			thermoRow("Lorda", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1234.5),
			thermoRow("Lorda", "Lombardia", "Brescia", "Combustibili fossili", "Gas naturale", 800.25),
		}, energy.ImportStats{Read: 4, Inserted: 4}},
		{load, []dataset.Row{
			loadRow("2024-11-01T00:00:00+01:00", "Italy", 25000, 24800),
			loadRow("2024-10-27T02:15:00+01:00", "North", 5000, nan), // the second 02:15
			loadRow("2024-10-27T02:15:00+01:00", "Italy", 19000, 18500),
			loadRow("2024-10-27T02:15:00+02:00", "Italy", 20000, nan), // the first 02:15
		}, energy.ImportStats{Read: 4, Inserted: 4}},
		{pv, []dataset.Row{
			{Time: at(t, "2024-05-01T12:15:00+02:00").Unix(), Text: []string{"peak"}, Num: []float64{30.5, nan}},
			{Time: at(t, "2024-05-01T03:45:00+02:00").Unix(), Text: []string{"valley"}, Num: []float64{nan, 18.25}},
		}, energy.ImportStats{Read: 2, Inserted: 2}},
	}
	for _, step := range steps {
		st, err := dataset.Import(t.Context(), s, c, step.d, step.rows, t0())
		noErr(t, "Import "+step.d.Name, err)
		if st != step.want {
			t.Fatalf("Import %s: got %+v, want %+v", step.d.Name, st, step.want)
		}
	}
	// Records sort by moment, then by the dataset's Order (byte-wise):
	// thermoelectric by region, province, category, subcategory, capacity type.
	wantParts(t, viewParts(t, changedParts(t, s, nil).Parts, thermo, load, pv), []partView{
		{"peak-valley/2024-05", 3, 2, rowLines(
			"2024-05-01T01:45:00Z valley [NaN 18.25]",
			"2024-05-01T10:15:00Z peak [30.5 NaN]",
		)},
		{"thermoelectric/2023", 1, 4, rowLines(
			"2022-12-31T23:00:00Z Lorda,Lombardia,Brescia,Combustibili fossili,Gas naturale [800.25]",
			"2022-12-31T23:00:00Z Lorda,Lombardia,Milano,Combustibili fossili,Gas naturale [1234.5]",
			"2022-12-31T23:00:00Z Netta,Lombardia,Milano,Combustibili fossili,Gas naturale [1200]",
			"2022-12-31T23:00:00Z Netta,Sicilia,Catania,Bioenergie,Biogas [12]",
		)},
		{"total-load/2024-10", 2, 3, rowLines(
			"2024-10-27T00:15:00Z Italy [20000 NaN]",
			"2024-10-27T01:15:00Z Italy [19000 18500]",
			"2024-10-27T01:15:00Z North [5000 NaN]",
		)},
		{"total-load/2024-11", 2, 1, rowLines(
			"2024-10-31T23:00:00Z Italy [25000 24800]",
		)},
	})
	totals, err := s.ImportTotals(t.Context())
	noErr(t, "ImportTotals", err)
	var got []string
	for _, x := range totals {
		got = append(got, fmt.Sprintf("%s %d runs %d rows", x.Dataset, x.Runs, x.Rows))
	}
	want := []string{"peak-valley 1 runs 2 rows", "thermoelectric 1 runs 4 rows", "total-load 1 runs 4 rows"}
	if !slices.Equal(got, want) {
		t.Fatalf("ImportTotals: got %q, want %q", got, want)
	}
}

// testPartsOnlyChanged checks that ChangedParts returns exactly the parts
// whose version differs from the reader's, with their bytes.
func testPartsOnlyChanged(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	c, d := sensorCatalog(t)
	var rows []dataset.Row
	for m := time.January; m <= time.March; m++ {
		rows = append(rows, readings(2024, m, "a", 1)...)
	}
	_, err := importRows(t.Context(), s, c, d, rows)
	noErr(t, "Import", err)
	_, err = importRows(t.Context(), s, c, d, readings(2024, time.February, "a", 2))
	noErr(t, "Import", err)
	all := changedParts(t, s, nil)

	ref := func(id string) dataset.PartRef { return dataset.PartRef{Dataset: sensorName, ID: id} }
	jan, feb, mar := ref("2024-01"), ref("2024-02"), ref("2024-03")
	cases := []struct {
		name string
		have map[dataset.PartRef]int64
		want []string
	}{
		{"nothing", nil, []string{"test-sensor/2024-01@1", "test-sensor/2024-02@2", "test-sensor/2024-03@1"}},
		{"everything", map[dataset.PartRef]int64{jan: 1, feb: 2, mar: 1}, nil},
		{"an old version", map[dataset.PartRef]int64{jan: 1, feb: 1, mar: 1}, []string{"test-sensor/2024-02@2"}},
		{"a part missing", map[dataset.PartRef]int64{jan: 1, feb: 2}, []string{"test-sensor/2024-03@1"}},
		{"a version the store never wrote", map[dataset.PartRef]int64{jan: 1, feb: 2, mar: 7}, []string{"test-sensor/2024-03@1"}},
		{"a part the store does not hold", map[dataset.PartRef]int64{jan: 1, feb: 2, mar: 1, ref("1999-01"): 1}, nil},
		{"same ID, other dataset", map[dataset.PartRef]int64{{Dataset: "other", ID: "2024-01"}: 1, feb: 2, mar: 1}, []string{"test-sensor/2024-01@1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := changedParts(t, s, c.have)
			if ch.Version != 2 || !ch.Updated.Equal(all.Updated) {
				t.Fatalf("got version %d updated %v, want 2 updated %v", ch.Version, ch.Updated, all.Updated)
			}
			if got := refsOf(ch.Parts); !slices.Equal(got, c.want) {
				t.Fatalf("parts: got %v, want %v", got, c.want)
			}
			for _, p := range ch.Parts {
				i := slices.IndexFunc(all.Parts, func(q dataset.StoredPart) bool { return q.PartRef == p.PartRef })
				if !sameParts([]dataset.StoredPart{p}, all.Parts[i:i+1]) {
					t.Fatalf("part %s/%s: got other bytes or records than a full read gives", p.Dataset, p.ID)
				}
			}
		})
	}
}

// testMergeGetsStored calls UpdateParts with a merge of the test's own, to
// check what the store hands it and what it makes of what it returns.
func testMergeGetsStored(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	c, d := sensorCatalog(t)
	_, err := importRows(t.Context(), s, c, d, append(readings(2024, time.January, "a", 1), readings(2024, time.February, "a", 1)...))
	noErr(t, "Import", err)
	_, err = importRows(t.Context(), s, c, d, readings(2024, time.February, "b", 1))
	noErr(t, "Import", err)
	stored := changedParts(t, s, nil).Parts // January at 1 with 744 records, February at 2 with 2 × 696

	ref := func(id string) dataset.PartRef { return dataset.PartRef{Dataset: sensorName, ID: id} }
	calls := 0
	var got []dataset.StoredPart
	st, err := s.UpdateParts(t.Context(), sensorName, t0(),
		[]dataset.PartRef{ref("2024-02"), ref("2023-12"), ref("2024-01"), ref("2024-02")},
		func(in []dataset.StoredPart, _ time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
			calls++
			got = in
			// The store sets the version; a stale one here must not stick.
			return []dataset.StoredPart{
				{PartRef: ref("2024-01"), Version: 99, Records: 7, Data: []byte("new January")},
				{PartRef: ref("2023-12"), Records: 0, Data: []byte("new December")},
			}, energy.ImportStats{Read: 7, Updated: 7}, nil
		})
	noErr(t, "UpdateParts", err)
	if calls != 1 {
		t.Fatalf("merge: got %d calls, want 1", calls)
	}
	if want := (energy.ImportStats{Read: 7, Updated: 7}); st != want {
		t.Fatalf("stats: got %+v, want merge's %+v", st, want)
	}
	// Asked for twice, February comes once; December is not stored.
	if g, w := refsOf(got), []string{"test-sensor/2024-01@1", "test-sensor/2024-02@2"}; !slices.Equal(g, w) {
		t.Fatalf("merge got %v, want %v", g, w)
	}
	if !sameParts(got, stored) || got[0].Records != 744 || got[1].Records != 2*696 {
		t.Fatalf("merge got parts with other bytes or records than ChangedParts returns")
	}
	after := changedParts(t, s, nil)
	if after.Version != 3 {
		t.Fatalf("version: got %d, want 3", after.Version)
	}
	want := []dataset.StoredPart{
		{PartRef: ref("2023-12"), Version: 3, Records: 0, Data: []byte("new December")},
		{PartRef: ref("2024-01"), Version: 3, Records: 7, Data: []byte("new January")},
		stored[1],
	}
	if !sameParts(after.Parts, want) {
		t.Fatalf("after UpdateParts: got %v, want %v", refsOf(after.Parts), refsOf(want))
	}
}

// testPartsRefused has UpdateParts fail in every way it can before it
// commits: refused names, merge failing, merge returning what cannot be
// stored, merge panicking. Each leaves the store as it was.
func testPartsRefused(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	seed(t, s)
	c, d := sensorCatalog(t)
	_, err := importRows(t.Context(), s, c, d, readings(2024, time.January, "a", 1))
	noErr(t, "Import", err)

	boom := errors.New("merge failed")
	ref := func(id string) dataset.PartRef { return dataset.PartRef{Dataset: sensorName, ID: id} }
	part := func(id string) dataset.StoredPart {
		return dataset.StoredPart{PartRef: ref(id), Records: 1, Data: []byte("part " + id)}
	}
	returns := func(write []dataset.StoredPart, err error) dataset.MergeFunc {
		return func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
			return write, energy.ImportStats{Read: 1, Inserted: 1}, err
		}
	}
	refs := []dataset.PartRef{ref("2024-01"), ref("2024-02")}
	cases := []struct {
		name  string
		ds    string
		refs  []dataset.PartRef
		merge dataset.MergeFunc
		is    error       // the error must wrap this, if set
		code  energy.Code // and carry this code, if set
	}{
		{"merge fails", sensorName, refs, returns(nil, boom), boom, ""},
		{"merge fails with parts", sensorName, refs, returns([]dataset.StoredPart{part("2024-01"), part("2024-02")}, boom), boom, ""},
		{"merge refuses", sensorName, refs, returns(nil, energy.Errorf(energy.Invalid, "bad record")), nil, energy.Invalid},
		{"dataset name empty", "", refs, returns([]dataset.StoredPart{part("2024-02")}, nil), nil, energy.Invalid},
		{"dataset name not UTF-8", "sensor\xff", refs, returns([]dataset.StoredPart{part("2024-02")}, nil), nil, energy.Invalid},
		{"ref with NUL", sensorName, []dataset.PartRef{ref("2024\x00")}, returns([]dataset.StoredPart{part("2024-02")}, nil), nil, energy.Invalid},
		{"written part with empty ID", sensorName, refs, returns([]dataset.StoredPart{part("2024-02"), part("")}, nil), nil, energy.Invalid},
		{"written part with bad dataset", sensorName, refs, returns([]dataset.StoredPart{part("2024-02"), {PartRef: dataset.PartRef{Dataset: "x\x00", ID: "2024-03"}, Data: []byte("x")}}, nil), nil, energy.Invalid},
		{"written part twice", sensorName, refs, returns([]dataset.StoredPart{part("2024-02"), part("2024-01"), part("2024-02")}, nil), nil, ""},
		{"written part without bytes", sensorName, refs, returns([]dataset.StoredPart{part("2024-02"), {PartRef: ref("2024-03"), Records: 1}}, nil), nil, ""},
		{"written part with negative count", sensorName, refs, returns([]dataset.StoredPart{part("2024-02"), {PartRef: ref("2024-03"), Records: -1, Data: []byte("x")}}, nil), nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readState(t, s)
			st, err := s.UpdateParts(t.Context(), c.ds, t0(), c.refs, c.merge)
			if err == nil {
				t.Fatalf("UpdateParts: got nil error, want one")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Fatalf("UpdateParts: got error %v, want it to wrap %v", err, c.is)
			}
			if c.code != "" {
				wantCode(t, "UpdateParts", err, c.code)
			}
			if st != (energy.ImportStats{}) {
				t.Fatalf("stats of a failed import: got %+v, want zero", st)
			}
			wantSameState(t, readState(t, s), before)
		})
	}

	t.Run("merge panics", func(t *testing.T) {
		before := readState(t, s)
		func() {
			defer func() {
				if r := recover(); r != boom {
					t.Fatalf("recovered %v, want merge's panic", r)
				}
			}()
			s.UpdateParts(t.Context(), sensorName, t0(), refs, func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
				panic(boom)
			})
		}()
		wantSameState(t, readState(t, s), before)
		// The import's transaction ended with the panic: another import
		// does not wait for it.
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		defer cancel()
		_, err := importRows(ctx, s, c, d, readings(2024, time.February, "a", 1))
		noErr(t, "Import after a panic", err)
	})
}

// testPartsCancelled cancels imports before they start and part way: either
// an import fails and changes nothing, or it succeeds and is wholly visible.
func testPartsCancelled(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	seed(t, s)
	c, d := sensorCatalog(t)
	year := func(v float64) []dataset.Row {
		var rows []dataset.Row
		for m := time.January; m <= time.December; m++ {
			rows = append(rows, readings(2030, m, "a", v)...)
			rows = append(rows, readings(2030, m, "b", v)...)
		}
		return rows
	}
	t.Run("before", func(t *testing.T) {
		before := readState(t, s)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := importRows(ctx, s, c, d, year(1)); err == nil {
			t.Fatalf("import with a cancelled context: got nil error, want one")
		}
		wantSameState(t, readState(t, s), before)
	})
	var failed, succeeded int
	for _, n := range []int64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597} {
		// Every import writes new values into the same twelve parts, so
		// all but the first that succeeds replace parts.
		t.Run(fmt.Sprintf("after %d", n), func(t *testing.T) {
			before := readState(t, s)
			ctx := newCancelAfter(t.Context(), n)
			defer ctx.cancel()
			_, err := importRows(ctx, s, c, d, year(float64(n)))
			after := readState(t, s)
			if err != nil {
				failed++
				wantSameState(t, after, before)
				return
			}
			succeeded++
			if after.version != before.version+1 {
				t.Fatalf("DataVersion: got %d after a successful import, want %d", after.version, before.version+1)
			}
			var ps []dataset.StoredPart
			for _, p := range after.parts.Parts {
				if p.Dataset == sensorName && strings.HasPrefix(p.ID, "2030-") {
					ps = append(ps, p)
				}
			}
			if len(ps) != 12 {
				t.Fatalf("got %d parts after a successful import, want 12", len(ps))
			}
			l, err := d.Check()
			noErr(t, "Check", err)
			for _, sp := range ps {
				p, err := dataset.DecodePart(l, sp)
				noErr(t, "DecodePart", err)
				if sp.Version != after.version || slices.ContainsFunc(p.Values(0), func(v float64) bool { return v != float64(n) }) {
					t.Fatalf("part %s: version %d, want %d with every value %d", sp.ID, sp.Version, after.version, n)
				}
			}
		})
	}
	t.Logf("imports cancelled part way: %d failed, %d completed", failed, succeeded)
}

// partImportsTakeTurns has each of stores (the same store several times,
// or stores of one database) import rows of its own site into the same
// part, several times over. The part ends with every site's rows only if
// each import read the part after the one before it committed.
func partImportsTakeTurns(t *testing.T, stores []PartStore) {
	const rounds = 5
	c, d := sensorCatalog(t)
	before := dataVersion(t, stores[0])
	stats := make([]energy.ImportStats, len(stores))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Go(func() {
			for j := range rounds {
				st, err := importRows(t.Context(), s, c, d, readings(2024, time.February, fmt.Sprint("site ", i), float64(j)))
				if err != nil {
					t.Errorf("store %d round %d: %v", i, j, err)
					return
				}
				stats[i].Inserted += st.Inserted
				stats[i].Updated += st.Updated
			}
		})
	}
	wg.Wait()
	const hours = 696 // February 2024 in Rome: 29 days of 24 hours
	ch := changedParts(t, stores[0], nil)
	var ps []dataset.StoredPart
	for _, p := range ch.Parts {
		if p.Dataset == sensorName {
			ps = append(ps, p)
		}
	}
	if len(ps) != 1 || ps[0].ID != "2024-02" {
		t.Fatalf("got parts %v, want test-sensor/2024-02 alone", refsOf(ps))
	}
	l, err := d.Check()
	noErr(t, "Check", err)
	p, err := dataset.DecodePart(l, ps[0])
	noErr(t, "DecodePart", err)
	if got, want := p.Len(), len(stores)*hours; got != want {
		t.Fatalf("part 2024-02: got %d records, want %d (%d sites × %d hours)", got, want, len(stores), hours)
	}
	for i := range p.Len() {
		if v := p.Num(0, i); v != rounds-1 {
			t.Fatalf("part 2024-02: record %s has %v, want every site's last value %d", rowString(p.Row(i)), v, rounds-1)
		}
	}
	for i, st := range stats {
		if st.Inserted != hours || st.Updated != (rounds-1)*hours {
			t.Errorf("store %d: got %d inserted and %d updated, want %d and %d", i, st.Inserted, st.Updated, hours, (rounds-1)*hours)
		}
	}
	if got, want := ch.Version, before+int64(len(stores)*rounds); got != want {
		t.Fatalf("version: got %d, want %d (one per import)", got, want)
	}
}

// testPartsConsistent reads while imports commit. Import i sets every
// record of three parts to i, and is data version i: a read that sees half
// an import, or parts from different versions, breaks that.
func testPartsConsistent(t *testing.T, open func(t *testing.T) PartStore) {
	s := open(t)
	c, d := sensorCatalog(t)
	l, err := d.Check()
	noErr(t, "Check", err)
	const batches, readers = 15, 3
	batch := func(i int) []dataset.Row {
		var rows []dataset.Row
		for m := time.January; m <= time.March; m++ {
			rows = append(rows, readings(2024, m, "a", float64(i))...)
			rows = append(rows, readings(2024, m, "b", float64(i))...)
		}
		return rows
	}
	// problem describes how parts, read at version v, break the
	// invariants, or returns "".
	problem := func(v int64, parts []dataset.StoredPart) string {
		if v == 0 {
			if len(parts) != 0 {
				return fmt.Sprintf("got %d parts at version 0, want none", len(parts))
			}
			return ""
		}
		if len(parts) != 3 {
			return fmt.Sprintf("got %d parts at version %d, want 3", len(parts), v)
		}
		for _, sp := range parts {
			if sp.Version != v {
				return fmt.Sprintf("part %s at version %d in a read of version %d", sp.ID, sp.Version, v)
			}
			p, err := dataset.DecodePart(l, sp)
			if err != nil {
				return err.Error()
			}
			for _, x := range p.Values(0) {
				if x != float64(v) {
					return fmt.Sprintf("part %s holds %v at version %d", sp.ID, x, v)
				}
			}
		}
		return ""
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := 1; i <= batches; i++ {
			if _, err := importRows(t.Context(), s, c, d, batch(i)); err != nil {
				t.Errorf("import %d: %v", i, err)
				return
			}
		}
	})
	for r := range readers {
		// Reader 0 reloads only what changed, as a server does; the others
		// read everything every time.
		incremental := r == 0
		wg.Go(func() {
			var last int64
			cache := map[dataset.PartRef]dataset.StoredPart{}
			for reads := 0; ; reads++ {
				finished := false
				select {
				case <-done:
					finished = true // one more read after the importer ends
				default:
				}
				var have map[dataset.PartRef]int64
				if incremental {
					have = map[dataset.PartRef]int64{}
					for ref, p := range cache {
						have[ref] = p.Version
					}
				}
				ch, err := s.ChangedParts(t.Context(), have)
				if err != nil {
					t.Errorf("reader %d: ChangedParts: %v", r, err)
					return
				}
				if ch.Version < last {
					t.Errorf("reader %d: version went back from %d to %d", r, last, ch.Version)
					return
				}
				last = ch.Version
				parts := ch.Parts
				if incremental {
					for _, p := range ch.Parts {
						cache[p.PartRef] = p
					}
					parts = slices.Collect(func(yield func(dataset.StoredPart) bool) {
						for _, p := range cache {
							if !yield(p) {
								return
							}
						}
					})
				}
				if p := problem(ch.Version, parts); p != "" {
					t.Errorf("reader %d, read %d: %s", r, reads, p)
					return
				}
				if finished {
					t.Logf("reader %d: %d reads", r, reads+1)
					return
				}
			}
		})
	}
	wg.Wait()
	ch := changedParts(t, s, nil)
	if ch.Version != batches {
		t.Fatalf("after the imports: got version %d, want %d", ch.Version, batches)
	}
	if p := problem(ch.Version, ch.Parts); p != "" {
		t.Fatalf("after the imports: %s", p)
	}
}

// testPartsImportTotals checks that every committed part import counts as a
// run of its dataset, and that failed ones do not.
func testPartsImportTotals(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	c, d := sensorCatalog(t)
	rows := readings(2024, time.January, "a", 1)[:5]
	fail := func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		return nil, energy.ImportStats{Read: 9}, errors.New("merge failed")
	}
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"import", func() error {
			_, err := importRows(t.Context(), s, c, d, rows)
			return err
		}, []string{"test-sensor 1 runs 5 rows"}},
		{"unchanged", func() error {
			_, err := importRows(t.Context(), s, c, d, rows)
			return err
		}, []string{"test-sensor 2 runs 10 rows"}},
		{"empty", func() error {
			_, err := importRows(t.Context(), s, c, d, nil)
			return err
		}, []string{"test-sensor 3 runs 10 rows"}},
		{"merge failed", func() error {
			_, err := s.UpdateParts(t.Context(), sensorName, t0(), nil, fail)
			return failsWith(energy.Internal, err)
		}, []string{"test-sensor 3 runs 10 rows"}},
		{"refused", func() error {
			_, err := s.UpdateParts(t.Context(), "bad\x00name", t0(), nil, fail)
			return failsWith(energy.Invalid, err)
		}, []string{"test-sensor 3 runs 10 rows"}},
		{"another dataset", func() error {
			_, err := s.UpdateParts(t.Context(), "a-dataset", t0(), nil, func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
				return nil, energy.ImportStats{Read: 4, Unchanged: 4}, nil
			})
			return err
		}, []string{"a-dataset 1 runs 4 rows", "test-sensor 3 runs 10 rows"}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			noErr(t, step.name, step.do())
			totals, err := s.ImportTotals(t.Context())
			noErr(t, "ImportTotals", err)
			var got []string
			for _, x := range totals {
				got = append(got, fmt.Sprintf("%s %d runs %d rows", x.Dataset, x.Runs, x.Rows))
			}
			if !slices.Equal(got, step.want) {
				t.Fatalf("ImportTotals: got %q, want %q", got, step.want)
			}
		})
	}
}
