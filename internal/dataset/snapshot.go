package dataset

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Table is what a snapshot serves of one dataset: its parts by ID, which
// sort chronologically.
type Table struct {
	Parts []*Part
}

// Records returns how many records the table holds.
func (t *Table) Records() int {
	n := 0
	for _, p := range t.Parts {
		n += p.Len()
	}
	return n
}

// Coverage returns the moments of the first and last record; ok is false
// for an empty table.
func (t *Table) Coverage() (first, last int64, ok bool) {
	for _, p := range t.Parts {
		if p.Len() > 0 {
			first, ok = p.Times[0], true
			break
		}
	}
	for i := len(t.Parts) - 1; i >= 0; i-- {
		if p := t.Parts[i]; p.Len() > 0 {
			last = p.Times[p.Len()-1]
			break
		}
	}
	return first, last, ok
}

// Latest returns the data version and time of the last import that changed
// the table's parts; ok is false if none did.
func (t *Table) Latest() (version int64, written time.Time, ok bool) {
	var w int64
	for _, p := range t.Parts {
		if p.Version > version {
			version, w, ok = p.Version, p.Written, true
		}
	}
	return version, time.UnixMicro(w).UTC(), ok
}

// Part returns the part with id, nil if there is none.
func (t *Table) Part(id string) *Part { return t.part(id) }

func (t *Table) part(id string) *Part {
	i, ok := slices.BinarySearchFunc(t.Parts, id, func(p *Part, id string) int { return compareString(p.ID, id) })
	if !ok {
		return nil
	}
	return t.Parts[i]
}

// Snapshot is one immutable version of every dataset's served records.
// Requests read a snapshot and never the store, so a query costs
// microseconds and never sees half an import.
type Snapshot struct {
	Catalog *Catalog
	Version int64     // the store's data version
	Updated time.Time // when it last changed
	tables  map[*Dataset]*Table
	// stored holds the parts as the store holds them (a derived dataset's
	// table is computed from them), for reading the data as of a time.
	stored map[PartRef]*Part
	// derived holds, by a derived dataset's part, what it derives from
	// the source part in stored, with exact times (derive.go), before the
	// records imported for it are laid over.
	derived map[PartRef]*Part
}

// Table returns d's table; it is never nil.
func (s *Snapshot) Table(d *Dataset) *Table {
	if t := s.tables[d]; t != nil {
		return t
	}
	return &Table{}
}

// Unknown reports whether q is to be answered with the empty body: a filter
// value lies outside its reference list, or q asks for a year of a yearly
// dataset for which nothing is stored.
func (s *Snapshot) Unknown(q *Query) bool {
	if q.unknown {
		return true
	}
	if q.Year != 0 && q.Dataset.Grain >= Month {
		p := s.Table(q.Dataset).part(PartID(q.Dataset.Grain, q.lo()))
		return p.Len() == 0
	}
	return false
}

func (q *Query) lo() int64 { lo, _ := q.bounds(); return lo }

// Each calls fn with every record q selects, in the dataset's order.
func (s *Snapshot) Each(q *Query, fn func(p *Part, i int)) {
	lo, hi := q.bounds()
	t := s.Table(q.Dataset)
	since, bySince := int64(0), !q.ChangedSince.IsZero()
	if bySince {
		since = q.ChangedSince.UnixMicro()
	}
	var allowed [][]bool
	for _, p := range t.Parts {
		n := p.Len()
		if n == 0 || p.Times[n-1] < lo || p.Times[0] >= hi {
			continue
		}
		start := sort.Search(n, func(i int) bool { return p.Times[i] >= lo })
		end := sort.Search(n, func(i int) bool { return p.Times[i] >= hi })
		// Each filter becomes, for this part, a table of which of its
		// dictionary codes pass.
		allowed = allowed[:0]
		for _, f := range q.filters {
			ok := make([]bool, len(p.Dicts[f.text]))
			for c, v := range p.Dicts[f.text] {
				_, ok[c] = slices.BinarySearch(f.values, v)
			}
			allowed = append(allowed, ok)
		}
	rows:
		for i := start; i < end; i++ {
			if bySince && p.Revised(i) <= since {
				continue
			}
			for k, f := range q.filters {
				if !allowed[k][p.Codes[f.text][i]] {
					continue rows
				}
			}
			fn(p, i)
		}
	}
}

// Live holds the current Snapshot and replaces it, atomically, when the
// store's data version changes, whichever process imported. It reloads
// only the parts that changed.
type Live struct {
	cat *Catalog
	src PartSource
	cur atomic.Pointer[Snapshot]

	mu     sync.Mutex // serialises Refresh
	stored map[PartRef]*Part

	history *partCache // replaced parts read back for asOf
}

// NewLive loads the first snapshot of c's datasets from src.
func NewLive(ctx context.Context, c *Catalog, src PartSource) (*Live, error) {
	l := &Live{cat: c, src: src, stored: map[PartRef]*Part{}, history: newPartCache(historyCacheParts)}
	l.cur.Store(&Snapshot{Catalog: c, Version: -1, tables: map[*Dataset]*Table{}, stored: l.stored, derived: map[PartRef]*Part{}})
	if _, err := l.Refresh(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// Snapshot returns the current snapshot; it is never nil.
func (l *Live) Snapshot() *Snapshot { return l.cur.Load() }

// Refresh loads the parts that changed if the data version did, and
// reports whether it did.
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
	have := make(map[PartRef]int64, len(l.stored))
	for ref, p := range l.stored {
		have[ref] = p.Version
	}
	ch, err := l.src.ChangedParts(ctx, have)
	if err != nil {
		return false, fmt.Errorf("read data: %w", err)
	}
	next, err := l.apply(ctx, cur, ch)
	if err != nil {
		return false, err
	}
	l.cur.Store(next)
	return true, nil
}

// apply returns cur with the changed parts replaced and every derived part
// that depends on them derived again. l.stored is updated only on success.
func (l *Live) apply(ctx context.Context, cur *Snapshot, ch Changes) (*Snapshot, error) {
	decoded := map[PartRef]*Part{}
	dirty := map[*Dataset]map[string]bool{}
	mark := func(d *Dataset, id string) {
		if dirty[d] == nil {
			dirty[d] = map[string]bool{}
		}
		dirty[d][id] = true
	}
	for _, sp := range ch.Parts {
		d, ok := l.cat.byName[sp.Dataset]
		if !ok {
			continue // a dataset this server does not serve
		}
		p, err := DecodePart(l.cat.layoutOf(d), sp)
		if err != nil {
			return nil, fmt.Errorf("%s part %s: %w", sp.Dataset, sp.ID, err)
		}
		decoded[sp.PartRef] = p
		mark(d, sp.ID)
	}
	for _, d := range l.cat.list {
		if d.Derive == nil {
			continue
		}
		src := l.cat.byName[d.Derive.From]
		for id := range dirty[src] {
			mark(d, id)
		}
	}
	// New maps, since the snapshots before this one keep theirs.
	next := &Snapshot{Catalog: l.cat, Version: ch.Version, Updated: ch.Updated,
		tables: make(map[*Dataset]*Table, len(l.cat.list)), stored: make(map[PartRef]*Part, len(l.stored)+len(decoded)),
		derived: make(map[PartRef]*Part, len(cur.derived))}
	maps.Copy(next.tables, cur.tables)
	maps.Copy(next.stored, l.stored)
	maps.Copy(next.stored, decoded)
	maps.Copy(next.derived, cur.derived)
	for d, ids := range dirty {
		if err := l.rebuild(ctx, cur, next, d, ids); err != nil {
			return nil, err
		}
	}
	l.stored = next.stored
	return next, nil
}

// rebuild sets next's table of d, cur's with the parts ids served anew
// from next's stored parts; for a derived dataset whose source part
// changed, it derives that part again, from where cur's derivation left off.
func (l *Live) rebuild(ctx context.Context, cur, next *Snapshot, d *Dataset, ids map[string]bool) error {
	old := cur.Table(d)
	parts := make(map[string]*Part, len(old.Parts)+len(ids))
	for _, p := range old.Parts {
		parts[p.ID] = p
	}
	for id := range ids {
		ref := PartRef{d.Name, id}
		derived := next.derived[ref]
		if d.Derive != nil {
			srcRef := PartRef{d.Derive.From, id}
			if src := next.stored[srcRef]; derived == nil || src != cur.stored[srcRef] {
				var err error
				if derived, err = l.derive(ctx, d, id, src, derivation{cur.stored[srcRef], cur.derived[ref]}); err != nil {
					return err
				}
				next.derived[ref] = derived
			}
		}
		p, err := l.served(d, id, next.stored[ref], derived)
		if err != nil {
			return err
		}
		parts[id] = p
	}
	t := &Table{}
	for _, p := range parts {
		t.Parts = append(t.Parts, p)
	}
	slices.SortFunc(t.Parts, func(a, b *Part) int { return compareString(a.ID, b.ID) })
	next.tables[d] = t
	return nil
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
		c := *derived // derived is shared: snapshots and asOf reads hold it
		merged = &c
	}
	merged.Version = max(derived.Version, own.Version)
	merged.Written = max(derived.Written, own.Written)
	return merged, nil
}

// Watch calls Refresh every interval until ctx ends, reporting errors and
// swaps to the callbacks (either may be nil).
func (l *Live) Watch(ctx context.Context, interval time.Duration, onSwap func(*Snapshot), onErr func(error)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			changed, err := l.Refresh(ctx)
			switch {
			case err != nil && ctx.Err() == nil && onErr != nil:
				onErr(err)
			case changed && onSwap != nil:
				onSwap(l.Snapshot())
			}
		}
	}
}

// Tag returns a strong entity tag for the answer to q: it changes exactly
// when a part the answer covers changes, whichever dataset or month another
// import touches, and is the same on every server that loaded the same
// data. variant tells representations of one answer apart ("json", "csv").
func (s *Snapshot) Tag(q *Query, variant string) string {
	h := fnv.New64a()
	io.WriteString(h, variant)
	h.Write([]byte{0})
	io.WriteString(h, q.key)
	var buf [8]byte
	s.covered(q, func(p *Part) {
		h.Write([]byte{0})
		io.WriteString(h, p.ID)
		binary.LittleEndian.PutUint64(buf[:], uint64(p.Version))
		h.Write(buf[:])
	})
	return `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// LastModified returns when the last import that touched a part the
// answer to q covers wrote it; ok is false if the answer covers none.
func (s *Snapshot) LastModified(q *Query) (t time.Time, ok bool) {
	var last int64
	s.covered(q, func(p *Part) {
		if p.Written > last || !ok {
			last, ok = p.Written, true
		}
	})
	return time.UnixMicro(last).UTC(), ok
}

// covered calls fn with every part of q's dataset that holds a record
// within q's period.
func (s *Snapshot) covered(q *Query, fn func(p *Part)) {
	lo, hi := q.bounds()
	for _, p := range s.Table(q.Dataset).Parts {
		n := p.Len()
		if n == 0 || p.Times[n-1] < lo || p.Times[0] >= hi {
			continue
		}
		fn(p)
	}
}

// Records returns how many records the parts that q's period covers hold:
// an upper bound of the records q selects, known without reading them.
func (s *Snapshot) Records(q *Query) int {
	n := 0
	s.covered(q, func(p *Part) { n += p.Len() })
	return n
}
