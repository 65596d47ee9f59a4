package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// imceiSectorGWh is a month's national consumption of each IMCEI sector
// (energy.IMCEISectorNames order) in 2019, GWh, before the scale of
// IMCEISeries.
var imceiSectorGWh = [...]float64{11, 9, 6, 4, 6, 9, 14, 4, 4, 12}

// IMCEICoverage is the share of an industrial class's consumption that the
// IMCEI's monitored customers (high and medium voltage) draw: the yearly
// load statistics' industry, whose manufacturing classes map onto the
// IMCEI's sectors, is their IMCEI consumption divided by it.
const IMCEICoverage = 0.2

// IMCEISeries returns one month of one IMCEI series: the consumption (GWh)
// and index (the series' 2019 monthly average = 100) of sector si
// (energy.IMCEISectorNames order) at supply voltage ti (0 AT, 1 MT) in
// region ri (energy.RegionNames order), whose share of Italy's demand is
// share. at is the month's first instant, level Italy's demand that month
// over its 2019 monthly average. Each series is a fixed part of the
// region's industrial demand (sector and voltage weights), scaled by the
// level, with a trend of its own per sector and a noise of ±3%.
func IMCEISeries(at int64, year int, level, share float64, ri, si, ti int) (gwh, index float64) {
	trend := 1 + 0.01*float64(si%4-1)*float64(year-2019)
	part := 0.45 + 0.1*float64(ti) // MT customers outnumber AT ones
	base := 20 * imceiSectorGWh[si] * share * part
	noise := 1 + 0.03*Noise(0x1ace1, at, int64(ri), int64(si), int64(ti))
	gwh = math.Round(base*level*trend*noise*1000) / 1000
	return gwh, math.Round(1000*gwh/base) / 10
}

// IMCEI follows Italy's monthly demo demand (IMCEISeries),
// month by month as the demo total load gives it.
func IMCEI(in dataset.DemoInput) []dataset.Row {
	type month struct{ y, m int }
	energyMWh := map[month]float64{}
	var months []month
	rome := energy.Rome()
	for _, r := range in.From["total-load"] {
		if r.Text[0] != string(energy.Italy) {
			continue
		}
		t := time.Unix(r.Time, 0).In(rome)
		k := month{t.Year(), int(t.Month())}
		if _, ok := energyMWh[k]; !ok {
			months = append(months, k)
		}
		energyMWh[k] += r.Num[0] / 4
	}
	// The index base is the model's 2019, whatever range is generated: a
	// range without 2019 must not divide by nothing.
	base2019 := YearlyDemandTWh(2019) * 1e6 / 12
	sectors := energy.IMCEISectorNames().Values()
	shares := RegionDemandShares()
	var out []dataset.Row
	for _, k := range months {
		at := time.Date(k.y, time.Month(k.m), 1, 0, 0, 0, 0, rome).Unix()
		level := energyMWh[k] / base2019
		for ri, region := range energy.RegionNames().Values() {
			for si, sector := range sectors {
				for ti, tension := range energy.TensionTypeNames().Values() {
					gwh, idx := IMCEISeries(at, k.y, level, shares[region], ri, si, ti)
					out = append(out, dataset.Row{Time: at, Text: []string{region, sector, tension}, Num: []float64{idx, gwh}})
				}
			}
		}
	}
	return out
}
