package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketTotalReserveRequirement is the whole upward reserve each zone
// needs: the secondary, rotating and replacement shares together.
func MarketTotalReserveRequirement() *dataset.Dataset {
	return reserveRequirement(reserve{resource: "input/total-reserve-requirement", title: "Total reserve requirement", array: "total_reserve_requirement",
		what: "total (secondary, rotating and replacement)", gen: demo.TotalReserve, zones: eachZone(energy.ZoneItalian),
		source: dataset.Source{Ref: portal("market", "Total_Reserve_Requirement"), Confidence: "H", Guess: "The zone names beyond the example's Calabria."}})
}
