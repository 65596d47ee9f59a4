package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// pricesShape is the prices page's: the SICI zone codes of its example,
// sessionType 1..1, a type (MARGINAL or AVERAGE) before the direction.
var pricesShape = marketShape{demo.MarketShape{Zones: energy.ZoneCode, Types: []string{"MARGINAL", "AVERAGE"}, Dirs: true}, true}

// MarketPrices are the marginal and average prices of the energy the
// markets moved.
func MarketPrices() *dataset.Dataset {
	d := marketZoneSeries("output/prices", "Market prices",
		"Marginal and average UP and DOWN price of the offers accepted per bidding zone and session, every hour (every quarter hour from 1 October 2025), in EUR/MWh: "+
			"the average weighted by the quantities accepted; the marginal the highest accepted UP, the lowest accepted DOWN.",
		"prices", pricesShape, demo.MarketPrices,
		[]dataset.Param{enumParam("priceType", "type", false, false, "MARGINAL or AVERAGE.")},
		number(dataset.Mean, "price_eur_MWh", "Price, EUR/MWh", -1000, 5000))
	d.Source = dataset.Source{Ref: portal("market", "Prices"), Confidence: "H",
		Guess: "The hourly grain before 1 October 2025: the example's reference_date is a day, which its offset suggests is an abbreviated moment."}
	return d
}
