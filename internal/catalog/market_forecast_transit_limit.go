package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketForecastTransitLimit is the provisional transfer limit between
// neighbouring zones for each market session.
func MarketForecastTransitLimit() *dataset.Dataset {
	d := transitSeries("input/forecast-transit-limit", "Forecast transit limits",
		"Provisional limit on the transfer from one bidding zone to a neighbouring one for each market session, every hour, in MW; the final limits are market-transit-limit's.",
		"provisional_transit_limits", number(dataset.Min, "limit_MW", "Transfer limit, MW", 0, 20000))
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.TransitLimits(in, transitZones) }
	d.Source = dataset.Source{Ref: portal("market", "Forecast_Transit_Limits"), Confidence: "H", Guess: "The zone names beyond the example's North and Center-North follow the same English spelling (Center-South, as the accepted offers' page)."}
	return d
}

// transitZones is the vocabulary of the transit pages: the example's
// North and Center-North.
const transitZones = energy.ZoneCenter

// transitSeries is the shape of the transit limits and margins: per hour,
// directed zone pair and session.
func transitSeries(resource, title, doc, array string, value dataset.Field) *dataset.Dataset {
	return v1("market", resource, "market-"+resource[len("input/"):], title, doc, array, dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(false)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zoneFrom", zoneRef(transitZones), "Bidding zone the transfer leaves: "+joinNames(transitZones.Names())+"."),
			text("zoneTo", zoneRef(transitZones), "Neighbouring bidding zone it reaches."),
			text("session_type", sessionTypes, "Market session."),
			value,
		})
}
