package catalog

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// partPrints adds a fingerprint of each part's rows, by dataset and part.
func partPrints(d *dataset.Dataset, rows []dataset.Row, into map[dataset.PartRef]uint64) {
	h := map[dataset.PartRef][]dataset.Row{}
	for _, r := range rows {
		ref := dataset.PartRef{Dataset: d.Name, ID: dataset.PartID(d.Grain, r.Time)}
		h[ref] = append(h[ref], r)
	}
	for ref, rs := range h {
		// In any order: a part holds its records sorted, whatever order
		// the generator gave them in. A hash of each row's fields, written
		// as binary rather than formatted (which was most of this test's
		// time), then of the rows' hashes sorted.
		prints := make([]uint64, len(rs))
		var b []byte
		for i, r := range rs {
			b = binary.LittleEndian.AppendUint64(b[:0], uint64(r.Time))
			b = binary.LittleEndian.AppendUint64(b, uint64(len(r.Text)))
			for _, t := range r.Text {
				b = binary.LittleEndian.AppendUint64(b, uint64(len(t)))
				b = append(b, t...)
			}
			b = binary.LittleEndian.AppendUint64(b, uint64(len(r.Num)))
			for _, n := range r.Num {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(n))
			}
			b = binary.LittleEndian.AppendUint64(b, uint64(r.Pub))
			b = binary.LittleEndian.AppendUint64(b, uint64(r.Rev))
			f := fnv.New64a()
			f.Write(b)
			prints[i] = f.Sum64()
		}
		slices.Sort(prints)
		f := fnv.New64a()
		for _, p := range prints {
			f.Write(binary.LittleEndian.AppendUint64(b[:0], p))
		}
		into[ref] = f.Sum64()
	}
}

// TestDemoPeriodsMatchTheWholeRange proves that the demo data of a range,
// generated period by period as serve --demo writes them (months, and
// years for the datasets kept by year), are exactly the data of the whole
// range generated at once, for every dataset of the catalogue: the same
// parts, each with the same records. The range starts and ends within a
// month and spans the spring clock change.
func TestDemoPeriodsMatchTheWholeRange(t *testing.T) {
	t.Parallel()
	c := mustNew(t)
	in := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.March, Day: 25}, Last: energy.Date{Year: 2024, Month: time.April, Day: 3}, Seed: demo.DefaultSeed}
	// The whole range is generated while the periods are, in a goroutine
	// of its own: neither reads the other's records.
	whole := map[dataset.PartRef]uint64{}
	wholeDone := make(chan error, 1)
	go func() {
		wholeDone <- c.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
			partPrints(d, generate(), whole)
			return nil
		})
	}()
	periods := dataset.DemoPeriods(in)
	if got := fmt.Sprint(periods); got != "[2024 2024-04 2024-03]" {
		t.Errorf("periods: got %s, want [2024 2024-04 2024-03]", got)
	}
	byPeriods := map[dataset.PartRef]uint64{}
	written := map[string]bool{}
	for _, p := range periods {
		err := c.EachDemoIn(in, p, func(d *dataset.Dataset, generate func() []dataset.Row) error {
			written[d.Name] = true
			got := map[dataset.PartRef]uint64{}
			partPrints(d, generate(), got)
			for ref, f := range got {
				if prev, ok := byPeriods[ref]; ok && prev != f {
					t.Errorf("%s part %s: period %s gives other records than an earlier period", ref.Dataset, ref.ID, p)
				}
				byPeriods[ref] = f
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := <-wholeDone; err != nil {
		t.Fatal(err)
	}
	for _, d := range c.All() {
		if d.Demo != nil && !written[d.Name] {
			t.Errorf("%s: no period writes its demo data", d.Name)
		}
	}
	reads := map[string]bool{} // datasets that read others
	for _, d := range c.All() {
		reads[d.Name] = len(d.DemoFrom) > 0
	}
	for ref := range whole {
		if reads[ref.Dataset] && ref.ID[:4] < fmt.Sprint(in.First.Year) {
			// A year before the range: the whole range makes it from the
			// statistics, serve --demo from that year's own period
			// (StatsFirst; TestDemoYearPeriodsKeepTheirYear).
			continue
		}
		switch f, ok := byPeriods[ref]; {
		case !ok:
			t.Errorf("%s part %s: in the whole range, from no period", ref.Dataset, ref.ID)
		case f != whole[ref]:
			t.Errorf("%s part %s: the periods give other records than the whole range", ref.Dataset, ref.ID)
		}
	}
	for ref := range byPeriods {
		if _, ok := whole[ref]; !ok {
			t.Errorf("%s part %s: from a period, not in the whole range", ref.Dataset, ref.ID)
		}
	}
}

// TestDemoYearPeriodsKeepTheirYear proves that in each year period a
// dataset that reads other datasets gives records of that year only:
// electrical energy by type makes every year from what it is given, and a
// year written by another year's period would depend on the order of the
// fill.
func TestDemoYearPeriodsKeepTheirYear(t *testing.T) {
	t.Parallel()
	c := mustNew(t)
	in := dataset.DemoInput{First: energy.Date{Year: 2023, Month: time.January, Day: 1}, Last: energy.Date{Year: 2024, Month: time.December, Day: 31}, Seed: demo.DefaultSeed, StatsFirst: 2022}
	for _, p := range dataset.DemoPeriods(in) {
		if !p.Year {
			continue
		}
		err := c.EachDemoIn(in, p, func(d *dataset.Dataset, generate func() []dataset.Row) error {
			rows := generate()
			if len(d.DemoFrom) > 0 && len(rows) == 0 {
				t.Errorf("%s: no records in period %s", d.Name, p)
			}
			for _, r := range rows {
				if id := dataset.PartID(d.Grain, r.Time); len(d.DemoFrom) > 0 && id != p.String() {
					t.Errorf("%s: period %s gives a record of %s", d.Name, p, id)
					break
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
