package catalog

import (
	"strings"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
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
			text("area", zoneRef(energy.ZoneItalian), "Area: a bidding zone ("+strings.Join(energy.ZoneItalian.Names(), ", ")+")."),
			number(dataset.Mean, "secondary_adjustment_level_MW", "Mean regulation level over the quarter hour, MW; negative downward", -5000, 5000),
		})
	d.DemoFrom = []string{"total-load"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.SecondaryLevels(in, energy.ZoneItalian) }
	d.Source = dataset.Source{Ref: portal("fees", "Secondary_Adjustment_Levels"), Confidence: "L", Guess: "The page shows no fields: one mean level per quarter hour and area."}
	return d
}
