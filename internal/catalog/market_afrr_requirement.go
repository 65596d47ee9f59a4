package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketAFRRRequirement is the secondary (aFRR) reserve each area needs.
func MarketAFRRRequirement() *dataset.Dataset {
	return reserveRequirement(reserve{resource: "input/afrr-requirement", title: "Secondary reserve requirement", array: "secondary_reserve_requirement",
		what: "secondary (aFRR)", gen: demo.SecondaryReserve, zones: afrrAreas,
		source: dataset.Source{Ref: portal("market", "Secondary_Reserve_Requirement"), Confidence: "H",
			Guess: "The zone values are the three areas the page's text and the live client name (Continent, Sicily, Sardinia), not the example's Calabria."}})
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

// reserve is what sets one reserve requirement apart: its path below
// /market/v1.0, title and array, the reserve (what) its description names,
// its demo generator and zones, and its source; unseen when the catalogue
// names the endpoint only, so that its fields follow afrr-requirement's.
type reserve struct {
	resource, title, array, what string
	gen                          demo.Reserve
	zones                        demo.ZoneGroups
	unseen                       bool
	source                       dataset.Source
}

// reserveRequirement is the shape of the reserve requirements: per hour,
// zone (or area) and session, the requirement of reserve (its demo
// generator: demo.ReserveRequirement).
func reserveRequirement(r reserve) *dataset.Dataset {
	doc := ""
	if r.unseen {
		doc = " The catalogue names this endpoint only; its fields follow afrr-requirement's." + unseen
	}
	d := v1("market", r.resource, "market-"+r.resource[len("input/"):], r.title,
		"Upward "+r.what+" reserve required per zone and session, every hour, in MW."+doc, r.array, dataset.Hour,
		[]dataset.Param{v1Dates(0), sessionParam(true)},
		[]dataset.Field{
			referenceDate("reference_date", true),
			text("zone", namesRef(r.zones.Names), "Zone: "+joinNames(r.zones.Names)+"."),
			text("session_type", sessionTypes, "Market session."),
			number(dataset.Max, "requirement_MW", "Reserve required, MW", 0, 50000),
		})
	d.DemoFrom = []string{"total-load", "actual-generation"}
	d.Demo = func(in dataset.DemoInput) []dataset.Row { return demo.ReserveRequirement(in, r.gen, r.zones) }
	d.Source = r.source
	return d
}
