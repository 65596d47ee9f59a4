package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// FCRStart is the first day of Italy's FCR capacity auctions (the grid
// code's Allegato A.83): the live service answers zeros for the days
// before it.
var FCRStart = energy.Date{Year: 2026, Month: time.June, Day: 3}

// FCRAreas are the areas the auctions procure for, as the live service
// names them.
var FCRAreas = []string{"Continente+Sicilia", "Sardegna"}

// fcrRequirementMW is each area's FCR requirement in either direction:
// Italy's share of continental Europe's 3,000 MW, the mainland and Sicily
// together, Sardinia on its own.
var fcrRequirementMW = []float64{530, 45}

// FCRResult is one area's auction for one direction and day.
type FCRResult struct {
	PriceEURMW float64 // clearing price, EUR/MW; NaN when nothing cleared
	QuantityMW float64 // capacity procured
	RequiredMW float64 // capacity asked for
}

// FCRAuction returns the auction of area a (FCRAreas) in direction up or
// down for day d, with seed's noise. Before FCRStart there were no
// auctions: everything is zero, as the live service answers. Offers cover
// the requirement but for a shortfall now and then, more often in
// Sardinia, where a direction nobody offered clears nothing and has no
// price.
// The price rises when offers run short.
func FCRAuction(seed uint64, d energy.Date, a int, up bool) FCRResult {
	if d.Compare(FCRStart) < 0 {
		return FCRResult{}
	}
	u := d.Start().Unix()
	dir := int64(0)
	if up {
		dir = 1
	}
	req := math.Round(fcrRequirementMW[a] * (1 + 0.03*Noise(seed^0xfc1, u, int64(a))))
	cover := 1.15 + 0.25*Noise(seed^0xfc2, u, int64(a), dir)
	if a == 1 {
		cover -= 0.2
	}
	// Sardinia's few providers leave a direction unoffered one day in ten.
	if a == 1 && Noise(seed^0xfc4, u, dir) > 0.8 {
		return FCRResult{PriceEURMW: math.NaN(), RequiredMW: req}
	}
	qty := math.Round(req * math.Min(1, cover))
	price := energy.Round(9+3*Noise(seed^0xfc3, u, int64(a), dir)+12*math.Max(0, 1-cover), 2)
	return FCRResult{PriceEURMW: price, QuantityMW: qty, RequiredMW: req}
}
