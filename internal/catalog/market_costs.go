package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// costsShape is the costs page's: sessionType 1..1 and a direction; its
// example's zone, Calabria, is spelled alike in every vocabulary, so the
// Market pages' Italian names are kept.
var costsShape = marketShape{demo.MarketShape{Zones: energy.ZoneItalian, Dirs: true, Total: true}, true}

// MarketCosts are what the energy the markets moved cost.
func MarketCosts() *dataset.Dataset {
	d := marketZoneSeries("output/costs", "Market costs",
		"UP (sell) and DOWN (buy) cost of the offers accepted per bidding zone and session, every hour (every quarter hour from 1 October 2025), in EUR: the quantities accepted at their offered prices, "+
			"and TOTAL, UP costs less DOWN costs, as the page defines them.",
		"costs", costsShape, demo.MarketCosts, nil,
		number(dataset.Sum, "cost_euro", "Cost of the period's accepted energy, EUR", -1e9, 1e9))
	d.Source = dataset.Source{Ref: portal("market", "Costs"), Confidence: "H",
		Guess: "The zone vocabulary (the example's Calabria is the same in all) and the hourly grain before 1 October 2025 (the example's reference_date is a day). TOTAL as a third value of direction (L-M)."}
	return d
}
