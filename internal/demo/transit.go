package demo

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// TransitLimits writes the provisional limit of every zone link in both
// directions for each session, every hour of the v1.0 window (transitLimit),
// zones named in vocab.
func TransitLimits(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	return transitRows(in, vocab, transitLimit)
}

// FinalTransitLimits writes the final limit of every zone link in both
// directions and session: the limit the day's last session works with
// (TransitLimits' for that session), which later sessions know best.
func FinalTransitLimits(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	last := len(energy.MarketSessions()) - 1
	return transitRows(in, vocab, func(u int64, k, dir, _ int) float64 { return transitLimit(u, k, dir, last) })
}

// TransitMargins writes what the limits leave free after the scheduled
// internal exchange in that direction.
func TransitMargins(in dataset.DemoInput, vocab energy.ZoneVocab) []dataset.Row {
	lo, hi := v1Window(in)
	scheduled := map[[2]int64]float64{} // hour, link -> MW in the portal direction
	links := map[string]int64{}
	for k, l := range energy.ZoneLinks() {
		links[energy.FlowName(l[0], l[1])] = int64(k)
	}
	for _, r := range within(in.From["scheduled-internal-exchange"], lo, hi) {
		if k, ok := links[r.Text[0]]; ok && r.Time >= lo && r.Time < hi {
			scheduled[[2]int64{r.Time, k}] = r.Num[0]
		}
	}
	return transitRows(in, vocab, func(u int64, k, dir, s int) float64 {
		x := scheduled[[2]int64{u, int64(k)}]
		if dir == 1 {
			x = -x
		}
		return math.Round(transitLimit(u, k, dir, s) - x)
	})
}

// transitLimit is the demo limit on zone link k (energy.ZoneLinks) in its
// portal direction (dir 0) or against it (dir 1) in the hour starting at
// u for session s: the link's demo rating, less a maintenance derating of
// up to 300 MW that later sessions know better.
func transitLimit(u int64, k, dir, s int) float64 {
	capacity := linkRatingMW[k]
	derate := 150 * (1 + dataNoise(u-u%86400, 300+10*k+dir)) * (1 + 0.2*float64(6-s)/6)
	return math.Round(capacity - derate)
}

// linkRatingMW is each zone link's demo rating (energy.ZoneLinks order),
// MW: above the largest flow the demo system sends over it either way
// (under 3,000 MW in the weeks internal/catalog/zones_test.go checks), so that
// the demo margins stay positive.
var linkRatingMW = [...]float64{5500, 5000, 3500, 3500, 5500, 4500, 3500}

// transitRows returns a row per hour of the v1.0 window, zone link in
// both directions and session.
func transitRows(in dataset.DemoInput, vocab energy.ZoneVocab, value func(u int64, k, dir, s int) float64) []dataset.Row {
	lo, hi := v1Window(in)
	name := map[energy.Zone]string{}
	for _, bz := range biddingZones {
		name[bz.Zone] = bz.Name(vocab)
	}
	var rows []dataset.Row
	if hi > lo {
		rows = make([]dataset.Row, 0, (hi-lo+3599)/3600*int64(2*len(energy.ZoneLinks())*len(energy.MarketSessions())))
	}
	for u := lo; u < hi; u += 3600 {
		for k, l := range energy.ZoneLinks() {
			for dir := range 2 {
				a, b := name[l[0]], name[l[1]]
				if dir == 1 {
					a, b = b, a
				}
				for s, session := range energy.MarketSessions() {
					rows = append(rows, dataset.Row{Time: u, Text: []string{a, b, session}, Num: []float64{value(u, k, dir, s)}})
				}
			}
		}
	}
	return rows
}
