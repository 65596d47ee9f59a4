package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Format 3 stores a part's compact columns as they are held in memory
// (columns.go): times as four-byte offsets from a base, dictionary codes
// of one byte where they fit, numbers as four-byte integers at their
// decimals where exact. A read then allocates the columns it keeps and
// little else: decoding the earlier gob formats built plain columns first
// and cost three to seven times the part's size in garbage, which on a
// server reading cold parts all day is what its collector has to keep up
// with. The layout, every integer little-endian:
//
//	3 | uvarint len(ID) | ID | uvarint records
//	times:   0 | varint base | uint32 offsets      or  1 | int64 moments
//	uvarint text fields, each:
//	         uvarint values | (uvarint len | bytes) per value
//	         0 | uint8 codes                       or  1 | uint16 codes
//	uvarint number fields, each:
//	         0 | decimals | int32 scaled values    or  1 | float64 bits
//	uvarint stamps | varint stamps | flags (1: Pub, 2: Rev) | uint32 Pub | uint32 Rev
const partFormat3 byte = 3

// Column kinds of format 3.
const (
	narrowColumn byte = 0
	wideColumn   byte = 1
)

// encode3 appends p in format 3 to b.
func (p *Part) encode3(b []byte) []byte {
	b = append(b, partFormat3)
	b = binary.AppendUvarint(b, uint64(len(p.ID)))
	b = append(b, p.ID...)
	n := p.Len()
	b = binary.AppendUvarint(b, uint64(n))
	if p.times.wide != nil {
		b = append(b, wideColumn)
		for _, t := range p.times.wide {
			b = binary.LittleEndian.AppendUint64(b, uint64(t))
		}
	} else {
		b = append(b, narrowColumn)
		b = binary.AppendVarint(b, p.times.base)
		for _, o := range p.times.off {
			b = binary.LittleEndian.AppendUint32(b, o)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.codes)))
	for t, c := range p.codes {
		b = appendDict(b, p.Dicts[t])
		b = appendCodes(b, c)
	}
	b = binary.AppendUvarint(b, uint64(len(p.nums)))
	for _, c := range p.nums {
		b = appendNums(b, c)
	}
	b = binary.AppendUvarint(b, uint64(len(p.Stamps)))
	for _, s := range p.Stamps {
		b = binary.AppendVarint(b, s)
	}
	var flags byte
	if p.Pub != nil {
		flags |= 1
	}
	if p.Rev != nil {
		flags |= 2
	}
	b = append(b, flags)
	for _, idx := range [][]uint32{p.Pub, p.Rev} {
		for _, v := range idx {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	return b
}

func appendDict(b []byte, dict []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(dict)))
	for _, s := range dict {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func appendCodes(b []byte, c codeColumn) []byte {
	if c.wide != nil {
		b = append(b, wideColumn)
		for _, v := range c.wide {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
		return b
	}
	b = append(b, narrowColumn)
	return append(b, c.small...)
}

func appendNums(b []byte, c numColumn) []byte {
	if c.exact != nil {
		b = append(b, wideColumn)
		for _, v := range c.exact {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	decimals := 0
	for d := 1.0; d < c.div; d *= 10 {
		decimals++
	}
	b = append(b, narrowColumn, byte(decimals))
	for _, v := range c.scaled {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return b
}

// errShort is a format-3 part that ends before its columns do.
var errShort = errors.New("decode part: truncated")

// reader reads format 3. Every length it reads is checked against the
// bytes left before anything of that size is allocated, so a damaged part
// is an error, never a panic or a huge allocation.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail(errShort)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[k:]
	return v
}

// varint reads a zig-zag varint, as binary.Varint decodes one from the
// unsigned varint it is written as.
func (r *reader) varint() int64 {
	u := r.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// count reads a count of items of size bytes each that must still fit.
func (r *reader) count(size int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/max(size, 1)) {
		r.fail(errShort)
		return 0
	}
	return int(v)
}

// take returns the next n items of size bytes.
func (r *reader) take(n, size int) []byte {
	if n < 0 || n > len(r.b)/size {
		r.fail(errShort)
		return nil
	}
	out := r.b[:n*size]
	r.b = r.b[n*size:]
	return out
}

// decode3 reads a format-3 part, b without its format byte, into p.
func decode3(l *Layout, p *Part, b []byte) error {
	r := &reader{b: b}
	p.ID = string(r.take(r.count(1), 1))
	n := r.count(0)
	p.times = r.times(n)
	if nt := r.uvarint(); r.err == nil && nt != uint64(l.NText) {
		return fmt.Errorf("decode part %s: %d text fields, want %d", p.ID, nt, l.NText)
	}
	p.Dicts, p.codes = make([][]string, l.NText), make([]codeColumn, l.NText)
	for t := range l.NText {
		p.Dicts[t] = r.dict()
		p.codes[t] = r.codes(n, len(p.Dicts[t]))
	}
	if nn := r.uvarint(); r.err == nil && nn != uint64(l.NNum) {
		return fmt.Errorf("decode part %s: %d number fields, want %d", p.ID, nn, l.NNum)
	}
	p.nums = make([]numColumn, l.NNum)
	for i := range l.NNum {
		p.nums[i] = r.nums(n)
	}
	p.Stamps = make([]int64, r.count(1))
	for i := range p.Stamps {
		p.Stamps[i] = r.varint()
	}
	flags := r.byte()
	if flags&1 != 0 {
		p.Pub = r.indexes(n, len(p.Stamps))
	}
	if flags&2 != 0 {
		p.Rev = r.indexes(n, len(p.Stamps))
	}
	switch {
	case r.err != nil:
		return r.err
	case len(r.b) != 0 || flags > 3:
		return errors.New("decode part: trailing bytes")
	case n > 0 && p.Pub == nil && len(p.Stamps) != 1:
		return fmt.Errorf("decode part %s: %d publication times for records of one", p.ID, len(p.Stamps))
	}
	return nil
}

// wideValues returns the values of a wide column, raw's 8-byte
// little-endian words each read with conv.
func wideValues[T any](raw []byte, conv func(uint64) T) []T {
	out := make([]T, len(raw)/8)
	for i := range out {
		out[i] = conv(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return out
}

func (r *reader) times(n int) timeColumn {
	if r.byte() == wideColumn {
		return timeColumn{wide: wideValues(r.take(n, 8), func(u uint64) int64 { return int64(u) })}
	}
	base := r.varint()
	raw := r.take(n, 4)
	c := timeColumn{base: base, off: make([]uint32, len(raw)/4)}
	for i := range c.off {
		c.off[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return c
}

// dict reads a dictionary; its values share one string's bytes.
func (r *reader) dict() []string {
	values := make([][]byte, r.count(1))
	total := 0
	for i := range values {
		values[i] = r.take(r.count(1), 1)
		total += len(values[i])
	}
	if r.err != nil {
		return nil
	}
	all := make([]byte, 0, total)
	for _, v := range values {
		all = append(all, v...)
	}
	s, dict := string(all), make([]string, len(values))
	for i, v := range values {
		dict[i], s = s[:len(v)], s[len(v):]
	}
	return dict
}

func (r *reader) codes(n, distinct int) codeColumn {
	if r.byte() == wideColumn {
		raw := r.take(n, 2)
		c := codeColumn{wide: make([]uint16, len(raw)/2)}
		for i := range c.wide {
			if c.wide[i] = binary.LittleEndian.Uint16(raw[2*i:]); int(c.wide[i]) >= distinct {
				r.fail(errors.New("decode part: a code outside the dictionary"))
			}
		}
		return c
	}
	c := codeColumn{small: append([]uint8(nil), r.take(n, 1)...)}
	for _, v := range c.small {
		if int(v) >= distinct {
			r.fail(errors.New("decode part: a code outside the dictionary"))
		}
	}
	if c.small == nil {
		c.small = []uint8{}
	}
	return c
}

func (r *reader) nums(n int) numColumn {
	if r.byte() == wideColumn {
		return numColumn{exact: wideValues(r.take(n, 8), math.Float64frombits)}
	}
	decimals := int(r.byte())
	if decimals > maxDecimals {
		r.fail(errors.New("decode part: too many decimals"))
	}
	div := 1.0
	for range decimals {
		div *= 10
	}
	raw := r.take(n, 4)
	c := numColumn{scaled: make([]int32, len(raw)/4), div: div}
	for i := range c.scaled {
		c.scaled[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return c
}

// indexes reads n indexes into a list of m publication times.
func (r *reader) indexes(n, m int) []uint32 {
	raw := r.take(n, 4)
	out := make([]uint32, len(raw)/4)
	for i := range out {
		if out[i] = binary.LittleEndian.Uint32(raw[4*i:]); int(out[i]) >= m {
			r.fail(errors.New("decode part: a publication time outside the list"))
		}
	}
	return out
}

// span3 reads the records' count and first and last moments of a
// format-3 part, b without its format byte.
func span3(b []byte) (records int, first, last int64, err error) {
	r := &reader{b: b}
	r.take(r.count(1), 1)
	n := r.count(0)
	c := r.times(n)
	if r.err != nil || n == 0 {
		return 0, 0, 0, r.err
	}
	return n, c.at(0), c.at(n - 1), nil
}
