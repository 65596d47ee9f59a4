package demo

import (
	"slices"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The yearly statistics' demo rows: the generation statistics
// (GenerationStats) and the load statistics (System.LoadStats), each
// dataset's texts in its fields' order.

// EnergyBySource writes electrical-energy-by-source: year, production
// type, region, province, source.
func EnergyBySource(in dataset.DemoInput) []dataset.Row {
	return provinceRows(generationStats(in).ProductionBySource, false)
}

// InstalledFirstYear is the first year installed-capacity answers: the
// live service refuses earlier ones (catalogue.md 5.2).
const InstalledFirstYear = 2021

// InstalledCapacity writes installed-capacity: year and type from
// InstalledFirstYear, the last year of the statistics carried forward to
// the demo's last year (that of the FCR auctions): the page answers the
// current year and six before, and a client asking this year's capacity
// should find the latest known.
func InstalledCapacity(in dataset.DemoInput) []dataset.Row {
	var rows []dataset.Row
	stats := generationStats(in).InstalledCapacity
	last := 0
	for _, s := range stats {
		if s.Year >= InstalledFirstYear {
			rows = append(rows, yearRow(s.Year, s.Value, s.Type))
		}
		last = max(last, s.Year)
	}
	for y := last + 1; y <= FCRStart.Year; y++ {
		for _, s := range stats {
			if s.Year == last {
				rows = append(rows, yearRow(y, s.Value, s.Type))
			}
		}
	}
	return rows
}

// ThermoelectricCapacity writes thermoelectric-capacity.
func ThermoelectricCapacity(in dataset.DemoInput) []dataset.Row {
	var rows []dataset.Row
	for _, s := range generationStats(in).ThermoCapacity {
		rows = append(rows, yearRow(s.Year, s.MW, s.CapacityType, s.Region, s.Province, s.Category, s.Subcategory))
	}
	return rows
}

// GenerationPlants writes generation-plants.
func GenerationPlants(in dataset.DemoInput) []dataset.Row {
	return provinceRows(generationStats(in).GenerationPlants, false)
}

// RenewableSourceCapacity writes generation-plants' renewable sources
// (energy.RenewableSourceNames) only.
func RenewableSourceCapacity(in dataset.DemoInput) []dataset.Row {
	renewable := energy.RenewableSourceNames().Values()
	plants := slices.Clone(generationStats(in).GenerationPlants) // shared with the other generators
	return provinceRows(slices.DeleteFunc(plants, func(s ProvinceStat) bool { return !slices.Contains(renewable, s.Kind) }), false)
}

// Hydric writes hydric.
func Hydric(in dataset.DemoInput) []dataset.Row {
	return provinceRows(generationStats(in).Hydric, false)
}

// RenewableSourcesProduction writes renewable-sources-production.
func RenewableSourcesProduction(in dataset.DemoInput) []dataset.Row {
	return provinceRows(generationStats(in).RenewableSources, false)
}

// ThermoelectricHeat writes thermoelectric-heat, which has no type field.
func ThermoelectricHeat(in dataset.DemoInput) []dataset.Row {
	return provinceRows(generationStats(in).ThermoHeat, true)
}

// provinceRows returns the rows of province statistics whose text fields
// are Type, Region, Province and Kind in that order, the region spelled as
// the generation-plants family spells it (energy.PlantRegion), or, with
// noType (thermoelectric heat), Region, Province and Kind.
func provinceRows(stats []ProvinceStat, noType bool) []dataset.Row {
	rows := make([]dataset.Row, 0, len(stats))
	for _, s := range stats {
		if noType {
			rows = append(rows, yearRow(s.Year, s.Value, s.Region, s.Province, s.Kind))
			continue
		}
		rows = append(rows, yearRow(s.Year, s.Value, s.Type, energy.PlantRegion(s.Region), s.Province, s.Kind))
	}
	return rows
}

// generationStats are the generation statistics, made once a run.
func generationStats(in dataset.DemoInput) Stats {
	return dataset.DemoShared(in, "demo.GenerationStats", GenerationStats)
}

// loadStats are the statistics of the demo's seed, made once a run.
func loadStats(in dataset.DemoInput) LoadStats {
	return dataset.DemoShared(in, "demo.LoadStats", System{Seed: in.Seed}.LoadStats)
}

// EnergyInItaly writes electrical-energy-in-italy: Italy's demand month by
// month.
func EnergyInItaly(in dataset.DemoInput) []dataset.Row {
	st := loadStats(in)
	var rows []dataset.Row
	for y := ThermoFirstYear; y <= ThermoLastYear; y++ {
		for m, gwh := range st.Monthly[y] {
			at := time.Date(y, time.Month(m+1), 1, 0, 0, 0, 0, energy.Rome()).Unix()
			rows = append(rows, dataset.Row{Time: at, Num: []float64{energy.Round(gwh, 3)}})
		}
	}
	return rows
}

// EnergyBySector writes electrical-energy-by-sector: region, province,
// sector.
func EnergyBySector(in dataset.DemoInput) []dataset.Row {
	return sumConsumption(loadStats(in), func(c Consumption) []string { return []string{c.Region, c.Province, c.Sector} })
}

// IndustrySector writes industry-sector: the industry's region, province,
// activity and class.
func IndustrySector(in dataset.DemoInput) []dataset.Row { return sectorRows(in, "Industria") }

// ServicesSector writes services-sector, as IndustrySector.
func ServicesSector(in dataset.DemoInput) []dataset.Row { return sectorRows(in, "Servizi") }

func sectorRows(in dataset.DemoInput, sector string) []dataset.Row {
	return sumConsumption(loadStats(in), func(c Consumption) []string {
		if c.Sector != sector {
			return nil
		}
		return []string{c.Region, c.Province, c.Activity, c.Class}
	})
}

// LoadTotal writes total: region, province, sector, activity, class.
func LoadTotal(in dataset.DemoInput) []dataset.Row {
	return sumConsumption(loadStats(in), func(c Consumption) []string {
		return []string{c.Region, c.Province, c.Sector, c.Activity, c.Class}
	})
}

// LoadMarket writes market: region, province, market.
func LoadMarket(in dataset.DemoInput) []dataset.Row {
	st := loadStats(in)
	rows := make([]dataset.Row, 0, len(st.Markets))
	for _, m := range st.Markets {
		rows = append(rows, yearRow(m.Year, energy.Round(m.GWh, 3), m.Region, m.Province, m.Market))
	}
	return rows
}

// sumConsumption sums the statistics' consumption by the texts key makes
// of each figure, skipping those key gives none for; each sum becomes a
// yearly row, rounded to the MWh, texts as key made them.
func sumConsumption(st LoadStats, key func(c Consumption) []string) []dataset.Row {
	type k struct {
		year int
		text string
	}
	sums := map[k]float64{}
	var order []k
	for _, c := range st.Consumption {
		t := key(c)
		if t == nil {
			continue
		}
		kk := k{c.Year, strings.Join(t, "\x00")}
		if _, ok := sums[kk]; !ok {
			order = append(order, kk)
		}
		sums[kk] += c.GWh
	}
	rows := make([]dataset.Row, 0, len(order))
	for _, kk := range order {
		rows = append(rows, yearRow(kk.year, energy.Round(sums[kk], 3), strings.Split(kk.text, "\x00")...))
	}
	return rows
}
