package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketForecastTransitLimit is the provisional transfer limit between
// neighbouring zones for each market session.
func MarketForecastTransitLimit() *dataset.Dataset {
	d := transitSeries("input/forecast-transit-limit", "Forecast transit limits",
		"Provisional limit on the transfer from one bidding zone to a neighbouring one for each market session, every hour, in MW. Also served at /market/v1.0/input/transit-limit.",
		"provisional_transit_limits", number("limit_MW", "Transfer limit, MW", 0, 20000))
	d.Aliases = []string{"/market/v1.0/input/transit-limit"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return transitRows(in, transitLimit)
	}
	d.Source = dataset.Source{Ref: portal("market", "Forecast_Transit_Limits"), Confidence: "H", Guess: "The zone names beyond the example's North and Center-North follow the same English spelling (Center-South, as the accepted offers' page)."}
	return d
}

// transitSeries is the shape of the transit limits and margins: per hour,
// directed zone pair and session.
func transitSeries(resource, title, doc, array string, value dataset.Field) *dataset.Dataset {
	return v1("market", resource, "market-"+resource[len("input/"):], title, doc, array, dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(false)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zoneFrom", centerZones.ref(), "Bidding zone the transfer leaves: "+joinNames(centerZones[:])+"."),
			text("zoneTo", centerZones.ref(), "Neighbouring bidding zone it reaches."),
			text("session_type", sessionTypes, "Market session."),
			value,
		})
}

// transitLimit is the demo limit on zone link k (energy.ZoneLinks) in its
// portal direction (dir 0) or against it (dir 1) in the hour starting at
// u for session s: the link's demo rating, less a maintenance derating of
// up to 300 MW that later sessions know better.
func transitLimit(u int64, k, dir, s int) float64 {
	capacity := linkRatingMW[k]
	derate := 150 * (1 + demo1(u, k, dir)) * (1 + 0.2*float64(6-s)/6)
	return math.Round(capacity - derate)
}

// linkRatingMW is each zone link's demo rating (energy.ZoneLinks order),
// MW: above the largest flow the demo system sends over it either way
// (under 3,000 MW in the weeks internal/catalog/zones_test.go checks), so that
// the demo margins stay positive.
var linkRatingMW = [...]float64{5500, 5000, 3500, 3500, 5500, 4500, 3500}

func demo1(u int64, k, dir int) float64 { return dataNoise(u-u%86400, 300+10*k+dir) }

// transitRows returns a row per hour of the v1.0 window, zone link in
// both directions and session.
func transitRows(in dataset.DemoInput, value func(u int64, k, dir, s int) float64) []dataset.Row {
	lo, hi := v1Window(in)
	name := map[energy.Zone]string{}
	for z, vz := range v1Zones {
		name[vz.zone] = centerZones[z]
	}
	var rows []dataset.Row
	for u := lo; u < hi; u += 3600 {
		for k, l := range energy.ZoneLinks() {
			for dir := range 2 {
				a, b := name[l[0]], name[l[1]]
				if dir == 1 {
					a, b = b, a
				}
				for s, session := range sessionTypes.Values() {
					rows = append(rows, dataset.Row{Time: u, Text: []string{a, b, session}, Num: []float64{value(u, k, dir, s)}})
				}
			}
		}
	}
	return rows
}
