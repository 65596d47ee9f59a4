package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketWindProductionForecast is the wind generation forecast each market
// session works with.
func MarketWindProductionForecast() *dataset.Dataset {
	d := v1("market", "input/wind-production-forecast", "market-wind-production-forecast", "Wind production forecast",
		"Wind generation forecast per bidding zone used by each market session, every hour, in MW. The array is named forecast_load, as the portal names it.",
		"forecast_load", dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(false)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02", "Day the forecast was published, yyyy-mm-dd."),
			referenceDate("reference_date", false),
			storedDate("prevision_date", "2006-01-02", "Day the forecast is for, yyyy-mm-dd."),
			zoneField(),
			text("session_type", sessionTypes, "Market session."),
			text("zone", zoneRef(energy.ZoneItalian), "Bidding zone."),
			number(dataset.Mean, "load_MW", "Forecast wind generation, MW (the field name is the portal's)", 0, 30000),
		})
	d.Key = []string{"session_type", "zone"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.MarketWindForecast(in, energy.ZoneItalian) }
	d.Source = dataset.Source{Ref: portal("generation", "Wind_Production_Forecast"), Confidence: "H", Guess: "The offset field after reference_date is this server's; the page's example writes prevision_date as a moment (2023-10-23 09:00:00, when the forecast was made?), this server as the day it is for."}
	return d
}
