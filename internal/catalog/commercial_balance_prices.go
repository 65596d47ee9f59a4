package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// CommercialBalancePrices are the hourly prices at which commercial
// imbalances are settled in each macrozone.
func CommercialBalancePrices() *dataset.Dataset {
	d := v1("fees", "commercial-balance-prices", "commercial-balance-prices", "Commercial balance prices",
		"Hourly prices of each macrozone at which a balance responsible party's commercial imbalance is settled, in EUR/MWh: the purchase price for a short position, the sale price for a long one."+unseen,
		"commercial_balance_prices", dataset.Hour,
		[]dataset.Param{v1Dates(0)},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the prices were published, yyyy-mm-dd hh:mm:ss."),
			referenceDate("reference_date", true),
			text("macrozone", macrozones, "Macrozone: NORD or SUD."),
			number("purchase_price_EURxMWh", "Price of energy bought to close a short position, EUR/MWh", -1000, 5000),
			number("sale_price_EURxMWh", "Price of energy sold from a long position, EUR/MWh", -1000, 5000),
		})
	d.Key = []string{"macrozone"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		hours := v1Hours(in)
		var rows []dataset.Row
		for i := range hours {
			h := &hours[i]
			for _, macro := range macrozones.Values() {
				// A spread of 4% around the base price penalises either position.
				p := basePrice(h, macro)
				rows = append(rows, dataset.Row{Time: h.at, Text: []string{publishedAt(h.at), macro}, Num: []float64{energy.Round(p*1.04, 2), energy.Round(p*0.96, 2)}})
			}
		}
		return rows
	}
	d.Source = dataset.Source{Ref: portal("fees", "Commercial_Balance_Prices"), Confidence: "L", Guess: "The page was not seen: array, fields and meaning are this server's."}
	return d
}
