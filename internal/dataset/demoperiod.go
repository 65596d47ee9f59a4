package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// DemoPeriod is a span of demo data generated and written as one: a
// calendar month of the datasets kept in monthly parts (those finer than
// a month), or a calendar year of those kept in yearly parts, cut to the
// demo range. Generators make each hour or day from that moment's own
// state, so a period generated alone gives exactly the records the whole
// range gives for its parts, and demo data can be written a period at a
// time, in any order.
type DemoPeriod struct {
	First, Last energy.Date // both included
	Year        bool
}

// String names the period as its parts are named: "2025-12" or "2025".
func (p DemoPeriod) String() string {
	if p.Year {
		return fmt.Sprintf("%04d", p.First.Year)
	}
	return fmt.Sprintf("%04d-%02d", p.First.Year, int(p.First.Month))
}

// DemoPeriods returns the periods of in's range, newest first, each year
// before its months: the order in which a client is likeliest to ask.
// Years from in.StatsFirst to the range's first follow, whole, for the
// yearly datasets that read the time series.
func DemoPeriods(in DemoInput) []DemoPeriod {
	clip := func(p DemoPeriod) DemoPeriod {
		if p.First.Compare(in.First) < 0 {
			p.First = in.First
		}
		if p.Last.Compare(in.Last) > 0 {
			p.Last = in.Last
		}
		return p
	}
	var out []DemoPeriod
	for y := in.Last.Year; y >= in.First.Year; y-- {
		out = append(out, clip(DemoPeriod{First: energy.Date{Year: y, Month: time.January, Day: 1}, Last: energy.Date{Year: y, Month: time.December, Day: 31}, Year: true}))
		for m := time.December; m >= time.January; m-- {
			first := energy.Date{Year: y, Month: m, Day: 1}
			next := first.AddDays(31)
			last := energy.Date{Year: next.Year, Month: next.Month, Day: 1}.AddDays(-1)
			if last.Compare(in.First) < 0 || first.Compare(in.Last) > 0 {
				continue
			}
			out = append(out, clip(DemoPeriod{First: first, Last: last}))
		}
	}
	for y := in.First.Year - 1; y >= in.StatsFirst && in.StatsFirst > 0; y-- {
		out = append(out, DemoPeriod{First: energy.Date{Year: y, Month: time.January, Day: 1}, Last: energy.Date{Year: y, Month: time.December, Day: 31}, Year: true})
	}
	return out
}

// Holds reports whether the demo data of d are written with period p of
// in's range: with its months if d's parts are months, with its years if
// they are years. A yearly dataset that reads no other dataset's records
// (the yearly statistics) does not depend on the range at all: it is
// written once, with the newest year.
func (p DemoPeriod) Holds(d *Dataset, in DemoInput) bool {
	switch {
	case d.Demo == nil || (d.Grain >= Month) != p.Year:
		return false
	case p.Year && len(d.DemoFrom) == 0:
		return p.Last.Year == in.Last.Year
	case p.Last.Compare(in.First) < 0: // a year before the range
		return d.Grain == Year
	}
	return true
}

// Refs returns the parts that period p of in's range holds for the
// datasets of c: those its generators write, except the ones of datasets
// whose demo data reach beyond the range (the auctions' month).
func (p DemoPeriod) Refs(c *Catalog, in DemoInput) []PartRef {
	var refs []PartRef
	for _, d := range c.All() {
		if p.Holds(d, in) {
			refs = append(refs, PartRef{Dataset: d.Name, ID: PartID(d.Grain, p.First.Start().Unix())})
		}
	}
	return refs
}

// EachDemoIn calls fn for each dataset of c whose demo data period p
// holds, in catalogue order, with a generate function that runs its
// generator on in's range cut to p; the datasets DemoFrom names are
// generated for p first, whether p holds them or not. Of a dataset that
// reads others, generate keeps only the records of p's own part: what it
// makes of other years (electrical energy by type falls back on the
// statistics for years it sees no demand coverage of) is its own
// period's to write. EachDemoIn returns fn's first error.
func (c *Catalog) EachDemoIn(in DemoInput, p DemoPeriod, fn func(d *Dataset, generate func() []Row) error) error {
	return c.eachDemoIn(in, p, func(*Dataset) bool { return true }, fn)
}

// eachDemoIn is EachDemoIn for the datasets want picks.
func (c *Catalog) eachDemoIn(in DemoInput, p DemoPeriod, want func(*Dataset) bool, fn func(d *Dataset, generate func() []Row) error) error {
	cut := in
	cut.First, cut.Last = p.First, p.Last
	return c.eachDemo(cut, func(d *Dataset) bool { return p.Holds(d, in) && want(d) }, func(_, _ int, d *Dataset, generate func() []Row) error {
		if len(d.DemoFrom) == 0 {
			return fn(d, generate)
		}
		return fn(d, func() []Row {
			id, ids := p.String(), partIDs{grain: d.Grain}
			return slices.DeleteFunc(slices.Clone(generate()), func(r Row) bool { return ids.of(r.Time) != id })
		})
	})
}

// eachDemo is EachDemo for the datasets want picks: the datasets they read
// (DemoFrom, transitively) are generated too, in catalogue order, but not
// given to fn, and a picked dataset that a later one reads is generated
// whether fn calls generate or not.
func (c *Catalog) eachDemo(in DemoInput, want func(*Dataset) bool, fn func(k, n int, d *Dataset, generate func() []Row) error) error {
	byName := map[string]*Dataset{}
	for _, d := range c.All() {
		byName[d.Name] = d
	}
	needed := map[string]bool{} // datasets whose rows later generators read
	var need func(d *Dataset)
	need = func(d *Dataset) {
		for _, from := range d.DemoFrom {
			if !needed[from] {
				needed[from] = true
				need(byName[from])
			}
		}
	}
	n := 0
	for _, d := range c.All() {
		if d.Demo != nil && want(d) {
			n++
			need(d)
		}
	}
	generated, shared := map[string][]Row{}, in.shared
	if shared == nil {
		shared = &sync.Map{}
	}
	k := 0
	for _, d := range c.All() {
		if d.Demo == nil || !want(d) && !needed[d.Name] {
			continue
		}
		var rows []Row
		done := false
		generate := func() []Row {
			if !done {
				rows, done = d.Demo(DemoInput{From: generated, First: in.First, Last: in.Last, Seed: in.Seed, Grain: d.Grain, GrainChanges: d.GrainChanges, shared: shared}), true
				if needed[d.Name] {
					generated[d.Name] = rows
				}
			}
			return rows
		}
		if !want(d) {
			generate()
			continue
		}
		if err := fn(k, n, d, generate); err != nil {
			return err
		}
		if needed[d.Name] {
			generate() // a later generator reads them, whether fn did or not
		}
		k++
	}
	return nil
}

// errProbe ends HeldParts' transaction without writing.
var errProbe = errors.New("probe")

// HeldParts returns which of refs the store behind w holds. It reads them
// in an import transaction that it rolls back: it writes nothing and
// records no import.
func HeldParts(ctx context.Context, w PartWriter, refs []PartRef) (map[PartRef]bool, error) {
	held := map[PartRef]bool{}
	if len(refs) == 0 {
		return held, nil
	}
	_, err := w.UpdateParts(ctx, refs[0].Dataset, time.Time{}, refs, func(stored []StoredPart, _ time.Time) ([]StoredPart, energy.ImportStats, error) {
		for _, sp := range stored {
			held[sp.PartRef] = true
		}
		return nil, energy.ImportStats{}, errProbe
	})
	if err != nil && !errors.Is(err, errProbe) {
		return nil, fmt.Errorf("held parts: %w", err)
	}
	return held, nil
}
