package bulk

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// bulkData is a store holding March 2024 of the demo's total load (the
// month of the clock change), served by a Live.
func bulkData(tb testing.TB) (*dataset.Catalog, *dataset.Live, *dataset.Memory, *dataset.Dataset) {
	tb.Helper()
	cat, err := catalog.New()
	if err != nil {
		tb.Fatal(err)
	}
	d, _ := cat.Lookup("total-load")
	first, _ := energy.NewDate(2024, time.March, 1)
	last, _ := energy.NewDate(2024, time.March, 31)
	rows := d.Demo(dataset.DemoInput{First: first, Last: last, Seed: 1})
	mem := dataset.NewMemory()
	if _, err := dataset.Import(context.Background(), mem, cat, d, rows, time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		tb.Fatal(err)
	}
	live, err := dataset.NewLive(context.Background(), cat, mem)
	if err != nil {
		tb.Fatal(err)
	}
	return cat, live, mem, d
}

func TestBulkParquetHoldsThePartTyped(t *testing.T) {
	cat, live, _, d := bulkData(t)
	p := New(cat, budget.New(64<<20))
	ctx := context.Background()
	f, err := p.File(ctx, live.Snapshot(), d, "2024-03", Parquet)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := live.Snapshot().Part(ctx, d, "2024-03")
	pf, err := parquet.OpenFile(bytes.NewReader(f.Body), int64(len(f.Body)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pf.NumRows(), int64(part.Len()); got != want || f.Records != part.Len() {
		t.Fatalf("rows: got %d (manifest %d), want %d", got, f.Records, want)
	}
	if n := len(pf.RowGroups()); n < 2 {
		t.Errorf("row groups: got %d, want several to skip by time", n)
	}
	for _, name := range []string{"date", "date_offset", "bidding_zone", "total_load_MW", "forecast_total_load_MW"} {
		if _, ok := pf.Schema().Lookup(name); !ok {
			t.Errorf("column %s missing from %s", name, pf.Schema())
		}
	}
	if _, ok := pf.Schema().Lookup("date_tz"); ok {
		t.Error("the zone column is written; want it left out (Europe/Rome on every row)")
	}
	// The sum of a column read back equals the part's.
	type rec struct {
		Date   time.Time `parquet:"date"`
		Offset string    `parquet:"date_offset"`
		Zone   string    `parquet:"bidding_zone"`
		Load   *float64  `parquet:"total_load_MW,optional"`
	}
	recs, err := parquet.Read[rec](bytes.NewReader(f.Body), int64(len(f.Body)))
	if err != nil {
		t.Fatal(err)
	}
	var got, want float64
	for i := range part.Len() {
		want += part.Num(0, i)
	}
	for _, r := range recs {
		got += *r.Load
	}
	if math.Abs(got-want) > 1e-6*math.Abs(want) {
		t.Errorf("sum of total_load_MW: got %v, want %v", got, want)
	}
	if r := recs[0]; !r.Date.Equal(time.Unix(part.Time(0), 0)) || r.Offset != "+01:00" {
		t.Errorf("first record: got %v %s, want %v +01:00", r.Date, r.Offset, time.Unix(part.Time(0), 0).UTC())
	}
	if r := recs[len(recs)-1]; r.Offset != "+02:00" {
		t.Errorf("last record's offset: got %s, want +02:00 (after the clock change)", r.Offset)
	}
}

func TestBulkFilesAreTheSameBytesEveryTime(t *testing.T) {
	cat, live, _, d := bulkData(t)
	ctx := context.Background()
	for _, f := range Formats {
		a, err := New(cat, budget.New(64<<20)).File(ctx, live.Snapshot(), d, "2024-03", f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(cat, budget.New(64<<20)).File(ctx, live.Snapshot(), d, "2024-03", f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Body, b.Body) || a.SHA256 != b.SHA256 || a.Tag != b.Tag {
			t.Errorf("%s: two productions differ (%s and %s)", f, a.SHA256, b.SHA256)
		}
	}
}

func TestBulkCSVGzipIsTheAPIsCSV(t *testing.T) {
	cat, live, _, d := bulkData(t)
	ctx := context.Background()
	f, err := New(cat, budget.New(64<<20)).File(ctx, live.Snapshot(), d, "2024-03", CSVGzip)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(f.Body))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	q, err := cat.ParseQuery(d, map[string][]string{"dateFrom": {"01/03/2024"}, "dateTo": {"31/03/2024"}}, dataset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := live.Snapshot().AppendCSV(ctx, nil, q)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("csv.gz holds %d bytes unlike the API's %d-byte CSV for the month", len(got), len(want))
	}
}

func TestBulkFileChangesWithItsDataOnly(t *testing.T) {
	cat, live, mem, d := bulkData(t)
	ctx := context.Background()
	p := New(cat, budget.New(64<<20))
	before, err := p.Info(ctx, live.Snapshot(), d, "2024-03", Parquet)
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Info(ctx, live.Snapshot(), d, "2024-03", Parquet)
	if err != nil || again != before {
		t.Fatalf("asked again: got %+v, %v; want %+v", again, err, before)
	}
	// One quarter hour of another month: March's file stays as it was.
	row := dataset.Row{Time: time.Date(2024, 4, 2, 10, 0, 0, 0, energy.Rome()).Unix(), Text: []string{"North"}, Num: []float64{1, 2}}
	if _, err := dataset.Import(ctx, mem, cat, d, []dataset.Row{row}, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if _, err := live.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := p.Info(ctx, live.Snapshot(), d, "2024-03", Parquet)
	if err != nil || after != before {
		t.Errorf("after an import into April: got %+v, %v; want March's file unchanged", after, err)
	}
	// A changed value in March: a new version, tag and checksum.
	row.Time = time.Date(2024, 3, 2, 10, 0, 0, 0, energy.Rome()).Unix()
	if _, err := dataset.Import(ctx, mem, cat, d, []dataset.Row{row}, time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if _, err := live.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	changed, err := p.Info(ctx, live.Snapshot(), d, "2024-03", Parquet)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Tag == before.Tag || changed.SHA256 == before.SHA256 || changed.Version <= before.Version {
		t.Errorf("after an import into March: got %+v, want a new version, tag and checksum than %+v", changed, before)
	}
	if _, err := p.Info(ctx, live.Snapshot(), d, "2023-03", Parquet); energy.ErrorCode(err) != energy.NotFound {
		t.Errorf("a period without data: got %v, want NotFound", err)
	}
}

func TestBulkParseName(t *testing.T) {
	for _, c := range []struct {
		name, period string
		f            Format
		ok           bool
	}{
		{"2024-03.parquet", "2024-03", Parquet, true},
		{"2024.csv.gz", "2024", CSVGzip, true},
		{"2024.csv", "", "", false},
		{".parquet", "", "", false},
	} {
		p, f, ok := ParseName(c.name)
		if p != c.period || f != c.f || ok != c.ok {
			t.Errorf("ParseName(%q): got %q %q %v, want %q %q %v", c.name, p, f, ok, c.period, c.f, c.ok)
		}
	}
}
