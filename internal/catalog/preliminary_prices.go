package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

// PreliminaryPrices are the daily prices as first published, before the
// final settlement.
func PreliminaryPrices() *dataset.Dataset {
	d := feesPrices("preliminary-prices", "Preliminary prices", "preliminary_prices",
		"Preliminary imbalance prices per macrozone, hourly (Orario) and quarter-hourly (Quarto Orario), in EUR/MWh: daily-prices' fields, before the final settlement.")
	d.Demo = demo.PreliminaryPrices
	d.Source = dataset.Source{Ref: portal("fees", "Preliminary_Prices"), Confidence: "M", Guess: "The page shows publication_date, reference_date and data_type; the rest follows daily-prices."}
	return d
}
