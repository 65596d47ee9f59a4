package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DailyPrices are the imbalance prices of each macrozone, hourly and
// quarter-hourly, as published the day after.
func DailyPrices() *dataset.Dataset {
	d := feesPrices("daily-prices", "Daily prices", "daily_prices",
		"Imbalance settlement prices per macrozone for each hour (Orario) and quarter hour (Quarto Orario), in EUR/MWh, published the day after.")
	d.Demo = demo.DailyPrices
	d.Source = dataset.Source{Ref: portal("fees", "Daily_Prices"), Confidence: "M", Guess: "The fields after publication_date come from client L's schema; offset is added so that the repeated autumn hour is told apart."}
	return d
}

// feesPrices is the shape of daily-prices and preliminary-prices.
func feesPrices(name, title, array, doc string) *dataset.Dataset {
	d := v1("fees", name, name, title, doc, array, dataset.QuarterHour,
		[]dataset.Param{
			v1Dates(62),
			enumParam("dataType", "data_type", false, true, "Orario (hourly rows) or Quarto Orario (quarter-hourly rows); 0..1 on the portal, a repeated key is accepted and selects both."),
		},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the prices were published, yyyy-mm-dd hh:mm:ss (Europe/Rome)."),
			referenceDate("reference_date", false),
			text("data_type", dataTypes, "Orario or Quarto Orario: the period reference_date starts."),
			zoneField(),
			text("macrozone", macrozones, "Macrozone: "+joinNames(energy.Macrozones())+"."),
			number(dataset.Mean, "base_price_EURxMWh", "Base price, EUR/MWh", -1000, 5000),
			number(dataset.Mean, "incentive_component_EURxMWh", "Incentive component, EUR/MWh", -1000, 5000),
			number(dataset.Mean, "unbalance_price_EURxMWh", "Imbalance price, EUR/MWh", -1000, 5000),
		})
	d.Key = []string{"data_type", "macrozone"}
	d.DemoFrom = []string{"total-load", "actual-generation"}
	return d
}
