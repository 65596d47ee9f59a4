package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MacrozonalNoArbitragePrices are the hourly no-arbitrage prices of each
// zone within its macrozone, published monthly.
func MacrozonalNoArbitragePrices() *dataset.Dataset {
	d := v1("fees", "macrozonal-no-arbitrage-prices", "macrozonal-no-arbitrage-prices", "Macrozonal no-arbitrage prices",
		"Hourly no-arbitrage price of each bidding zone within its macrozone, in EUR/MWh, published after the month.",
		"macrozonal_no_arbitrage_prices", dataset.Hour,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the month's prices were published, yyyy-mm-dd hh:mm:ss."),
			text("macrozone", macrozones, "Macrozone: "+joinNames(energy.Macrozones())+"."),
			text("zone", zoneCodes, "Bidding zone code within the macrozone."),
			referenceDate("date", true),
			number(dataset.Mean, "no_arbitrage_price_EURxMWh", "No-arbitrage price, EUR/MWh", -1000, 5000),
		})
	d.Key = []string{"macrozone", "zone"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = demo.NoArbitragePrices
	d.Source = dataset.Source{Ref: portal("fees", "Macrozonal_No_Arbitrage_Prices"), Confidence: "M", Guess: "The value field's name and the fields after date."}
	return d
}
