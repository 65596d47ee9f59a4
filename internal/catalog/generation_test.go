package catalog

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestGenerationDemoRowsAreCanonical checks every generation dataset's demo
// records against its reference lists, as an import would, over a few days
// of demo load for the hourly ones.
func TestGenerationDemoRowsAreCanonical(t *testing.T) {
	t.Parallel()
	c := mustNew(t)
	from := energy.Date{Year: 2024, Month: time.October, Day: 26}
	load := dataset.DemoInput{First: from, Last: from.AddDays(2), Seed: demo.DefaultSeed,
		From: map[string][]dataset.Row{"total-load": TotalLoadRows(demo.TotalLoad(from, from.AddDays(2)))}}
	want := map[string]int{
		"actual-generation":    6 * (24 + 25 + 24),
		"renewable-generation": 4 * (24 + 25 + 24),
		"energy-balance":       8 * 3,
	}
	for _, name := range []string{"actual-generation", "renewable-generation", "energy-balance", "installed-capacity", "generation-plants",
		"thermoelectric-capacity", "electrical-energy-by-source", "renewable-sources-production", "hydric", "thermoelectric-heat"} {
		d, ok := c.Lookup(name)
		if !ok {
			t.Fatalf("no dataset %s", name)
		}
		rows := d.Demo(load)
		if n, ok := want[name]; ok && len(rows) != n {
			t.Errorf("%s: got %d demo records over three days, want %d", name, len(rows), n)
		}
		if len(rows) == 0 {
			t.Errorf("%s: no demo records", name)
		}
		seen := map[string]bool{}
		for _, r := range rows {
			text := append([]string(nil), r.Text...)
			if err := c.Canonical(d, &r); err != nil {
				t.Fatalf("%s: record %v: %v", name, text, err)
			}
			for i := range text {
				if text[i] != r.Text[i] {
					t.Fatalf("%s: record %v is not canonical (%v)", name, text, r.Text)
				}
			}
			k := c.KeyOf(d, r)
			if seen[k] {
				t.Fatalf("%s: record %s twice", name, d.DescribeKey(r))
			}
			seen[k] = true
		}
	}
}
