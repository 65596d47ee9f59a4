package catalog

import (
	"io"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// TotalLoad is the quarter-hourly total load of each bidding zone and Italy.
func TotalLoad() *dataset.Dataset {
	d := series("load", "total-load", "Total load",
		"Actual and day-ahead forecast total load per bidding zone and for Italy, every quarter hour, in MW.",
		"total_load", dataset.QuarterHour,
		[]dataset.Param{zonesParam()},
		[]dataset.Field{
			{Name: "total_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Column: "Total Load [MW]", Doc: "Actual total load, MW.", Min: 0, Max: 80000, Agg: dataset.Mean},
			{Name: "forecast_total_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Column: "Forecast Total load [MW]", Optional: true, Doc: "Day-ahead forecast of the total load, MW; empty when not published.", Min: 0, Max: 80000, Agg: dataset.Mean},
			{Name: "bidding_zone", Kind: dataset.Text, Ref: energy.ZoneNames(), Column: "Bidding zone", Doc: "Bidding zone, or Italy."},
		})
	d.Views = []dataset.View{totalLoadV1()}
	d.Source = dataset.Source{Ref: portal("load", "Total_Load"), Confidence: "H", Guess: "The quarter-hourly grain (reference notes; the page shows no example rows); field names after date_offset as client L declares them."}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return TotalLoadRows(demo.System{Seed: in.Seed}.TotalLoad(in.First, in.Last))
	}
	d.Import = &dataset.ImportSpec{Parse: importTotalLoad,
		Formats: "the transparency download files: CSV or XLSX with the columns Date, Total Load [MW], Forecast Total load [MW], Bidding zone; Europe/Rome dd/mm/yyyy hh:mm:ss, the repeated autumn hour told apart by position"}
	return d
}

// zonesParam is the bidding-zone filter of the load series.
func zonesParam() dataset.Param {
	return enumParam("biddingZone", "bidding_zone", false, true, "Bidding zones to extract (repeat the key for several).")
}

func importTotalLoad(name string, r io.Reader) ([]dataset.Row, error) {
	pts, err := ingest.ParseTotalLoad(name, r)
	if err != nil {
		return nil, err
	}
	return TotalLoadRows(pts), nil
}

// TotalLoadRows returns quarter hours of load as the dataset's rows. The
// rows share two backing arrays, not two slices each, which matters for
// the two million rows of the demo data.
func TotalLoadRows(pts []energy.LoadPoint) []dataset.Row {
	rows := make([]dataset.Row, len(pts))
	texts := make([]string, len(pts))
	nums := make([]float64, 2*len(pts))
	for i, p := range pts {
		texts[i] = string(p.Zone)
		nums[2*i], nums[2*i+1] = p.TotalMW, p.ForecastMW
		rows[i] = dataset.Row{Time: p.At.Unix(), Text: texts[i : i+1 : i+1], Num: nums[2*i : 2*i+2 : 2*i+2]}
	}
	return rows
}

// TotalLoadRow returns a quarter hour of one zone's load as the dataset's row.
func TotalLoadRow(p energy.LoadPoint) dataset.Row {
	return dataset.Row{Time: p.At.Unix(), Text: []string{string(p.Zone)}, Num: []float64{p.TotalMW, p.ForecastMW}}
}
