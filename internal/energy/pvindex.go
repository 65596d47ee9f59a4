package energy

import (
	"slices"
	"sort"
)

// PeakValleyIndex answers date-range queries over daily peaks and valleys. It
// is immutable once built and safe for concurrent use.
type PeakValleyIndex struct {
	days []DayExtremes // one per day, ascending
}

// NewPeakValleyIndex indexes a copy of days, which may come in any order. When
// a day appears more than once the last occurrence in days wins, so a caller
// can append corrections to older data.
func NewPeakValleyIndex(days []DayExtremes) *PeakValleyIndex {
	sorted := slices.Clone(days)
	// A stable sort keeps duplicates in input order, so the last of each run
	// of equal days is the one that came last in days.
	slices.SortStableFunc(sorted, func(a, b DayExtremes) int { return a.Day.Compare(b.Day) })
	out := sorted[:0]
	for i, d := range sorted {
		if i+1 < len(sorted) && sorted[i+1].Day == d.Day {
			continue
		}
		out = append(out, d)
	}
	return &PeakValleyIndex{days: slices.Clip(out)}
}

// Range returns the days from from to to, both included, in ascending order;
// it is empty when from is after to or no day falls in between. The result
// shares memory with the index so that a query allocates nothing: callers
// must not modify its elements. Its capacity ends at its length, so appending
// to it copies rather than overwrites the index.
func (ix *PeakValleyIndex) Range(from, to Date) []DayExtremes {
	if ix == nil || from.Compare(to) > 0 {
		return nil
	}
	days := ix.days
	lo := sort.Search(len(days), func(i int) bool { return days[i].Day.Compare(from) >= 0 })
	hi := lo + sort.Search(len(days)-lo, func(i int) bool { return days[lo+i].Day.Compare(to) > 0 })
	return days[lo:hi:hi]
}

// Len returns the number of days indexed.
func (ix *PeakValleyIndex) Len() int {
	if ix == nil {
		return 0
	}
	return len(ix.days)
}

// First returns the earliest day indexed; ok is false when the index is empty.
func (ix *PeakValleyIndex) First() (d Date, ok bool) {
	if ix.Len() == 0 {
		return Date{}, false
	}
	return ix.days[0].Day, true
}

// Last returns the latest day indexed; ok is false when the index is empty.
func (ix *PeakValleyIndex) Last() (d Date, ok bool) {
	if ix.Len() == 0 {
		return Date{}, false
	}
	return ix.days[len(ix.days)-1].Day, true
}
