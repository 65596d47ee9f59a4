package demo

import (
	"math"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

func TestBorderZone(t *testing.T) {
	want := map[string]energy.Zone{"France": energy.North, "Switzerland": energy.North, "Austria": energy.North,
		"Slovenia": energy.North, "Greece": energy.South, "Montenegro": energy.CentreSouth, "Malta": energy.Sicily}
	for _, c := range energy.Borders() {
		if got := BorderZone(c); got != want[c] {
			t.Errorf("BorderZone(%s) = %s, want %s", c, got, want[c])
		}
	}
}

// TestSplitZonesSources checks where the sources stand: geothermal all in
// Centre-North, and with no thermal output each zone generates its
// literal share of photovoltaic, wind and hydro.
func TestSplitZonesSources(t *testing.T) {
	g := GenHour{At: 1704067200, Photovoltaic: 10, Wind: 4, Hydro: 5, Geothermal: 0.6}
	z := SplitZones(g, [7]float64{})
	// North: 42% of PV, 1% of wind, 77% of hydro; Centre-North: 8%, 1%, 4% and all geothermal;
	// Sicily: 9%, 18%, 1%.
	for i, want := range map[int]float64{0: 4.2 + 0.04 + 3.85, 1: 0.8 + 0.04 + 0.2 + 0.6, 5: 0.9 + 0.72 + 0.05} {
		if math.Abs(z.Generation[i]-want) > 1e-9 {
			t.Errorf("zone %d generates %.4f GWh, want %.4f", i, z.Generation[i], want)
		}
	}
}
