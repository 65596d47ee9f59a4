package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
)

// MarketSubmittedOffers are the offers submitted to the markets.
func MarketSubmittedOffers() *dataset.Dataset {
	d := marketZoneSeries("input/submitted-offers", "Submitted offers",
		"Offers submitted per bidding zone, session and direction, every hour: their energy in MWh, always more than what is accepted."+unseen,
		"submitted_offers", false, true, nil,
		number("submitted_MWh", "Energy offered, MWh", 0, 1e6))
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return marketRows(in, true, func(h *v1Hour, z, s, dir int) []float64 {
			// Offers exceed acceptances by a margin of 150 to 200%.
			return []float64{math.Round(balancingMWh(h, z, s, dir)*(2.75+0.25*dataNoise(h.at, 200+z))*1000) / 1000}
		})
	}
	d.Source = dataset.Source{Ref: portal("market", "Submitted_Offers"), Confidence: "L", Guess: "The page was not seen."}
	return d
}
