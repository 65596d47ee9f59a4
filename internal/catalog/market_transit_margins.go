package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// MarketTransitMargins are what the transit limits leave free after the
// scheduled exchanges.
func MarketTransitMargins() *dataset.Dataset {
	d := transitSeries("input/transit-margins", "Transit margins",
		"Transfer capacity left between neighbouring bidding zones for each market session, every hour, in MW: the transit limit less the exchange scheduled in that direction."+unseen,
		"transit_margins", number(dataset.Min, "margin_MW", "Capacity left, MW", -20000, 20000))
	d.DemoFrom = []string{"scheduled-internal-exchange"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.TransitMargins(in, transitZones) }
	d.Source = dataset.Source{Ref: portal("market", "Transit_Margins"), Confidence: "L", Guess: "The page was not seen: the fields follow forecast-transit-limit."}
	return d
}
