package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
)

// MarketCosts are what the energy the markets moved cost.
func MarketCosts() *dataset.Dataset {
	d := marketZoneSeries("output/costs", "Market costs",
		"Cost of the energy accepted per bidding zone, session and direction, every hour, in EUR: the quantity at the average price; DOWN costs are what sellers paid back, so negative."+unseen,
		"costs", false, true, nil,
		number("cost_EUR", "Cost of the hour's accepted energy, EUR", -1e9, 1e9))
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return marketRows(in, true, func(h *v1Hour, z, s, dir int) []float64 {
			c := balancingMWh(h, z, s, dir) * balancingPrice(h, z, s, dir, false)
			if dir == 1 {
				c = -c
			}
			return []float64{math.Round(c*100) / 100}
		})
	}
	d.Source = dataset.Source{Ref: portal("market", "Costs"), Confidence: "L", Guess: "Field names not yet as the page shows them."}
	return d
}
