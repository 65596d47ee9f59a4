package demo

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Reserve is a kind of upward reserve the Market pages publish a
// requirement for.
type Reserve int

// The reserves, each required as a share of the zones' forecast load.
const (
	SecondaryReserve   Reserve = iota // aFRR: 1.2%
	RotatingReserve                   // spinning tertiary: 2.5%
	ReplacementReserve                // 3.5%
	TotalReserve                      // the three together
)

func (r Reserve) share() float64 {
	const secondary, rotating, replacement = 0.012, 0.025, 0.035
	switch r {
	case SecondaryReserve:
		return secondary
	case RotatingReserve:
		return rotating
	case ReplacementReserve:
		return replacement
	}
	return secondary + rotating + replacement
}

// ZoneGroups is how a requirement groups the bidding zones: one record per
// group, named Names[g]; Of gives each zone's group, in
// energy.BiddingZones order.
type ZoneGroups struct {
	Names []string
	Of    [7]int
}

// ReserveRequirement writes, per hour of the v1.0 window, group and
// session, the reserve's share of the group's forecast load. Each session
// of the dispatching-services market restates the requirements of the
// hours still ahead when it runs (MSDSession), its records published then
// (catalogue.md 4.4).
func ReserveRequirement(in dataset.DemoInput, r Reserve, groups ZoneGroups) []dataset.Row {
	hours := v1Hours(in)
	sessions := energy.MarketSessions()
	var rows []dataset.Row
	for i := range hours {
		h := &hours[i]
		day := energy.DateOf(time.Unix(h.at, 0))
		hour := int(h.at-day.Start().Unix()) / 3600
		for g, name := range groups.Names {
			var forecast float64
			for z := range h.forecast {
				if groups.Of[z] == g {
					forecast += h.forecast[z]
				}
			}
			for s := range MSDSessions() {
				published, first := MSDSession(day, s)
				if hour < first {
					continue
				}
				rows = append(rows, dataset.Row{Time: h.at, Text: []string{name, sessions[s]},
					Num: []float64{math.Round(r.share() * forecast * (1 + revision(h.at, g, s)))}, Pub: published.UnixMicro(), Rev: published.UnixMicro()})
			}
		}
	}
	return rows
}
