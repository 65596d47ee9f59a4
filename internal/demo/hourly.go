package demo

import (
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The hourly datasets derived from the demo total load: generation by
// source, the daily energy balance, the market load, the peaks' and
// valleys' cover by source, and the flows across the borders and between
// the zones.

// HourlyGeneration returns the demo's hourly generation, computed from
// Italy's demo total load (Generation).
func HourlyGeneration(in dataset.DemoInput) []GenHour {
	var hours []HourLoad
	var sum float64
	var n int
	flush := func() {
		if n > 0 {
			hours[len(hours)-1].GW = sum / float64(n) / 1000
		}
		sum, n = 0, 0
	}
	italy := string(energy.Italy)
	for _, r := range in.From["total-load"] {
		if r.Text[0] != italy {
			continue
		}
		h := r.Time - r.Time%3600 // Europe/Rome offsets are whole hours
		if len(hours) == 0 || hours[len(hours)-1].At != h {
			flush()
			hours = append(hours, HourLoad{At: h})
		}
		sum += r.Num[0]
		n++
	}
	flush()
	return Generation(hours, in.Seed)
}

// ActualGeneration writes the hourly generation as actual-generation's
// rows: every source in the dataset's order, each hour of a
// quarter-hourly day (in.GrainOn) as its four quarter hours.
func ActualGeneration(in dataset.DemoInput) []dataset.Row {
	return generationRows(HourlyGeneration(in), false, in.GrainOn)
}

// RenewableGeneration writes the renewable sources only.
func RenewableGeneration(in dataset.DemoInput) []dataset.Row {
	return generationRows(HourlyGeneration(in), true, in.GrainOn)
}

// generationRows returns hours of demo generation as actual-generation
// rows, or as renewable-generation rows (the renewable sources only), in
// the datasets' order; on a day grain gives as quarter-hourly, each hour
// as four quarter hours holding the hour's value, the mean power in GW
// (the model is hourly, and the live service's quarter-hour values are
// mean powers, so the quarters average to the hour). Rows of one source
// share their Text slice, and all rows one backing array of numbers.
func generationRows(hours []GenHour, renewable bool, grain func(energy.Date) dataset.Grain) []dataset.Row {
	type source struct {
		text  []string
		value func(h *GenHour) float64
	}
	srcs := []source{
		{[]string{"Geothermal"}, func(h *GenHour) float64 { return h.Geothermal }},
		{[]string{"Hydro"}, func(h *GenHour) float64 { return h.Hydro }},
		{[]string{"Photovoltaic"}, func(h *GenHour) float64 { return h.Photovoltaic }},
		{[]string{"Self-consumption"}, func(h *GenHour) float64 { return h.Self }},
		{[]string{"Thermal"}, func(h *GenHour) float64 { return h.Thermal }},
		{[]string{"Wind"}, func(h *GenHour) float64 { return h.Wind }},
	}
	if renewable {
		srcs = []source{srcs[0], srcs[1], srcs[2], srcs[5]}
	}
	steps := quarterSteps(hours, grain)
	n := 0
	for _, k := range steps {
		n += k
	}
	rows := make([]dataset.Row, 0, len(srcs)*n)
	nums := make([]float64, len(srcs)*n)
	for i := range hours {
		for q := range steps[i] {
			at := hours[i].At + int64(q)*900
			for _, s := range srcs {
				k := len(rows)
				nums[k] = s.value(&hours[i])
				rows = append(rows, dataset.Row{Time: at, Text: s.text, Num: nums[k : k+1 : k+1]})
			}
		}
	}
	return rows
}

// quarterSteps returns, per hour, how many records it is written as: 4
// on a day grain gives as quarter-hourly, else 1.
func quarterSteps(hours []GenHour, grain func(energy.Date) dataset.Grain) []int {
	steps := make([]int, len(hours))
	var day energy.Date
	var dayEnd int64
	quarterly := false
	for i := range hours {
		if hours[i].At >= dayEnd {
			day = energy.DateOf(time.Unix(hours[i].At, 0))
			dayEnd = day.End().Unix()
			quarterly = grain(day) == dataset.QuarterHour
		}
		steps[i] = 1
		if quarterly {
			steps[i] = 4
		}
	}
	return steps
}

// EnergyBalance sums the demo's hourly generation into days.
func EnergyBalance(in dataset.DemoInput) []dataset.Row {
	days := Daily(HourlyGeneration(in))
	var rows []dataset.Row
	for _, d := range days {
		for _, v := range []struct {
			typ string
			gwh float64
		}{
			{"Geothermal", d.Geothermal}, {"Hydro", d.Hydro}, {"Net Foreign Exchange", d.NetImport},
			{"Photovoltaic", d.Photovoltaic}, {"Pumping-consumption", -d.Pumping}, {"Self-consumption", d.Self},
			{"Thermal", d.Thermal}, {"Wind", d.Wind},
		} {
			rows = append(rows, dataset.Row{Time: d.At, Text: []string{v.typ}, Num: []float64{v.gwh}})
		}
	}
	return rows
}

// MarketLoad derives the market load from the demo total load: each
// zone's total less its share outside the market (zoneTable's offMarket,
// varying by ±0.5 points), its forecast from the total's forecast with a
// smooth error of its own of at most 0.5% (the market perimeter's own
// forecast), rounded to the kW; Italy is the sum of the rounded zones, as
// in total-load.
func MarketLoad(in dataset.DemoInput) []dataset.Row {
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
			z := slices.Index(zones, energy.Zone(zone))
			share := zoneTable[z].offMarket + 0.005*Noise(0x3a11e7, r.Time, int64(z))
			mw = energy.Round(r.Num[0]*(1-share), 3)
			fc = math.NaN()
			if !math.IsNaN(r.Num[1]) {
				fc = energy.Round(r.Num[1]*(1-share)*(1+0.005*SmoothNoise(0xf0ca57+uint64(z), float64(r.Time)/14400)), 3)
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

// PeakValleyDetails finds each day's peak and valley in Italy's demo
// total load and splits each among the primary sources as the demo's
// hourly generation of that hour has them (peakValleySplit). Each row's
// texts are the source and its kind, energy.PeakKind or ValleyKind.
func PeakValleyDetails(in dataset.DemoInput) []dataset.Row {
	gen := map[int64]*GenHour{}
	hours := HourlyGeneration(in)
	for i := range hours {
		gen[hours[i].At] = &hours[i]
	}
	var out []dataset.Row
	var day energy.Date
	var peak, valley dataset.Row
	have := false
	flush := func() {
		if have {
			out = appendPeakValley(out, gen, peak, valley)
		}
		have = false
	}
	for _, r := range in.From["total-load"] {
		if r.Text[0] != string(energy.Italy) {
			continue
		}
		d := energy.DateOf(time.Unix(r.Time, 0))
		if d != day {
			flush()
			day = d
		}
		if !have {
			peak, valley, have = r, r, true
			continue
		}
		// Ties go to the earliest instant, as in peak-valley-load.
		if r.Num[0] > peak.Num[0] {
			peak = r
		}
		if r.Num[0] < valley.Num[0] {
			valley = r
		}
	}
	flush()
	return out
}

// appendPeakValley appends a day's records: one per source at the
// moment of the peak, then one per source at the valley's.
func appendPeakValley(out []dataset.Row, gen map[int64]*GenHour, peak, valley dataset.Row) []dataset.Row {
	nan := math.NaN()
	for _, ex := range []struct {
		r          dataset.Row
		peak, vall float64
	}{{peak, peak.Num[0], nan}, {valley, nan, valley.Num[0]}} {
		gw := energy.Round(ex.r.Num[0]/1000, 3)
		split := peakValleySplit(gen[ex.r.Time-ex.r.Time%3600], gw)
		for k, src := range energy.PrimarySourceNames().Values() {
			p, v := nan, nan
			if !math.IsNaN(ex.peak) {
				p = gw
			} else {
				v = gw
			}
			kind := energy.PeakKind
			if math.IsNaN(p) {
				kind = energy.ValleyKind
			}
			out = append(out, dataset.Row{Time: ex.r.Time, Text: []string{src, kind}, Num: []float64{p, v, split[k]}})
		}
	}
	return out
}

// peakValleySplit splits gw, Italy's load at a moment, among the primary
// sources in energy.PrimarySourceNames order, as g, the hour's generation,
// has them: each part is g's rounded to the MW, self-consumption and
// pumping count negative, and thermal takes what is left (gross thermal
// output, which covers the plants' own consumption, and the moment's
// difference from the hour's mean), so the parts add up to gw exactly.
func peakValleySplit(g *GenHour, gw float64) []float64 {
	parts := []float64{0, energy.Round(g.Wind, 3), energy.Round(g.Geothermal, 3), energy.Round(g.Photovoltaic, 3), energy.Round(g.NetImport, 3), energy.Round(-g.Self, 3), energy.Round(-g.Pumping, 3), energy.Round(g.Hydro, 3)}
	rest := gw
	for _, p := range parts[1:] {
		rest -= p
	}
	parts[0] = energy.Round(rest, 3)
	return parts
}
