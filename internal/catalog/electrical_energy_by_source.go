package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ElectricalEnergyBySource is the net production per region and source,
// yearly. No page documents its shape: it is modelled on the other yearly
// statistics (docs/datasets-generation.md).
func ElectricalEnergyBySource() *dataset.Dataset {
	d := yearlyStat("generation", "electrical-energy-by-source", "Electrical energy by source",
		"Yearly net production of electrical energy in GWh per region and source. The portal names this page but documents neither its "+
			"parameters nor its fields; this server models it on the other yearly statistics (year, region and source filters, message OK, Italian numbers).",
		"electrical_energy_by_source",
		[]dataset.Param{regionParam(), enumParam("source", "source", false, false, "Source to extract.")},
		[]dataset.Field{regionField(),
			text("source", energy.PlantSourceNames(), "Source, as generation-plants lists them; Termoelettrico excludes bioenergies, which are shown apart."),
			italian("production_GWh", "Net production, GWh")})
	d.Source = dataset.Source{Ref: portal("generation", "Electrical_Energy_By_Source"), Confidence: "L",
		Guess: "Path, parameters and fields are inferred from the page title in the portal's navigation."}
	d.Demo = demo.EnergyBySource
	return d
}
