package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoZonesBalance checks that every bidding zone balances in every
// hour of three demo weeks (winter, the spring change to summer time,
// summer): the zone's generation (demo.SplitZones), plus the
// net import across its borders (physical-foreign-flow, each border in
// its zone), plus the flows in from the neighbouring zones
// (physical-internal-flow), less the flows out, equals the zone's load
// (total-load) plus its pumping, within 0.5% (the tolerance).
func TestDemoZonesBalance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		first energy.Date
		hours int
	}{
		{energy.Date{Year: 2019, Month: time.January, Day: 14}, 168},
		// 27 March to 2 April 2024: one day of 23 hours (summer time).
		{energy.Date{Year: 2024, Month: time.March, Day: 27}, 167},
		{energy.Date{Year: 2023, Month: time.July, Day: 17}, 168},
	} {
		in := demoLoadInput(c.first, c.first.AddDays(6))
		t.Run(c.first.String(), func(t *testing.T) { checkZonesBalance(t, in, c.hours) })
	}
}

func checkZonesBalance(t *testing.T, in dataset.DemoInput, hours int) {
	zoneOf := map[string]int{}
	for i, z := range energy.Zones()[:7] {
		zoneOf[string(z)] = i
	}
	load := map[int64]*[7]float64{}
	for _, r := range in.From["total-load"] {
		if i, ok := zoneOf[r.Text[0]]; ok {
			h := r.Time - r.Time%3600
			if load[h] == nil {
				load[h] = new([7]float64)
			}
			load[h][i] += r.Num[0] / 4000
		}
	}
	border := map[int64]*[7]float64{}
	for _, r := range PhysicalForeignFlow().Demo(in) {
		if load[r.Time] == nil {
			continue
		}
		if border[r.Time] == nil {
			border[r.Time] = new([7]float64)
		}
		border[r.Time][zoneOf[string(demo.BorderZone(r.Text[0]))]] += r.Num[2] / 1000
	}
	net := map[int64]*[7]float64{} // GWh into each zone from its neighbours
	for _, r := range PhysicalInternalFlow().Demo(in) {
		from, to := linkEnds(t, r)
		if net[r.Time] == nil {
			net[r.Time] = new([7]float64)
		}
		net[r.Time][zoneOf[from]] -= r.Num[0] / 1000
		net[r.Time][zoneOf[to]] += r.Num[0] / 1000
	}
	zones := demo.ZoneHours(in)
	if len(zones) != hours || len(net) != hours {
		t.Fatalf("got %d zonal hours and %d hours of internal flows, want %d", len(zones), len(net), hours)
	}
	var maxFlow float64
	for _, z := range zones {
		for i, name := range energy.Zones()[:7] {
			supply := z.Generation[i] + border[z.At][i] + net[z.At][i]
			use := load[z.At][i] + z.Pumping[i]
			if math.Abs(supply-use) > 0.005*use {
				t.Errorf("%v %s: generation %.3f + border %.3f + inflow %.3f = %.3f GWh, want load %.3f + pumping %.3f ± 0.5%%",
					time.Unix(z.At, 0), name, z.Generation[i], border[z.At][i], net[z.At][i], supply, load[z.At][i], z.Pumping[i])
			}
			if z.Generation[i] < 0 {
				t.Errorf("%v %s: negative generation %.3f GWh", time.Unix(z.At, 0), name, z.Generation[i])
			}
		}
		for _, f := range z.Flows {
			maxFlow = math.Max(maxFlow, math.Abs(f))
		}
	}
	// The largest corridor (Centre-North - North) carries at most about
	// 5 GW; a flow beyond 8 GW would betray a zone split that makes no sense.
	if maxFlow > 8000 {
		t.Errorf("largest internal flow %.0f MW, want at most 8,000", maxFlow)
	}
	t.Logf("largest internal flow %.0f MW", maxFlow)
}

// linkEnds returns the two zones of a physical-internal-flow row.
func linkEnds(t *testing.T, r dataset.Row) (from, to string) {
	t.Helper()
	for _, l := range energy.ZoneLinks() {
		if energy.FlowName(l[0], l[1]) == r.Text[0] {
			return string(l[0]), string(l[1])
		}
	}
	t.Fatalf("unknown link %q", r.Text[0])
	return "", ""
}
