package catalog

import "github.com/energyapi/energyapi/internal/dataset"

// MarketTotalReserveRequirement is the whole upward reserve each zone
// needs: the secondary, rotating and replacement shares together.
func MarketTotalReserveRequirement() *dataset.Dataset {
	d := reserveRequirement("input/total-reserve-requirement", "Total reserve requirement", "total_reserve_requirement", "total (secondary, rotating and replacement)", 0.012+0.025+0.035, eachZone(italianZones))
	d.Source = dataset.Source{Ref: portal("market", "Total_Reserve_Requirement"), Confidence: "H", Guess: "The zone names beyond the example's Calabria."}
	return d
}
