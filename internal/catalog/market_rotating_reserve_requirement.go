package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketRotatingReserveRequirement is the rotating (spinning tertiary)
// reserve each zone needs.
func MarketRotatingReserveRequirement() *dataset.Dataset {
	d := reserveRequirement("input/rotating-reserve-requirement", "Rotating reserve requirement", "rotating_reserve_requirement", "rotating tertiary", demo.RotatingReserve, eachZone(energy.ZoneItalian))
	d.Source = dataset.Source{Ref: portal("market", "Rotating_Reserve_Requirement"), Confidence: "L", Guess: "The page was not seen: the fields follow afrr-requirement."}
	return d
}
