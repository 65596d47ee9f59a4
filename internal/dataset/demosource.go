package dataset

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/energy"
)

// DemoStore is what a DemoSource reads and fills: a store.
type DemoStore interface {
	PartSource
	PartHistory
	PartFiller
}

// DemoSource is a store that holds the demo data of its manifest on
// demand: it lists every part of the manifest from the first second,
// those the store does not hold yet with the metadata the manifest gives
// them, and when a reader first asks for one of those, generates it from
// the demo model, fills it into the store (PartFiller: once, whichever
// process asks, and never over a part an import wrote) and returns it.
// Generating a part is a function of its dataset, its period and the demo
// input, so the store ends with exactly the bytes `energyapi demo` writes,
// and nothing a client sees depends on whether a part was generated yet.
type DemoSource struct {
	DemoStore
	cat     *Catalog
	in      DemoInput
	parts   map[PartRef]DemoPart
	derived map[PartRef]DemoPart
	periods map[string]DemoPeriod

	// slots bounds the generations running at once: each takes a CPU for
	// up to a few hundred milliseconds, and the requests the server
	// answers from memory meanwhile need the other.
	slots chan struct{}
	// mem, when set, holds what a generation is expected to allocate while
	// it runs, so that the caches sharing it make room rather than the
	// process grow past it.
	mem  *budget.Budget
	mu   sync.Mutex
	runs map[demoRun]*demoCall // generations running, shared by their waiters
}

// demoRun names one generation: a dataset's period.
type demoRun struct {
	dataset, period string
}

// demoCall is a generation that callers wait for.
type demoCall struct {
	done  chan struct{}
	parts []StoredPart
	err   error
}

var (
	_ PartSource  = (*DemoSource)(nil)
	_ PartLender  = (*DemoSource)(nil)
	_ PartHistory = (*DemoSource)(nil)
)

// generationBytes is what a generation holds in the memory budget for
// each record it makes. Measured: the widest month, market-prices'
// 146,020 records, peaks at 60 MB of live heap (410 bytes a record) and
// allocates 172 MB in all (1.2 kB a record), garbage the collector takes
// time to return; holding 512 bytes a record let a fresh demo under 256
// clients peak at budget + 126 MiB, 1024 kept it within budget + 80 MiB.
const generationBytes = 1024

// demoHoldWait is how long a generation waits for room in the memory
// budget, as an answer being written waits for it (answerWait in
// internal/api).
const demoHoldWait = time.Second

// NewDemoSource returns st holding the demo data m lists for c's datasets
// on demand. mem, when not nil, is the memory budget a generation holds
// its expected allocation in while it runs.
func NewDemoSource(st DemoStore, c *Catalog, m *DemoManifest, mem *budget.Budget) *DemoSource {
	// The source's generations share what DemoShared keeps (the yearly
	// statistics a dozen datasets read): each generation is one dataset's
	// period, and made anew for each they were most of a year's cost.
	in := m.In
	in.shared = &sync.Map{}
	s := &DemoSource{DemoStore: st, cat: c, in: in, mem: mem, parts: map[PartRef]DemoPart{}, derived: map[PartRef]DemoPart{},
		periods: map[string]DemoPeriod{}, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)), runs: map[demoRun]*demoCall{}}
	for _, p := range m.Parts {
		if _, ok := c.byName[p.Dataset]; ok {
			s.parts[p.PartRef] = p
		}
	}
	for _, p := range m.Derived {
		s.derived[p.PartRef] = p
	}
	for _, p := range DemoPeriods(m.In) {
		s.periods[p.String()] = p
	}
	return s
}

// Input returns the demo input the source holds the data of.
func (s *DemoSource) Input() DemoInput { return s.in }

// ListParts implements PartSource: the store's parts, and every part of
// the manifest it does not hold yet.
func (s *DemoSource) ListParts(ctx context.Context) (Changes, error) {
	ch, err := s.DemoStore.ListParts(ctx)
	if err != nil {
		return ch, err
	}
	held := make(map[PartRef]bool, len(ch.Parts))
	for _, sp := range ch.Parts {
		held[sp.PartRef] = true
	}
	for ref, p := range s.parts {
		if !held[ref] {
			ch.Parts = append(ch.Parts, p.Stored())
		}
	}
	slices.SortFunc(ch.Parts, func(a, b StoredPart) int { return compareRef(a.PartRef, b.PartRef) })
	return ch, nil
}

// ChangedParts implements PartSource: the store's changed parts, and
// those of the manifest that have does not hold at DemoVersion and the
// store does not hold at all, generated. It reads the store twice, not in
// one snapshot: nothing serves from it.
func (s *DemoSource) ChangedParts(ctx context.Context, have map[PartRef]int64) (Changes, error) {
	listed, err := s.DemoStore.ListParts(ctx)
	if err != nil {
		return Changes{}, err
	}
	ch, err := s.DemoStore.ChangedParts(ctx, have)
	if err != nil {
		return ch, err
	}
	held := map[PartRef]bool{}
	for _, sp := range listed.Parts {
		held[sp.PartRef] = true
	}
	for ref := range s.parts {
		if v, ok := have[ref]; held[ref] || ok && v == DemoVersion {
			continue
		}
		sp, err := s.ReadPart(ctx, ref, DemoVersion)
		if err != nil {
			return Changes{}, err
		}
		ch.Parts = append(ch.Parts, sp)
	}
	slices.SortFunc(ch.Parts, func(a, b StoredPart) int { return compareRef(a.PartRef, b.PartRef) })
	return ch, nil
}

// ReadPart implements PartSource: the store's part, or the demo part
// generated if the store does not hold it.
func (s *DemoSource) ReadPart(ctx context.Context, ref PartRef, version int64) (StoredPart, error) {
	sp, err := s.DemoStore.ReadPart(ctx, ref, version)
	if !s.generates(ref, version, err) {
		return sp, err
	}
	return s.generated(ctx, ref)
}

// LendPart implements PartLender, lending the store's bytes where the
// store lends them.
func (s *DemoSource) LendPart(ctx context.Context, ref PartRef, version int64, fn func(StoredPart) error) error {
	lender, ok := s.DemoStore.(PartLender)
	if !ok {
		sp, err := s.ReadPart(ctx, ref, version)
		if err != nil {
			return err
		}
		return fn(sp)
	}
	var called bool
	err := lender.LendPart(ctx, ref, version, func(sp StoredPart) error { called = true; return fn(sp) })
	if called || !s.generates(ref, version, err) {
		return err
	}
	sp, err := s.generated(ctx, ref)
	if err != nil {
		return err
	}
	return fn(sp)
}

// generates reports whether a read of version of ref that ended with err
// is one of a demo part the store lacks: the demo's version of a part the
// manifest lists. Such a part may also be replaced by an import since the
// reader's snapshot listed it; the reader then gets the demo's, which its
// snapshot holds.
func (s *DemoSource) generates(ref PartRef, version int64, err error) bool {
	_, listed := s.parts[ref]
	return listed && version == DemoVersion && energy.ErrorCode(err) == energy.NotFound
}

// DerivedExtent returns the records and span of what derived dataset
// ref.Dataset derives from version from of its source's part ref.ID,
// when that is the demo's part: known from the manifest, without
// generating it.
func (s *DemoSource) DerivedExtent(ref PartRef, from int64) (records int, first, last int64, ok bool) {
	p, ok := s.derived[ref]
	if !ok || from != DemoVersion {
		return 0, 0, 0, false
	}
	return p.Records, p.First, p.Last, true
}

// Prepare fills into the store the demo parts among refs that it does not
// hold yet, so that an import into them merges with the demo's records
// rather than replace them: an import of one day leaves the month's other
// days as the demo has them.
func (s *DemoSource) Prepare(ctx context.Context, refs []PartRef) error {
	ch, err := s.DemoStore.ListParts(ctx)
	if err != nil {
		return err
	}
	held := map[PartRef]bool{}
	for _, sp := range ch.Parts {
		held[sp.PartRef] = true
	}
	for _, ref := range refs {
		if _, listed := s.parts[ref]; !listed || held[ref] {
			continue
		}
		if _, err := s.generated(ctx, ref); err != nil {
			return err
		}
	}
	return nil
}

// generated returns the demo part ref, generated with the rest of its
// dataset's period and filled into the store, by one generation however
// many callers ask at once. A caller whose ctx ends stops waiting; the
// generation goes on, so that the next caller finds the part stored.
func (s *DemoSource) generated(ctx context.Context, ref PartRef) (StoredPart, error) {
	want := s.parts[ref]
	run := demoRun{ref.Dataset, want.Period}
	s.mu.Lock()
	call, ok := s.runs[run]
	if !ok {
		call = &demoCall{done: make(chan struct{})}
		s.runs[run] = call
		go s.generate(context.WithoutCancel(ctx), run, call)
	}
	s.mu.Unlock()
	select {
	case <-call.done:
	case <-ctx.Done():
		// The generation goes on: the answer is worth asking again.
		return StoredPart{}, fmt.Errorf("%w: %w", energy.Errorf(energy.Unavailable, "The demo data of %s %s are being generated: retry after 1 s", ref.Dataset, want.Period), ctx.Err())
	}
	if call.err != nil {
		return StoredPart{}, call.err
	}
	i, ok := slices.BinarySearchFunc(call.parts, ref, func(sp StoredPart, r PartRef) int { return compareRef(sp.PartRef, r) })
	if !ok {
		return StoredPart{}, fmt.Errorf("demo %s %s: generating period %s made no part %s", ref.Dataset, ref.ID, want.Period, ref.ID)
	}
	return call.parts[i], nil
}

// generate runs one generation and fills the parts it makes into the
// store, then lets its waiters go.
func (s *DemoSource) generate(ctx context.Context, run demoRun, call *demoCall) {
	defer func() {
		s.mu.Lock()
		delete(s.runs, run)
		s.mu.Unlock()
		close(call.done)
	}()
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	if s.mem != nil {
		// The hold waits for room a while, not for ever: a generation that
		// finds none goes ahead, as a request past its wait would not.
		n := s.expected(run)
		hctx, cancel := context.WithTimeout(ctx, demoHoldWait)
		err := s.mem.Hold(hctx, n)
		cancel()
		if err == nil {
			defer s.mem.Release(n)
		}
	}
	call.parts, call.err = s.make(run)
	if call.err == nil {
		_, call.err = s.FillParts(ctx, DemoVersion, call.parts)
	}
	if call.err != nil {
		call.err = fmt.Errorf("demo %s %s: %w", run.dataset, run.period, call.err)
	}
}

// expected returns the bytes run is expected to allocate: generationBytes
// a record of the parts it makes.
func (s *DemoSource) expected(run demoRun) int64 {
	var n int64
	for ref, p := range s.parts {
		if ref.Dataset == run.dataset && p.Period == run.period {
			n += int64(p.Records) * generationBytes
		}
	}
	return n
}

// make generates the parts of run's dataset and period that the manifest
// lists, and checks that each is what the manifest says: a server has
// listed them so.
func (s *DemoSource) make(run demoRun) ([]StoredPart, error) {
	p, ok := s.periods[run.period]
	if !ok {
		return nil, fmt.Errorf("no period %q in the demo range", run.period)
	}
	made, err := s.cat.DemoPartsOf(s.in, p, func(d *Dataset) bool { return d.Name == run.dataset })
	if err != nil {
		return nil, err
	}
	out := made[:0]
	for _, sp := range made {
		want, listed := s.parts[sp.PartRef]
		if !listed || want.Period != run.period {
			continue
		}
		if sp.Records != want.Records || sp.First != want.First || sp.Last != want.Last || !sp.Written.Equal(want.Written) {
			return nil, errors.New("the demo generators and their manifest disagree on part " + sp.ID + ": regenerate it (go generate ./internal/catalog)")
		}
		out = append(out, sp)
	}
	return out, nil
}
