package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketForecastLoad is the load forecast each market session works with.
func MarketForecastLoad() *dataset.Dataset {
	d := v1("market", "input/forecast-load", "market-forecast-load", "Forecast load",
		"Load forecast per bidding zone used by each market session, every hour, in MW.",
		"forecast_load", dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(false)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zone", zoneRef(energy.ZoneItalian), zoneDoc(energy.ZoneItalian)),
			text("session_type", sessionTypes, "Market session."),
			number(dataset.Mean, "load_MW", "Forecast load, MW", 0, 80000),
		})
	d.Key = []string{"zone", "session_type"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.MarketForecastLoad(in, energy.ZoneItalian) }
	d.Source = dataset.Source{Ref: portal("market", "Load_Forecast"), Confidence: "M",
		Guess: "The page was not read here: the fields (no publication_date) follow a third-party OpenAPI set generated from its example; the zone names and sessionType 0..1 are this server's."}
	return d
}
