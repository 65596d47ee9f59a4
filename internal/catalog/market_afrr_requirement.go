package catalog

import (
	"math"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketAFRRRequirement is the secondary (aFRR) reserve each area needs.
func MarketAFRRRequirement() *dataset.Dataset {
	d := reserveRequirement("input/afrr-requirement", "Secondary reserve requirement", "secondary_reserve_requirement", "secondary (aFRR)", 0.012, afrrAreas)
	d.Source = dataset.Source{Ref: portal("market", "Secondary_Reserve_Requirement"), Confidence: "H",
		Guess: "The zone values are the three areas the page's text and the live client name (Continent, Sicily, Sardinia), not the example's Calabria."}
	return d
}

// reserveZones is how a reserve requirement groups the bidding zones: one
// record per group, named as its page names it.
type reserveZones struct {
	names []string
	of    [7]int // the group of each zone, in v1Zones order
}

// eachZone is a reserve requirement per bidding zone, named as v names them.
func eachZone(v zoneVocab) reserveZones {
	return reserveZones{names: v[:], of: [7]int{0, 1, 2, 3, 4, 5, 6}}
}

// afrrAreas are the secondary reserve's areas: the continent, Sicily and
// Sardinia ("the three macrozones" of its page; the live client's values).
var afrrAreas = reserveZones{names: []string{"Continent", "Sicily", "Sardinia"}, of: [7]int{0, 0, 0, 0, 0, 1, 2}}

// reserveRequirement is the shape of the reserve requirements: per hour,
// zone (or area) and session, a share of the zones' forecast load (the
// total requirement is the sum of the three others' shares). The demo's
// sessions are MSD1 to MSD6, each stating the hours still ahead when it
// runs, its records published then (catalogue.md 4.4).
func reserveRequirement(resource, title, array, what string, share float64, zones reserveZones) *dataset.Dataset {
	doc := ""
	if resource != "input/afrr-requirement" && resource != "input/total-reserve-requirement" && resource != "input/rr-requirement" {
		doc = " The catalogue names this endpoint only; its fields follow afrr-requirement's." + unseen
	}
	d := v1("market", resource, "market-"+resource[len("input/"):], title,
		"Upward "+what+" reserve required per zone and session, every hour, in MW."+doc, array, dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(true)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zone", namesRef(zones.names), "Zone: "+joinNames(zones.names)+"."),
			text("session_type", sessionTypes, "Market session."),
			number("requirement_MW", "Reserve required, MW", 0, 50000),
		})
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		hours := v1Hours(in)
		var rows []dataset.Row
		for i := range hours {
			h := &hours[i]
			day := energy.DateOf(time.Unix(h.at, 0))
			hour := int(h.at-day.Start().Unix()) / 3600
			for g, name := range zones.names {
				var forecast float64
				for z := range v1Zones {
					if zones.of[z] == g {
						forecast += h.forecast[z]
					}
				}
				// Each session of the dispatching-services market restates
				// the requirements of the hours still ahead, when it runs.
				for s := range demo.MSDSessions() {
					published, first := demo.MSDSession(day, s)
					if hour < first {
						continue
					}
					rows = append(rows, dataset.Row{Time: h.at, Text: []string{name, sessionTypes.Values()[s]},
						Num: []float64{math.Round(share * forecast * (1 + revision(h.at, g, s)))}, Pub: published.UnixMicro(), Rev: published.UnixMicro()})
				}
			}
		}
		return rows
	}
	return d
}
