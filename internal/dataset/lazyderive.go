package dataset

import (
	"context"
	"sync/atomic"
)

// A derived dataset's part is listed by the store only through the parts
// it derives from: its source's part and the records imported for it. So
// a snapshot knows at once its versions and when it was written (those of
// the later of the two), but its records and span only once it is
// derived, which reads the source part and may walk back through its
// history (derive.go). A snapshot derives nothing when a server loads a
// data version, at start or after an import: a part is derived when a
// request first needs it, for its records or for whether it holds any in
// the period asked, and what is then known of it stays known to every
// later snapshot while neither version changes.
//
// A query's parts are found among those whose month or year meets its
// period (a part holds the records of its own period only), each derived
// if it is not yet. The validators of an answer come from those parts, so
// a request derives them first, with its context (Snapshot.Derive); a
// table's coverage needs every part (Snapshot.TableOf), and derives every
// one not derived yet, once per data version.

// derivedMeta is what is known of a derived part, at one version of its
// source's part and one of its own, beyond the store's listing: a few tens
// of bytes, shared by the snapshots that hold those versions and kept out
// of the memory budget.
type derivedMeta struct {
	// prev is a version of the source part derived before these versions
	// (0: none): a derivation's walk stops there if the budget keeps it.
	prev  int64
	exact atomic.Pointer[extent] // nil until derived
}

// extent is a part's record count and the moments of its first and last
// records.
type extent struct {
	records     int
	first, last int64
}

// derivedPart returns the metadata of the part id of a derived dataset at
// src, the version of its source's part, and own, that of the part
// imported for it (either zero when there is none), its records and span
// to be learnt when derived. prev is its metadata in the snapshot before.
func derivedPart(id string, src, own, prev PartMeta) PartMeta {
	m := PartMeta{ID: id, Version: max(src.Version, own.Version), Written: max(src.Written, own.Written),
		from: src.Version, own: own.Version, derived: &derivedMeta{}}
	if e := prev.derived; e != nil {
		m.derived.prev = e.prev
		if prev.from != 0 && e.exact.Load() != nil {
			m.derived.prev = prev.from
		}
	}
	return m
}

// before returns the version of the source part derived before, 0 if none
// is known.
func (e *derivedMeta) before() int64 {
	if e == nil {
		return 0
	}
	return e.prev
}

// learn records the extent of p, the part derived.
func (e *derivedMeta) learn(p *Part) {
	if e == nil || e.exact.Load() != nil {
		return
	}
	first, last := p.Span()
	e.exact.Store(&extent{records: p.Len(), first: first, last: last})
}

// known returns the derivation of version of the source part src that d
// derived before, if the budget still keeps it and that version.
func (l *Live) known(src PartRef, version int64, d *Dataset) derivation {
	s, ok := l.parts.Get(partKey{ref: src, version: version})
	if !ok {
		return derivation{}
	}
	p, ok := l.parts.Get(partKey{ref: src, version: version, derived: d.Name})
	if !ok {
		return derivation{}
	}
	return derivation{src: s, derived: p}
}

// exact returns m, a part of d's table, with its records and span: a
// derived part's are derived now if not known yet, which reads its source
// from the store unless the budget keeps it.
func (s *Snapshot) exact(ctx context.Context, d *Dataset, m PartMeta) (PartMeta, error) {
	if m, ok := m.known(); ok {
		return m, nil
	}
	if _, err := s.load(ctx, d, m); err != nil {
		return m, err
	}
	m, _ = m.known()
	return m, nil
}

// known returns m with its records and span, if they are known.
func (m PartMeta) known() (PartMeta, bool) {
	if m.derived == nil {
		return m, true
	}
	e := m.derived.exact.Load()
	if e == nil {
		return m, false
	}
	m.Records, m.First, m.Last = e.records, e.first, e.last
	return m, true
}

// derivedCovering is covering for t, the table of d, a derived dataset:
// of the parts whose period meets [lo, hi), those that hold a record
// within it, each derived if not yet. It stops at the first part that
// cannot be derived, with the store's error.
func (s *Snapshot) derivedCovering(ctx context.Context, d *Dataset, t *Table, lo, hi int64) ([]PartMeta, error) {
	var out []PartMeta
	for _, m := range t.Parts {
		if plo, phi, ok := partSpan(m.ID); ok && (phi <= lo || plo >= hi) {
			continue
		}
		m, err := s.exact(ctx, d, m)
		if err != nil {
			return out, err
		}
		if m.covers(lo, hi) {
			out = append(out, m)
		}
	}
	return out, nil
}

// Derive derives the parts of q's dataset, if it is a derived one, that
// q's period meets and that are not derived yet, so that Unknown, Tag,
// LastModified and Records then answer from memory: a request calls it
// first, and answers its error (a part that could not be read from the
// store) as it would a failed read of the records. For a dataset not
// derived it does nothing. Without it, those methods derive what they need
// without a context, and leave out the parts from one they cannot derive.
func (s *Snapshot) Derive(ctx context.Context, q *Query) error {
	if !s.table(q.Dataset).lazy {
		return nil
	}
	_, err := s.coveringIn(ctx, q)
	return err
}

// TableOf returns d's table, never nil, with every part's records and
// span: for a derived dataset, it derives every part not derived yet, so
// that the first call after a server loads a data version (that of
// /catalog, say) derives them all, and the next ones find them known. Its
// error is that of a part that could not be read from the store: the parts
// not derived by then count as holding no record.
func (s *Snapshot) TableOf(ctx context.Context, d *Dataset) (*Table, error) {
	t := s.tables[d]
	switch {
	case t == nil:
		return &Table{}, nil
	case !t.lazy:
		return t, nil
	}
	out := &Table{Parts: make([]PartMeta, len(t.Parts))}
	var err error
	for i, m := range t.Parts {
		if err == nil {
			m, err = s.exact(ctx, d, m)
		} else {
			m, _ = m.known()
		}
		out.Parts[i] = m
	}
	return out, err
}
