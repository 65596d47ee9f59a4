package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// LoadMarket is the yearly consumption per province and supply market.
func LoadMarket() *dataset.Dataset {
	d := loadStat("market", "Consumption by market",
		"Yearly electricity consumption per region, province and market (self-consumption, the free market and the protected market), in GWh, Italian number format.",
		"market",
		[]dataset.Param{regionParam(), provinceParam(), statParam("Market", "market", "Market to extract (the parameter is spelt with a capital M).")},
		[]dataset.Field{regionField(), provinceField(), statText("market", demo.Markets(), "Market"), consumptionField()})
	d.Name = "load-market" // "market" alone would read as the Market area
	d.Source = dataset.Source{Ref: portal("load", "Market"), Confidence: "M",
		Guess: "The page was not read: client L2's reader sends Market with a capital M, reads the array market and declares the fields."}
	d.Demo = demo.LoadMarket
	return d
}
