package catalog

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// DailyMacrozonalImbalance is each macrozone's aggregate imbalance, hourly
// and quarter-hourly, for the day before.
func DailyMacrozonalImbalance() *dataset.Dataset {
	d := feesImbalance("daily-macrozonal-imbalance", "Daily macrozonal imbalance", "daily_macrozonal_imbalance",
		"Aggregate imbalance of each macrozone for each hour (Orario) and quarter hour (Quarto Orario) of the day before, in MWh, with its sign.")
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return demoImbalance(in, 0, func(start, _ int64) time.Time { return demo.FinalImbalanceAt(energy.DateOf(time.Unix(start, 0))) })
	}
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
			text("macrozone", macrozones, "Macrozone: NORD or SUD."),
			text("zonal_aggregate_sign", signs, "+ when the macrozone was short (it drew more than scheduled), - when long."),
			number("zonal_aggregate_unbalance_MWh", "Size of the aggregate imbalance over the period, MWh, never negative", 0, 100000),
		})
	d.Key = []string{"data_type", "macrozone"}
	d.DemoFrom = []string{"total-load"}
	return d
}

// demoImbalance writes each macrozone's imbalance: the sum of its zones'
// forecast errors (actual total load less forecast) over each quarter
// hour or hour, as energy (MWh). revision > 0 gives preliminary values off
// by up to that share of the final ones. published says when the period
// from start to end was published (catalogue.md 4.4): the records carry
// that time, and publication_date writes it.
func demoImbalance(in dataset.DemoInput, revision float64, published func(start, end int64) time.Time) []dataset.Row {
	var rows []dataset.Row
	quarters := v1Quarters(in)
	hourly := map[string]float64{}
	for i := range quarters {
		q := &quarters[i]
		for k, macro := range macrozones.Values() {
			mwh := macroImbalance(q, macro) / 4 * (1 + revision*dataNoise(q.at, k))
			rows = append(rows, imbalanceRow(q.at, published(q.at, q.at+900), "Quarto Orario", macro, mwh))
			hourly[macro] += mwh
			if (q.at+900)%3600 == 0 {
				rows = append(rows, imbalanceRow(q.at-2700, published(q.at-2700, q.at+900), "Orario", macro, hourly[macro]))
				hourly[macro] = 0
			}
		}
	}
	return rows
}

func imbalanceRow(at int64, pub time.Time, dataType, macro string, mwh float64) dataset.Row {
	sign := "+"
	if mwh < 0 {
		sign = "-"
	}
	return dataset.Row{Time: at, Text: []string{pub.In(energy.Rome()).Format("2006-01-02 15:04:05"), dataType, macro, sign},
		Num: []float64{math.Round(math.Abs(mwh)*1000) / 1000}, Pub: pub.UnixMicro(), Rev: pub.UnixMicro()}
}
