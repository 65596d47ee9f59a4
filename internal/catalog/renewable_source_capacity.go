package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableSourceCapacity is the efficient power of the renewable plants
// per province and source, yearly: generation-plants' renewable sources.
func RenewableSourceCapacity() *dataset.Dataset {
	d := efficientPower("renewable-source-capacity", "Renewable source capacity",
		"Yearly gross and net efficient power of the plants of each renewable source in MW per region and province: the renewable sources of generation-plants.",
		"renewable_sources", energy.RenewableSourceNames(), "Renewable source.")
	d.Source = dataset.Source{Ref: portal("generation", "Renewable_Source_Capacity"), Confidence: "H",
		Guess: "The array is renewable_sources, as the page's table and the live clients that read it have it (one client guesses renewable_source_capacity). " +
			"Valle D'Aosta and decimal-point numbers follow live clients (M)."}
	d.Demo = demo.RenewableSourceCapacity
	return d
}
