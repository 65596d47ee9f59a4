package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketReplacementReserveRequirement is the replacement reserve each zone needs.
func MarketReplacementReserveRequirement() *dataset.Dataset {
	return reserveRequirement("replacement-reserve-requirement", "Replacement reserve requirement", "replacement_reserve_requirement", "replacement", 0.035)
}
