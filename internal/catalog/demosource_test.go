package catalog

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// shortDemo is a demo range across a year's end, a few days long.
func shortDemo() dataset.DemoInput {
	return dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.December, Day: 30}, Last: energy.Date{Year: 2025, Month: time.January, Day: 3}, Seed: demo.DefaultSeed}
}

// shortManifest is the manifest of shortDemo, built once for the tests
// that share it (seconds under the race detector).
var shortManifest = sync.OnceValues(func() (*dataset.DemoManifest, error) {
	cat, err := New()
	if err != nil {
		return nil, err
	}
	return dataset.BuildDemoManifest(cat, shortDemo(), nil)
})

// TestDemoManifestMatchesTheGenerators generates periods of the default
// demo range (the newest and the first month, the newest year and the
// first year of the statistics) and checks that the embedded
// manifest lists exactly the parts they make, as they make them: a server
// lists the manifest before it generates anything. After changing a
// generator: go generate ./internal/catalog.
func TestDemoManifestMatchesTheGenerators(t *testing.T) {
	t.Parallel()
	cat := mustCatalog(t)
	m, err := DemoManifest()
	if err != nil {
		t.Fatal(err)
	}
	first, last := demo.LoadRange()
	want := dataset.DemoInput{First: first, Last: last, Seed: demo.DefaultSeed, StatsFirst: demo.ThermoFirstYear}
	if m.In.First != want.First || m.In.Last != want.Last || m.In.Seed != want.Seed || m.In.StatsFirst != want.StatsFirst {
		t.Fatalf("manifest of %+v, want the default demo %+v", m.In, want)
	}
	listed := map[string][]dataset.DemoPart{}
	names := map[string]bool{}
	byRef := map[dataset.PartRef]dataset.DemoPart{}
	for _, p := range m.Parts {
		byRef[p.PartRef] = p
		listed[p.Period] = append(listed[p.Period], p)
		names[p.Dataset] = true
	}
	for _, d := range cat.All() {
		if d.Demo != nil && !names[d.Name] {
			t.Errorf("%s has a demo generator and no part in the manifest", d.Name)
		}
	}
	// The periods are generated in parallel subtests: each is checked on
	// its own, and the two years took a minute under the race detector.
	for _, p := range dataset.DemoPeriods(m.In) {
		if !slices.Contains([]string{"2025-12", "2025", "2019-01", fmt.Sprint(demo.ThermoFirstYear)}, p.String()) {
			continue
		}
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			parts, err := cat.DemoPartsOf(m.In, p, func(*dataset.Dataset) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			made := map[dataset.PartRef]bool{}
			for _, sp := range parts {
				made[sp.PartRef] = true
				lp, ok := byRef[sp.PartRef]
				got := dataset.DemoPart{PartRef: sp.PartRef, Period: lp.Period, Records: sp.Records, First: sp.First, Last: sp.Last, Written: sp.Written}
				if !ok || !sameDemoPart(got, lp) {
					t.Errorf("period %s made %s %s as %+v; the manifest lists %+v", p, sp.Dataset, sp.ID, got, lp)
				}
			}
			if len(parts) == 0 {
				t.Errorf("period %s made no part", p)
			}
			for _, lp := range listed[p.String()] {
				if !made[lp.PartRef] {
					t.Errorf("the manifest lists %s %s for period %s, which does not make it", lp.Dataset, lp.ID, p)
				}
			}
		})
	}
}

func sameDemoPart(a, b dataset.DemoPart) bool {
	return a.PartRef == b.PartRef && a.Period == b.Period && a.Records == b.Records && a.First == b.First && a.Last == b.Last && a.Written.Equal(b.Written)
}

func mustCatalog(t *testing.T) *dataset.Catalog {
	t.Helper()
	cat, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// shortSource returns the catalogue and a demo source of shortDemo on an
// empty memory store that counts what is filled into it, its generations
// held in mem (nil: none).
func shortSource(t *testing.T, mem *budget.Budget) (*dataset.Catalog, *countingStore, *dataset.DemoSource) {
	t.Helper()
	cat := mustCatalog(t)
	m, err := shortManifest()
	if err != nil {
		t.Fatal(err)
	}
	st := &countingStore{Memory: dataset.NewMemory()}
	return cat, st, dataset.NewDemoSource(st, cat, m, mem)
}

// countingStore counts the parts filled into a memory store.
type countingStore struct {
	*dataset.Memory
	filled atomic.Int64
}

func (s *countingStore) FillParts(ctx context.Context, floor int64, parts []dataset.StoredPart) (int, error) {
	n, err := s.Memory.FillParts(ctx, floor, parts)
	s.filled.Add(int64(n))
	return n, err
}

// TestDemoSourceServesAsAWrittenStore serves a short demo range from an
// empty store on demand and from a store written whole, as `energyapi
// demo` writes it: both list the same parts with the same versions,
// written times, counts and spans before anything is generated, and every
// part read has the same bytes. What a client sees (answers, ETag,
// Last-Modified, asOf) comes from these alone.
func TestDemoSourceServesAsAWrittenStore(t *testing.T) {
	t.Parallel()
	cat := mustCatalog(t)
	in := shortDemo()
	m, err := shortManifest()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	whole := dataset.NewMemory()
	for _, p := range dataset.DemoPeriods(in) {
		parts, err := cat.DemoPartsOf(in, p, func(*dataset.Dataset) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := whole.FillParts(ctx, dataset.DemoVersion, parts); err != nil {
			t.Fatal(err)
		}
	}
	empty := &countingStore{Memory: dataset.NewMemory()}
	src := dataset.NewDemoSource(empty, cat, m, nil)
	want, err := whole.ListParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := src.ListParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byRef := func(a, b dataset.StoredPart) int {
		return strings.Compare(a.Dataset+"/"+a.ID, b.Dataset+"/"+b.ID)
	}
	slices.SortFunc(want.Parts, byRef)
	slices.SortFunc(got.Parts, byRef)
	if len(got.Parts) < 50 || !slices.EqualFunc(got.Parts, want.Parts, sameListing) {
		t.Fatalf("on demand: %d parts listed, want the %d of the written store, alike", len(got.Parts), len(want.Parts))
	}
	if empty.filled.Load() != 0 {
		t.Fatalf("listing generated %d parts, want none", empty.filled.Load())
	}
	for _, sp := range want.Parts {
		w, err := whole.ReadPart(ctx, sp.PartRef, sp.Version)
		if err != nil {
			t.Fatal(err)
		}
		g, err := src.ReadPart(ctx, sp.PartRef, sp.Version)
		if err != nil {
			t.Fatalf("%s %s: %v", sp.Dataset, sp.ID, err)
		}
		if !bytes.Equal(g.Data, w.Data) || !sameListing(g, w) {
			t.Errorf("%s %s: generated on demand, it differs from the written part", sp.Dataset, sp.ID)
		}
	}
	if n := empty.filled.Load(); n != int64(len(want.Parts)) {
		t.Errorf("filled %d parts, want each of the %d once", n, len(want.Parts))
	}
	// ChangedParts: every part, with its bytes, to a reader that has none;
	// nothing to one that has them all.
	all, err := src.ChangedParts(ctx, nil)
	slices.SortFunc(all.Parts, byRef)
	if err != nil || !slices.EqualFunc(all.Parts, want.Parts, sameListing) {
		t.Errorf("ChangedParts(nil): %v, %d parts, want the %d listed", err, len(all.Parts), len(want.Parts))
	}
	for _, sp := range all.Parts {
		if w, err := whole.ReadPart(ctx, sp.PartRef, sp.Version); err != nil || !bytes.Equal(w.Data, sp.Data) {
			t.Errorf("ChangedParts: %s %s differs from the written part", sp.Dataset, sp.ID)
		}
	}
	have := map[dataset.PartRef]int64{}
	for _, sp := range want.Parts {
		have[sp.PartRef] = sp.Version
	}
	if none, err := src.ChangedParts(ctx, have); err != nil || len(none.Parts) != 0 {
		t.Errorf("ChangedParts(all held): %v, %d parts, want none", err, len(none.Parts))
	}
	if v, _ := empty.DataVersion(ctx); v < dataset.DemoVersion {
		t.Errorf("data version %d after the fill, want at least %d", v, dataset.DemoVersion)
	}
}

func sameListing(a, b dataset.StoredPart) bool {
	return a.PartRef == b.PartRef && a.Version == b.Version && a.Written.Equal(b.Written) && a.Records == b.Records && a.First == b.First && a.Last == b.Last
}

// TestDemoSourceGeneratesOnce asks for one part from many goroutines at
// once: one generation fills it, and every caller gets its bytes.
func TestDemoSourceGeneratesOnce(t *testing.T) {
	t.Parallel()
	_, st, src := shortSource(t, budget.New(1<<20))
	ref := dataset.PartRef{Dataset: "total-load", ID: "2025-01"}
	var wg sync.WaitGroup
	got := make([][]byte, 16)
	for i := range got {
		wg.Go(func() {
			sp, err := src.ReadPart(context.Background(), ref, dataset.DemoVersion)
			if err != nil {
				t.Error(err)
			}
			got[i] = sp.Data
		})
	}
	wg.Wait()
	if n := st.filled.Load(); n != 1 {
		t.Errorf("%d parts filled, want 1", n)
	}
	for i := range got {
		if len(got[i]) == 0 || !bytes.Equal(got[i], got[0]) {
			t.Fatalf("caller %d got %d bytes, unlike caller 0's %d", i, len(got[i]), len(got[0]))
		}
	}
}

// TestDemoSourceKeepsImports imports one day into a month not generated
// yet, after Prepare as the import command does: the month holds the
// import's day and the demo's other days; a part imported whole is never
// replaced by a generation, and a reader whose snapshot listed the demo's
// part before the import still gets the demo's.
func TestDemoSourceKeepsImports(t *testing.T) {
	t.Parallel()
	cat, st, src := shortSource(t, budget.New(1<<20))
	ctx := context.Background()
	load, _ := cat.Lookup("total-load")
	day := energy.Date{Year: 2025, Month: time.January, Day: 2}.Start().Unix()
	rows := []dataset.Row{{Time: day, Text: []string{"North"}, Num: []float64{12345, 12000}}}
	refs, err := dataset.BatchRefs(cat, []dataset.Batch{{Dataset: load, Rows: rows}})
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Prepare(ctx, refs); err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, st, cat, load, rows, time.Now()); err != nil {
		t.Fatal(err)
	}
	ref := dataset.PartRef{Dataset: "total-load", ID: "2025-01"}
	demoPart, err := src.ReadPart(ctx, ref, dataset.DemoVersion)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := src.ListParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ch.Parts, func(sp dataset.StoredPart) bool { return sp.PartRef == ref })
	if i < 0 || ch.Parts[i].Version <= dataset.DemoVersion {
		t.Fatalf("listing: got %+v, want the import's version of %s", ch.Parts, ref.ID)
	}
	cur, err := src.ReadPart(ctx, ref, ch.Parts[i].Version)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dataset.DecodePart(cat.Layout(load), cur)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != demoPart.Records {
		t.Errorf("imported month: %d records, want the demo's %d with one replaced", p.Len(), demoPart.Records)
	}
	imported := 0
	for _, r := range p.Rows() {
		if r.Time == day && r.Text[0] == "North" && r.Num[0] == 12345 {
			imported++
		}
	}
	if imported != 1 {
		t.Errorf("the imported record is served %d times, want once", imported)
	}
	// Prepare again, and a generation of the same month: the import stays.
	if err := src.Prepare(ctx, refs); err != nil {
		t.Fatal(err)
	}
	after, err := st.ReadPart(ctx, ref, ch.Parts[i].Version)
	if err != nil || !bytes.Equal(after.Data, cur.Data) {
		t.Errorf("after a second Prepare: %v, or the imported part changed", err)
	}
}

// TestDemoSourceWaitEndsUnavailable: a reader whose context ends while
// the part it needs is being generated gets an error with code
// Unavailable (503 with Retry-After), and the generation goes on: the next
// reader finds the part filled.
func TestDemoSourceWaitEndsUnavailable(t *testing.T) {
	t.Parallel()
	_, st, src := shortSource(t, nil)
	ref := dataset.PartRef{Dataset: "market-prices", ID: "2025-01"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := src.ReadPart(ctx, ref, dataset.DemoVersion); energy.ErrorCode(err) != energy.Unavailable {
		t.Fatalf("a reader that stopped waiting: got %v, want an error with code Unavailable", err)
	}
	sp, err := src.ReadPart(context.Background(), ref, dataset.DemoVersion)
	if err != nil || sp.Records == 0 {
		t.Fatalf("the next reader: %v, %d records", err, sp.Records)
	}
	if n := st.filled.Load(); n != 1 {
		t.Errorf("%d parts filled, want 1", n)
	}
}
