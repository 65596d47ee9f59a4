package dataset

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// AsOf returns a snapshot that serves q's dataset as its data stood at
// q.AsOf, from s and the parts imports have replaced since: a record
// published after that time is absent, and a record revised since shows
// its value then. Only q's dataset is served by it. The parts that were
// current at q.AsOf are read from the store unless the memory budget keeps
// them, and kept in it for the next request. It returns s itself when q
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
	subsets := map[PartRef]bool{} // parts of which only some records were published by t
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
		if sub := publishedBy(l.cat.layoutOf(l.cat.byName[ref.Dataset]), p, t); sub != nil {
			then[ref], subsets[ref] = sub, sub != p
			ids[ref.ID] = true
		}
	}
	table := &Table{}
	for id := range ids {
		var derived *Part
		if d.Derive != nil {
			src := PartRef{d.Derive.From, id}
			var err error
			if derived, err = l.derivedAt(ctx, d, id, then[src], subsets[src], t); err != nil {
				return nil, err
			}
		}
		p, err := l.served(d, id, then[PartRef{d.Name, id}], derived)
		if err != nil {
			return nil, err
		}
		if p != nil {
			table.Parts = append(table.Parts, metaOf(p))
		}
	}
	sortMetas(table.Parts)
	return &Snapshot{Catalog: s.Catalog, Version: s.Version, Updated: s.Updated, tables: map[*Dataset]*Table{d: table}}, nil
}

// partAt returns ref as it stood at t (Unix microseconds): cur, the part s
// holds, if it was written by then, else the replaced version that was
// current then, else cur again: its records may carry publication times
// earlier than the import that wrote them (demo data and imports of
// records published elsewhere), which publishedBy then keeps.
func (l *Live) partAt(ctx context.Context, hist PartHistory, ref PartRef, cur PartMeta, t int64) (*Part, error) {
	version := cur.Version
	if cur.Written > t {
		meta, ok, err := hist.PartVersionAt(ctx, ref, time.UnixMicro(t))
		if err != nil {
			return nil, err
		}
		if ok {
			version = meta.Version
		}
	}
	return l.stored(ctx, ref, version)
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
