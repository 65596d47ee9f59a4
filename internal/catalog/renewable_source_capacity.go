package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// RenewableSourceCapacity is the efficient power of the renewable plants
// per province and source, yearly: generation-plants' renewable sources.
func RenewableSourceCapacity() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "renewable-source-capacity", Title: "Renewable source capacity",
		Source: dataset.Source{Ref: portal("generation", "Renewable_Source_Capacity"), Confidence: "H",
			Guess: "The array is renewable_sources, as the page's table and the live clients that read it have it (one client guesses renewable_source_capacity)."},
		Doc:  "Yearly gross and net efficient power of the plants of each renewable source in MW per region and province: the renewable sources of generation-plants.",
		Area: "generation", Version: "v2.0", Resource: "renewable-source-capacity",
		Array: "renewable_sources", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(), provincesParam(),
			{Name: "capacityType", Kind: dataset.Enum, Field: "capacity_type", Doc: "Lorda (gross) or Netta (net)."},
			{Name: "source", Kind: dataset.Enum, Field: "source", Doc: "Source to extract."},
		},
		Fields: []dataset.Field{
			yearField(), grossNetField("capacity_type", "efficient power"), regionField(), provinceField(),
			{Name: "source", Kind: dataset.Text, Ref: energy.RenewableSourceNames(), Doc: "Renewable source."},
			italian("efficient_power_MW", "Efficient power, MW"),
		},
		Order:  []string{"region", "province", "source", "capacity_type"},
		Demo:   demo.RenewableSourceCapacity,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, capacity_type, region, province, source, efficient_power_MW"},
	}
}
