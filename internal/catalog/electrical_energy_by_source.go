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
	return &dataset.Dataset{
		Name: "electrical-energy-by-source", Title: "Electrical energy by source",
		Source: dataset.Source{Ref: portal("generation", "Electrical_Energy_By_Source"), Confidence: "L", Guess: "Path, parameters and fields are inferred from the page title in the portal's navigation."},
		Doc: "Yearly net production of electrical energy in GWh per region and source. The portal names this page but documents neither its " +
			"parameters nor its fields; this server models it on the other yearly statistics (year, region and source filters, message OK, Italian numbers).",
		Area: "generation", Version: "v2.0", Resource: "electrical-energy-by-source",
		Array: "electrical_energy_by_source", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(),
			{Name: "source", Kind: dataset.Enum, Field: "source", Doc: "Source to extract."},
		},
		Fields: []dataset.Field{
			yearField(), regionField(),
			{Name: "source", Kind: dataset.Text, Ref: energy.PlantSourceNames(),
				Doc: "Source, as generation-plants lists them; Termoelettrico excludes bioenergies, which are shown apart."},
			italian("production_GWh", "Net production, GWh"),
		},
		Demo:   demo.EnergyBySource,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, region, source, production_GWh"},
	}
}
