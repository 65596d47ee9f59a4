package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketReplacementReserveRequirement is the replacement reserve each zone
// needs, at the path the live client calls; the path this server first
// guessed stays as an alias, and so does the dataset's name.
func MarketReplacementReserveRequirement() *dataset.Dataset {
	d := reserveRequirement(reserve{resource: "input/rr-requirement", title: "Replacement reserve requirement", array: "replacement_reserve_requirement",
		what: "replacement", gen: demo.ReplacementReserve, zones: eachZone(energy.ZoneEnglish),
		source: dataset.Source{Ref: liveClient + "a grid dashboard's daily fetch (rr-requirement, array replacement_reserve_requirement, reference_date with offset, English zone names, requirement_MW)", Confidence: "H",
			Guess: "No page was seen: date_tz and the field order follow the other requirements' pages; sessionType 1..1 as theirs."}})
	d.Name = "market-replacement-reserve-requirement"
	d.Aliases = []string{"/market/v1.0/input/replacement-reserve-requirement"}
	return d
}
