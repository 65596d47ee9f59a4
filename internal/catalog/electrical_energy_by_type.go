package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// demandTypes are the types electrical-energy-by-type splits a region's
// demand into.
var demandTypes = []string{"Fonti rinnovabili", "Fonti tradizionali", "Saldo import/export"}

// ElectricalEnergyByType is each region's yearly demand by what covered it.
func ElectricalEnergyByType() *dataset.Dataset {
	d := loadStat("electrical-energy-by-type", "Electrical energy by type",
		"Each region's yearly electricity demand by what covered it, in GWh, Italian number format: renewable sources, traditional sources (thermal plants "+
			"other than bioenergies, and pumped hydro) and the net import from other regions and abroad (negative for a net exporter). "+
			"The three add up to the region's demand; renewables and the balance are demand-coverage-by-source's.",
		"electrical_energy_by_type",
		[]dataset.Param{statParam("type", "type", "Type to extract.")},
		[]dataset.Field{regionField(), statText("type", demandTypes, "Type"), italian("demand_GWh", "Demand, GWh")})
	d.Source = dataset.Source{Ref: portal("load", "electrical_energy_by_type"), Confidence: "H",
		Guess: "The page was not read here: fields per catalogue.md 4.1 and client L2's reader, which agree; what traditional sources count."}
	d.DemoFrom = []string{"demand-coverage"}
	d.Demo = demoDemandByType
	return d
}

// demoDemandByType splits each region's demand of the statistics' years
// (demo.PublishedDemandTWh by demo.RegionDemandShares). In the years the demo
// range covers whole, renewables and the balance are demand-coverage's;
// in the others they come from the yearly generation statistics (the
// region's net renewable production, and its demand less its whole net
// production). Traditional sources are the rest.
func demoDemandByType(in dataset.DemoInput) []dataset.Row {
	type key struct {
		year   int
		region string
	}
	renewable, balance := map[key]float64{}, map[key]float64{}
	covered := map[int]bool{}
	for _, r := range in.From["demand-coverage"] {
		y := time.Unix(r.Time, 0).In(energy.Rome()).Year()
		if in.First.Compare(energy.Date{Year: y, Month: time.January, Day: 1}) > 0 || in.Last.Compare(energy.Date{Year: y, Month: time.December, Day: 31}) < 0 {
			continue // a year the demo range covers in part
		}
		covered[y] = true
		k := key{y, r.Text[0]}
		switch r.Text[1] {
		case "Saldo import/export":
			balance[k] = r.Num[0]
		case "Idrico tradizionale":
		default:
			renewable[k] += r.Num[0]
		}
	}
	shares := demo.RegionDemandShares()
	production := map[key]float64{}
	for _, st := range demo.GenerationStats().EnergyBySource {
		k := key{st.Year, st.Region}
		production[k] += st.Value
		if st.Source != "Termoelettrico" && !covered[st.Year] {
			renewable[k] += st.Value
		}
	}
	var rows []dataset.Row
	for y := demo.ThermoFirstYear; y <= demo.ThermoLastYear; y++ {
		for _, region := range energy.RegionNames().Values() {
			k := key{y, region}
			demand := demo.PublishedDemandTWh(y) * 1000 * shares[region]
			if !covered[y] {
				balance[k] = demand - production[k]
			}
			for i, v := range []float64{renewable[k], demand - renewable[k] - balance[k], balance[k]} {
				rows = append(rows, yearRow(y, energy.Round(v, 3), region, demandTypes[i]))
			}
		}
	}
	return rows
}
