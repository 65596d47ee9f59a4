package storetest

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
)

// historyCounting is counting with the history of the store it wraps, so
// that derivations walk back through it as they would unwrapped.
type historyCounting struct {
	*counting
	hist dataset.PartHistory
}

func (h historyCounting) PartVersionAt(ctx context.Context, ref dataset.PartRef, t time.Time) (dataset.StoredPart, bool, error) {
	return h.hist.PartVersionAt(ctx, ref, t)
}

func (h historyCounting) ReadPartVersion(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	return h.hist.ReadPartVersion(ctx, ref, version)
}

// testLazyDerived checks that a server loads a snapshot, at start and after
// an import, without deriving a derived dataset's parts: it reads no part,
// and a first answer on the source dataset reads that answer's parts only.
// The derived dataset's answers, validators and coverage, derived as
// requests come, are those of a server that derived every part at once.
func testLazyDerived(t *testing.T, c *dataset.Catalog, open func(t *testing.T, now func() time.Time) PartStore) {
	ctx := t.Context()
	clock := at(t, "2025-01-10T10:00:00Z")
	cs := &counting{PartStore: open(t, func() time.Time { return clock }), reads: map[dataset.PartRef]int{}}
	var s dataset.PartSource = cs
	if h, ok := cs.PartStore.(dataset.PartHistory); ok {
		s = historyCounting{cs, h}
	}
	load, _ := c.Lookup("total-load")
	imp := loadImports(t, cs, c, &clock)
	imp("2025-01-10T10:00:00Z", italyLoad(time.January, time.December, 0))
	imp("2025-01-11T10:00:00Z", italyLoad(time.March, time.April, 5))

	lazy, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)
	if len(cs.reads) != 0 {
		t.Fatalf("loading a snapshot of %d parts read %v, want none", 12, cs.reads)
	}
	answerOf(t, c, lazy, load, "dateFrom=01/03/2024&dateTo=10/03/2024")
	march := dataset.PartRef{Dataset: load.Name, ID: "2024-03"}
	if got := slices.Collect(maps.Keys(cs.reads)); len(got) != 1 || got[0] != march {
		t.Fatalf("a first total-load answer for March read %v, want %v only", cs.reads, march)
	}
	sameDerived(t, c, s, lazy)
	// After an import, the parts it changed are derived again when asked,
	// from where the derivation before left off (the budget keeps it), the
	// others keep what was derived of them. The second April correction
	// lands before a request asked for the first one.
	for _, step := range []struct {
		stamp string
		rows  []dataset.Row
		ask   bool
	}{
		{"2025-01-12T10:00:00Z", italyLoad(time.April, time.May, -2), true},
		{"2025-01-13T10:00:00Z", italyLoad(time.April, time.April, 4), false},
		{"2025-01-14T10:00:00Z", italyLoad(time.April, time.June, 1), true},
	} {
		imp(step.stamp, step.rows)
		clear(cs.reads)
		changed, err := lazy.Refresh(ctx)
		noErr(t, "Refresh", err)
		if !changed || len(cs.reads) != 0 {
			t.Fatalf("Refresh after the import at %s: got changed %v, reads %v; want a new snapshot and no read", step.stamp, changed, cs.reads)
		}
		if step.ask {
			sameDerived(t, c, s, lazy)
		}
	}
}

// sameDerived checks that lazy, which derives peak-valley's parts as its
// answers need them, answers as a new server on s does once it derived
// every part, from scratch, and that both tell the same coverage.
func sameDerived(t *testing.T, c *dataset.Catalog, s dataset.PartSource, lazy *dataset.Live) {
	t.Helper()
	pv, _ := c.Lookup("peak-valley")
	eager, err := dataset.NewLive(t.Context(), c, s)
	noErr(t, "NewLive", err)
	all := eager.Snapshot().Table(pv) // derives every part
	for _, query := range []string{
		"dateFrom=01/03/2024&dateTo=10/03/2024", "dateFrom=25/02/2024&dateTo=05/04/2024",
		"dateFrom=20/04/2024&dateTo=10/05/2024&changedSince=2025-01-10T12:00:00Z",
		"dateFrom=01/04/2024&dateTo=30/04/2024&asOf=2025-01-10T12:00:00Z", "dateFrom=15/12/2024&dateTo=31/12/2024",
		"dateFrom=01/01/2025&dateTo=20/01/2025", "dateFrom=20/12/2023&dateTo=05/01/2024",
	} {
		if got, want := answerOf(t, c, lazy, pv, query), answerOf(t, c, eager, pv, query); got != want {
			t.Fatalf("peak-valley %s, derived when asked:\ngot  %.300s\nwant %.300s", query, got, want)
		}
	}
	got := lazy.Snapshot().Table(pv)
	gf, gl, gok := got.Coverage()
	wf, wl, wok := all.Coverage()
	gv, gw, _ := got.Latest()
	wv, ww, _ := all.Latest()
	if gf != wf || gl != wl || gok != wok || got.Records() != all.Records() || gv != wv || !gw.Equal(ww) {
		t.Fatalf("peak-valley's coverage, derived when asked: got %d..%d %v, %d records, v%d %v; want %d..%d %v, %d records, v%d %v",
			gf, gl, gok, got.Records(), gv, gw, wf, wl, wok, all.Records(), wv, ww)
	}
	if len(got.Parts) != len(all.Parts) || all.Records() == 0 {
		t.Fatalf("peak-valley: got %d parts, want %d with records", len(got.Parts), len(all.Parts))
	}
	for i, p := range got.Parts {
		if w := all.Parts[i]; p.ID != w.ID || p.Version != w.Version || p.Written != w.Written || p.Records != w.Records || p.First != w.First || p.Last != w.Last {
			t.Fatalf("peak-valley part %d: got %+v, want %+v", i, p, w)
		}
	}
}
