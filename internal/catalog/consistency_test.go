package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoDatasetsAgree checks that the demo datasets describe one power
// system: in every hour, actual generation plus the net physical import
// across the borders equals the total load plus pumping (pumping, hourly,
// from the balance's identity: within 0.5% of the load, the issue's
// tolerance), and each day's energy balance adds up to the day's load,
// holds the hours' generation by source and the borders' net import.
func TestDemoDatasetsAgree(t *testing.T) {
	t.Parallel()
	from := someDemoLoad()
	load := from.From["total-load"]
	gen := ActualGeneration().Demo(from)
	bal := EnergyBalance().Demo(from)
	first, last := load[0].Time, load[len(load)-1].Time
	var flows []dataset.Row
	for _, r := range PhysicalForeignFlow().Demo(from) {
		if r.Time >= first && r.Time <= last {
			flows = append(flows, r)
		}
	}

	hourLoad := map[int64]float64{} // GWh
	dayLoad := map[energy.Date]float64{}
	for _, r := range load {
		if r.Text[0] == string(energy.Italy) {
			hourLoad[r.Time-r.Time%3600] += r.Num[0] / 4000
			dayLoad[energy.DateOf(time.Unix(r.Time, 0))] += r.Num[0] / 4000
		}
	}
	hourGen := map[int64]float64{}
	daySource := map[[2]string]float64{}
	for _, r := range gen {
		hourGen[r.Time] += r.Num[0]
		daySource[[2]string{energy.DateOf(time.Unix(r.Time, 0)).String(), r.Text[0]}] += r.Num[0]
	}
	hourImport := map[int64]float64{}
	for _, r := range flows {
		hourImport[r.Time] += r.Num[2] / 1000
		daySource[[2]string{energy.DateOf(time.Unix(r.Time, 0)).String(), "Net Foreign Exchange"}] += r.Num[2] / 1000
	}
	if len(hourLoad) != len(hourGen) || len(hourLoad) != len(hourImport) {
		t.Fatalf("got %d hours of load, %d of generation and %d of flows, want the same", len(hourLoad), len(hourGen), len(hourImport))
	}
	dayPumping := map[string]float64{}
	for _, r := range bal {
		if r.Text[0] == "Pumping-consumption" {
			dayPumping[energy.DateOf(time.Unix(r.Time, 0)).String()] = -r.Num[0]
		}
	}
	for u, l := range hourLoad {
		// Pumping is what the balance needs; it must be a plausible
		// pumping load, not a fudge: 0 to 8 GW (Italy's pumped storage).
		pump := hourGen[u] + hourImport[u] - l
		if pump < -0.005*l || pump > 8 {
			t.Errorf("%v: generation %.3f + net import %.3f - load %.3f = %.3f GWh of pumping, want 0 to 8", time.Unix(u, 0), hourGen[u], hourImport[u], l, pump)
		}
	}
	dayBal := map[string]float64{}
	for _, r := range bal {
		day := energy.DateOf(time.Unix(r.Time, 0))
		dayBal[day.String()] += r.Num[0]
		if r.Text[0] == "Pumping-consumption" {
			continue
		}
		want := daySource[[2]string{day.String(), r.Text[0]}]
		if math.Abs(r.Num[0]-want) > 0.001*math.Max(1, math.Abs(want)) {
			t.Errorf("%s %s: energy balance %.3f GWh, want the hours' %.3f", day, r.Text[0], r.Num[0], want)
		}
	}
	for d, l := range dayLoad {
		if got := dayBal[d.String()]; math.Abs(got-l) > 0.005*l {
			t.Errorf("%s: the energy balance adds up to %.3f GWh, want the load %.3f ± 0.5%%", d, got, l)
		}
		if dayPumping[d.String()] <= 0 {
			t.Errorf("%s: no pumping", d)
		}
	}
}
