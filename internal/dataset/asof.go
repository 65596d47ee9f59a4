package dataset

import (
	"container/list"
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// historyCacheParts bounds the replaced parts a server keeps decoded for
// asOf reads and derivation walks, and what derived datasets derive from
// them: a month of quarter-hourly load per bidding zone is a few hundred
// kilobytes, so this is tens of megabytes at most.
const historyCacheParts = 64

// AsOf returns a snapshot that serves q's dataset as its data stood at
// q.AsOf, from s and the parts imports have replaced since: a record
// published after that time is absent, and a record revised since shows
// its value then. Only q's dataset is served by it. The parts that were
// current at q.AsOf are read from the store when s does not hold them, and
// kept, a bounded number, for the next request. It returns s itself when q
// has no AsOf, and an error with code Invalid if the store keeps no
// history.
func (l *Live) AsOf(ctx context.Context, s *Snapshot, q *Query) (*Snapshot, error) {
	if q.AsOf.IsZero() {
		return s, nil
	}
	hist, ok := l.src.(PartHistory)
	if !ok {
		return nil, energy.Errorf(energy.Invalid, "parameter asOf: this server keeps no history of its data")
	}
	d := q.Dataset
	lo, hi := q.bounds()
	datasets := []string{d.Name}
	if d.Derive != nil {
		datasets = append(datasets, d.Derive.From)
	}
	t := q.AsOf.UnixMicro()
	then := map[PartRef]*Part{}
	ids := map[string]bool{}
	for ref, cur := range s.stored {
		if !slices.Contains(datasets, ref.Dataset) {
			continue
		}
		if plo, phi, ok := partSpan(ref.ID); !ok || phi <= lo || plo >= hi {
			continue
		}
		p, err := l.partAt(ctx, hist, ref, cur, t)
		if err != nil {
			return nil, err
		}
		if p = publishedBy(l.cat.layoutOf(l.cat.byName[ref.Dataset]), p, t); p != nil {
			then[ref] = p
			ids[ref.ID] = true
		}
	}
	table := &Table{}
	for id := range ids {
		var derived *Part
		if d.Derive != nil {
			var err error
			if derived, err = l.derivedAt(ctx, s, d, id, then[PartRef{d.Derive.From, id}]); err != nil {
				return nil, err
			}
		}
		p, err := l.served(d, id, then[PartRef{d.Name, id}], derived)
		if err != nil {
			return nil, err
		}
		if p != nil {
			table.Parts = append(table.Parts, p)
		}
	}
	slices.SortFunc(table.Parts, func(a, b *Part) int { return compareString(a.ID, b.ID) })
	return &Snapshot{Catalog: s.Catalog, Version: s.Version, Updated: s.Updated, tables: map[*Dataset]*Table{d: table}}, nil
}

// partAt returns ref as it stood at t (Unix microseconds): cur, the part s
// holds, if it was written by then, else the replaced version that was
// current then, else cur again: its records may carry publication times
// earlier than the import that wrote them (demo data and imports of
// records published elsewhere), which publishedBy then keeps.
func (l *Live) partAt(ctx context.Context, hist PartHistory, ref PartRef, cur *Part, t int64) (*Part, error) {
	if cur.Written <= t {
		return cur, nil
	}
	meta, ok, err := hist.PartVersionAt(ctx, ref, time.UnixMicro(t))
	if err != nil || !ok {
		return cur, err
	}
	return l.replacedVersion(ctx, hist, ref, meta.Version)
}

// publishedBy returns the records of p first published by t (Unix
// microseconds), p itself when that is all of them, nil when none. A
// record revised after t keeps its later value: a part holds no other.
func publishedBy(l *Layout, p *Part, t int64) *Part {
	if p == nil {
		return nil
	}
	var rows []Row
	for i := range p.Len() {
		if p.Published(i) <= t {
			rows = append(rows, p.Row(i))
		}
	}
	switch len(rows) {
	case p.Len():
		return p
	case 0:
		return nil
	}
	sub := BuildPart(l, p.ID, rows)
	sub.Version, sub.Written = p.Version, p.Written
	return sub
}

// replacedVersion returns a version of ref that an import replaced, read
// from the store's history once and kept, a bounded number, for the next
// read.
func (l *Live) replacedVersion(ctx context.Context, hist PartHistory, ref PartRef, version int64) (*Part, error) {
	key := cachedKey{ref: ref, version: version}
	if p := l.history.get(key); p != nil {
		return p, nil
	}
	sp, err := hist.ReadPartVersion(ctx, ref, version)
	if err != nil {
		return nil, err
	}
	d, ok := l.cat.byName[ref.Dataset]
	if !ok {
		return nil, fmt.Errorf("part %s/%s: dataset not served", ref.Dataset, ref.ID)
	}
	p, err := DecodePart(l.cat.layoutOf(d), sp)
	if err != nil {
		return nil, fmt.Errorf("%s part %s version %d: %w", ref.Dataset, ref.ID, version, err)
	}
	l.history.put(key, p)
	return p, nil
}

// partSpan returns the Unix interval [lo, hi) of the Europe/Rome month
// ("2024-03") or year ("2024") a part ID names.
func partSpan(id string) (lo, hi int64, ok bool) {
	y, err := strconv.Atoi(id[:min(4, len(id))])
	if err != nil {
		return 0, 0, false
	}
	if len(id) == 4 {
		s := time.Date(y, time.January, 1, 0, 0, 0, 0, energy.Rome())
		return s.Unix(), s.AddDate(1, 0, 0).Unix(), true
	}
	if len(id) != 7 || id[4] != '-' {
		return 0, 0, false
	}
	m, err := strconv.Atoi(id[5:])
	if err != nil || m < 1 || m > 12 {
		return 0, 0, false
	}
	s := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, energy.Rome())
	return s.Unix(), s.AddDate(0, 1, 0).Unix(), true
}

// PartDays returns the first and last Europe/Rome day of the month or year
// a part ID names; ok is false for an ID that is neither.
func PartDays(id string) (first, last energy.Date, ok bool) {
	lo, hi, ok := partSpan(id)
	if !ok {
		return first, last, false
	}
	a, b := time.Unix(lo, 0).In(energy.Rome()), time.Unix(hi, 0).In(energy.Rome()).AddDate(0, 0, -1)
	return energy.DateOf(a), energy.DateOf(b), true
}

// partCache keeps decoded replaced parts, and what derived datasets derive
// from them, least recently used out first. A replaced version never
// changes, so an entry never goes stale.
type partCache struct {
	mu    sync.Mutex
	max   int
	lru   *list.List // of *cachedPart, most recent at the front
	byKey map[cachedKey]*list.Element
}

type cachedKey struct {
	ref     PartRef
	version int64
	// derived, when set, names the dataset whose derivation from the
	// version is kept, rather than the version itself.
	derived string
}

type cachedPart struct {
	key  cachedKey
	part *Part
}

func newPartCache(max int) *partCache {
	return &partCache{max: max, lru: list.New(), byKey: map[cachedKey]*list.Element{}}
}

func (c *partCache) get(k cachedKey) *Part {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return nil
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cachedPart).part
}

func (c *partCache) put(k cachedKey, p *Part) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return
	}
	c.byKey[k] = c.lru.PushFront(&cachedPart{k, p})
	for c.lru.Len() > c.max {
		e := c.lru.Back()
		c.lru.Remove(e)
		delete(c.byKey, e.Value.(*cachedPart).key)
	}
}
