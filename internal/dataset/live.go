package dataset

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/energyapi/energyapi/internal/budget"
)

// DefaultMemoryBudget is the budget of a Live made without one: the bytes
// of decoded parts it keeps.
const DefaultMemoryBudget = 256 << 20

// Live holds the current Snapshot and replaces it, atomically, when the
// store's data version changes, whichever process imported. A snapshot
// holds the parts' metadata only: a part's records are read from the store
// when a request first needs them, decoded, and kept in a memory budget
// shared with whatever else the budget holds, least recently used out
// first. A refresh lists the parts again and reads none, not even for the
// derived datasets, whose parts are derived when first needed (see
// lazyderive.go).
type Live struct {
	cat *Catalog
	src PartSource
	cur atomic.Pointer[Snapshot]

	mu sync.Mutex // serialises Refresh

	budget *budget.Budget
	// parts keeps decoded parts by version, whether current or replaced
	// (read for asOf), and what derived datasets derive from them.
	parts *budget.Cache[partKey, *Part]
}

// partKey names a decoded part: a version of a stored part or, with
// derived set, what the dataset so named derives from that version; asOf,
// when not zero, the records of it published by that time (Unix
// microseconds) only. With from set, ref is a part of the derived dataset
// and version its own stored version: the key names those records laid
// over what it derives from version from of its source.
type partKey struct {
	ref     PartRef
	version int64
	derived string
	asOf    int64
	from    int64
}

// LiveOptions are the optional settings of NewLiveWith.
type LiveOptions struct {
	// Budget bounds the decoded parts kept in memory; nil: a budget of
	// DefaultMemoryBudget of the Live's own.
	Budget *budget.Budget
}

// NewLive loads the first snapshot of c's datasets from src, with a memory
// budget of its own (DefaultMemoryBudget).
func NewLive(ctx context.Context, c *Catalog, src PartSource) (*Live, error) {
	return NewLiveWith(ctx, c, src, LiveOptions{})
}

// NewLiveWith is NewLive with options.
func NewLiveWith(ctx context.Context, c *Catalog, src PartSource, o LiveOptions) (*Live, error) {
	if o.Budget == nil {
		o.Budget = budget.New(DefaultMemoryBudget)
	}
	l := &Live{cat: c, src: src, budget: o.Budget, parts: budget.NewCache[partKey, *Part](o.Budget)}
	l.cur.Store(&Snapshot{Catalog: c, Version: -1, tables: map[*Dataset]*Table{}, stored: map[PartRef]PartMeta{}, live: l})
	if _, err := l.Refresh(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// Snapshot returns the current snapshot; it is never nil.
func (l *Live) Snapshot() *Snapshot { return l.cur.Load() }

// Budget returns the memory budget the decoded parts are kept in.
func (l *Live) Budget() *budget.Budget { return l.budget }

// Refresh lists the parts again if the data version changed, and reports
// whether it did.
func (l *Live) Refresh(ctx context.Context) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.cur.Load()
	if cur.Version >= 0 {
		v, err := l.src.DataVersion(ctx)
		if err != nil {
			return false, fmt.Errorf("data version: %w", err)
		}
		if v == cur.Version {
			return false, nil
		}
	}
	ch, err := l.src.ListParts(ctx)
	if err != nil {
		return false, fmt.Errorf("read data: %w", err)
	}
	l.cur.Store(l.next(cur, ch))
	return true, nil
}

// next returns the snapshot of the parts ch lists: their metadata, read
// from the listing. It derives nothing: a derived dataset's part is derived
// when a request first needs it (see lazyderive.go).
func (l *Live) next(cur *Snapshot, ch Changes) *Snapshot {
	next := &Snapshot{Catalog: l.cat, Version: ch.Version, Updated: ch.Updated,
		tables: make(map[*Dataset]*Table, len(l.cat.list)), stored: make(map[PartRef]PartMeta, len(ch.Parts)), live: l}
	for _, sp := range ch.Parts {
		d, ok := l.cat.byName[sp.Dataset]
		if !ok {
			continue // a dataset this server does not serve
		}
		m := storedMeta(sp)
		next.stored[sp.PartRef] = m
		if d.Derive != nil {
			continue
		}
		t := next.tables[d]
		if t == nil {
			t = &Table{}
			next.tables[d] = t
		}
		t.Parts = append(t.Parts, m)
	}
	for _, t := range next.tables {
		sortMetas(t.Parts)
	}
	for _, d := range l.cat.list {
		if d.Derive != nil {
			next.tables[d] = derivedTable(cur, next, d, l.src)
		}
	}
	return next
}

// derivedTable returns the table of d, a derived dataset, in next: a part
// for every part of its source and every part imported for it, cur's
// where neither changed (with what was derived of it), else one whose
// records and span are known once derived.
func derivedTable(cur, next *Snapshot, d *Dataset, source PartSource) *Table {
	hints, _ := source.(derivedHints)
	ids := map[string]bool{}
	for ref := range next.stored {
		if ref.Dataset == d.Name || ref.Dataset == d.Derive.From {
			ids[ref.ID] = true
		}
	}
	old := cur.table(d)
	t := &Table{Parts: make([]PartMeta, 0, len(ids)), lazy: true}
	for id := range ids {
		src, own := next.stored[PartRef{d.Derive.From, id}], next.stored[PartRef{d.Name, id}]
		prev, had := old.part(id)
		if had && prev.from == src.Version && prev.own == own.Version {
			t.Parts = append(t.Parts, prev)
			continue
		}
		m := derivedPart(id, src, own, prev)
		if hints != nil && own.Version == 0 {
			if n, first, last, ok := hints.DerivedExtent(PartRef{d.Name, id}, src.Version); ok {
				m.derived.exact.Store(&extent{records: n, first: first, last: last})
			}
		}
		t.Parts = append(t.Parts, m)
	}
	sortMetas(t.Parts)
	return t
}

// derivedHints is a PartSource that knows what some derived parts hold
// before they are derived: a DemoSource, from its manifest.
type derivedHints interface {
	DerivedExtent(ref PartRef, from int64) (records int, first, last int64, ok bool)
}

// servedPart returns the records of m, a part of d's table: the stored
// part, or for a derived dataset what it derives from its source part with
// the records imported for it laid over, kept under a key of its own.
func (l *Live) servedPart(ctx context.Context, d *Dataset, m PartMeta) (*Part, error) {
	if d.Derive == nil {
		return l.stored(ctx, PartRef{d.Name, m.ID}, m.Version)
	}
	prev := m.derived.before()
	if m.own == 0 {
		return l.derivation(ctx, d, m.ID, m.from, prev)
	}
	ref := PartRef{d.Name, m.ID}
	return l.parts.Load(ctx, partKey{ref: ref, version: m.own, derived: d.Name, from: m.from}, func(ctx context.Context) (*Part, int64, error) {
		derived, err := l.derivation(ctx, d, m.ID, m.from, prev)
		if err != nil {
			return nil, 0, err
		}
		own, err := l.stored(ctx, ref, m.own)
		if err != nil {
			return nil, 0, err
		}
		p, err := l.served(d, m.ID, own, derived)
		if err != nil {
			return nil, 0, err
		}
		return p, p.Bytes(), nil
	})
}

// stored returns version of the stored part ref, decoded: kept in the
// budget, else read from the store once however many callers wait for it.
func (l *Live) stored(ctx context.Context, ref PartRef, version int64) (*Part, error) {
	return l.parts.Load(ctx, partKey{ref: ref, version: version}, func(ctx context.Context) (*Part, int64, error) {
		d, ok := l.cat.byName[ref.Dataset]
		if !ok {
			return nil, 0, fmt.Errorf("part %s/%s: dataset not served", ref.Dataset, ref.ID)
		}
		var p *Part
		err := readPart(ctx, l.src, ref, version, func(sp StoredPart) (err error) {
			if p, err = DecodePart(l.cat.layoutOf(d), sp); err != nil {
				return fmt.Errorf("%s part %s version %d: %w", ref.Dataset, ref.ID, version, err)
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
		return p, p.Bytes(), nil
	})
}

// derivation returns what d derives from version of its source's part id
// (none for version 0), kept in the budget under its own key. prev, when
// not 0, is an earlier version of the source part derived before: if the
// budget still keeps that derivation, the walk stops there.
func (l *Live) derivation(ctx context.Context, d *Dataset, id string, version, prev int64) (*Part, error) {
	if version == 0 {
		return BuildPart(l.cat.layoutOf(d), id, nil), nil
	}
	src := PartRef{d.Derive.From, id}
	return l.parts.Load(ctx, partKey{ref: src, version: version, derived: d.Name}, func(ctx context.Context) (*Part, int64, error) {
		p, err := l.stored(ctx, src, version)
		if err != nil {
			return nil, 0, err
		}
		var known derivation
		if prev != 0 {
			known = l.known(src, prev, d)
		}
		derived, err := l.derive(ctx, d, id, p, known)
		if err != nil {
			return nil, 0, err
		}
		return derived, derived.Bytes(), nil
	})
}

// served returns the part d serves for id: own, the stored one, or for a
// derived dataset the records derived (nil for none) with own's records
// winning on their key.
func (l *Live) served(d *Dataset, id string, own, derived *Part) (*Part, error) {
	if d.Derive == nil {
		return own, nil
	}
	lay := l.cat.layoutOf(d)
	if derived == nil {
		derived = BuildPart(lay, id, nil)
	}
	if own == nil {
		return derived, nil
	}
	merged, _, changed, err := Merge(lay, d.Grain, id, derived, own.Rows(), 0)
	if err != nil {
		return nil, err
	}
	if !changed {
		c := *derived // derived is shared: the budget's cache and asOf reads hold it
		merged = &c
	}
	merged.Version = max(derived.Version, own.Version)
	merged.Written = max(derived.Written, own.Written)
	return merged, nil
}

// readPart calls fn with version of ref, lent by src if it can lend.
func readPart(ctx context.Context, src PartSource, ref PartRef, version int64, fn func(StoredPart) error) error {
	if lender, ok := src.(PartLender); ok {
		return lender.LendPart(ctx, ref, version, fn)
	}
	sp, err := src.ReadPart(ctx, ref, version)
	if err != nil {
		return err
	}
	return fn(sp)
}
