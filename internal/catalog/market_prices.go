package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// priceTypes are the values of the prices' priceType filter.
var priceTypes = energy.Plain("MARGINAL", "AVERAGE")

// MarketPrices are the marginal and average prices of the energy the
// markets moved.
func MarketPrices() *dataset.Dataset {
	d := marketZoneSeries("output/prices", "Market prices",
		"Marginal and average price of the energy accepted per bidding zone, session and direction, every hour, in EUR/MWh."+unseen,
		"prices", false, true,
		[]dataset.Param{enumParam("priceType", "type", false, false, "MARGINAL or AVERAGE.")},
		text("type", priceTypes, "MARGINAL or AVERAGE."),
		number("price_EURxMWh", "Price, EUR/MWh", -1000, 5000))
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		var rows []dataset.Row
		for _, marginal := range []bool{true, false} {
			typ := "AVERAGE"
			if marginal {
				typ = "MARGINAL"
			}
			for _, r := range marketRows(in, true, func(h *v1Hour, z, s, dir int) []float64 {
				return []float64{balancingPrice(h, z, s, dir, marginal)}
			}) {
				r.Text = append(r.Text, typ)
				rows = append(rows, r)
			}
		}
		return rows
	}
	d.Source = dataset.Source{Ref: portal("market", "Prices"), Confidence: "L", Guess: "Field names not yet as the page shows them."}
	return d
}
