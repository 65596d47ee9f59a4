package catalog

import (
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// GenerationPlants is the efficient power of the generation plants per
// province and source, yearly.
func GenerationPlants() *dataset.Dataset {
	return &dataset.Dataset{
		Name: "generation-plants", Title: "Generation plants",
		Source: dataset.Source{Ref: portal("generation", "Generation_Plants"), Confidence: "H"},
		Doc:    "Yearly gross and net efficient power of the generation plants in MW per region, province and source.",
		Area:   "generation", Version: "v2.0", Resource: "generation-plants",
		Array: "generation_plants", Message: dataset.MessageOK, Grain: dataset.Year,
		Params: []dataset.Param{
			yearParam(0), regionParam(), provincesParam(),
			{Name: "capacityType", Kind: dataset.Enum, Field: "capacity_type", Doc: "Lorda (gross) or Netta (net)."},
			{Name: "source", Kind: dataset.Enum, Field: "source", Doc: "Source to extract."},
		},
		Fields: []dataset.Field{
			yearField(), grossNetField("capacity_type", "efficient power"), regionField(), provinceField(),
			{Name: "source", Kind: dataset.Text, Ref: energy.PlantSourceNames(),
				Doc: "Source: the filter's list plus Bioenergie, which the published example shows; Termoelettrico excludes the bioenergy plants."},
			italian("efficient_power_MW", "Efficient power, MW"),
		},
		Order:  []string{"region", "province", "source", "capacity_type"},
		Demo:   demo.GenerationPlants,
		Import: &dataset.ImportSpec{Formats: "CSV or XLSX with the columns year, capacity_type, region, province, source, efficient_power_MW"},
	}
}
