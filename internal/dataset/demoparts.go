package dataset

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// The demo data are a function of the dataset, the part and the demo input
// (range and seed): every part of them has the same bytes, version and
// written time whichever store holds it and whenever it was written, so
// that a store filled on demand (DemoSource) and one written whole by
// `energyapi demo` answer alike, validators included. A part's records
// carry their publication times: those the generator gives them (the
// live service's timing of fees, outages, auctions, reserves), else the
// part's publication (demoPublished).

// DemoVersion is the version of every part of the demo data. A store that
// holds demo data has a data version of at least DemoVersion, so that an
// import's parts get a greater one.
const DemoVersion int64 = 1

// demoPublished is when the demo publishes the records of part id that
// carry no time of their own: at the start (Europe/Rome) of the month or
// year after the part's, but no later than the day after the demo range,
// so that no time is beyond the data's own horizon.
func demoPublished(id string, in DemoInput) int64 {
	_, hi, ok := partSpan(id)
	horizon := in.Last.AddDays(1).Start().Unix()
	if !ok || hi > horizon {
		hi = horizon
	}
	return time.Unix(hi, 0).UnixMicro()
}

// DemoPartsOf generates the demo data of period p of in for the datasets
// want picks among those p holds, and returns their parts as a store
// keeps them: encoded, with DemoVersion, their publication time as
// Written (the latest time a record carries) and their span, sorted by
// ref. It returns an error with code Invalid if a generator gives a
// record twice.
func (c *Catalog) DemoPartsOf(in DemoInput, p DemoPeriod, want func(*Dataset) bool) ([]StoredPart, error) {
	var out []StoredPart
	err := c.eachDemoIn(in, p, want, func(d *Dataset, generate func() []Row) error {
		rows := generate()
		if len(rows) == 0 {
			return nil
		}
		parts, err := c.demoParts(in, d, rows)
		out = append(out, parts...)
		return err
	})
	slices.SortFunc(out, func(a, b StoredPart) int { return compareRef(a.PartRef, b.PartRef) })
	return out, err
}

// demoParts returns the parts of d that rows, generated demo records,
// make.
func (c *Catalog) demoParts(in DemoInput, d *Dataset, rows []Row) ([]StoredPart, error) {
	im, err := groupBatches(c, []Batch{{d, rows}})
	if err != nil {
		return nil, err
	}
	if err := im.checkDuplicates(); err != nil {
		return nil, err
	}
	g := im.groups[d.Name]
	out := make([]StoredPart, 0, len(im.refs))
	for _, ref := range im.refs {
		at := demoPublished(ref.ID, in)
		p, _, _, err := Merge(g.l, d.Grain, ref.ID, nil, g.byPart[ref.ID], at)
		if err != nil {
			return nil, err
		}
		b, err := p.Encode()
		if err != nil {
			return nil, err
		}
		sp := p.Stored(ref, b)
		sp.Version, sp.Written = DemoVersion, time.UnixMicro(max(at, slices.Max(p.Stamps))).UTC()
		out = append(out, sp)
	}
	return out, nil
}

func compareRef(a, b PartRef) int {
	return cmp.Or(strings.Compare(a.Dataset, b.Dataset), strings.Compare(a.ID, b.ID))
}

// DemoPart is what a DemoManifest says of one part: what a store lists of
// it once written, and the period whose generation writes it. Of a
// derived dataset's part (Derived), the extent of what it derives from
// its source's demo part, and no period.
type DemoPart struct {
	PartRef
	Period      string // DemoPeriod.String(); "" for a derived part
	Records     int
	First, Last int64
	Written     time.Time
}

// Stored returns the part as a store lists it: without its bytes.
func (p DemoPart) Stored() StoredPart {
	return StoredPart{PartRef: p.PartRef, Version: DemoVersion, Written: p.Written, Records: p.Records, First: p.First, Last: p.Last}
}

// DemoManifest lists every part of the demo data of one input, so that a
// server knows what they hold before a single one is generated.
type DemoManifest struct {
	In      DemoInput
	Parts   []DemoPart // sorted by ref
	Derived []DemoPart // the derived datasets' parts, sorted by ref
}

// BuildDemoManifest generates the whole demo data of in, period by period,
// and lists its parts: what scripts/demomanifest writes, minutes of work.
// each, when not nil, is told of each period as it is done.
func BuildDemoManifest(c *Catalog, in DemoInput, each func(p DemoPeriod)) (*DemoManifest, error) {
	m := &DemoManifest{In: in}
	seen := map[PartRef]bool{}
	for _, p := range DemoPeriods(in) {
		parts, err := c.DemoPartsOf(in, p, func(*Dataset) bool { return true })
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", p, err)
		}
		for _, sp := range parts {
			// A part that several periods make (the auctions' months,
			// beyond the range, which every month's generation makes) is
			// the first's to write: the newest.
			if seen[sp.PartRef] {
				continue
			}
			seen[sp.PartRef] = true
			m.Parts = append(m.Parts, DemoPart{PartRef: sp.PartRef, Period: p.String(), Records: sp.Records, First: sp.First, Last: sp.Last, Written: sp.Written})
			derived, err := c.derivedDemoParts(sp)
			if err != nil {
				return nil, err
			}
			m.Derived = append(m.Derived, derived...)
		}
		if each != nil {
			each(p)
		}
	}
	byRef := func(a, b DemoPart) int { return compareRef(a.PartRef, b.PartRef) }
	slices.SortFunc(m.Parts, byRef)
	slices.SortFunc(m.Derived, byRef)
	return m, nil
}

// derivedDemoParts returns the extents of what the derived datasets of c
// derive from sp, a demo part of their source.
func (c *Catalog) derivedDemoParts(sp StoredPart) ([]DemoPart, error) {
	var out []DemoPart
	for _, d := range c.list {
		if d.Derive == nil || d.Derive.From != sp.Dataset {
			continue
		}
		src, err := DecodePart(c.layoutOf(c.byName[sp.Dataset]), sp)
		if err != nil {
			return nil, err
		}
		p := BuildPart(c.layoutOf(d), sp.ID, d.Derive.Rows(src))
		first, last := p.Span()
		out = append(out, DemoPart{PartRef: PartRef{d.Name, sp.ID}, Records: p.Len(), First: first, Last: last, Written: sp.Written})
	}
	return out, nil
}

// manifestHeader begins a manifest's text: its input, then the columns.
const manifestHeader = "# energyapi demo manifest: first %s last %s seed %d stats %d\n"

// WriteTo writes m as text: a header naming its input, then a line per
// part, tab-separated: dataset, part ID, period ("derived" for a derived
// part), records, first and last moments (Unix seconds), written (Unix
// microseconds).
func (m *DemoManifest) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, manifestHeader, m.In.First, m.In.Last, m.In.Seed, m.In.StatsFirst)
	line := func(p DemoPart, period string) {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%d\t%d\t%d\n", p.Dataset, p.ID, period, p.Records, p.First, p.Last, p.Written.UnixMicro())
	}
	for _, p := range m.Parts {
		line(p, p.Period)
	}
	for _, p := range m.Derived {
		line(p, "derived")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ParseDemoManifest reads what WriteTo wrote.
func ParseDemoManifest(r io.Reader) (*DemoManifest, error) {
	sc := bufio.NewScanner(r)
	if !sc.Scan() {
		return nil, fmt.Errorf("demo manifest: empty")
	}
	m := &DemoManifest{}
	var first, last string
	if _, err := fmt.Sscanf(sc.Text()+"\n", manifestHeader, &first, &last, &m.In.Seed, &m.In.StatsFirst); err != nil {
		return nil, fmt.Errorf("demo manifest: header %q: %w", sc.Text(), err)
	}
	var err error
	if m.In.First, m.In.Last, err = manifestRange(first, last); err != nil {
		return nil, err
	}
	for n := 2; sc.Scan(); n++ {
		p, derived, err := parseManifestLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("demo manifest line %d: %w", n, err)
		}
		if derived {
			m.Derived = append(m.Derived, p)
		} else {
			m.Parts = append(m.Parts, p)
		}
	}
	return m, sc.Err()
}

// manifestRange parses the days of a manifest's header.
func manifestRange(first, last string) (energy.Date, energy.Date, error) {
	var days [2]energy.Date
	for i, s := range []string{first, last} {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return days[0], days[1], fmt.Errorf("demo manifest: range: %w", err)
		}
		days[i] = energy.DateOf(t)
	}
	return days[0], days[1], nil
}

func parseManifestLine(line string) (p DemoPart, derived bool, err error) {
	f := strings.Split(line, "\t")
	if len(f) != 7 {
		return p, false, fmt.Errorf("%d fields, want 7", len(f))
	}
	p.Dataset, p.ID, p.Period = f[0], f[1], f[2]
	var n [4]int64
	for i, s := range f[3:] {
		if n[i], err = strconv.ParseInt(s, 10, 64); err != nil {
			return p, false, err
		}
	}
	p.Records, p.First, p.Last, p.Written = int(n[0]), n[1], n[2], time.UnixMicro(n[3]).UTC()
	if p.Period == "derived" {
		p.Period, derived = "", true
	}
	return p, derived, nil
}
