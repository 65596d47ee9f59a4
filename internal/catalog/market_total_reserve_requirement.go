package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// MarketTotalReserveRequirement is the whole upward reserve each zone
// needs: the secondary, rotating and replacement shares together.
func MarketTotalReserveRequirement() *dataset.Dataset {
	d := reserveRequirement("input/total-reserve-requirement", "Total reserve requirement", "total_reserve_requirement", "total (secondary, rotating and replacement)", demo.TotalReserve, eachZone(energy.ZoneItalian))
	d.Source = dataset.Source{Ref: portal("market", "Total_Reserve_Requirement"), Confidence: "H", Guess: "The zone names beyond the example's Calabria."}
	return d
}
