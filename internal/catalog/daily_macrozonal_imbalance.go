package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DailyMacrozonalImbalance is each macrozone's aggregate imbalance, hourly
// and quarter-hourly, for the day before.
func DailyMacrozonalImbalance() *dataset.Dataset {
	d := feesImbalance("daily-macrozonal-imbalance", "Daily macrozonal imbalance", "daily_macrozonal_imbalance",
		"Aggregate imbalance of each macrozone for each hour (Orario) and quarter hour (Quarto Orario) of the day before, in MWh, with its sign.")
	d.Demo = demo.DailyImbalance
	d.Source = dataset.Source{Ref: portal("fees", "Daily_Macrozonal_Imbalance"), Confidence: "M", Guess: "The fields after data_type follow a third-party design note."}
	return d
}

// signs are the values of zonal_aggregate_sign: the macrozone was short
// (load above its schedule: "+") or long ("-").
var signs = energy.Plain("+", "-")

// feesImbalance is the shape of the two macrozonal imbalance datasets.
func feesImbalance(name, title, array, doc string) *dataset.Dataset {
	d := v1("fees", name, name, title, doc, array, dataset.QuarterHour,
		[]dataset.Param{
			v1Dates(0),
			enumParam("dataType", "data_type", false, true, "Orario or Quarto Orario; 0..1 on the portal, a repeated key is accepted."),
		},
		[]dataset.Field{
			storedDate("publication_date", "2006-01-02 15:04:05", "When the values were published, yyyy-mm-dd hh:mm:ss (Europe/Rome)."),
			referenceDate("reference_date", false),
			text("data_type", dataTypes, "Orario or Quarto Orario."),
			zoneField(),
			text("macrozone", macrozones, "Macrozone: "+joinNames(energy.Macrozones())+"."),
			text("zonal_aggregate_sign", signs, "+ when the macrozone was short (it drew more than scheduled), - when long."),
			number(dataset.Sum, "zonal_aggregate_unbalance_MWh", "Size of the aggregate imbalance over the period, MWh, never negative", 0, 100000),
		})
	d.Key = []string{"data_type", "macrozone"}
	d.DemoFrom = []string{"total-load"}
	return d
}
