package energy

import (
	"cmp"
	"slices"
	"strings"
)

// ThermoQuery holds the filters of a thermoelectric production query as the
// caller sent them; ThermoIndex.Query canonicalises them. An empty string or
// nil slice means no filter.
type ThermoQuery struct {
	Year        int
	Region      string
	Provinces   []string // any of these (OR); blank entries are ignored
	Category    string
	Subcategory string
}

// ThermoIndex answers thermoelectric production queries from memory. It is
// built once per data version and is safe for concurrent use.
type ThermoIndex struct {
	years  []int // ascending
	byYear map[int]*thermoYear
}

// thermoYear holds one year's records three ways: all of them, those of each
// category and those of each subcategory (subcategory names are unique across
// categories). With a view per filter, every query is answered by spans of one
// view, without testing records one by one.
type thermoYear struct {
	all        *thermoView
	byCategory map[string]*thermoView
	bySubcat   map[string]*thermoView
}

// thermoView holds records sorted by compareThermo, so that a region's and a
// province's records are each one contiguous span.
type thermoView struct {
	recs       []ThermoRecord
	byRegion   map[string]span
	byProvince map[string]span
}

type span struct{ lo, hi int }

// NewThermoIndex indexes a copy of recs, which are expected to be canonical
// (as ValidateThermo returns them): records are filed under their text as it
// is.
func NewThermoIndex(recs []ThermoRecord) *ThermoIndex {
	all := slices.Clone(recs)
	slices.SortFunc(all, func(a, b ThermoRecord) int {
		return cmp.Or(cmp.Compare(a.Year, b.Year), compareThermo(a, b))
	})
	ix := &ThermoIndex{byYear: map[int]*thermoYear{}}
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && all[hi].Year == all[lo].Year {
			hi++
		}
		year := all[lo:hi]
		y := &thermoYear{
			all:        newThermoView(year),
			byCategory: map[string]*thermoView{},
			bySubcat:   map[string]*thermoView{},
		}
		cats, subs := map[string][]ThermoRecord{}, map[string][]ThermoRecord{}
		for _, r := range year {
			cats[r.Category] = append(cats[r.Category], r)
			subs[r.Subcategory] = append(subs[r.Subcategory], r)
		}
		for c, rs := range cats {
			y.byCategory[c] = newThermoView(rs)
		}
		for s, rs := range subs {
			y.bySubcat[s] = newThermoView(rs)
		}
		ix.years = append(ix.years, all[lo].Year)
		ix.byYear[all[lo].Year] = y
		lo = hi
	}
	return ix
}

// newThermoView indexes sorted, which it keeps. Its capacity is cut to its
// length so that a caller appending to a returned sub-slice cannot write into
// records that follow it.
func newThermoView(sorted []ThermoRecord) *thermoView {
	v := &thermoView{
		recs:       sorted[:len(sorted):len(sorted)],
		byRegion:   map[string]span{},
		byProvince: map[string]span{},
	}
	for i, r := range v.recs {
		extend(v.byRegion, r.Region, i)
		extend(v.byProvince, r.Province, i)
	}
	return v
}

// extend grows key's span to cover index i; records arrive in sorted order so
// each key's records are contiguous.
func extend(m map[string]span, key string, i int) {
	s, ok := m[key]
	if !ok {
		s.lo = i
	}
	s.hi = i + 1
	m[key] = s
}

// Years returns the years the index holds records for, ascending. The slice
// is the caller's to modify.
func (ix *ThermoIndex) Years() []int { return slices.Clone(ix.years) }

// Query returns the records that match every filter of q (any of its
// provinces), ordered by region, province, category, subcategory and capacity
// type in byte-wise string order. Filter values are matched as
// CanonicalCategory, CanonicalRegion and CanonicalProvince describe.
//
// known is false, and recs nil, when a filter value matches no expected value
// (spec 4.2 rule 1): a category, subcategory, region or any one province
// outside the reference lists, a subcategory of another category than the
// one given, or a year for which the index holds no record. A province of
// another region than the one given is known and simply matches nothing.
// When known is true recs is non-nil, possibly empty.
//
// recs may share storage with the index: callers must not modify its
// elements. Appending to it is safe.
func (ix *ThermoIndex) Query(q ThermoQuery) (recs []ThermoRecord, known bool) {
	var category, subcat string
	if q.Category != "" {
		c, ok := CanonicalCategory(q.Category)
		if !ok {
			return nil, false
		}
		category = c
	}
	if q.Subcategory != "" {
		s, ok := lookupSubcategory(q.Subcategory)
		if !ok || (category != "" && s.category != category) {
			return nil, false
		}
		category, subcat = s.category, s.name
	}
	var region string
	if q.Region != "" {
		r, ok := CanonicalRegion(q.Region)
		if !ok {
			return nil, false
		}
		region = r
	}
	y := ix.byYear[q.Year]
	if y == nil {
		return nil, false
	}
	view := y.all
	switch {
	case subcat != "":
		view = y.bySubcat[subcat]
	case category != "":
		view = y.byCategory[category]
	}
	if view == nil { // a known filter value that no record of the year has
		view = &thermoView{}
	}
	// Most queries name a few provinces; a fixed array keeps their spans off
	// the heap.
	var spanBuf [8]span
	spans := spanBuf[:0]
	anyProvince := false
	for _, p := range q.Provinces {
		if strings.TrimSpace(p) == "" {
			continue
		}
		anyProvince = true
		prov, ok := CanonicalProvince(p)
		if !ok {
			return nil, false
		}
		if region != "" && ref.regionOf[prov] != region {
			continue
		}
		if s, ok := view.byProvince[prov]; ok {
			spans = append(spans, s)
		}
	}
	switch {
	case anyProvince:
		// Spans are disjoint and in the view's order once sorted by start;
		// a province named twice must not repeat its records.
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
		spans = slices.Compact(spans)
	case region != "":
		if s, ok := view.byRegion[region]; ok {
			spans = append(spans, s)
		}
	case len(view.recs) > 0:
		spans = append(spans, span{0, len(view.recs)})
	}
	switch len(spans) {
	case 0:
		return []ThermoRecord{}, true
	case 1:
		return view.recs[spans[0].lo:spans[0].hi:spans[0].hi], true
	}
	n := 0
	for _, s := range spans {
		n += s.hi - s.lo
	}
	out := make([]ThermoRecord, 0, n)
	for _, s := range spans {
		out = append(out, view.recs[s.lo:s.hi]...)
	}
	return out, true
}

// compareThermo orders records by region, province, category, subcategory and
// capacity type, byte-wise: the order of API responses. It is not
// CompareThermoKey, the stores' order, which puts capacity type first.
func compareThermo(a, b ThermoRecord) int {
	return cmp.Or(
		strings.Compare(a.Region, b.Region),
		strings.Compare(a.Province, b.Province),
		strings.Compare(a.Category, b.Category),
		strings.Compare(a.Subcategory, b.Subcategory),
		strings.Compare(a.CapacityType, b.CapacityType),
	)
}
