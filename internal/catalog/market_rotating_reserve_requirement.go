package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketRotatingReserveRequirement is the rotating (spinning tertiary)
// reserve each zone needs.
func MarketRotatingReserveRequirement() *dataset.Dataset {
	d := reserveRequirement("input/rotating-reserve-requirement", "Rotating reserve requirement", "rotating_reserve_requirement", "rotating tertiary", 0.025, eachZone(italianZones))
	d.Source = dataset.Source{Ref: portal("market", "Rotating_Reserve_Requirement"), Confidence: "L", Guess: "The page was not seen: the fields follow afrr-requirement."}
	return d
}
