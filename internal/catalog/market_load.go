package catalog

import (
	"math"
	"slices"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketLoad is the quarter-hourly load of the market perimeter of each
// bidding zone and Italy: total load less what never passes through the
// market (self-consumption and the like), grid losses included.
func MarketLoad() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "market-load", Title: "Market load",
		Source: dataset.Source{Ref: portal("load", "Market_Load"), Confidence: "H", Guess: "Field names after date_offset as client L declares them."},
		Doc:    "Actual and day-ahead forecast load of the market perimeter (grid losses included, self-consumption excluded) per bidding zone and for Italy, every quarter hour, in MW.",
		Area:   "load", Version: "v2.0", Resource: "market-load",
		Array: "market_load", Message: dataset.MessageDates, Grain: dataset.QuarterHour,
		Params: []dataset.Param{
			dates(),
			{Name: "biddingZone", Kind: dataset.Enum, Many: true, Field: "bidding_zone", Doc: "Bidding zones to extract (repeat the key for several)."},
		},
		Fields: []dataset.Field{
			romeTime(),
			{Name: "market_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Aliases: []string{"Market Load [MW]"}, Doc: "Actual market load, MW.", Min: 0, Max: 80000},
			{Name: "forecast_market_load_MW", Kind: dataset.Number, Format: dataset.PointFull, Aliases: []string{"Forecast Market load [MW]"}, Optional: true, Doc: "Day-ahead forecast of the market load, MW; empty when not published.", Min: 0, Max: 80000},
			{Name: "bidding_zone", Kind: dataset.Text, Ref: energy.ZoneNames(), Aliases: []string{"Bidding zone"}, Doc: "Bidding zone, or Italy."},
		},
		Demo:     demoMarketLoad,
		DemoFrom: []string{"total-load"},
		Import: &dataset.ImportSpec{
			Formats: "CSV or XLSX with the columns date (yyyy-mm-dd hh:mm:ss or dd/mm/yyyy hh:mm:ss, Europe/Rome), date_offset (optional; needed in the repeated autumn hour), market_load_MW, forecast_market_load_MW (may be empty), bidding_zone; the download file's headers Date, Market Load [MW], Forecast Market load [MW], Bidding zone are accepted too"},
	}
}

// marketShare returns the share of a zone's total load that lies outside
// the market perimeter, mostly self-consumption of industrial sites.
func marketShare(zone string) float64 {
	switch energy.Zone(zone) {
	case energy.North:
		return 0.045
	case energy.South:
		return 0.05
	case energy.Sicily:
		return 0.04
	case energy.Sardinia:
		return 0.06
	}
	return 0.03
}

// demoMarketLoad derives the market load from the demo total load: each
// zone's total less its share (marketShare, varying by ±0.5 points), its
// forecast from the total's forecast with a smooth error of its own of at
// most 0.5% (the market perimeter's own forecast), rounded to the kW; Italy is the sum of the rounded zones, as in
// total-load.
func demoMarketLoad(in dataset.DemoInput) []dataset.Row {
	src := in.From["total-load"]
	rows := make([]dataset.Row, len(src))
	nums := make([]float64, 2*len(src))
	zones := energy.Zones()
	var sum, fsum float64
	fok := true
	for i, r := range src {
		zone := r.Text[0]
		var mw, fc float64
		if zone == string(energy.Italy) {
			mw, fc = energy.Round(sum, 3), energy.Round(fsum, 3)
			if !fok {
				fc = math.NaN()
			}
			sum, fsum, fok = 0, 0, true
		} else {
			share := marketShare(zone) + 0.005*demo.Noise(0x3a11e7, r.Time, int64(slices.Index(zones, energy.Zone(zone))))
			mw = energy.Round(r.Num[0]*(1-share), 3)
			fc = math.NaN()
			if !math.IsNaN(r.Num[1]) {
				fc = energy.Round(r.Num[1]*(1-share)*(1+0.005*demo.SmoothNoise(0xf0ca57+uint64(slices.Index(zones, energy.Zone(zone))), float64(r.Time)/14400)), 3)
			}
			sum += mw
			if math.IsNaN(fc) {
				fok = false
			} else {
				fsum += fc
			}
		}
		nums[2*i], nums[2*i+1] = mw, fc
		rows[i] = dataset.Row{Time: r.Time, Text: r.Text, Num: nums[2*i : 2*i+2 : 2*i+2]}
	}
	return rows
}
