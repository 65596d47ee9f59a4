package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// ElectricalEnergyBySource is the gross and net production per province
// and source, yearly, as its page documents it (catalogue.md 5.2).
func ElectricalEnergyBySource() *dataset.Dataset {
	d := yearlyStat("generation", "electrical-energy-by-source", "Electrical energy by source",
		"Yearly gross and net production of electrical energy in GWh per region, province and source.",
		"electrical_energy_by_source",
		[]dataset.Param{regionParam(), provincesParam(), grossNetParam("productionType", "production_type"),
			enumParam("source", "source", false, false, "Source to extract.")},
		[]dataset.Field{grossNetField("production_type", "production"), plantRegionField(), plantProvinceField(),
			text("source", energy.EnergySourceNames(), "Source, the page's list: Eolico, Fotovoltaico, Geotermoelettrico, Idrico or Termoelettrico; "+
				"bioenergies count in Termoelettrico, as the page lists no Bioenergie."),
			italian("production_GWh", "Production, GWh")})
	d.Order = []string{"region", "province", "source", "production_type"}
	d.Source = dataset.Source{Ref: portal("generation", "Electrical_Energy_By_Source"), Confidence: "M",
		Guess: "The shape is the page's as catalogue.md 5.2 records it (H there); the page itself was not found in the stored copies here, only its place in the portal's navigation. " +
			"The array name follows the path; Valle D'Aosta follows generation-plants; the Italian number format follows the other production statistics."}
	d.Demo = demo.EnergyBySource
	return d
}
