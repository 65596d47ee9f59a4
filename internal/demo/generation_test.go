package demo_test

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// hourlyLoad returns Italy's demo load of 2024, hour by hour.
func hourlyLoad(tb testing.TB) []demo.HourLoad {
	tb.Helper()
	from := energy.Date{Year: 2024, Month: time.January, Day: 1}
	to := energy.Date{Year: 2024, Month: time.December, Day: 31}
	var out []demo.HourLoad
	for _, p := range demo.TotalLoad(from, to) {
		if p.Zone != energy.Italy {
			continue
		}
		h := p.At.Unix() - p.At.Unix()%3600
		if len(out) == 0 || out[len(out)-1].At != h {
			out = append(out, demo.HourLoad{At: h})
		}
		out[len(out)-1].GW += p.TotalMW / 4000
	}
	return out
}

func TestGenerationMeetsTheLoad(t *testing.T) {
	load := hourlyLoad(t)
	if len(load) != 8784 {
		t.Fatalf("got %d hours in 2024, want 8784", len(load))
	}
	gen := demo.Generation(load, demo.DefaultSeed)
	if !reflect.DeepEqual(gen, demo.Generation(load, demo.DefaultSeed)) {
		t.Fatal("two calls returned different hours, want the same")
	}
	var pv, wind, hydro, geo, imp float64
	for i, g := range gen {
		supply := g.Thermal + g.Wind + g.Geothermal + g.Photovoltaic + g.Self + g.Hydro + g.NetImport - g.Pumping
		if math.Abs(supply-load[i].GW) > 1e-5 {
			t.Fatalf("hour %d: generation and imports give %v GWh, want the load %v", i, supply, load[i].GW)
		}
		if g.Thermal < 5-1e-5 || // 1e-5: the rounding of eight terms to the kWh
			g.Wind < 0 || g.Photovoltaic < 0 || g.Hydro < 0 || g.Pumping < 0 {
			t.Fatalf("hour %d: got %+v, want thermal at least 5 GWh and no negative output", i, g)
		}
		if h := time.Unix(g.At, 0).In(energy.Rome()).Hour(); (h < 4 || h > 22) && g.Photovoltaic != 0 {
			t.Errorf("hour %d (%02d:00): photovoltaic %v at night, want 0", i, h, g.Photovoltaic)
		}
		pv += g.Photovoltaic
		wind += g.Wind
		hydro += g.Hydro
		geo += g.Geothermal
		imp += g.NetImport
	}
	// 2024's published figures, TWh, which the yearly statistics use too.
	// Photovoltaic and wind give up to 2% of it to curtailment in the
	// hours of surplus.
	for _, c := range []struct {
		name      string
		got, want float64
		curtailed float64
	}{{"photovoltaic", pv, 36.1, 0.02}, {"wind", wind, 22.1, 0.02}, {"hydro", hydro, 52.0, 0}, {"geothermal", geo, 5.3, 0}} {
		// A leap year has one day more than the 8760 hours the mean is taken over.
		want := c.want * 8784 / 8760
		if got := c.got / 1000; got > want+0.01 || got < want*(1-c.curtailed)-0.01 {
			t.Errorf("%s: got %.3f TWh in 2024, want %.3f (%.0f%% less at most)", c.name, got, want, 100*c.curtailed)
		}
	}
	if mean := imp / float64(len(gen)); mean < 4.5 || mean > 6.5 {
		t.Errorf("net imports: got a mean of %.2f GW, want about 5 to 6", mean)
	}
}

func TestDailySumsHours(t *testing.T) {
	hours := []demo.GenHour{
		{At: time.Date(2024, 3, 31, 0, 0, 0, 0, energy.Rome()).Unix(), Thermal: 10, Pumping: 0.5, NetImport: 6.25},
		{At: time.Date(2024, 3, 31, 23, 0, 0, 0, energy.Rome()).Unix(), Thermal: 11, Wind: 1},
		{At: time.Date(2024, 4, 1, 0, 0, 0, 0, energy.Rome()).Unix(), Thermal: 9, Photovoltaic: 0.125},
	}
	want := []demo.GenHour{
		{At: time.Date(2024, 3, 31, 0, 0, 0, 0, energy.Rome()).Unix(), Thermal: 21, Wind: 1, Pumping: 0.5, NetImport: 6.25},
		{At: time.Date(2024, 4, 1, 0, 0, 0, 0, energy.Rome()).Unix(), Thermal: 9, Photovoltaic: 0.125},
	}
	if got := demo.Daily(hours); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestGenerationStatsAgree(t *testing.T) {
	s := demo.GenerationStats()
	if !reflect.DeepEqual(s, demo.GenerationStats()) {
		t.Fatal("two calls returned different statistics, want the same")
	}
	type yp struct {
		year     int
		province string
	}
	// Hydro: the hydric records add up to the renewable sources' Idrico.
	hydric, idrico := map[yp]float64{}, map[yp]float64{}
	for _, h := range s.Hydric {
		if h.Type == energy.Netta {
			hydric[yp{h.Year, h.Province}] += h.Value
		}
	}
	bio := map[yp]float64{}
	for _, r := range s.RenewableSources {
		if r.Type != energy.Netta {
			continue
		}
		switch r.Kind {
		case "Idrico":
			idrico[yp{r.Year, r.Province}] = r.Value
		case "Bioenergie":
			bio[yp{r.Year, r.Province}] = r.Value
		}
	}
	if len(idrico) == 0 || len(idrico) != len(hydric) {
		t.Fatalf("got Idrico in %d province-years and hydric records in %d, want the same, not zero", len(idrico), len(hydric))
	}
	for k, v := range idrico {
		if math.Abs(hydric[k]-v) > 0.002 {
			t.Errorf("%v: hydric records add up to %v GWh, renewable Idrico says %v", k, hydric[k], v)
		}
	}
	// Bioenergies burn in thermoelectric plants: never more than their net production.
	thermo := map[yp]float64{}
	for _, r := range thermoRecs(t) {
		if r.CapacityType == energy.Netta {
			thermo[yp{r.Year, r.Province}] += r.ProductionGWh
		}
	}
	for k, v := range bio {
		if v > thermo[k] {
			t.Errorf("%v: bioenergies %v GWh above net thermoelectric production %v", k, v, thermo[k])
		}
	}
	// Installed capacity is the sum of the plants' net efficient power.
	plants := map[int]map[string]float64{}
	for _, p := range s.GenerationPlants {
		if p.Type != energy.Netta {
			continue
		}
		if plants[p.Year] == nil {
			plants[p.Year] = map[string]float64{}
		}
		plants[p.Year][p.Kind] += p.Value
	}
	if len(s.InstalledCapacity) != 5*(demo.ThermoLastYear-demo.ThermoFirstYear+1) {
		t.Fatalf("got %d installed-capacity records, want 5 types a year", len(s.InstalledCapacity))
	}
	for _, c := range s.InstalledCapacity {
		p := plants[c.Year]
		want := map[string]float64{
			"Thermal": p["Termoelettrico"] + p["Bioenergie"], "Wind": p["Eolico"], "Geothermal": p["Geotermoelettrico"],
			"Photovoltaic": p["Fotovoltaico"], "Hydro": p["Idrico"],
		}[c.Type] / 1000
		if math.Abs(c.Value-want) > 0.006 {
			t.Errorf("%d %s: got %v GW, want the plants' %v", c.Year, c.Type, c.Value, want)
		}
	}
	// Net production by region and source adds up to the renewable and thermoelectric totals.
	var bySource, parts float64
	for _, e := range s.EnergyBySource {
		if e.Year == 2023 {
			bySource += e.Value
		}
	}
	for k, v := range thermo {
		if k.year == 2023 {
			parts += v
		}
	}
	for _, r := range s.RenewableSources {
		if r.Year == 2023 && r.Type == energy.Netta && r.Kind != "Bioenergie" {
			parts += r.Value
		}
	}
	if math.Abs(bySource-parts) > 1 {
		t.Errorf("2023: energy by source adds up to %v GWh, thermoelectric and renewable production to %v", bySource, parts)
	}
	// Every cogeneration plant of a listed kind has its heat.
	if len(s.ThermoHeat) == 0 || len(s.ThermoCapacity) == 0 {
		t.Error("no thermoelectric heat or capacity records")
	}
}
