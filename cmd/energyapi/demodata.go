package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// A store created by serve --demo holds the demo data on demand
// (dataset.DemoSource): every part of the default demo range is listed
// from the first second, and generated and filled into the store when a
// request, or an import into its period, first needs it. `energyapi demo`
// writes every part at once, the same bytes. Which demo a store holds is
// the demo-data-range marker: the range and seed serve --demo wrote on a
// new store, or that `energyapi demo` wrote, or "none" for a store that
// held data before serve --demo first ran on it.

// demoRangeMarker is the name of the store's write-once marker
// (ServerSecret) of the demo range it holds.
const demoRangeMarker = "demo-data-range"

// demoStore is what writing demo data needs of the store.
type demoStore interface {
	dataset.PartFiller
	ListParts(ctx context.Context) (dataset.Changes, error)
	DataVersion(ctx context.Context) (int64, error)
	ServerSecret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error)
}

// demoRange returns the marker value of in's range and seed.
func demoRange(in dataset.DemoInput) string {
	return fmt.Sprintf("%s..%s seed %d", in.First, in.Last, in.Seed)
}

// parseDemoRange reads a demoRange value; ok is false for any other.
func parseDemoRange(v string) (in dataset.DemoInput, ok bool) {
	days, seed, found := strings.Cut(v, " seed ")
	first, last, found2 := strings.Cut(days, "..")
	if !found || !found2 {
		return in, false
	}
	var err error
	if in.First, err = parseDay("from", first); err != nil {
		return in, false
	}
	if in.Last, err = parseDay("to", last); err != nil {
		return in, false
	}
	if _, err := fmt.Sscan(seed, &in.Seed); err != nil {
		return in, false
	}
	in.StatsFirst = demo.ThermoFirstYear
	return in, true
}

// errAbsent is the generator of a marker that must not be created.
var errAbsent = errors.New("absent")

// storedDemo returns the demo input the store's marker names; ok is false
// for a store without demo data.
func storedDemo(ctx context.Context, st demoStore) (in dataset.DemoInput, ok bool, err error) {
	mark, err := st.ServerSecret(ctx, demoRangeMarker, func() ([]byte, error) { return nil, errAbsent })
	switch {
	case errors.Is(err, errAbsent):
		return in, false, nil
	case err != nil:
		return in, false, err
	}
	in, ok = parseDemoRange(string(mark))
	return in, ok, nil
}

// demoOnDemand returns st holding the demo data on demand if its marker
// names the default demo, whose manifest the catalogue holds, its
// generations held in mem (nil: none); nil for any
// other store (no demo data, or another range or seed, which only
// `energyapi demo` writes, whole).
func demoOnDemand(ctx context.Context, st interface {
	demoStore
	dataset.DemoStore
}, cat *dataset.Catalog, mem *budget.Budget) (*dataset.DemoSource, error) {
	in, ok, err := storedDemo(ctx, st)
	if err != nil || !ok {
		return nil, err
	}
	m, err := catalog.DemoManifest()
	if err != nil {
		return nil, err
	}
	if in.First != m.In.First || in.Last != m.In.Last || in.Seed != m.In.Seed || in.StatsFirst != m.In.StatsFirst {
		return nil, nil
	}
	return dataset.NewDemoSource(st, cat, m, mem), nil
}

// ensureDemo makes sure the demo client exists and, on an empty store,
// marks it as holding the default demo data, generated on demand, with a
// data version of at least dataset.DemoVersion. A store that held data
// before serve --demo first ran on it gets no demo data.
func ensureDemo(ctx context.Context, st demoStore, reg *auth.Registry) error {
	if err := reg.Ensure(ctx, demoClientID, "demo", demoClientSecret); err != nil {
		return fmt.Errorf("demo client: %w", err)
	}
	v, err := st.DataVersion(ctx)
	if err != nil {
		return err
	}
	origin := "none"
	if v == 0 {
		origin = demoRange(defaultDemo())
	}
	mark, err := st.ServerSecret(ctx, demoRangeMarker, func() ([]byte, error) { return []byte(origin), nil })
	if err != nil {
		return err
	}
	if _, ok := parseDemoRange(string(mark)); ok {
		_, err = st.FillParts(ctx, dataset.DemoVersion, nil)
	}
	return err
}

// writeDemo writes every part of the demo data of in that the store does
// not hold, of periods (dataset.DemoPeriods of in, or some of them), the same parts a
// server generates on demand; writing it again changes nothing, and a
// part an import wrote stays. It marks the store as holding the demo
// data of in's range, unless it is marked already. It tells p how far it
// has got, and returns a summary per dataset: its records generated, and
// of those the ones written (inserted) and the ones in parts the store
// held (unchanged).
func writeDemo(ctx context.Context, st demoStore, p *progress, in dataset.DemoInput, periods []dataset.DemoPeriod) ([]importSummary, error) {
	if _, err := st.ServerSecret(ctx, demoRangeMarker, func() ([]byte, error) { return []byte(demoRange(in)), nil }); err != nil {
		return nil, err
	}
	cat, err := catalog.New()
	if err != nil {
		return nil, err
	}
	listed, err := st.ListParts(ctx)
	if err != nil {
		return nil, err
	}
	held := map[dataset.PartRef]bool{}
	for _, sp := range listed.Parts {
		held[sp.PartRef] = true
	}
	sums := newSummaries()
	for k, per := range periods {
		p.printf("demo data [%d/%d]: generating and writing %s...", k+1, len(periods), per)
		start := time.Now()
		parts, err := cat.DemoPartsOf(in, per, func(*dataset.Dataset) bool { return true })
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", per, err)
		}
		var write []dataset.StoredPart
		for _, sp := range parts {
			if !held[sp.PartRef] {
				write = append(write, sp)
			}
		}
		if _, err := st.FillParts(ctx, dataset.DemoVersion, write); err != nil {
			return nil, fmt.Errorf("demo %s: %w", per, err)
		}
		sums.add(parts, held, time.Since(start))
		for _, sp := range write {
			held[sp.PartRef] = true // the auctions' months beyond the range: every month makes them
		}
		p.printf("demo data [%d/%d]: %s: %d parts written (%s)", k+1, len(periods), per, len(write), p.elapsed())
	}
	p.printf("demo data complete (%s)", p.elapsed())
	return sums.list(), nil
}

// summaries are writeDemo's per dataset, in the order first written.
type summaries struct {
	order  []string
	byName map[string]*importSummary
}

func newSummaries() *summaries { return &summaries{byName: map[string]*importSummary{}} }

// add counts the parts of one period, which took took to generate and
// write, the time shared among the datasets by their records.
func (s *summaries) add(parts []dataset.StoredPart, held map[dataset.PartRef]bool, took time.Duration) {
	total := 0
	for _, sp := range parts {
		total += sp.Records
	}
	for _, sp := range parts {
		sum := s.byName[sp.Dataset]
		if sum == nil {
			sum = &importSummary{Dataset: sp.Dataset}
			s.byName[sp.Dataset] = sum
			s.order = append(s.order, sp.Dataset)
		}
		sum.RowsRead += sp.Records
		if held[sp.PartRef] {
			sum.Unchanged += sp.Records
		} else {
			sum.Inserted += sp.Records
		}
		if total > 0 {
			sum.DurationMS += took.Milliseconds() * int64(sp.Records) / int64(total)
		}
	}
}

func (s *summaries) list() []importSummary {
	out := make([]importSummary, len(s.order))
	for i, name := range s.order {
		out[i] = *s.byName[name]
	}
	return out
}
