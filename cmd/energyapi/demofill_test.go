package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// fillRange is a short demo range across a year's end for the fill tests:
// five periods (2025, 2025-01, 2024, 2024-12, and none before), each of a
// few days.
func fillRange() dataset.DemoInput {
	return dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.December, Day: 30}, Last: energy.Date{Year: 2025, Month: time.January, Day: 3}, Seed: demo.DefaultSeed}
}

// fillStoreFor opens a new store and returns it with a fill of in into it.
func fillStoreFor(t *testing.T, in dataset.DemoInput) (store, *demoFill) {
	t.Helper()
	st, err := openStore(context.Background(), filepath.Join(t.TempDir(), "fill.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return st, &demoFill{cat: cat, w: st, in: in, missingOnly: true}
}

// storedRows returns every part of the store, decoded, as text: the
// records' moments, texts and numbers (not their publication times, which
// are those of the import that wrote them).
func storedRows(t *testing.T, st store, cat *dataset.Catalog) map[dataset.PartRef]string {
	t.Helper()
	ch, err := st.ChangedParts(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[dataset.PartRef]string{}
	for _, sp := range ch.Parts {
		d, _ := cat.Lookup(sp.Dataset)
		p, err := dataset.DecodePart(cat.Layout(d), sp)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range p.Rows() {
			fmt.Fprintf(&b, "%d %q %v\n", r.Time, r.Text, r.Num)
		}
		out[sp.PartRef] = b.String()
	}
	return out
}

// cancelAfter is a store whose context is cancelled after n imports, as
// a shutdown midway through the fill would.
type cancelAfter struct {
	dataset.PartWriter
	n      atomic.Int64
	cancel context.CancelFunc
}

func (w *cancelAfter) UpdateParts(ctx context.Context, ds string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc) (energy.ImportStats, error) {
	st, err := w.PartWriter.UpdateParts(ctx, ds, started, refs, merge)
	if err == nil && w.n.Add(-1) == 0 {
		w.cancel()
	}
	return st, err
}

// TestDemoFillResumes stops a fill midway, as a shutdown does, and starts
// it again: the store ends with exactly the parts of an uninterrupted
// fill, and a fill of a complete store writes nothing.
func TestDemoFillResumes(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	whole, f := fillStoreFor(t, fillRange())
	runFill(context.Background(), log, whole, f)
	want := storedRows(t, whole, f.cat)
	if len(want) < 100 {
		t.Fatalf("the uninterrupted fill wrote %d parts, want every dataset's", len(want))
	}

	resumed, g := fillStoreFor(t, fillRange())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := &cancelAfter{PartWriter: resumed, cancel: cancel}
	stop.n.Store(20)
	g.w = stop
	var logs apitest.Buffer
	runFill(ctx, slog.New(slog.NewTextHandler(&logs, nil)), resumed, g)
	if !strings.Contains(logs.String(), "demo fill stopped") {
		t.Errorf("log: got %s, want the fill to say it stopped", logs.String())
	}
	if got := len(storedRows(t, resumed, g.cat)); got == 0 || got >= len(want) {
		t.Fatalf("stopped fill: %d parts, want some of %d", got, len(want))
	}
	g.w = resumed
	runFill(context.Background(), log, resumed, g)
	got := storedRows(t, resumed, g.cat)
	if len(got) != len(want) {
		t.Errorf("resumed fill: %d parts, want %d", len(got), len(want))
	}
	for ref, rows := range want {
		if got[ref] != rows {
			t.Errorf("%s part %s: the resumed fill holds other records", ref.Dataset, ref.ID)
		}
	}

	imports := func() int {
		ev, err := whole.ImportEvents(context.Background(), 0, time.Time{}, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		return len(ev)
	}
	v, err := whole.DataVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := imports()
	runFill(context.Background(), log, whole, f)
	if again, _ := whole.DataVersion(context.Background()); again != v {
		t.Errorf("a second fill moved the data version from %d to %d, want nothing written", v, again)
	}
	if again := imports(); again != n {
		t.Errorf("a second fill recorded %d imports, want none", again-n)
	}
	if set, err := markerSet(context.Background(), whole, demoFilledMarker); err != nil || !set {
		t.Errorf("filled marker: got %v, %v; want it set", set, err)
	}
}

// TestDemoFillKeepsImportedParts imports a day of total load into a store
// of demo data before the fill reaches it: the fill leaves that part as
// the import wrote it and fills the rest of the month's datasets.
func TestDemoFillKeepsImportedParts(t *testing.T) {
	st, f := fillStoreFor(t, fillRange())
	ctx := context.Background()
	at := energy.Date{Year: 2025, Month: time.January, Day: 1}.Start().Unix()
	rows := []dataset.Row{{Time: at, Text: []string{string(energy.Italy)}, Num: []float64{12345, 12000}}}
	d, _ := f.cat.Lookup("total-load")
	if _, err := dataset.Import(ctx, st, f.cat, d, rows, time.Now()); err != nil {
		t.Fatal(err)
	}
	before := storedRows(t, st, f.cat)
	runFill(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)), st, f)
	after := storedRows(t, st, f.cat)
	imported := dataset.PartRef{Dataset: "total-load", ID: "2025-01"}
	if after[imported] != before[imported] {
		t.Errorf("the imported part changed:\n%s\nwant\n%s", after[imported], before[imported])
	}
	for _, ref := range []dataset.PartRef{{Dataset: "total-load", ID: "2024-12"}, {Dataset: "market-prices", ID: "2025-01"}, {Dataset: "actual-generation", ID: "2025-01"}} {
		if after[ref] == "" {
			t.Errorf("%s part %s: not filled", ref.Dataset, ref.ID)
		}
	}
}

// TestDemoFillCoversEveryDataset fills a short range, serves it, and asks
// every dataset of the catalogue, none skipped, for a day near the start,
// middle and end of the range (the statistics for the first, a middle and
// the last year they cover, which for those made from the series are the
// range's whole years, installed capacity for its page's window; the
// auctions also for their first day): each answers records. TestDemoCoversTheWholeRange (internal/catalog) shows
// the same of the generators over the default range.
func TestDemoFillCoversEveryDataset(t *testing.T) {
	in := fillRange()
	db := filepath.Join(t.TempDir(), "fill.db")
	st, err := openStore(context.Background(), db, true)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	runFill(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil)), st, &demoFill{cat: cat, w: st, in: in, missingOnly: true})
	st.Close()
	// The store was not empty when serve --demo first saw it: the client
	// only, no fill of the default range.
	// The sandbox clock fixes installed capacity's window (2020-2026).
	srv := startServe(t, map[string]string{"ENERGYAPI_DB": db}, "--demo", "--now", "2026-07-01T12:00:00+02:00")
	tok, _ := srv.token(t, "demo", "demo-secret")
	days := []string{in.First.String(), in.First.AddDays(2).String(), in.Last.String()}
	datasets := catalogOf(t, srv)
	if len(datasets) < 45 {
		t.Errorf("/catalog lists %d datasets, want at least 45", len(datasets))
	}
	for _, d := range datasets {
		if d.Coverage == nil {
			t.Errorf("%s: no demo data", d.Name)
			continue
		}
		probes := days
		if d.Granularity == "year" || d.Coverage.First[:4] < fmt.Sprint(in.First.Year) { // the statistics
			var first, last int
			fmt.Sscan(d.Coverage.First[:4], &first)
			fmt.Sscan(d.Coverage.Last[:4], &last)
			probes = []string{d.Coverage.First, fmt.Sprintf("%d-07-01", (first+last)/2), d.Coverage.Last}
		}
		switch d.Name {
		case "aste-fcr":
			probes = append(probes, demo.FCRStart.String())
		case "installed-capacity": // its page's window: the current year and six before
			probes = []string{"2020-01-01", "2023-01-01", "2026-01-01"}
		}
		for _, day := range probes {
			askDay(t, srv, tok, d, day)
		}
	}
}
