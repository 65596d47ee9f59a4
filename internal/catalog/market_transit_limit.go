package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// MarketTransitLimit is the final transfer limit between neighbouring
// zones, beside the forecast (provisional) one: a page of its own.
func MarketTransitLimit() *dataset.Dataset {
	d := transitSeries("input/transit-limit", "Transit limits",
		"Final limit on the transfer from one bidding zone to a neighbouring one in the day-ahead and dispatching markets, per session, every hour, in MW: "+
			"the limit the day's last session worked with, the same for every session (the provisional ones are forecast-transit-limit's)."+unseen,
		"transit_limits", number(dataset.Min, "limit_MW", "Transfer limit, MW", 0, 20000))
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.FinalTransitLimits(in, transitZones) }
	d.Source = dataset.Source{Ref: portal("market", "Transit_Limits"), Confidence: "L",
		Guess: "The page exists (market/Transit_Limits, listed by a generated description, M) but its fields were not seen: the array transit_limits, the fields and sessionType 0..1 follow forecast-transit-limit."}
	return d
}
