package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// quantityShape is the quantity page's: its example's SICI, sessionType
// 1..1 and a direction.
var quantityShape = marketShape{demo.MarketShape{Zones: energy.ZoneCode, Dirs: true, Total: true}, true}

// MarketQuantity is the energy the dispatching and balancing markets moved
// in each zone, session and direction.
func MarketQuantity() *dataset.Dataset {
	d := marketZoneSeries("output/quantity", "Market quantity",
		"Energy accepted on the dispatching-services and balancing markets per bidding zone, session and direction, every hour (every quarter hour from 1 October 2025), in MWh: "+
			"UP (sell) and DOWN (buy) accepted, and TOTAL, UP less DOWN, as the page defines them.",
		"quantity", quantityShape, demo.MarketQuantity, nil,
		number(dataset.Sum, "quantity_MWh", "Energy accepted in the hour or quarter hour, MWh; TOTAL may be negative", -100000, 100000))
	d.Source = dataset.Source{Ref: portal("market", "Quantity"), Confidence: "H",
		Guess: "The hourly grain before 1 October 2025 (the example's reference_date is a day). TOTAL as a third value of direction (the page speaks of UP, DOWN and their total; L-M)."}
	return d
}
