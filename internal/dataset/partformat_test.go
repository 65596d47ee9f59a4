package dataset

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"
)

// partRows returns p's records with their times, for comparing parts.
func partRows(p *Part) []Row {
	out := make([]Row, p.Len())
	for i := range out {
		out[i] = p.Row(i)
	}
	return out
}

func sameParts(t *testing.T, what string, got, want *Part) {
	t.Helper()
	g, w := partRows(got), partRows(want)
	if got.ID != want.ID || len(g) != len(w) {
		t.Fatalf("%s: got part %q of %d records, want %q of %d", what, got.ID, len(g), want.ID, len(w))
	}
	for i := range g {
		if !sameRow(g[i], w[i]) || g[i].Pub != w[i].Pub || g[i].Rev != w[i].Rev {
			t.Fatalf("%s: record %d is %+v, want %+v", what, i, g[i], w[i])
		}
	}
}

// widePart returns a part that needs every wide column of format 3:
// moments more than 136 years apart, more than 256 distinct values of a
// text field, numbers that no count of decimals holds exactly, a missing
// number, and records published and revised at different times.
func widePart(t *testing.T) (*Layout, *Part) {
	d := testSeries()
	c := newTestCatalog(t, d)
	l := c.layoutOf(d)
	var rows []Row
	for i := range 300 {
		at := rome("1900-01-01 00:00") + int64(i)*int64(200*365*24*3600/300)
		rows = append(rows, Row{Time: at, Text: []string{fmt.Sprintf("zone %03d", i)},
			Num: []float64{math.Pi * float64(i), math.NaN()}, Pub: 1000 + int64(i%3), Rev: 2000 + int64(i%5)})
	}
	p := BuildPart(l, "wide", rows)
	if p.times.wide == nil || p.codes[0].wide == nil || p.nums[0].exact == nil || p.Pub == nil || p.Rev == nil {
		t.Fatal("the test part does not use every wide column")
	}
	return l, p
}

// narrowPart returns a quarter-hourly month of two zones, the common case:
// offsets, one-byte codes and scaled numbers, every record published at once.
func narrowPart(t *testing.T) (*Layout, *Part) {
	d := testSeries()
	c := newTestCatalog(t, d)
	l := c.layoutOf(d)
	var rows []Row
	start := rome("2024-03-01 00:00")
	for i := range 31 * 96 {
		for z, zone := range []string{"North", "South"} {
			rows = append(rows, Row{Time: start + int64(i)*900, Text: []string{zone},
				Num: []float64{float64(20000+i%977) + float64(z)/10, float64(i%1000) / 1000}, Pub: 5000, Rev: 5000})
		}
	}
	p := BuildPart(l, "2024-03", rows)
	if p.times.wide != nil || p.codes[0].small == nil || p.nums[0].scaled == nil || p.Pub != nil {
		t.Fatal("the test part does not use the compact columns")
	}
	return l, p
}

func TestFormat3RoundTrip(t *testing.T) {
	for name, make := range map[string]func(*testing.T) (*Layout, *Part){"wide": widePart, "narrow": narrowPart} {
		l, p := make(t)
		b, err := p.Encode()
		if err != nil || b[0] != partFormat3 {
			t.Fatalf("%s: Encode: format %d, %v", name, b[0], err)
		}
		back, err := DecodePart(l, StoredPart{Version: 4, Written: time.UnixMicro(9), Data: b})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameParts(t, name, back, p)
		n, first, last, err := DecodeSpan(b)
		if lo, hi := p.Span(); err != nil || n != p.Len() || first != lo || last != hi {
			t.Errorf("%s: DecodeSpan: %d records %d..%d (%v), want %d %d..%d", name, n, first, last, err, p.Len(), lo, hi)
		}
	}
	// A part with no records round-trips too.
	l, _ := narrowPart(t)
	empty := BuildPart(l, "2024-04", nil)
	b, _ := empty.Encode()
	if back, err := DecodePart(l, StoredPart{Data: b}); err != nil || back.Len() != 0 || back.ID != "2024-04" {
		t.Errorf("empty part: got %v, %v", back, err)
	}
}

// TestDecodeFormat2 reads a part as the gob format 2 stored it: stores
// written before format 3 keep such parts until an import replaces them.
func TestDecodeFormat2(t *testing.T) {
	l, p := widePart(t)
	codes, nums := make([][]uint16, len(p.codes)), make([][]float64, len(p.nums))
	for i := range codes {
		codes[i] = p.codes[i].all()
	}
	for i := range nums {
		nums[i] = p.nums[i].all()
	}
	var buf bytes.Buffer
	buf.WriteByte(partFormat2)
	if err := gob.NewEncoder(&buf).Encode(wirePart{p.ID, p.times.all(), p.Dicts, codes, nums, p.Stamps, p.Pub, p.Rev}); err != nil {
		t.Fatal(err)
	}
	back, err := DecodePart(l, StoredPart{Data: buf.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	sameParts(t, "format 2", back, p)
}

// TestDecodeDamagedParts cuts and alters an encoded part everywhere: each
// read is an error or a part, never a panic or a huge allocation.
func TestDecodeDamagedParts(t *testing.T) {
	for _, make := range []func(*testing.T) (*Layout, *Part){widePart, narrowPart} {
		l, p := make(t)
		b, _ := p.Encode()
		// Every cut within the header and the first columns, then cuts
		// spread over the rest.
		for n := 0; n < len(b); n += max(1, min(n/64, len(b)/400)) {
			if _, err := DecodePart(l, StoredPart{Data: b[:n]}); err == nil {
				t.Fatalf("a part cut at byte %d of %d decoded", n, len(b))
			}
			DecodeSpan(b[:n])
		}
		step := max(1, len(b)/600)
		for i := 1; i < len(b); i += step {
			for _, v := range []byte{0, 0xff, b[i] ^ 0x80} {
				c := bytes.Clone(b)
				c[i] = v
				DecodePart(l, StoredPart{Data: c})
				DecodeSpan(c)
			}
		}
	}
}

// TestDecodeAllocatesTheColumns: a read allocates about what the decoded
// part keeps. The gob formats allocated three to seven times as much,
// garbage that a server reading cold parts all day must collect.
func TestDecodeAllocatesTheColumns(t *testing.T) {
	l, p := narrowPart(t)
	b, _ := p.Encode()
	// The least of three trials: another goroutine of the test binary
	// allocating meanwhile can only add to one.
	per := math.Inf(1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const reads = 10
		for range reads {
			if _, err := DecodePart(l, StoredPart{Data: b}); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		per = min(per, float64(after.TotalAlloc-before.TotalAlloc)/reads)
	}
	if ratio := per / float64(p.Bytes()); ratio > 1.25 {
		t.Errorf("a read allocates %.0f bytes for a part of %d (%.2f times), want at most 1.25 times", per, p.Bytes(), ratio)
	}
}

func FuzzDecodePart(f *testing.F) {
	d := testSeries()
	c, err := NewCatalog(d)
	if err != nil {
		f.Fatal(err)
	}
	l := c.layoutOf(d)
	p := BuildPart(l, "2024-03", []Row{
		{Time: rome("2024-03-01 10:00"), Text: []string{"North"}, Num: []float64{1.5, math.NaN()}, Pub: 1, Rev: 2},
		{Time: rome("2024-03-01 11:00"), Text: []string{"South"}, Num: []float64{2, 3}, Pub: 1, Rev: 1},
	})
	b, _ := p.Encode()
	f.Add(b)
	f.Add([]byte{partFormat3})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := DecodePart(l, StoredPart{Data: b})
		if err != nil {
			return
		}
		// A part that decodes reads back whole and encodes to what decodes
		// to the same records.
		again, err := got.Encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodePart(l, StoredPart{Data: again})
		if err != nil {
			t.Fatalf("a decoded part's encoding does not decode: %v", err)
		}
		sameParts(t, "re-encoded", back, got)
	})
}
