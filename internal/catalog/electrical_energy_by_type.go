package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
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
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.DemandByType(in, demandTypes) }
	return d
}
