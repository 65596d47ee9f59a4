package catalog

import (
	"io"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// TotalLoad is the quarter-hourly total load of each bidding zone and Italy.
func TotalLoad() *dataset.Dataset {
	zones := energy.ZoneNames()
	return &dataset.Dataset{
		Name: "total-load", Title: "Total load",
		Doc:  "Actual and day-ahead forecast total load per bidding zone and for Italy, every quarter hour, in MW.",
		Area: "load", Version: "v2.0", Resource: "total-load",
		Array: "total_load", Message: dataset.MessageDates, Grain: dataset.QuarterHour,
		Params: []dataset.Param{
			dates(),
			{Name: "biddingZone", Kind: dataset.Enum, Many: true, Field: "bidding_zone", Doc: "Bidding zones to extract (repeat the key for several)."},
		},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "total_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Column: "Total Load [MW]", Doc: "Actual total load, MW.", Min: 0, Max: 80000},
			{Name: "forecast_total_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Column: "Forecast Total load [MW]", Optional: true, Doc: "Day-ahead forecast of the total load, MW; empty when not published.", Min: 0, Max: 80000},
			{Name: "bidding_zone", Kind: dataset.Text, Ref: zones, Column: "Bidding zone", Doc: "Bidding zone, or Italy."},
		},
		Import: &dataset.ImportSpec{Parse: importTotalLoad,
			Formats: "the transparency download files: CSV or XLSX with the columns Date, Total Load [MW], Forecast Total load [MW], Bidding zone; Europe/Rome dd/mm/yyyy hh:mm:ss, the repeated autumn hour told apart by position"},
	}
}

func importTotalLoad(name string, r io.Reader) ([]dataset.Row, error) {
	pts, err := ingest.ParseTotalLoad(name, r)
	if err != nil {
		return nil, err
	}
	rows := make([]dataset.Row, len(pts))
	for i, p := range pts {
		rows[i] = TotalLoadRow(p)
	}
	return rows, nil
}

// TotalLoadRow returns a quarter hour of one zone's load as the dataset's row.
func TotalLoadRow(p energy.LoadPoint) dataset.Row {
	return dataset.Row{Time: p.At.Unix(), Text: []string{string(p.Zone)}, Num: []float64{p.TotalMW, p.ForecastMW}}
}
