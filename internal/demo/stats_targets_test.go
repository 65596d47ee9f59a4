package demo

import (
	"math"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

func TestThermoelectricGrossMatchesPublished(t *testing.T) {
	// Italy's gross thermoelectric production (biomass included), TWh:
	// Terna, "Dati statistici sull'energia elettrica in Italia",
	// Produzione lorda, as gross production less hydro, geothermal, wind
	// and photovoltaic; 2024 from Terna's provisional yearly figures.
	published := map[int]float64{
		2015: 192.1, 2016: 199.4, 2017: 209.5, 2018: 192.7, 2019: 195.7,
		2020: 181.3, 2021: 189.9, 2022: 199.1, 2023: 163.6, 2024: 156.5,
	}
	got := map[int]float64{}
	for _, r := range thermoRecords() {
		if r.CapacityType == energy.Lorda {
			got[r.Year] += r.ProductionGWh / 1000
		}
	}
	for y, want := range published {
		if math.Abs(got[y]-want)/want > 0.10 {
			t.Errorf("%d: got %.1f TWh gross, want %.1f ± 10%%", y, got[y], want)
		}
	}
}

func TestThermoelectricRegionsRankAsPublished(t *testing.T) {
	// Terna's regional statistics put Puglia (Brindisi, Taranto, the
	// Foggia and Bari combined cycles) ahead of Emilia-Romagna in gross
	// thermoelectric production, and Valle d'Aosta last: a few GWh.
	gross := map[int]map[string]float64{}
	for _, r := range thermoRecords() {
		if r.CapacityType != energy.Lorda {
			continue
		}
		if gross[r.Year] == nil {
			gross[r.Year] = map[string]float64{}
		}
		gross[r.Year][r.Region] += r.ProductionGWh
	}
	for y, g := range gross {
		if g["Puglia"] <= g["Emilia-Romagna"] {
			t.Errorf("%d: got Puglia %.0f GWh and Emilia-Romagna %.0f, want Puglia ahead", y, g["Puglia"], g["Emilia-Romagna"])
		}
		if v := g["Valle d'Aosta"]; v <= 0 || v > 100 {
			t.Errorf("%d: got Valle d'Aosta %.1f GWh, want a little above zero (at most 100)", y, v)
		}
	}
}

// TestEveryRegionEveryYear checks that each yearly statistic names every
// region in every year, and Sud Sardegna only from 2016, when regional law
// 2/2016 created it.
func TestEveryRegionEveryYear(t *testing.T) {
	stats := GenerationStats()
	type rec struct {
		year             int
		region, province string
	}
	sets := map[string][]rec{}
	for _, r := range thermoRecords() {
		sets["thermoelectric"] = append(sets["thermoelectric"], rec{r.Year, r.Region, r.Province})
	}
	for name, ps := range map[string][]ProvinceStat{"renewable sources": stats.RenewableSources, "generation plants": stats.GenerationPlants} {
		for _, r := range ps {
			sets[name] = append(sets[name], rec{r.Year, r.Region, r.Province})
		}
	}
	for _, r := range stats.ThermoCapacity {
		sets["thermoelectric capacity"] = append(sets["thermoelectric capacity"], rec{r.Year, r.Region, r.Province})
	}
	for _, r := range stats.EnergyBySource {
		sets["energy by source"] = append(sets["energy by source"], rec{r.Year, r.Region, ""})
	}
	for name, recs := range sets {
		regions := map[int]map[string]bool{}
		for _, r := range recs {
			if r.province == "Sud Sardegna" && r.year < 2016 {
				t.Errorf("%s: Sud Sardegna in %d, before it existed", name, r.year)
			}
			if regions[r.year] == nil {
				regions[r.year] = map[string]bool{}
			}
			regions[r.year][r.region] = true
		}
		for y := ThermoFirstYear; y <= ThermoLastYear; y++ {
			for _, region := range energy.Regions() {
				if !regions[y][region] {
					t.Errorf("%s: no %s in %d", name, region, y)
				}
			}
		}
	}
}

func TestRenewableSharesMatchPublished(t *testing.T) {
	// The share of demand renewables covered, %: Terna's yearly press
	// releases (31.0 in 2022 and 36.8 in 2023, January 2024; 41.2 in
	// 2024, January 2025). Within 3 points.
	published := map[int]float64{2022: 31.0, 2023: 36.8, 2024: 41.2}
	netGWh := map[int]float64{}
	for _, r := range GenerationStats().RenewableSources {
		if r.Type == energy.Netta {
			netGWh[r.Year] += r.Value
		}
	}
	demand := map[int]float64{}
	for _, p := range italyLoad() {
		demand[p.At.In(energy.Rome()).Year()] += p.TotalMW / 4000
	}
	for y, want := range published {
		if got := 100 * netGWh[y] / demand[y]; math.Abs(got-want) > 3 {
			t.Errorf("%d: got a renewable share of %.1f%%, want %.1f ± 3", y, got, want)
		}
	}
}
