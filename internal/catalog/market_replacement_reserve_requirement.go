package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketReplacementReserveRequirement is the replacement reserve each zone needs.
func MarketReplacementReserveRequirement() *dataset.Dataset {
	d := reserveRequirement("replacement-reserve-requirement", "Replacement reserve requirement", "replacement_reserve_requirement", "replacement", 0.035)
	d.Source = dataset.Source{Ref: portal("market", "Replacement_Reserve_Requirement"), Confidence: "L", Guess: "The path and fields were guessed."}
	return d
}
