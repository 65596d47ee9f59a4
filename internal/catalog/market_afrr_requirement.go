package catalog

import (
	"math"

	"github.com/energyapi/energyapi/internal/dataset"
)

// MarketAFRRRequirement is the secondary (aFRR) reserve each zone needs.
func MarketAFRRRequirement() *dataset.Dataset {
	d := reserveRequirement("afrr-requirement", "Secondary reserve requirement", "secondary_reserve_requirement", "secondary (aFRR)", 0.012)
	d.Source = dataset.Source{Ref: portal("market", "Secondary_Reserve_Requirement"), Confidence: "H", Guess: "The zone values."}
	return d
}

// reserveRequirement is the shape of the reserve requirements: per hour,
// zone and session, a share of the zone's load (the total requirement is
// the sum of the three others' shares).
func reserveRequirement(resource, title, array, what string, share float64) *dataset.Dataset {
	doc := ""
	if resource != "afrr-requirement" {
		doc = " The catalogue names this endpoint only; its fields follow afrr-requirement's." + unseen
	}
	d := marketZoneSeries("input/"+resource, title,
		"Upward "+what+" reserve required per bidding zone and session, every hour, in MW."+doc,
		array, true, false, nil,
		number("requirement_MW", "Reserve required, MW", 0, 50000))
	d.Demo = func(in dataset.DemoInput) []dataset.Row {
		return marketRows(in, false, func(h *v1Hour, z, s, _ int) []float64 {
			return []float64{math.Round(share * h.forecast[z] * (1 + revision(h.at, z, s)))}
		})
	}
	return d
}
