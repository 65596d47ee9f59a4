package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// ElectricalEnergyBySector is the yearly consumption per province and
// sector.
func ElectricalEnergyBySector() *dataset.Dataset {
	d := loadStat("electrical-energy-by-sector", "Electrical energy by sector",
		"Yearly electricity consumption per region, province and sector (agriculture, households, industry, services), in GWh, Italian number format.",
		"electrical_energy_by_sector",
		[]dataset.Param{regionParam(), provinceParam(), statParam("sector", "sector", "Sector to extract.")},
		[]dataset.Field{regionField(), provinceField(), statText("sector", demo.LoadStatsSectors(), "Sector"), consumptionField()})
	d.Source = dataset.Source{Ref: portal("load", "Electrical_Energy_By_Sector"), Confidence: "M",
		Guess: "The page was not read: parameters, array and fields are client L2's reader's (H for those); the sectors' spelling follows catalogue.md 4.1."}
	d.Demo = demo.EnergyBySector
	return d
}
