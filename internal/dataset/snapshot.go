package dataset

import (
	"cmp"
	"context"
	"encoding/binary"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strconv"
	"time"
)

// PartMeta is what a snapshot holds of a part: what tells which queries
// it covers and their validators, without its records, which are read from
// the store when a request needs them (Live).
type PartMeta struct {
	ID          string
	Version     int64 // the data version that last changed it
	Written     int64 // when that import wrote it, Unix microseconds
	Records     int
	First, Last int64 // the moments of its first and last records, Unix seconds
	// from and own are, for a part of a derived dataset, the versions of
	// the source part it derives from and of the part imported for it
	// (0: none).
	from, own int64
	// held is the part itself when the snapshot holds it decoded (the
	// data as of a time); nil when it is read on demand.
	held *Part
	// derived is set for a part of a derived dataset's table in a Live's
	// snapshot: Records, First and Last are then zero, and known once the
	// part is derived (see lazyderive.go).
	derived *derivedMeta
}

// metaOf returns p's metadata, holding p.
func metaOf(p *Part) PartMeta {
	first, last := p.Span()
	return PartMeta{ID: p.ID, Version: p.Version, Written: p.Written, Records: p.Len(), First: first, Last: last, held: p}
}

// storedMeta returns the metadata of a part as a store lists it.
func storedMeta(sp StoredPart) PartMeta {
	return PartMeta{ID: sp.ID, Version: sp.Version, Written: sp.Written.UnixMicro(), Records: sp.Records, First: sp.First, Last: sp.Last}
}

// covers reports whether the part holds a record in [lo, hi).
func (m PartMeta) covers(lo, hi int64) bool {
	return m.Records > 0 && m.Last >= lo && m.First < hi
}

// Table is what a snapshot serves of one dataset: its parts by ID, which
// sort chronologically.
type Table struct {
	Parts []PartMeta
	// lazy is set for a derived dataset's table in a Live's snapshot: its
	// parts' records and span are known once derived (Snapshot.exact).
	lazy bool
}

// Records returns how many records the table holds.
func (t *Table) Records() int {
	n := 0
	for _, p := range t.Parts {
		n += p.Records
	}
	return n
}

// Coverage returns the moments of the first and last record; ok is false
// for an empty table.
func (t *Table) Coverage() (first, last int64, ok bool) {
	for _, p := range t.Parts {
		if p.Records > 0 {
			first, ok = p.First, true
			break
		}
	}
	for i := len(t.Parts) - 1; i >= 0; i-- {
		if p := t.Parts[i]; p.Records > 0 {
			last = p.Last
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

func (t *Table) part(id string) (PartMeta, bool) {
	i, ok := slices.BinarySearchFunc(t.Parts, id, func(p PartMeta, id string) int { return cmp.Compare(p.ID, id) })
	if !ok {
		return PartMeta{}, false
	}
	return t.Parts[i], true
}

func sortMetas(ms []PartMeta) {
	slices.SortFunc(ms, func(a, b PartMeta) int { return cmp.Compare(a.ID, b.ID) })
}

// Snapshot is one immutable version of every dataset's served records:
// the parts' metadata, from which a query's validators come without I/O
// (once Derive has derived a derived dataset's parts), and the Live that
// reads a part's records when a request needs them. Requests never see half
// an import.
type Snapshot struct {
	Catalog *Catalog
	Version int64     // the store's data version
	Updated time.Time // when it last changed
	tables  map[*Dataset]*Table
	// stored holds the parts as the store holds them (a derived dataset's
	// table is computed from them), for reading the data as of a time.
	stored map[PartRef]PartMeta
	live   *Live // reads the parts; nil when every part is held
}

// Table returns d's table; it is never nil. It is TableOf without a
// context, for callers that cannot answer an error.
func (s *Snapshot) Table(d *Dataset) *Table {
	t, _ := s.TableOf(context.Background(), d)
	return t
}

// noTable is the table of a dataset that has no part.
var noTable = &Table{}

// table returns d's table as the snapshot holds it, never nil.
func (s *Snapshot) table(d *Dataset) *Table {
	if t := s.tables[d]; t != nil {
		return t
	}
	return noTable
}

// Part returns the records of d's part id, nil if there is none. It may
// read the store, and returns its error.
func (s *Snapshot) Part(ctx context.Context, d *Dataset, id string) (*Part, error) {
	m, ok := s.table(d).part(id)
	if !ok {
		return nil, nil
	}
	return s.load(ctx, d, m)
}

// load returns the records of m, a part of d's table.
func (s *Snapshot) load(ctx context.Context, d *Dataset, m PartMeta) (*Part, error) {
	if m.held != nil || s.live == nil {
		return m.held, nil
	}
	p, err := s.live.servedPart(ctx, d, m)
	if err == nil {
		m.derived.learn(p)
	}
	return p, err
}

// Unknown reports whether q is to be answered with the empty body: a filter
// value lies outside its reference list, or q asks for a year of a yearly
// dataset for which nothing is stored.
func (s *Snapshot) Unknown(q *Query) bool {
	if q.unknown {
		return true
	}
	if q.Year != 0 && q.Dataset.Grain >= Month {
		p, _ := s.table(q.Dataset).part(PartID(q.Dataset.Grain, q.lo()))
		p, _ = s.exact(context.Background(), q.Dataset, p) // known after Derive
		return p.Records == 0
	}
	return false
}

func (q *Query) lo() int64 { lo, _ := q.bounds(); return lo }

// parts returns the parts that hold records q selects, read from the store
// where the server holds them no longer.
func (s *Snapshot) parts(ctx context.Context, q *Query) ([]*Part, error) {
	ms, err := s.coveringIn(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []*Part
	for _, m := range ms {
		p, err := s.load(ctx, q.Dataset, m)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Each calls fn with every record q selects, in the dataset's order. It
// may read parts from the store, and returns the error of such a read.
func (s *Snapshot) Each(ctx context.Context, q *Query, fn func(p *Part, i int)) error {
	parts, err := s.parts(ctx, q)
	if err != nil {
		return err
	}
	eachIn(parts, q, fn)
	return nil
}

// eachIn calls fn with every record of parts that q selects.
func eachIn(parts []*Part, q *Query, fn func(p *Part, i int)) {
	eachSelected(parts, q, func(p *Part, i int) bool { fn(p, i); return true })
}

// eachSelected is eachIn until fn returns false.
func eachSelected(parts []*Part, q *Query, fn func(p *Part, i int) bool) {
	lo, hi := q.bounds()
	since, bySince := int64(0), !q.ChangedSince.IsZero()
	if bySince {
		since = q.ChangedSince.UnixMicro()
	}
	var allowed [][]bool
	for _, p := range parts {
		n := p.Len()
		start := sort.Search(n, func(i int) bool { return p.Time(i) >= lo })
		end := sort.Search(n, func(i int) bool { return p.Time(i) >= hi })
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
				if !allowed[k][p.code(f.text, i)] {
					continue rows
				}
			}
			if !fn(p, i) {
				return
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
	for _, p := range s.covering(q) {
		h.Write([]byte{0})
		io.WriteString(h, p.ID)
		binary.LittleEndian.PutUint64(buf[:], uint64(p.Version))
		h.Write(buf[:])
	}
	return `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
}

// LastModified returns when the last import that touched a part the
// answer to q covers wrote it; ok is false if the answer covers none.
func (s *Snapshot) LastModified(q *Query) (t time.Time, ok bool) {
	var last int64
	for _, p := range s.covering(q) {
		if p.Written > last || !ok {
			last, ok = p.Written, true
		}
	}
	return time.UnixMicro(last).UTC(), ok
}

// covering returns the parts of q's dataset that hold a record within q's
// period: from their metadata, without reading them (but for a derived
// dataset's parts that Derive did not derive).
func (s *Snapshot) covering(q *Query) []PartMeta {
	out, _ := s.coveringIn(context.Background(), q) // Derive told the error
	return out
}

// coveringIn is covering, deriving with ctx what it needs derived.
func (s *Snapshot) coveringIn(ctx context.Context, q *Query) ([]PartMeta, error) {
	lo, hi := q.bounds()
	t := s.table(q.Dataset)
	if t.lazy {
		return s.derivedCovering(ctx, q.Dataset, t, lo, hi)
	}
	var out []PartMeta
	for _, p := range t.Parts {
		if p.covers(lo, hi) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Records returns how many records the parts that q's period covers hold:
// an upper bound of the records q selects, known without reading them.
func (s *Snapshot) Records(q *Query) int {
	lo, hi := q.bounds()
	t := s.table(q.Dataset)
	n := 0
	if t.lazy {
		for _, p := range s.covering(q) {
			n += p.Records
		}
		return n
	}
	for _, p := range t.Parts {
		if p.covers(lo, hi) {
			n += p.Records
		}
	}
	return n
}
