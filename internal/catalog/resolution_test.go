package catalog

import (
	"testing"

	"github.com/energyapi/energyapi/internal/dataset"
)

// TestResolutionDeclared checks that every time series can be aggregated
// over time, each of its Number fields declaring how, or declares why it
// cannot; and that the other datasets do not take resolution.
func TestResolutionDeclared(t *testing.T) {
	for _, d := range All() {
		if !d.TimeSeries() {
			if d.Takes("resolution") {
				t.Errorf("%s: not a time series but takes resolution", d.Name)
			}
			continue
		}
		if !d.Takes("resolution") {
			t.Errorf("%s: a time series that does not take resolution", d.Name)
		}
		if d.NoResolution != "" {
			continue
		}
		for _, f := range d.Fields {
			if f.Kind == dataset.Number && f.Agg == 0 {
				t.Errorf("%s: field %s declares no aggregation and the dataset no NoResolution", d.Name, f.Name)
			}
		}
		if why := d.ResolutionRefusal(); why != "" {
			t.Errorf("%s: refuses resolution: %s", d.Name, why)
		}
		if got := d.Resolutions(); len(got) == 0 || got[0] != d.FinestGrain() || got[len(got)-1] != dataset.Month {
			t.Errorf("%s: resolutions %v, want its finest grain to a month", d.Name, got)
		}
	}
}
