package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoCoverageFromTheSystem checks that the demo's demand coverage is
// a regional split of the same system's 2023: each source's regions add
// up to the year's actual-generation of that source, the regions' net
// imports (Saldo) add up to the borders' net import less the energy
// balance's pumping, and the national figures sit near Terna's 2023
// statistics (Terna, "Dati statistici 2023": photovoltaic 30.7 TWh, wind
// 23.4 TWh, geothermal 5.7 TWh, net import 51.2 TWh; the demo curtails a
// little photovoltaic and wind when the pumps are full).
func TestDemoCoverageFromTheSystem(t *testing.T) {
	t.Parallel()
	in := demoLoadInput(energy.Date{Year: 2023, Month: time.January, Day: 1}, energy.Date{Year: 2023, Month: time.December, Day: 31})
	cov := map[string]float64{} // GWh by source, all regions
	regions := map[string]bool{}
	for _, r := range DemandCoverageBySource().Demo(in) {
		cov[r.Text[1]] += r.Num[0]
		regions[r.Text[0]] = true
	}
	if len(regions) != 20 {
		t.Errorf("coverage has %d regions, want 20", len(regions))
	}
	gen := map[string]float64{}
	for _, r := range ActualGeneration().Demo(in) {
		gen[r.Text[0]] += r.Num[0]
	}
	var pumping float64
	for _, r := range EnergyBalance().Demo(in) {
		if r.Text[0] == "Pumping-consumption" {
			pumping -= r.Num[0]
		}
	}
	var netImport float64
	for _, r := range PhysicalForeignFlow().Demo(in) {
		netImport += r.Num[2] / 1000
	}
	for _, c := range []struct {
		coverage, generation string
		terna                float64 // TWh
	}{
		{"Fotovoltaico", "Photovoltaic", 30.7},
		{"Eolico", "Wind", 23.4},
		{"Geotermoelettrico", "Geothermal", 5.7},
	} {
		if got, want := cov[c.coverage], gen[c.generation]; math.Abs(got-want) > 0.001*want {
			t.Errorf("%s: coverage adds up to %.1f GWh, actual generation to %.1f", c.coverage, got, want)
		}
		if got := cov[c.coverage] / 1000; got < 0.95*c.terna || got > 1.03*c.terna {
			t.Errorf("%s: %.2f TWh, want Terna's %.1f TWh -5%%/+3%%", c.coverage, got, c.terna)
		}
	}
	if got, want := cov["Idrico rinnovabile"]+cov["Idrico tradizionale"], gen["Hydro"]; math.Abs(got-want) > 0.001*want {
		t.Errorf("hydro: coverage adds up to %.1f GWh, actual generation to %.1f", got, want)
	}
	if got, want := cov["Saldo import/export"], netImport-pumping; math.Abs(got-want) > 0.001*math.Abs(want) {
		t.Errorf("Saldo import/export adds up to %.1f GWh, want net import %.1f less pumping %.1f", got, netImport, pumping)
	}
	if netImport < 0.9*51_200 || netImport > 1.1*51_200 {
		t.Errorf("net import %.0f GWh, want Terna's 51,200 ± 10%%", netImport)
	}
	t.Logf("coverage GWh %v; net import %.0f, pumping %.0f", cov, netImport, pumping)
}
