package catalog

import (
	"math"
	"time"

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
			"and the prices (daily-prices). Published mid next month.",
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
			text("macrozone", macrozones, "Macrozone: NORD or SUD."),
			number("zonal_aggregate_unbalance_MWh", "Size of the aggregate imbalance over the period, MWh, never negative", 0, 100000),
			text("zonal_aggregate_sign", signs, "+ when the macrozone was short, - when long."),
			number("exchanges_MWh", "Net scheduled exchange with the other macrozone over the period, MWh, positive into the macrozone", -1e6, 1e6),
			number("foreign_MWh", "Net scheduled exchange across the macrozone's borders over the period, MWh, positive into Italy", -1e6, 1e6),
			number("base_price_EURxMWh", "Base price, EUR/MWh", -1000, 5000),
			number("incentive_component_EURxMWh", "Incentive component, EUR/MWh", -1000, 5000),
			number("unbalance_price_EURxMWh", "Imbalance price, EUR/MWh", -1000, 5000),
		})
	d.Key = []string{"data_type", "macrozone"}
	d.MessageParam = "dataType"
	d.DemoFrom = []string{"scheduled-foreign-exchange", "scheduled-internal-exchange", "daily-prices", "daily-macrozonal-imbalance"}
	d.Demo = demoMonthlySummary
	d.Source = dataset.Source{Ref: portal("fees", "Monthly_Summary"), Confidence: "M",
		Guess: "The page was not read here: the fields and the message's \", data type: Orario\" come from a third-party OpenAPI set generated from it. No offset field, as its list has none. The sign and exchange conventions are this server's."}
	return d
}

// demoMonthlySummary joins, period by period, the demo's final imbalance
// and prices, and adds the scheduled exchanges across the macrozones'
// boundary (the Centre-North -> North link) and across the borders.
func demoMonthlySummary(in dataset.DemoInput) []dataset.Row {
	lo, hi := v1Window(in)
	type key struct {
		at       int64
		dataType string
		macro    string
	}
	prices := map[key][]float64{}
	for _, r := range within(in.From["daily-prices"], lo, hi) {
		prices[key{r.Time, r.Text[1], r.Text[2]}] = r.Num
	}
	internal, foreign := map[int64]float64{}, map[[2]int64]float64{} // hour -> MW into NORD; hour, macro -> MW into Italy
	north := energy.FlowName(energy.CentreNorth, energy.North)
	for _, r := range within(in.From["scheduled-internal-exchange"], lo, hi) {
		if r.Text[0] == north {
			internal[r.Time] = r.Num[0]
		}
	}
	for _, r := range within(in.From["scheduled-foreign-exchange"], lo, hi) {
		m := int64(1)
		if demo.BorderZone(r.Text[0]) == energy.North {
			m = 0
		}
		foreign[[2]int64{r.Time, m}] += r.Num[0]
	}
	var rows []dataset.Row
	for _, r := range within(in.From["daily-macrozonal-imbalance"], lo, hi) {
		dataType, macro := r.Text[1], r.Text[2]
		p, ok := prices[key{r.Time, dataType, macro}]
		if !ok {
			continue
		}
		hours := 0.25
		if dataType == "Orario" {
			hours = 1
		}
		m := int64(0)
		exch := internal[r.Time-r.Time%3600] * hours
		if macro == "SUD" {
			m, exch = 1, -exch
		}
		t := time.Unix(r.Time, 0).In(energy.Rome())
		pub := time.Date(t.Year(), t.Month()+1, 15, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
		rows = append(rows, dataset.Row{Time: r.Time, Text: []string{pub, dataType, macro, r.Text[3]},
			Num: []float64{r.Num[0], math.Round(exch*1000) / 1000, math.Round(foreign[[2]int64{r.Time - r.Time%3600, m}]*hours*1000) / 1000, p[0], p[1], p[2]}})
	}
	return rows
}
