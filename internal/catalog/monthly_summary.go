package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MonthlySummary is the Fees area's monthly summary: per period and
// macrozone, the final imbalance, the scheduled exchanges and the prices.
func MonthlySummary() *dataset.Dataset {
	d := v1("fees", "monthly-summary", "monthly-summary", "Monthly summary",
		"A month's summary per macrozone, every hour (Orario) and quarter hour (Quarto Orario): the final aggregate imbalance and its sign "+
			"(daily-macrozonal-imbalance), the net scheduled exchanges with the other macrozone and across the borders, in MWh over the period, "+
			"and the prices (daily-prices). Published on the first of the next month.",
		"monthly_summary", dataset.QuarterHour,
		[]dataset.Param{
			v1Dates(0),
			enumParam("dataType", "data_type", false, false, "Orario (hourly rows) or Quarto Orario (quarter-hourly rows)."),
		},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the month's summary was published, yyyy-mm-dd hh:mm:ss (Europe/Rome)."),
			{Name: "reference_date", Kind: dataset.Instant, Doc: "Start of the period, Europe/Rome wall time yyyy-mm-dd hh:mm:ss; no offset, as the page's field list has none."},
			text("data_type", dataTypes, "Orario or Quarto Orario: the period reference_date starts."),
			zoneField(),
			text("macrozone", macrozones, "Macrozone: "+joinNames(energy.Macrozones())+"."),
			number(dataset.Sum, "zonal_aggregate_unbalance_MWh", "Size of the aggregate imbalance over the period, MWh, never negative", 0, 100000),
			text("zonal_aggregate_sign", signs, "+ when the macrozone was short, - when long."),
			number(dataset.Sum, "exchanges_MWh", "Net scheduled exchange with the other macrozone over the period, MWh, positive into the macrozone", -1e6, 1e6),
			number(dataset.Sum, "foreign_MWh", "Net scheduled exchange across the macrozone's borders over the period, MWh, positive into Italy", -1e6, 1e6),
			number(dataset.Mean, "base_price_EURxMWh", "Base price, EUR/MWh", -1000, 5000),
			number(dataset.Mean, "incentive_component_EURxMWh", "Incentive component, EUR/MWh", -1000, 5000),
			number(dataset.Mean, "unbalance_price_EURxMWh", "Imbalance price, EUR/MWh", -1000, 5000),
		})
	d.Key = []string{"data_type", "macrozone"}
	d.MessageParam = "dataType"
	// The page's example words the message as the v2.0 pages do, not as
	// the other Fees pages.
	d.Message = dataset.MessageDates
	d.DemoFrom = []string{"scheduled-foreign-exchange", "scheduled-internal-exchange", "daily-prices", "daily-macrozonal-imbalance"}
	d.Demo = demo.MonthlySummary
	d.Source = dataset.Source{Ref: portal("fees", "Monthly_Summary"), Confidence: "M",
		Guess: "The page was read through a third-party OpenAPI set generated from it: the fields, the message (\"…following input. Date from: 10/05/2022, date to: 21/05/2022, data type: Orario\") " +
			"and the example's publication_date, 2022-06-01 19:00:00, for May (the first of the next month at 19:00 every month: L). No offset field, as its list has none. The sign and exchange conventions are this server's."}
	return d
}
