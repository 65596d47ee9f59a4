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
		"Load forecast per bidding zone used by each market session, every hour, in MW, with the day it was published."+unseen,
		"forecast_load", dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(false)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02", "Day the forecast was published, yyyy-mm-dd."),
			referenceDate("reference_date", true),
			text("session_type", sessionTypes, "Market session."),
			text("zone", marketZones, "Bidding zone."),
			number("load_MW", "Forecast load, MW", 0, 80000),
		})
	d.Key = []string{"session_type", "zone"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return sessionForecast(in, func(h *v1Hour, z int) float64 { return h.forecast[z] }, false)
	}
	d.Source = dataset.Source{Ref: portal("market", "Forecast_Load"), Confidence: "L", Guess: "The page was not seen."}
	return d
}

// sessionForecast returns, per hour, session and zone, a forecast of each
// session (the day-ahead value revised by revision) published the day
// before, texts in forecast-load's order, or with prevision also the day
// the forecast is for (wind-production-forecast's order).
func sessionForecast(in dataset.DemoInput, value func(h *v1Hour, z int) float64, prevision bool) []dataset.Row {
	hours := v1Hours(in)
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		t := time.Unix(h.at, 0).In(energy.Rome())
		day := t.Format("2006-01-02")
		pub := time.Date(t.Year(), t.Month(), t.Day()-1, 0, 0, 0, 0, energy.Rome()).Format("2006-01-02")
		for s, session := range sessionTypes.Values() {
			for z, vz := range v1Zones {
				text := []string{pub, session, vz.name}
				if prevision {
					text = []string{pub, day, session, vz.name}
				}
				v := math.Round(value(h, z)*(1+revision(h.at, z, s))*1000) / 1000
				rows = append(rows, dataset.Row{Time: h.at, Text: text, Num: []float64{v}})
			}
		}
	}
	return rows
}
