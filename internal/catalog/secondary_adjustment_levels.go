package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// SecondaryAdjustmentLevels are the levels of secondary frequency
// regulation called in each zone, one day per request.
func SecondaryAdjustmentLevels() *dataset.Dataset {
	dates := v1Dates(1)
	dates.SameDay = true
	d := v1("fees", "secondary-adjustment-levels", "secondary-adjustment-levels", "Secondary adjustment levels",
		"Mean level of secondary (aFRR) regulation called in each area every quarter hour, in MW, positive upward; one day per request (dateFrom must equal dateTo)."+unseen,
		"secondary_adjustment_levels", dataset.QuarterHour,
		[]dataset.Param{dates, enumParam("area", "area", false, false, "Area to extract (a bidding zone as the Market pages name it, e.g. Sicilia).")},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("area", marketZones, "Area: a bidding zone (Nord, Centro-Nord, Centro-Sud, Sud, Calabria, Sicilia, Sardegna)."),
			number("secondary_adjustment_level_MW", "Mean regulation level over the quarter hour, MW; negative downward", -5000, 5000),
		})
	d.DemoFrom = []string{"total-load"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		quarters := v1Quarters(in)
		var rows []dataset.Row
		for i := range quarters {
			q := &quarters[i]
			for z, vz := range v1Zones {
				// Regulation covers part of the zone's forecast error,
				// within a band of 1.5% of its load.
				band := 0.015 * q.load[z]
				level := math.Max(-band, math.Min(band, 0.6*q.imbalance(z)))
				rows = append(rows, dataset.Row{Time: q.at, Text: []string{vz.name}, Num: []float64{energy.Round(level, 2)}})
			}
		}
		return rows
	}
	d.Source = dataset.Source{Ref: portal("fees", "Secondary_Adjustment_Levels"), Confidence: "L", Guess: "The page shows no fields: one mean level per quarter hour and area."}
	return d
}
