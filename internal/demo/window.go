package demo

import (
	"math"
	"sort"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The v1.0 areas' demo data (Fees, Market, Adequacy, Outages) derive from
// the demo total load and generation over a window of the demo's range.

// biddingZones is energy.BiddingZones, read once: the demo's per-zone
// arrays follow its order.
var biddingZones = energy.BiddingZones()

// v1Window is the span of the v1.0 demo data: the demo's whole range, as
// for every time series. Each hour and day is generated from that moment's
// own system state, so a month generated alone equals that month of the
// whole range, and the demo can be written a month at a time.
func v1Window(in dataset.DemoInput) (lo, hi int64) {
	return in.First.Start().Unix(), in.Last.End().Unix()
}

// within returns the rows of another dataset's demo data whose moment lies
// in [lo, hi), found by binary search: demo generators write their rows in
// time order, and the sources hold years of them.
func within(rows []dataset.Row, lo, hi int64) []dataset.Row {
	i := sort.Search(len(rows), func(i int) bool { return rows[i].Time >= lo })
	j := sort.Search(len(rows), func(i int) bool { return rows[i].Time >= hi })
	return rows[i:j]
}

// v1Quarter is one quarter hour of the demo system within v1Window: each
// zone's actual and forecast load (MW) in energy.BiddingZones order.
type v1Quarter struct {
	at             int64
	load, forecast [7]float64
}

// imbalance returns zone z's forecast error in the quarter hour, MW:
// actual load less its day-ahead forecast.
func (q *v1Quarter) imbalance(z int) float64 { return q.load[z] - q.forecast[z] }

// v1Quarters reads the demo total load's quarter hours within v1Window.
func v1Quarters(in dataset.DemoInput) []v1Quarter {
	lo, hi := v1Window(in)
	index := map[string]int{}
	for i, z := range biddingZones {
		index[string(z.Zone)] = i
	}
	var out []v1Quarter
	if hi > lo {
		out = make([]v1Quarter, 0, (hi-lo)/900+1)
	}
	for _, r := range within(in.From["total-load"], lo, hi) {
		if r.Time < lo || r.Time >= hi {
			continue
		}
		z, ok := index[r.Text[0]]
		if !ok {
			continue // Italy
		}
		if len(out) == 0 || out[len(out)-1].at != r.Time {
			out = append(out, v1Quarter{at: r.Time})
		}
		q := &out[len(out)-1]
		q.load[z], q.forecast[z] = r.Num[0], r.Num[1]
		if math.IsNaN(q.forecast[z]) {
			q.forecast[z] = r.Num[0]
		}
	}
	return out
}

// v1Hour is one hour of the demo system within v1Window, or one quarter
// hour of it (v1Periods).
type v1Hour struct {
	at             int64
	load, forecast [7]float64 // hourly mean per zone, MW
	wind, solar    float64    // Italy's generation, GW
	residual       float64    // Italy's load less wind and solar, GW
	quarter        bool       // a quarter hour: its own load, the hour's wind and sun
}

// hours returns how long the period lasts, in hours: what turns its
// powers (MW) into energies (MWh).
func (h *v1Hour) hours() float64 {
	if h.quarter {
		return 0.25
	}
	return 1
}

// v1Periods returns v1Hours, but on each day in.GrainOn gives as
// quarter-hourly the quarter hours of the hour: each with its own load
// and forecast, the hour's wind and sun, and its residual load.
func v1Periods(in dataset.DemoInput) []v1Hour {
	hours := v1Hours(in)
	var quarters []v1Quarter // read at the first quarter-hourly day
	out := make([]v1Hour, 0, len(hours))
	k := 0
	for _, h := range hours {
		if in.GrainOn(energy.DateOf(time.Unix(h.at, 0))) != dataset.QuarterHour {
			out = append(out, h)
			continue
		}
		if quarters == nil {
			quarters = v1Quarters(in)
		}
		for k < len(quarters) && quarters[k].at < h.at {
			k++
		}
		for ; k < len(quarters) && quarters[k].at < h.at+3600; k++ {
			q := v1Hour{at: quarters[k].at, load: quarters[k].load, forecast: quarters[k].forecast, wind: h.wind, solar: h.solar, quarter: true}
			var italy float64
			for _, v := range q.load {
				italy += v
			}
			q.residual = italy/1000 - q.wind - q.solar
			out = append(out, q)
		}
	}
	return out
}

// v1Hours averages v1Quarters by hour and adds the demo actual generation's
// wind and photovoltaic, giving the residual load that prices follow.
func v1Hours(in dataset.DemoInput) []v1Hour {
	var out []v1Hour
	for _, q := range v1Quarters(in) {
		h := q.at - q.at%3600 // Europe/Rome offsets are whole hours
		if len(out) == 0 || out[len(out)-1].at != h {
			out = append(out, v1Hour{at: h})
		}
		for z := range q.load {
			out[len(out)-1].load[z] += q.load[z] / 4
			out[len(out)-1].forecast[z] += q.forecast[z] / 4
		}
	}
	at := map[int64]int{}
	for i := range out {
		at[out[i].at] = i
	}
	lo, hi := v1Window(in)
	for _, r := range within(in.From["actual-generation"], lo, hi) {
		i, ok := at[r.Time]
		if !ok {
			continue
		}
		switch r.Text[0] {
		case "Wind":
			out[i].wind = r.Num[0]
		case "Photovoltaic":
			out[i].solar = r.Num[0]
		}
	}
	for i := range out {
		var italy float64
		for _, v := range out[i].load {
			italy += v
		}
		out[i].residual = italy/1000 - out[i].wind - out[i].solar
	}
	return out
}

// basePrice is the demo day-ahead price of a macrozone in an hour,
// EUR/MWh: it rises with the residual load (gas plants set the price
// when wind and sun leave more to them), the south a little cheaper.
func basePrice(h *v1Hour, macro string) float64 {
	p := 20 + 3.4*h.residual + 4*Noise(0xfee5, h.at)
	if macro == "SUD" {
		p -= 3 + 2*Noise(0x50d, h.at)
	}
	return energy.Round(math.Max(p, 0), 2)
}

// macroImbalance returns the sum of the forecast errors of a macrozone's
// zones in quarter hour q, MW.
func macroImbalance(q *v1Quarter, macro string) float64 {
	var s float64
	for z, bz := range biddingZones {
		if bz.Macrozone == macro {
			s += q.imbalance(z)
		}
	}
	return s
}

// publishedAt returns, as the Fees pages write it, the moment a day's
// data are published: noon the next day.
func publishedAt(u int64) string {
	t := time.Unix(u, 0).In(energy.Rome())
	return time.Date(t.Year(), t.Month(), t.Day()+1, 12, 0, 0, 0, energy.Rome()).Format("2006-01-02 15:04:05")
}

// dataNoise is the seeded noise of a v1.0 revision, in -1..1.
func dataNoise(u int64, k int) float64 { return Noise(0x9e1, u, int64(k)) }
