package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketAFRRRequirement is the secondary (aFRR) reserve each area needs.
func MarketAFRRRequirement() *dataset.Dataset {
	d := reserveRequirement("input/afrr-requirement", "Secondary reserve requirement", "secondary_reserve_requirement", "secondary (aFRR)", demo.SecondaryReserve, afrrAreas)
	d.Source = dataset.Source{Ref: portal("market", "Secondary_Reserve_Requirement"), Confidence: "H",
		Guess: "The zone values are the three areas the page's text and the live client name (Continent, Sicily, Sardinia), not the example's Calabria."}
	return d
}

// eachZone is a reserve requirement per bidding zone, named as v names
// them.
func eachZone(v energy.ZoneVocab) demo.ZoneGroups {
	return demo.ZoneGroups{Names: v.Names(), Of: [7]int{0, 1, 2, 3, 4, 5, 6}}
}

// afrrAreas are the secondary reserve's areas: the continent, Sicily and
// Sardinia ("the three macrozones" of its page; the live client's values),
// each zone's area in energy.BiddingZones order.
var afrrAreas = demo.ZoneGroups{Names: []string{"Continent", "Sicily", "Sardinia"}, Of: [7]int{0, 0, 0, 0, 0, 1, 2}}

// reserveRequirement is the shape of the reserve requirements: per hour,
// zone (or area) and session, the requirement of reserve (its demo
// generator: demo.ReserveRequirement).
func reserveRequirement(resource, title, array, what string, reserve demo.Reserve, zones demo.ZoneGroups) *dataset.Dataset {
	doc := ""
	if resource != "input/afrr-requirement" && resource != "input/total-reserve-requirement" && resource != "input/rr-requirement" {
		doc = " The catalogue names this endpoint only; its fields follow afrr-requirement's." + unseen
	}
	d := v1("market", resource, "market-"+resource[len("input/"):], title,
		"Upward "+what+" reserve required per zone and session, every hour, in MW."+doc, array, dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(true)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zone", namesRef(zones.Names), "Zone: "+joinNames(zones.Names)+"."),
			text("session_type", sessionTypes, "Market session."),
			number(dataset.Max, "requirement_MW", "Reserve required, MW", 0, 50000),
		})
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.ReserveRequirement(in, reserve, zones) }
	return d
}
