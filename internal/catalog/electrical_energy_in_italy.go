package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
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
	d.Demo = loadStatsDemo(func(st demo.LoadStats) []dataset.Row {
		var rows []dataset.Row
		for y := demo.ThermoFirstYear; y <= demo.ThermoLastYear; y++ {
			for m, gwh := range st.Monthly[y] {
				at := time.Date(y, time.Month(m+1), 1, 0, 0, 0, 0, energy.Rome()).Unix()
				rows = append(rows, dataset.Row{Time: at, Num: []float64{energy.Round(gwh, 3)}})
			}
		}
		return rows
	})
	return d
}
