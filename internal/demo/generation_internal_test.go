package demo

import (
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

// A misspelt province in a weight table would silently get no share.
func TestGenerationWeightsNameProvinces(t *testing.T) {
	for name, w := range map[string]map[string]float64{"wind": windProvinces(), "hydro": hydroProvinces(), "geothermal": geoProvinces()} {
		for p := range w {
			if _, ok := energy.RegionOf(p); !ok {
				t.Errorf("%s: province %q is not in the reference list", name, p)
			}
		}
	}
}
