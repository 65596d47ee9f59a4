package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// ElectricalEnergyInItaly is Italy's electricity demand month by month.
func ElectricalEnergyInItaly() *dataset.Dataset {
	d := loadStat("electrical-energy-in-italy", "Electrical energy in Italy",
		"Italy's electricity demand (consumption plus grid losses) in each month of a year, in GWh, Italian number format; the months add up to the year's demand.",
		"electrical_energy_in_italy",
		[]dataset.Param{{Name: "month", Kind: dataset.MonthParam, MonthNames: true,
			Doc: "Month to extract by its Italian name (Gennaio to Dicembre), 0..1; a number 1 to 12 is accepted too."}},
		[]dataset.Field{
			{Name: "month", Kind: dataset.MonthOf, Doc: "Month, by its Italian name (Gennaio to Dicembre)."},
			italian("demand_GWh", "Demand, GWh"),
		})
	d.Grain = dataset.Month
	d.Source = dataset.Source{Ref: portal("load", "Electrical_energy_in_italy"), Confidence: "H",
		Guess: "The page was not read here: the fields and the Italian month names follow catalogue.md 4.1 and client L2's reader, which agree."}
	d.Demo = demo.EnergyInItaly
	return d
}
