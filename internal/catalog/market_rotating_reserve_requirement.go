package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketRotatingReserveRequirement is the rotating (spinning tertiary)
// reserve each zone needs.
func MarketRotatingReserveRequirement() *dataset.Dataset {
	return reserveRequirement("rotating-reserve-requirement", "Rotating reserve requirement", "rotating_reserve_requirement", "rotating tertiary", 0.025)
}
