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

// TestZoneTableIsTheDomainsZones checks that the demo's one table of zone
// parameters covers exactly energy.BiddingZones, in its order (every
// per-zone array of the demo follows it), and that each split of a
// national figure over the zones adds up to the whole.
func TestZoneTableIsTheDomainsZones(t *testing.T) {
	domain := energy.BiddingZones()
	if len(zoneTable) != len(domain) {
		t.Fatalf("zoneTable has %d zones, the domain %d", len(zoneTable), len(domain))
	}
	for i, p := range zoneTable {
		if p.zone != domain[i].Zone {
			t.Errorf("zoneTable[%d] is %s, want %s (energy.BiddingZones order)", i, p.zone, domain[i].Zone)
		}
	}
	for _, c := range energy.Borders() {
		if zoneIndex(BorderZone(c)) < 0 {
			t.Errorf("border %s lands in %s, not a bidding zone", c, BorderZone(c))
		}
	}
	sums := map[string]float64{}
	for _, p := range zoneTable {
		sums["pv"] += p.pv
		sums["wind"] += p.wind
		sums["hydro"] += p.hydro
		sums["geothermal"] += p.geo
		sums["pumping"] += p.pumping
		sums["thermal"] += p.thermal
		sums["capacity"] += 100 * p.capacity
	}
	for name, s := range sums {
		if math.Abs(s-100) > 1e-9 {
			t.Errorf("the zones' %s shares add up to %v%%, want 100%%", name, s)
		}
	}
}
