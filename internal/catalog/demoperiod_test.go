package catalog

import (
	"fmt"
	"hash/fnv"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// partPrints returns a fingerprint of each part's rows, by dataset and part.
func partPrints(d *dataset.Dataset, rows []dataset.Row, into map[dataset.PartRef]uint64) {
	h := map[dataset.PartRef][]dataset.Row{}
	for _, r := range rows {
		ref := dataset.PartRef{Dataset: d.Name, ID: dataset.PartID(d.Grain, r.Time)}
		h[ref] = append(h[ref], r)
	}
	for ref, rs := range h {
		f := fnv.New64a()
		for _, r := range rs {
			fmt.Fprintf(f, "%d %q %v %d %d\n", r.Time, r.Text, r.Num, r.Pub, r.Rev)
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
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	in := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.February, Day: 20}, Last: energy.Date{Year: 2024, Month: time.April, Day: 3}, Seed: demo.DefaultSeed}
	whole := map[dataset.PartRef]uint64{}
	err = c.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		partPrints(d, generate(), whole)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	periods := dataset.DemoPeriods(in)
	if got := fmt.Sprint(periods); got != "[2024 2024-04 2024-03 2024-02]" {
		t.Errorf("periods: got %s, want [2024 2024-04 2024-03 2024-02]", got)
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
	for _, d := range c.All() {
		if d.Demo != nil && !written[d.Name] {
			t.Errorf("%s: no period writes its demo data", d.Name)
		}
	}
	for ref := range whole {
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
