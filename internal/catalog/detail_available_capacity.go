package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
)

// DetailAvailableCapacity is the capacity each production unit had
// available.
func DetailAvailableCapacity() *dataset.Dataset {
	d := v1("adequacy", "detail-available-capacity", "detail-available-capacity", "Detail of available capacity",
		"Capacity each production unit of 100 MW or more had available in each hour, in MW: its installed capacity less its outages (generation-unit-unavailability)."+unseen,
		"detail_available_capacity", dataset.Hour,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			referenceDate("market_date", false),
			zoneField(),
			text("macroarea", macroareas, "Macroarea of the unit."),
			text("unit_name", nil, "Production unit (UP) code."),
			text("plant_type", plantTypes, "TERMOELETTRICO or IDROELETTRICO."),
			text("prevailing_fuel", fuels, "Prevailing fuel."),
			number("available_capacity_MW", "Available capacity, MW", 0, 5000),
		})
	d.Key = []string{"unit_name"}
	d.DemoFrom = []string{"installed-capacity", "generation-unit-unavailability"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		lo, hi := v1Window(in)
		units := genUnits(in)
		outages := outagesOf(in)
		var rows []dataset.Row
		for u := lo; u < hi; u += 3600 {
			for _, unit := range units {
				mw := math.Round(unit.capacityMW - unitOut(outages, unit.name, u))
				rows = append(rows, dataset.Row{Time: u, Text: []string{v1Zones[unit.zone].adeq, unit.name, unit.plantType, unit.fuel}, Num: []float64{mw}})
			}
		}
		return rows
	}
	d.Source = dataset.Source{Ref: portal("adequacy", "Detail_Available_Capacity"), Confidence: "L", Guess: "The page was not seen: the fields follow the aggregate capacity."}
	return d
}
