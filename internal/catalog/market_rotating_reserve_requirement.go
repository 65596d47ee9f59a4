package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketRotatingReserveRequirement is the rotating (spinning tertiary)
// reserve each zone needs.
func MarketRotatingReserveRequirement() *dataset.Dataset {
	return reserveRequirement(reserve{resource: "input/rotating-reserve-requirement", title: "Rotating reserve requirement", array: "rotating_reserve_requirement",
		what: "rotating tertiary", gen: demo.RotatingReserve, zones: eachZone(energy.ZoneItalian), unseen: true,
		source: dataset.Source{Ref: portal("market", "Rotating_Reserve_Requirement"), Confidence: "L", Guess: "The page was not seen: the fields follow afrr-requirement."}})
}
