package dataset

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// Row is one record as the machinery handles it: its moment, its Text
// fields and its Number fields, each in declaration order (Layout).
type Row struct {
	Time int64 // Unix seconds; a yearly record's moment is its year's first instant in Europe/Rome
	Text []string
	Num  []float64 // NaN for no value
	// Pub and Rev are when the record was first published and when its
	// values last changed, Unix microseconds: set by Merge from the time of
	// the import that stored it, zero in rows a parser returns.
	Pub, Rev int64
}

// Part is one partition of a dataset's records, held column by column: a
// Europe/Rome month for datasets finer than a month, a year otherwise. A
// stored Part is immutable; an import replaces it whole.
type Part struct {
	ID      string       // "2024-03" or "2024"
	Version int64        // the data version that last changed it
	Written int64        // when that import wrote it, Unix microseconds (the store keeps it beside the bytes)
	times   timeColumn   // per record: its moment (Time)
	Dicts   [][]string   // per Text field: its distinct values
	codes   []codeColumn // per Text field, per record: the index of its value in Dicts
	nums    []numColumn  // per Number field, per record: its value (Num)
	// Stamps are the distinct publication and revision times of the
	// records (Unix microseconds, ascending); Pub and Rev hold, per record,
	// the index in Stamps of when it was first published and when its values
	// last changed. Few imports touch one part, so this costs a record at
	// most 8 bytes rather than 16, and usually none: Pub is nil when every
	// record was published at Stamps[0], and Rev nil when no record was
	// revised after its publication.
	Stamps   []int64
	Pub, Rev []uint32
}

// Len returns the number of records.
func (p *Part) Len() int {
	if p == nil {
		return 0
	}
	return p.times.len()
}

// Time returns the moment of record i, Unix seconds.
func (p *Part) Time(i int) int64 { return p.times.at(i) }

// Num returns Number field n of record i (NaN for none).
func (p *Part) Num(n, i int) float64 { return p.nums[n].at(i) }

// Values returns Number field n of every record, in a slice of its own.
func (p *Part) Values(n int) []float64 { return slices.Clone(p.nums[n].all()) }

// code returns the dictionary code of Text field t of record i.
func (p *Part) code(t, i int) uint16 { return p.codes[t].at(i) }

// columns sets p's columns from plain ones, which it may keep.
func (p *Part) columns(times []int64, codes [][]uint16, nums [][]float64) {
	p.times = newTimeColumn(times)
	p.codes = make([]codeColumn, len(codes))
	for t := range codes {
		p.codes[t] = newCodeColumn(codes[t], len(p.Dicts[t]))
	}
	p.nums = make([]numColumn, len(nums))
	for n := range nums {
		p.nums[n] = newNumColumn(nums[n])
	}
}

// Bytes returns an estimate of the memory p holds, for budgets: its
// columns, its dictionaries' strings and the slices' headers.
func (p *Part) Bytes() int64 {
	n := int64(len(p.ID)+len(p.Stamps)*8+(len(p.Pub)+len(p.Rev))*4) + 8*sliceHeader + 64 + p.times.bytes()
	for _, d := range p.Dicts {
		n += sliceHeader
		for _, s := range d {
			n += sliceHeader + int64(len(s))
		}
	}
	for _, c := range p.codes {
		n += c.bytes()
	}
	for _, c := range p.nums {
		n += c.bytes()
	}
	return n
}

// Published returns when record i was first published, Unix microseconds.
func (p *Part) Published(i int) int64 {
	if p.Pub == nil {
		return p.Stamps[0]
	}
	return p.Stamps[p.Pub[i]]
}

// Revised returns when record i's values last changed (its publication if
// they never did), Unix microseconds.
func (p *Part) Revised(i int) int64 {
	if p.Rev == nil {
		return p.Published(i)
	}
	return p.Stamps[p.Rev[i]]
}

// Text returns Text field t of record i.
func (p *Part) Text(t, i int) string { return p.Dicts[t][p.code(t, i)] }

// Row returns record i as a Row.
func (p *Part) Row(i int) Row {
	r := Row{Time: p.Time(i), Text: make([]string, len(p.codes)), Num: make([]float64, len(p.nums)), Pub: p.Published(i), Rev: p.Revised(i)}
	for t := range p.codes {
		r.Text[t] = p.Text(t, i)
	}
	for n := range p.nums {
		r.Num[n] = p.Num(n, i)
	}
	return r
}

// Rows returns every record as Rows.
func (p *Part) Rows() []Row {
	out := make([]Row, p.Len())
	for i := range out {
		out[i] = p.Row(i)
	}
	return out
}

// Span returns the moments of the first and last records, Unix seconds;
// zero for a part without records.
func (p *Part) Span() (first, last int64) {
	if p.Len() == 0 {
		return 0, 0
	}
	return p.Time(0), p.Time(p.Len() - 1)
}

// Stored returns p as a store writes it under ref, with its encoded bytes
// b: its record count and span beside them.
func (p *Part) Stored(ref PartRef, b []byte) StoredPart {
	first, last := p.Span()
	return StoredPart{PartRef: ref, Records: p.Len(), First: first, Last: last, Data: b}
}

// PartID returns the partition of a record of grain g at Unix time t.
func PartID(g Grain, t int64) string {
	lt := time.Unix(t, 0).In(energy.Rome())
	y, m := lt.Year(), int(lt.Month())
	switch {
	case (y < 0 || y > 9999) && g >= Month:
		return fmt.Sprintf("%04d", y)
	case y < 0 || y > 9999:
		return fmt.Sprintf("%04d-%02d", y, m)
	}
	// Written by hand: an import asks this of every record it reads, and
	// fmt.Sprintf was a tenth of the demo data's write time.
	b := [7]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-', byte('0' + m/10), byte('0' + m%10)}
	if g >= Month {
		return string(b[:4])
	}
	return string(b[:])
}

// partIDs names the part of each moment asked, as PartID does, for the
// loops that ask it of every record in time order: a moment in the part
// named last costs two comparisons rather than a conversion to Rome's
// calendar (PartID was a tenth of what generating the demo cost).
type partIDs struct {
	grain  Grain
	id     string
	lo, hi int64 // part id's moments, [lo, hi); none when id is ""
}

func (p *partIDs) of(t int64) string {
	if p.id == "" || t < p.lo || t >= p.hi {
		p.id = PartID(p.grain, t)
		// An ID of a year outside 0-9999 has no span: [0, 0) holds no
		// moment, and the next is named again.
		p.lo, p.hi, _ = partSpan(p.id)
	}
	return p.id
}

// Bucket returns the start of the grain period holding Unix time t: the
// part of a record's moment that belongs to its key. Quarter-hourly and
// hourly records are keyed by their exact moment.
func Bucket(g Grain, t int64) int64 {
	switch g {
	case Day, Month, Year:
		lt := time.Unix(t, 0).In(energy.Rome())
		y, m, d := lt.Date()
		switch g {
		case Month:
			d = 1
		case Year:
			m, d = time.January, 1
		}
		return time.Date(y, m, d, 0, 0, 0, 0, energy.Rome()).Unix()
	}
	return t
}

// BuildPart returns a part holding rows, sorted as l orders records, with
// their publication and revision times.
func BuildPart(l *Layout, id string, rows []Row) *Part {
	rows = sortStable(l, rows)
	p := &Part{ID: id, Dicts: make([][]string, l.NText), Pub: make([]uint32, len(rows)), Rev: make([]uint32, len(rows))}
	times, codes, nums := make([]int64, len(rows)), make([][]uint16, l.NText), make([][]float64, l.NNum)
	// Most rows share their times with the row before: those are skipped
	// here rather than sorted and compacted.
	for i, r := range rows {
		if i > 0 && r.Pub == rows[i-1].Pub && r.Rev == rows[i-1].Rev {
			continue
		}
		p.Stamps = append(p.Stamps, r.Pub, r.Rev)
	}
	slices.Sort(p.Stamps)
	p.Stamps = slices.Compact(p.Stamps)
	stamp := func(t int64) uint32 { i, _ := slices.BinarySearch(p.Stamps, t); return uint32(i) }
	index := make([]map[string]uint16, l.NText)
	for t := range index {
		index[t] = map[string]uint16{}
		codes[t] = make([]uint16, len(rows))
	}
	for n := range nums {
		nums[n] = make([]float64, len(rows))
	}
	for i, r := range rows {
		times[i] = r.Time
		for t, s := range r.Text {
			c, ok := index[t][s]
			if !ok {
				c = uint16(len(p.Dicts[t]))
				index[t][s] = c
				p.Dicts[t] = append(p.Dicts[t], s)
			}
			codes[t][i] = c
		}
		for n, v := range r.Num {
			nums[n][i] = v
		}
		p.Pub[i], p.Rev[i] = stamp(r.Pub), stamp(r.Rev)
	}
	p.columns(times, codes, nums)
	if !slices.Equal(p.Pub, p.Rev) {
		return p
	}
	p.Rev = nil
	if len(p.Stamps) == 1 {
		p.Pub = nil
	}
	return p
}

// sortStable returns rows sorted as l orders records, rows that compare
// equal in the order they came: rows itself when they are in order already
// (a part's rows are read in order, and many generators make them so),
// else a sorted copy: rows itself is never reordered. Rows in two runs,
// each in order, are merged.
//
// The copy is made from an order of the rows' indices, found by a sort
// that is not stable but breaks ties by index, of keys that hold each
// row's moment and one number that ranks its order fields (orderRanks)
// rather than their text: sorting was a fifth of what writing the demo
// cost. When the moments are in order already, only each moment's rows
// are ordered (sortWithinMoments).
func sortStable(l *Layout, rows []Row) []Row {
	p := 1 // rows[:p] are in order
	for p < len(rows) && l.compare(rows[p-1], rows[p]) <= 0 {
		p++
	}
	switch {
	case p >= len(rows):
		return rows
	case slices.IsSortedFunc(rows[p:], l.compare):
		// Two runs in order (a stored part and the records an import
		// adds to it): merged, not sorted.
		return mergeRuns(l, rows[:p], rows[p:])
	}
	if timesInOrder(rows) {
		return sortWithinMoments(l, rows)
	}
	sorted := make([]Row, len(rows))
	if ranks := orderRanks(l, rows); ranks != nil {
		// The keys sorted hold all a comparison reads, side by side.
		keys := make([]sortKey, len(rows))
		for i, r := range rows {
			keys[i] = sortKey{time: r.Time, rank: ranks[i], i: i}
		}
		slices.SortFunc(keys, func(a, b sortKey) int {
			return cmp.Or(cmp.Compare(a.time, b.time), cmp.Compare(a.rank, b.rank), cmp.Compare(a.i, b.i))
		})
		for i, k := range keys {
			sorted[i] = rows[k.i]
		}
		return sorted
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(l.compare(rows[a], rows[b]), cmp.Compare(a, b))
	})
	for i, j := range order {
		sorted[i] = rows[j]
	}
	return sorted
}

// mergeRuns returns the rows of a and b, each in order, in order: of rows
// that compare equal, a's first, as a stable sort of a then b has them.
func mergeRuns(l *Layout, a, b []Row) []Row {
	out := make([]Row, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if l.compare(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// timesInOrder reports whether rows' moments never go back, as generated
// series most often come: moment after moment, every series at each.
func timesInOrder(rows []Row) bool {
	for i := 1; i < len(rows); i++ {
		if rows[i].Time < rows[i-1].Time {
			return false
		}
	}
	return true
}

// sortWithinMoments returns rows, whose moments are in order, sorted
// stably within each moment. The rows of one moment most often come in
// the order of the moment before (a generator's loop over its series):
// that moment's order is used again, without a sort, when the order
// fields come the same.
func sortWithinMoments(l *Layout, rows []Row) []Row {
	sorted := make([]Row, 0, len(rows))
	var order []int // the order of the last moment sorted, by index within it
	var last []Row  // that moment's rows
	for start, end := 0, 0; start < len(rows); start = end {
		for end = start + 1; end < len(rows) && rows[end].Time == rows[start].Time; end++ {
		}
		if m := rows[start:end]; !sameFields(m, last, l.order) {
			order = order[:0]
			for i := range m {
				order = append(order, i)
			}
			slices.SortFunc(order, func(a, b int) int { return cmp.Or(l.compare(m[a], m[b]), cmp.Compare(a, b)) })
			last = m
		}
		for _, i := range order {
			sorted = append(sorted, rows[start+i])
		}
	}
	return sorted
}

// sortKey is what sortStable orders a record by: its moment, the rank of
// its order fields, and its index.
type sortKey struct {
	time int64
	rank uint64
	i    int
}

// orderRanks returns, for each row, a number that orders the rows as the
// text of l's order fields does, byte-wise, field after field: each
// field's value as its rank among the field's distinct values, the ranks
// read as the digits of one number. nil when the distinct values are too
// many for the number.
func orderRanks(l *Layout, rows []Row) []uint64 {
	ranks := make([]uint64, len(rows))
	span := uint64(1) // the number of distinct rank combinations so far
	for _, t := range l.order {
		rank := map[string]uint64{}
		for _, r := range rows {
			rank[r.Text[t]] = 0
		}
		n := uint64(len(rank))
		if span > math.MaxUint64/n {
			return nil
		}
		span *= n
		for i, v := range slices.Sorted(maps.Keys(rank)) {
			rank[v] = uint64(i)
		}
		for i, r := range rows {
			ranks[i] = ranks[i]*n + rank[r.Text[t]]
		}
	}
	return ranks
}

// maxDistinct is how many distinct values a Text field may take within one
// part (codes are 16-bit).
const maxDistinct = math.MaxUint16

// compare orders records by moment, then by the Text fields of the
// dataset's Order, byte-wise.
func (l *Layout) compare(a, b Row) int {
	if c := cmp.Compare(a.Time, b.Time); c != 0 {
		return c
	}
	for _, t := range l.order {
		if c := strings.Compare(a.Text[t], b.Text[t]); c != 0 {
			return c
		}
	}
	return 0
}

// key returns a record's natural key as one string.
func (l *Layout) keyOf(g Grain, r Row) string {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], Bucket(g, r.Time), 10)
	for _, t := range l.key {
		b = append(b, 0)
		b = append(b, r.Text[t]...)
	}
	return string(b)
}

// sameFields reports whether a and b hold the same Text fields of
// fields, row after row (their moments aside).
func sameFields(a, b []Row, fields []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for _, t := range fields {
			if a[i].Text[t] != b[i].Text[t] {
				return false
			}
		}
	}
	return true
}

// keyHash returns a hash of a record's natural key, as keyOf writes it.
func (l *Layout) keyHash(seed maphash.Seed, g Grain, r Row) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(Bucket(g, r.Time)))
	h.Write(b[:])
	for _, t := range l.key {
		h.WriteByte(0)
		h.WriteString(r.Text[t])
	}
	return h.Sum64()
}

// sameRow reports whether a and b hold the same values (NaN equals NaN).
func sameRow(a, b Row) bool {
	if a.Time != b.Time || !slices.Equal(a.Text, b.Text) || len(a.Num) != len(b.Num) {
		return false
	}
	for i := range a.Num {
		if math.Float64bits(a.Num[i]) != math.Float64bits(b.Num[i]) && !(math.IsNaN(a.Num[i]) && math.IsNaN(b.Num[i])) {
			return false
		}
	}
	return true
}

// Merge returns old with rows upserted on their natural key, and counts
// what changed; changed is false (and the part nil) when every row was
// already stored as it is. rows must belong to part id and have distinct keys.
//
// at (Unix microseconds) is the time of the import: a new record is
// published then, and a changed one keeps its publication and is revised
// then; an unchanged one keeps both. Rows that carry a publication time
// (Row.Pub, and Row.Rev when revised since) keep theirs: records published
// elsewhere, as the demo's follow the live service's timing. With at zero,
// every row keeps the times it carries: an overlay.
func Merge(l *Layout, g Grain, id string, old *Part, rows []Row, at int64) (p *Part, st energy.ImportStats, changed bool, err error) {
	st.Read = len(rows)
	if len(rows) == 0 {
		return nil, st, false, nil
	}
	first, last := old.overlap(g, rows)
	if first == last {
		// No stored record shares a bucket with a row (none is stored, or
		// the rows add days): every row is new, their keys being distinct,
		// and none is looked up.
		all := make([]Row, old.Len(), old.Len()+len(rows))
		for i := range all {
			all[i] = old.Row(i)
		}
		for _, r := range rows {
			all = append(all, inserted(r, at))
		}
		st.Inserted = len(rows)
		p, err = buildMerged(l, id, all)
		return p, st, err == nil, err
	}
	stored := make(map[string]int, last-first+len(rows))
	all := make([]Row, 0, old.Len()+len(rows))
	for i := range old.Len() {
		r := old.Row(i)
		if i >= first && i < last {
			stored[l.keyOf(g, r)] = len(all)
		}
		all = append(all, r)
	}
	for _, r := range rows {
		k := l.keyOf(g, r)
		i, ok := stored[k]
		switch {
		case !ok:
			st.Inserted++
			stored[k] = len(all)
			all = append(all, inserted(r, at))
		case sameRow(all[i], r):
			st.Unchanged++
		default:
			st.Updated++
			switch {
			case r.Pub != 0:
				// Times the record carries: when the source published and
				// last revised it (the demo's live timing).
				r.Pub, r.Rev = min(r.Pub, all[i].Pub), max(r.Rev, r.Pub)
			case at != 0:
				r.Pub, r.Rev = all[i].Pub, at
			}
			all[i] = r
		}
	}
	if st.Inserted == 0 && st.Updated == 0 {
		return nil, st, false, nil
	}
	p, err = buildMerged(l, id, all)
	return p, st, err == nil, err
}

// overlap returns the records [first, last) of p that may share a key
// with one of rows: those in the span of the rows' buckets, as a key holds
// its bucket. A part's records are in time order, so they are found by
// search, and Merge keys them alone: an import that adds days to a month
// (a mirror's fill, day after day) keys none of those stored.
func (p *Part) overlap(g Grain, rows []Row) (first, last int) {
	n := p.Len()
	if len(rows) == 0 {
		return 0, 0
	}
	for i := 1; i < n; i++ {
		if p.Time(i) < p.Time(i-1) { // not in order: every record
			return 0, n
		}
	}
	lo, hi := rows[0].Time, rows[0].Time
	for _, r := range rows {
		lo, hi = min(lo, r.Time), max(hi, r.Time)
	}
	lo, hi = Bucket(g, lo), Bucket(g, hi) // Bucket keeps the order of moments
	first = sort.Search(n, func(i int) bool { return Bucket(g, p.Time(i)) >= lo })
	last = sort.Search(n, func(i int) bool { return Bucket(g, p.Time(i)) > hi })
	return first, last
}

// inserted is r as Merge inserts it: published at the import's time at
// unless it carries its own, and revised when published.
func inserted(r Row, at int64) Row {
	if at != 0 && r.Pub == 0 {
		r.Pub, r.Rev = at, at
	}
	if r.Rev == 0 {
		r.Rev = r.Pub
	}
	return r
}

// buildMerged builds part id of Merge's rows, and refuses one with more
// distinct values of a field than a part can code.
func buildMerged(l *Layout, id string, all []Row) (*Part, error) {
	p := BuildPart(l, id, all)
	for t := range p.Dicts {
		if len(p.Dicts[t]) > maxDistinct {
			return nil, energy.Errorf(energy.Invalid, "part %s holds more than %d distinct values of one field", id, maxDistinct)
		}
	}
	return p, nil
}

// The first byte of every encoded part names its format. Format 1 holds
// the records without their publication times; format 2 adds them; both
// are gob. Format 3, which Encode writes, holds the compact columns
// (partformat.go). DecodePart reads all three: a store keeps a part in the
// format it was written in until an import replaces it.
const (
	partFormat1 byte = 1
	partFormat2 byte = 2
)

type wirePart struct {
	ID    string
	Times []int64
	Dicts [][]string
	Codes [][]uint16
	Nums  [][]float64
	// Format 2 only.
	Stamps   []int64
	Pub, Rev []uint32
}

// Encode returns p as stored bytes. Its version and written time are not
// part of them: the store keeps them beside.
func (p *Part) Encode() ([]byte, error) {
	return p.encode3(make([]byte, 0, 64+p.Bytes())), nil
}

// DecodeSpan returns the number of records of an encoded part and the
// moments of its first and last (zero for none), for a store that fills in
// the spans it did not keep: it reads the records' times only.
func DecodeSpan(b []byte) (records int, first, last int64, err error) {
	if len(b) > 0 && b[0] == partFormat3 {
		return span3(b[1:])
	}
	if len(b) == 0 || (b[0] != partFormat2 && b[0] != partFormat1) {
		return 0, 0, 0, errors.New("decode part: unknown format")
	}
	var w struct{ Times []int64 } // gob skips the other fields
	if err := gob.NewDecoder(bytes.NewReader(b[1:])).Decode(&w); err != nil {
		return 0, 0, 0, fmt.Errorf("decode part: %w", err)
	}
	if n := len(w.Times); n > 0 {
		return n, w.Times[0], w.Times[n-1], nil
	}
	return 0, 0, 0, nil
}

// DecodePart reads a part that Encode wrote, checking that it fits l. The
// records of a format-1 part, which has no publication times, count as
// published when the part was written.
func DecodePart(l *Layout, sp StoredPart) (*Part, error) {
	b := sp.Data
	if len(b) > 0 && b[0] == partFormat3 {
		p := &Part{Version: sp.Version, Written: sp.Written.UnixMicro()}
		if err := decode3(l, p, b[1:]); err != nil {
			return nil, err
		}
		return p, nil
	}
	if len(b) == 0 || (b[0] != partFormat2 && b[0] != partFormat1) {
		return nil, errors.New("decode part: unknown format")
	}
	var w wirePart
	if err := gob.NewDecoder(bytes.NewReader(b[1:])).Decode(&w); err != nil {
		return nil, fmt.Errorf("decode part: %w", err)
	}
	p := &Part{ID: w.ID, Version: sp.Version, Written: sp.Written.UnixMicro(), Dicts: w.Dicts, Stamps: w.Stamps, Pub: w.Pub, Rev: w.Rev}
	n := len(w.Times)
	if b[0] == partFormat1 {
		p.Stamps, p.Pub, p.Rev = []int64{p.Written}, nil, nil
	}
	// gob decodes an empty slice as nil, which Pub and Rev may be (Part).
	if n > 0 && (p.Pub == nil && len(p.Stamps) != 1 || p.Pub != nil && len(p.Pub) != n || p.Rev != nil && len(p.Rev) != n) {
		return nil, fmt.Errorf("decode part %s: %d and %d publication times and %d distinct for %d records", p.ID, len(p.Pub), len(p.Rev), len(p.Stamps), n)
	}
	for _, codes := range [][]uint32{p.Pub, p.Rev} {
		for _, c := range codes {
			if int(c) >= len(p.Stamps) {
				return nil, fmt.Errorf("decode part %s: a publication time outside the list", p.ID)
			}
		}
	}
	if err := w.checkColumns(l, n); err != nil {
		return nil, err
	}
	p.columns(w.Times, w.Codes, w.Nums)
	return p, nil
}

// checkColumns checks that w's columns fit l and hold n records each,
// making those gob decoded as nil empty: a part with no records is valid.
func (w *wirePart) checkColumns(l *Layout, n int) error {
	if len(w.Dicts) != l.NText || len(w.Codes) != l.NText || len(w.Nums) != l.NNum {
		return fmt.Errorf("decode part %s: %d text and %d number fields, want %d and %d", w.ID, len(w.Codes), len(w.Nums), l.NText, l.NNum)
	}
	for t := range w.Codes {
		if len(w.Codes[t]) != n {
			return fmt.Errorf("decode part %s: text field %d has %d values for %d records", w.ID, t, len(w.Codes[t]), n)
		}
		for _, c := range w.Codes[t] {
			if int(c) >= len(w.Dicts[t]) {
				return fmt.Errorf("decode part %s: code %d outside the dictionary", w.ID, c)
			}
		}
	}
	for i := range w.Nums {
		if len(w.Nums[i]) != n {
			return fmt.Errorf("decode part %s: number field %d has %d values for %d records", w.ID, i, len(w.Nums[i]), n)
		}
	}
	return nil
}
