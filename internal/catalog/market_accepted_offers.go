package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketAcceptedOffers are the offers the markets accepted.
func MarketAcceptedOffers() *dataset.Dataset {
	d := marketZoneSeries("output/accepted-offers", "Accepted offers",
		"Offers accepted per bidding zone, session and direction, every hour: their energy (MWh, the quantity output) and its average price (EUR/MWh)."+unseen,
		"accepted_offers", false, true, nil,
		number("accepted_MWh", "Energy of the accepted offers, MWh", 0, 100000),
		number("average_price_EURxMWh", "Average price of the accepted offers, EUR/MWh", -1000, 5000))
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return marketRows(in, true, func(h *v1Hour, z, s, dir int) []float64 {
			return []float64{balancingMWh(h, z, s, dir), balancingPrice(h, z, s, dir, false)}
		})
	}
	d.Source = dataset.Source{Ref: portal("market", "Accepted_Offers"), Confidence: "L", Guess: "Fields not yet as the page shows them."}
	return d
}
