package dataset

import (
	"math"
	"slices"
)

// A decoded part holds its records in the compact columns below, each
// read through an accessor (Part.Time, Part.Num, Part.code), so that a
// quarter-hour point of the demo's total load costs about 12 bytes rather
// than the 26 of plain int64 times, uint16 codes and float64 numbers. The
// stored form (format 3, partformat.go) holds these columns as they are,
// so a read allocates them and little else; they give back exactly the
// values they were built from.

// timeColumn holds the records' moments as offsets from the earliest, four
// bytes a record: a part's period, a month or a year, fits many times over.
type timeColumn struct {
	base int64
	off  []uint32
	wide []int64 // the moments themselves, for a part spanning more than 136 years
}

func newTimeColumn(ts []int64) timeColumn {
	if len(ts) == 0 {
		return timeColumn{off: []uint32{}}
	}
	lo, hi := slices.Min(ts), slices.Max(ts)
	if uint64(hi-lo) > math.MaxUint32 {
		return timeColumn{wide: ts}
	}
	c := timeColumn{base: lo, off: make([]uint32, len(ts))}
	for i, t := range ts {
		c.off[i] = uint32(t - lo)
	}
	return c
}

func (c *timeColumn) len() int { return len(c.off) + len(c.wide) }

func (c *timeColumn) at(i int) int64 {
	if c.wide != nil {
		return c.wide[i]
	}
	return c.base + int64(c.off[i])
}

func (c *timeColumn) all() []int64 {
	if c.wide != nil {
		return c.wide
	}
	return each(len(c.off), c.at)
}

func (c *timeColumn) bytes() int64 { return int64(len(c.off)*4+len(c.wide)*8) + 2*sliceHeader + 8 }

// codeColumn holds a Text field's dictionary codes, one byte a record when
// the part has at most 256 distinct values of it, else two.
type codeColumn struct {
	small []uint8
	wide  []uint16
}

func newCodeColumn(codes []uint16, distinct int) codeColumn {
	if distinct > math.MaxUint8+1 {
		return codeColumn{wide: codes}
	}
	c := codeColumn{small: make([]uint8, len(codes))}
	for i, v := range codes {
		c.small[i] = uint8(v)
	}
	return c
}

func (c *codeColumn) at(i int) uint16 {
	if c.wide != nil {
		return c.wide[i]
	}
	return uint16(c.small[i])
}

func (c *codeColumn) all() []uint16 {
	if c.wide != nil {
		return c.wide
	}
	out := make([]uint16, len(c.small))
	for i, v := range c.small {
		out[i] = uint16(v)
	}
	return out
}

func (c *codeColumn) bytes() int64 { return int64(len(c.small)+len(c.wide)*2) + 2*sliceHeader }

// numColumn holds a Number field's values: as integers of a fixed number
// of decimals, four bytes a record, when every value is one exactly (as
// values read from files with that many decimals are: the division gives
// back the same float64), else as they are.
type numColumn struct {
	exact  []float64
	scaled []int32 // value × 10^decimals; noNumber for NaN
	div    float64 // 10^decimals
}

// noNumber is the scaled code of a missing number (NaN).
const noNumber = math.MinInt32

// maxDecimals bounds the decimals newNumColumn tries.
const maxDecimals = 6

func newNumColumn(vs []float64) numColumn {
	div := 1.0
	for range maxDecimals + 1 {
		if scaled, ok := scale(vs, div); ok {
			return numColumn{scaled: scaled, div: div}
		}
		div *= 10
	}
	return numColumn{exact: vs}
}

// scale returns vs as integers of vs×div, if each one gives back exactly
// its value (NaN as noNumber, and never -0).
func scale(vs []float64, div float64) ([]int32, bool) {
	out := make([]int32, len(vs))
	for i, v := range vs {
		if math.IsNaN(v) {
			out[i] = noNumber
			continue
		}
		q := math.Round(v * div)
		if q <= noNumber || q > math.MaxInt32 {
			return nil, false
		}
		out[i] = int32(q)
		if math.Float64bits(float64(out[i])/div) != math.Float64bits(v) {
			return nil, false
		}
	}
	return out, true
}

func (c *numColumn) at(i int) float64 {
	if c.exact != nil {
		return c.exact[i]
	}
	q := c.scaled[i]
	if q == noNumber {
		return math.NaN()
	}
	return float64(q) / c.div
}

func (c *numColumn) all() []float64 {
	if c.exact != nil {
		return c.exact
	}
	return each(len(c.scaled), c.at)
}

// each returns at(0) to at(n-1): a compact column's values spelt out.
func each[T any](n int, at func(int) T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

func (c *numColumn) bytes() int64 { return int64(len(c.exact)*8+len(c.scaled)*4) + 2*sliceHeader + 8 }

// sliceHeader is a slice's or a string's header, rounded up.
const sliceHeader = 24
