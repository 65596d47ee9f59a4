package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketLoad is the quarter-hourly load of the market perimeter of each
// bidding zone and Italy: total load less what never passes through the
// market (self-consumption and the like), grid losses included.
func MarketLoad() *dataset.Dataset {
	d := series("load", "market-load", "Market load",
		"Actual and day-ahead forecast load of the market perimeter (grid losses included, self-consumption excluded) per bidding zone and for Italy, every quarter hour, in MW.",
		"market_load", dataset.QuarterHour,
		[]dataset.Param{zonesParam()},
		[]dataset.Field{
			{Name: "market_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Aliases: []string{"Market Load [MW]"}, Doc: "Actual market load, MW.", Min: 0, Max: 80000, Agg: dataset.Mean},
			{Name: "forecast_market_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Aliases: []string{"Forecast Market load [MW]"}, Optional: true, Doc: "Day-ahead forecast of the market load, MW; empty when not published.", Min: 0, Max: 80000, Agg: dataset.Mean},
			{Name: "bidding_zone", Kind: dataset.Text, Ref: energy.ZoneNames(), Aliases: []string{"Bidding zone"}, Doc: "Bidding zone, or Italy."},
		})
	d.Views = []dataset.View{marketLoadV1()}
	d.Source = dataset.Source{Ref: portal("load", "Market_Load"), Confidence: "H", Guess: "Field names after date_offset as client L declares them."}
	d.Demo = demo.MarketLoad
	d.DemoFrom = []string{"total-load"}
	d.Import = &dataset.ImportSpec{
		Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (optional; needed in the repeated autumn hour), market_load_MW, forecast_market_load_MW (may be empty), bidding_zone; the download file's headers Date, Market Load [MW], Forecast Market load [MW], Bidding zone are accepted too"}
	return d
}
