package catalog

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
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
			text("zone", marketZones, italianZones.doc()),
			text("session_type", sessionTypes, "Market session."),
			number("load_MW", "Forecast load, MW", 0, 80000),
		})
	d.Key = []string{"zone", "session_type"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return sessionForecast(in, func(h *v1Hour, z int) float64 { return h.forecast[z] },
			func(_, _, session, zone string) []string { return []string{zone, session} })
	}
	d.Source = dataset.Source{Ref: portal("market", "Forecast_Load"), Confidence: "M",
		Guess: "The page was not read here: the fields (no publication_date) follow a third-party OpenAPI set generated from its example; the zone names and sessionType 0..1 are this server's."}
	return d
}

// sessionForecast returns, per hour, session and zone, a forecast of each
// session (the day-ahead value revised by revision) published the day
// before, its texts as text makes them from the publication day, the day
// the forecast is for, the session and the zone.
func sessionForecast(in dataset.DemoInput, value func(h *v1Hour, z int) float64, text func(pub, day, session, zone string) []string) []dataset.Row {
	hours := v1Hours(in)
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		t := time.Unix(h.at, 0).In(energy.Rome())
		day := t.Format("2006-01-02")
		pub := time.Date(t.Year(), t.Month(), t.Day()-1, 0, 0, 0, 0, energy.Rome()).Format("2006-01-02")
		for s, session := range sessionTypes.Values() {
			for z, vz := range v1Zones {
				v := math.Round(value(h, z)*(1+revision(h.at, z, s))*1000) / 1000
				rows = append(rows, dataset.Row{Time: h.at, Text: text(pub, day, session, vz.name), Num: []float64{v}})
			}
		}
	}
	return rows
}
